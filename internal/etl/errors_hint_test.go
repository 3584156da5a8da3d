package etl

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
)

// What a message adds after a failed request: the error's own hint, then
// what to do about an untrusted certificate or how many attempts were
// made, each only when it applies.
func TestHintOf(t *testing.T) {
	cases := []struct {
		name string
		err  error
		has  []string
		not  []string
	}{
		{"404: the service's hint", &APIError{StatusCode: http.StatusNotFound, Attempts: 1},
			[]string{" Hint: check the template or job id"}, []string{"made once", "times"}},
		{"503 after retries", fmt.Errorf("listing: %w", &APIError{StatusCode: http.StatusServiceUnavailable, Attempts: 3}),
			[]string{"made 3 times (the first attempt and 2 retries)", "raise max_retries"}, []string{"Hint:"}},
		{"429 once: its hint, then the attempts", &APIError{StatusCode: http.StatusTooManyRequests, Attempts: 1},
			[]string{" Hint: the service is rate limiting", "made once and not retried"}, nil},
		{"no answer after retries", &RequestError{Attempts: 2, Err: errors.New("connection refused")},
			[]string{"made 2 times"}, nil},
		{"untrusted certificate", &RequestError{Attempts: 3, Err: x509.UnknownAuthorityError{}},
			[]string{"TLS certificate is not trusted", "ca_cert_pem", EnvCACertFile}, []string{"made 3 times"}},
		{"a plain error", errors.New("boom"), nil, []string{"Hint", "made"}},
		{"a hub that does not resolve: no retry advice", &HostNotFoundError{Method: "GET", Path: "/x", Host: "us9.vena.io", Hub: "us9", Attempts: 1, Err: &net.DNSError{Name: "us9.vena.io", IsNotFound: true}},
			[]string{" Hint: check hub or the " + EnvHub + " environment variable", "us9.vena.io"}, []string{"max_retries", "made"}},
	}
	for _, tc := range cases {
		got := HintOf(tc.err)
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

// Describe is the error, a period, then its hint.
func TestDescribe(t *testing.T) {
	err := fmt.Errorf("listing templates: %w", &APIError{StatusCode: http.StatusServiceUnavailable, Attempts: 3})
	if got, want := Describe(err), err.Error()+"."+HintOf(err); got != want || !strings.Contains(got, ". The request was made 3 times") {
		t.Errorf("Describe: %q, want %q", got, want)
	}
}
