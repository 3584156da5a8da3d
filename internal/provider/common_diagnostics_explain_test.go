package provider

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// What a message adds after a failed request's error: the hint for its
// kind, then what to do about an untrusted certificate or how many
// attempts were made, each only when it applies.
func TestExplain(t *testing.T) {
	dnsErr := &net.DNSError{Name: "us9.vena.io", IsNotFound: true}
	cases := []struct {
		name string
		err  error
		has  []string
		not  []string
	}{
		{"404: the service's hint", &etl.APIError{StatusCode: http.StatusNotFound, Attempts: 1},
			[]string{" Hint: check the template or job id"}, []string{"made once", "times"}},
		{"401: the token and the hub", &etl.APIError{StatusCode: http.StatusUnauthorized, Attempts: 1},
			[]string{" Hint: check the token id and secret, and the hub"}, nil},
		{"503 after retries", fmt.Errorf("listing: %w", &etl.APIError{StatusCode: http.StatusServiceUnavailable, Attempts: 3}),
			[]string{" The request was made 3 times (the first attempt and 2 retries)", "raise max_retries"}, []string{"Hint:"}},
		{"429 once: its hint, then the attempts", &etl.APIError{StatusCode: http.StatusTooManyRequests, Attempts: 1},
			[]string{" Hint: the service is rate limiting", "made once and not retried"}, nil},
		{"no answer after retries", &etl.RequestError{Attempts: 2, Err: errors.New("connection refused")},
			[]string{"made 2 times"}, nil},
		{"untrusted certificate", &etl.RequestError{Attempts: 3, Err: x509.UnknownAuthorityError{}},
			[]string{"TLS certificate is not trusted", "ca_cert_pem", EnvCACertFile}, []string{"made 3 times"}},
		{"a plain error", errors.New("boom"), nil, []string{"Hint", "made"}},
		{"a hub that does not resolve: no retry advice", &etl.HostNotFoundError{Method: "GET", Path: "/x", Host: "us9.vena.io", Hub: "us9", Attempts: 1, Err: dnsErr},
			[]string{" Hint: check hub or the " + EnvHub + " environment variable", "us9.vena.io", "us1, us2, eu1 or ca3"}, []string{"max_retries", "made"}},
		{"a base URL's host that does not exist", &etl.HostNotFoundError{Method: "GET", Path: "/x", Host: "etl.example.invalid", ServiceHost: "etl.example.invalid", Attempts: 1, Err: dnsErr},
			[]string{" Hint: check base_url or the ETL_BASE_URL environment variable"}, []string{"hub"}},
		{"a proxy's host that does not exist", &etl.HostNotFoundError{Method: "GET", Path: "/x", Host: "proxy.corp.invalid", ServiceHost: "us9.vena.io", Attempts: 1, Err: dnsErr},
			[]string{" Hint: the host proxy.corp.invalid is the proxy's", "HTTPS_PROXY"}, []string{"hub"}},
	}
	for _, tc := range cases {
		got, ok := strings.CutPrefix(explain(tc.err), tc.err.Error()+".")
		if !ok {
			t.Errorf("%s: %q does not start with the error and a period", tc.name, explain(tc.err))
		}
		for _, s := range tc.has {
			if !strings.Contains(got, s) {
				t.Errorf("%s: %q does not contain %q", tc.name, got, s)
			}
		}
		for _, s := range tc.not {
			if strings.Contains(got, s) {
				t.Errorf("%s: %q contains %q", tc.name, got, s)
			}
		}
		if len(tc.has) == 0 && got != "" {
			t.Errorf("%s: %q, want nothing", tc.name, got)
		}
	}
}
