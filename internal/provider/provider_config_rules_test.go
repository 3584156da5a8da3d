package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// problemHas fails unless problem holds every one of want; no want means
// the value is good ("").
func problemHas(t *testing.T, what, problem string, want ...string) {
	t.Helper()
	if len(want) == 0 && problem != "" {
		t.Errorf("%s: unexpected %q", what, problem)
	}
	if len(want) > 0 && problem == "" {
		t.Errorf("%s: no problem, want one with %q", what, want)
	}
	for _, w := range want {
		if !strings.Contains(problem, w) {
			t.Errorf("%s: %q lacks %q", what, problem, w)
		}
	}
}

// A hub or base URL that is not usable is said with its value and where it
// may have come from: the attribute or its environment variable.
func TestHubAndBaseURLProblems(t *testing.T) {
	for _, ok := range []string{"us2", "eu1"} {
		problemHas(t, ok, hubProblem(ok))
	}
	for _, bad := range []string{"US2", "us-2", "", "us 2", "eu1.vena.io"} {
		problemHas(t, bad, hubProblem(bad), `"`+bad+`"`, "hub attribute", EnvHub, "such as us1")
	}
	for _, ok := range []string{"https://us2.vena.io", "http://127.0.0.1:8080", "http://localhost:1/"} {
		problemHas(t, ok, baseURLProblem(ok))
	}
	for _, bad := range []string{"us2.vena.io", "ftp://x", "http://example.com", "https://u:p@x.io", "https://x.io/?a=b"} {
		problemHas(t, bad, baseURLProblem(bad), "The base_url", EnvBaseURL, "is not usable: ")
	}
}

// A duration setting is a positive Go duration with its unit.
func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"500ms": 500 * time.Millisecond, "2m": 2 * time.Minute, "1h30m": 90 * time.Minute} {
		if d, p := parseDuration("retry_wait_min", in); d != want || p != "" {
			t.Errorf("%q: %v %q, want %v", in, d, p, want)
		}
	}
	_, p := parseDuration("request_timeout", "90")
	problemHas(t, "90", p, `request_timeout: "90" is not a duration`, `"500ms"`, "units ms, s, m, h")
	for _, in := range []string{"0s", "-1s"} {
		d, p := parseDuration("retry_wait_max", in)
		problemHas(t, in, p, `retry_wait_max: "`+in+`" must be longer than zero.`)
		if d != 0 {
			t.Errorf("%q: %v with a problem", in, d)
		}
	}
}

// ca_cert_pem must hold a certificate that parses, not only its markers.
func TestPEMProblem(t *testing.T) {
	ts, _, certPEM, err := emulator.NewTLSServer(emulator.Options{Instant: true})
	if err != nil {
		t.Fatal(err)
	}
	ts.Close()
	problemHas(t, "a certificate", pemProblem(certPEM))
	for _, bad := range []string{"", "hello", "-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n"} {
		problemHas(t, bad, pemProblem([]byte(bad)), "ca_cert_pem holds no PEM certificate", "BEGIN CERTIFICATE", "ca_cert_file")
	}
}

// Each problem is titled Invalid or Missing and its setting, and says what
// to do; all of them are found at once.
func TestResolveConfig_problems(t *testing.T) {
	str, null := types.StringValue, types.StringNull()
	notPEM := writeFile(t, t.TempDir(), "not.pem", []byte("hello"))
	base := func() providerModel {
		return providerModel{Hub: str("us2"), TokenID: str("1"), TokenSecret: str("s"), BaseURL: null, MaxRetries: types.Int64Null(),
			RetryWaitMin: null, RetryWaitMax: null, RequestTimeout: null, CACertPEM: null, CACertFile: null}
	}
	cases := []struct {
		name     string
		set      func(*providerModel)
		summary  string
		contains []string
	}{
		{"no hub nor base_url", func(m *providerModel) { m.Hub = null }, "Missing hub", []string{EnvHub, EnvBaseURL}},
		{"hub invalid", func(m *providerModel) { m.Hub = str("US2") }, "Invalid hub", []string{`"US2"`, EnvHub}},
		{"base_url invalid", func(m *providerModel) { m.Hub, m.BaseURL = null, str("http://example.com") }, "Invalid base_url", []string{EnvBaseURL}},
		{"no token id", func(m *providerModel) { m.TokenID = null }, "Missing token_id", []string{EnvTokenID}},
		{"no token secret", func(m *providerModel) { m.TokenSecret = null }, "Missing token_secret", []string{EnvTokenSecret}},
		{"negative retries", func(m *providerModel) { m.MaxRetries = types.Int64Value(-2) }, "Invalid max_retries", []string{"0 or more"}},
		{"duration without unit", func(m *providerModel) { m.RetryWaitMin = str("5") }, "Invalid retry_wait_min", []string{`retry_wait_min: "5" is not a duration`}},
		{"max below min", func(m *providerModel) { m.RetryWaitMin, m.RetryWaitMax = str("10s"), str("1s") }, "Invalid retry_wait_max",
			[]string{"retry_wait_max (1s) is shorter than retry_wait_min (10s)"}},
		{"ca_cert_pem not PEM", func(m *providerModel) { m.CACertPEM = str("hello") }, "Invalid ca_cert_pem", []string{"no PEM certificate"}},
		{"ca_cert_file missing", func(m *providerModel) { m.CACertFile = str("/none/ca.pem") }, "Invalid ca_cert_file", []string{"cannot be read", EnvCACertFile}},
		{"ca_cert_file not PEM", func(m *providerModel) { m.CACertFile = str(notPEM) }, "Invalid ca_cert_file", []string{"holds no PEM certificate", "not.pem"}},
	}
	getenv := func(string) string { return "" }
	for _, tc := range cases {
		m := base()
		tc.set(&m)
		_, d := resolveConfig(m, getenv)
		if d.ErrorsCount() != 1 || d.Errors()[0].Summary() != tc.summary {
			t.Errorf("%s: %v, want one error titled %q", tc.name, d, tc.summary)
			continue
		}
		problemHas(t, tc.name, d.Errors()[0].Detail(), tc.contains...)
	}
	m := base()
	m.Hub, m.TokenID, m.TokenSecret, m.RetryWaitMin = str("US2"), null, null, str("x")
	if _, d := resolveConfig(m, getenv); d.ErrorsCount() != 4 {
		t.Errorf("every problem at once: %v", d)
	}
}
