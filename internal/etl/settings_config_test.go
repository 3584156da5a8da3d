package etl

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// ptr is a pointer to a copy of v: a setting that is set.
func ptr[T any](v T) *T { return &v }

// Settings left unset are the client's defaults; set ones win, and a CA
// file is read only when no PEM is given.
func TestSettingsConfig(t *testing.T) {
	ts, _, certPEM, err := emulator.NewTLSServer(emulator.Options{Instant: true})
	if err != nil {
		t.Fatal(err)
	}
	ts.Close()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	c, ps := Settings{Hub: "us2", TokenID: "1.1", TokenSecret: "s"}.Config()
	want := Config{Hub: "us2", TokenID: "1.1", TokenSecret: "s", MaxRetries: DefaultMaxRetries,
		RetryWaitMin: DefaultRetryWaitMin, RetryWaitMax: DefaultRetryWaitMax, RequestTimeout: DefaultRequestTimeout}
	if len(ps) != 0 || c.Hub != want.Hub || c.TokenID != want.TokenID || c.TokenSecret != want.TokenSecret || c.MaxRetries != want.MaxRetries ||
		c.RetryWaitMin != want.RetryWaitMin || c.RetryWaitMax != want.RetryWaitMax || c.RequestTimeout != want.RequestTimeout || c.CACertPEM != nil {
		t.Errorf("defaults: %+v %v", c, ps)
	}

	c, ps = Settings{BaseURL: "http://127.0.0.1:1", TokenID: "1.1", TokenSecret: "s", MaxRetries: ptr(0),
		RetryWaitMin: ptr("5ms"), RetryWaitMax: ptr("2s"), RequestTimeout: ptr("90s"), CACertFile: caFile}.Config()
	if len(ps) != 0 || c.BaseURL != "http://127.0.0.1:1" || c.MaxRetries != 0 || c.RetryWaitMin != 5*time.Millisecond ||
		c.RetryWaitMax != 2*time.Second || c.RequestTimeout != 90*time.Second || string(c.CACertPEM) != string(certPEM) {
		t.Errorf("set: %+v %v", c, ps)
	}
	if c, ps := (Settings{Hub: "us2", TokenID: "1", TokenSecret: "s", CACertPEM: ptr(string(certPEM)), CACertFile: "/none.pem"}).Config(); len(ps) != 0 || string(c.CACertPEM) != string(certPEM) {
		t.Errorf("ca_cert_pem wins over the file, which is not read: %v", ps)
	}
}

// Each problem is on its setting, titled Invalid or Missing, and says what
// to do; all of them are found at once.
func TestSettingsConfig_problems(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		s        Settings
		setting  string
		summary  string
		contains []string
	}{
		{"no hub nor base_url", Settings{TokenID: "1", TokenSecret: "s"}, "hub", "Missing hub", []string{EnvHub, EnvBaseURL}},
		{"hub invalid", Settings{Hub: "US2", TokenID: "1", TokenSecret: "s"}, "hub", "Invalid hub", []string{`"US2"`, EnvHub}},
		{"base_url invalid", Settings{BaseURL: "http://example.com", TokenID: "1", TokenSecret: "s"}, "base_url", "Invalid base_url", []string{EnvBaseURL}},
		{"no token id", Settings{Hub: "us2", TokenSecret: "s"}, "token_id", "Missing token_id", []string{EnvTokenID}},
		{"no token secret", Settings{Hub: "us2", TokenID: "1"}, "token_secret", "Missing token_secret", []string{EnvTokenSecret}},
		{"negative retries", Settings{Hub: "us2", TokenID: "1", TokenSecret: "s", MaxRetries: ptr(-2)}, "max_retries", "Invalid max_retries", []string{"0 or more"}},
		{"duration without unit", Settings{Hub: "us2", TokenID: "1", TokenSecret: "s", RetryWaitMin: ptr("5")}, "retry_wait_min", "Invalid retry_wait_min", []string{`retry_wait_min: "5" is not a duration`}},
		{"max below min", Settings{Hub: "us2", TokenID: "1", TokenSecret: "s", RetryWaitMin: ptr("10s"), RetryWaitMax: ptr("1s")}, "retry_wait_max", "Invalid retry_wait_max",
			[]string{"retry_wait_max (1s) is shorter than retry_wait_min (10s)"}},
		{"ca_cert_pem not PEM", Settings{Hub: "us2", TokenID: "1", TokenSecret: "s", CACertPEM: ptr("hello")}, "ca_cert_pem", "Invalid ca_cert_pem", []string{"no PEM certificate"}},
		{"ca_cert_file missing", Settings{Hub: "us2", TokenID: "1", TokenSecret: "s", CACertFile: "/none/ca.pem"}, "ca_cert_file", "Invalid ca_cert_file", []string{"cannot be read", EnvCACertFile}},
		{"ca_cert_file not PEM", Settings{Hub: "us2", TokenID: "1", TokenSecret: "s", CACertFile: notPEM}, "ca_cert_file", "Invalid ca_cert_file", []string{"holds no PEM certificate", "not.pem"}},
	}
	for _, tc := range cases {
		_, ps := tc.s.Config()
		if len(ps) != 1 || ps[0].Setting != tc.setting || ps[0].Summary != tc.summary {
			t.Errorf("%s: %+v, want one problem on %s titled %q", tc.name, ps, tc.setting, tc.summary)
			continue
		}
		problemHas(t, tc.name, ps[0].Detail, tc.contains...)
	}
	if _, ps := (Settings{Hub: "US2", RetryWaitMin: ptr("x")}).Config(); len(ps) != 4 {
		t.Errorf("every problem at once: %+v", ps)
	}
}
