package provider

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func TestResolveConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	str := types.StringValue
	null := types.StringNull()
	full := providerModel{Hub: str("us2"), TokenID: str("1.1"), TokenSecret: str("s"), BaseURL: null, MaxRetries: types.Int64Null()}

	t.Run("attributes", func(t *testing.T) {
		c, d := resolveConfig(full, env(map[string]string{EnvHub: "eu1", EnvTokenID: "other"}))
		if d.HasError() || c.Hub != "us2" || c.TokenID != "1.1" || c.TokenSecret != "s" || c.MaxRetries != etl.DefaultMaxRetries {
			t.Fatalf("got %+v %v; attributes must win over the environment, max_retries default %d", c, d, etl.DefaultMaxRetries)
		}
	})
	t.Run("environment", func(t *testing.T) {
		m := providerModel{Hub: null, TokenID: null, TokenSecret: null, BaseURL: null, MaxRetries: types.Int64Value(0)}
		c, d := resolveConfig(m, env(map[string]string{EnvBaseURL: "http://127.0.0.1:1", EnvTokenID: "1.1", EnvTokenSecret: "s"}))
		if d.HasError() || c.BaseURL != "http://127.0.0.1:1" || c.Hub != "" || c.MaxRetries != 0 {
			t.Fatalf("got %+v %v", c, d)
		}
	})
	cases := []struct {
		name     string
		m        providerModel
		env      map[string]string
		attr     string
		contains []string
	}{
		{"no hub nor base_url", providerModel{Hub: null, TokenID: str("1"), TokenSecret: str("s"), BaseURL: null}, nil, "hub", []string{"ETL_HUB", "base_url"}},
		{"hub from env invalid", providerModel{Hub: null, TokenID: str("1"), TokenSecret: str("s"), BaseURL: null}, map[string]string{EnvHub: "US2"}, "hub", []string{`"US2"`, "ETL_HUB"}},
		{"base_url from env invalid", providerModel{Hub: null, TokenID: str("1"), TokenSecret: str("s"), BaseURL: null}, map[string]string{EnvBaseURL: "example.com"}, "base_url", []string{"ETL_BASE_URL"}},
		{"plain http to remote", providerModel{Hub: null, TokenID: str("1"), TokenSecret: str("s"), BaseURL: str("http://example.com")}, nil, "base_url", []string{"http"}},
		{"no token id", providerModel{Hub: str("us2"), TokenID: null, TokenSecret: str("s"), BaseURL: null}, nil, "token_id", []string{"ETL_TOKEN_ID"}},
		{"no token secret", providerModel{Hub: str("us2"), TokenID: str("1"), TokenSecret: null, BaseURL: null}, nil, "token_secret", []string{"ETL_TOKEN_SECRET"}},
		{"negative retries", providerModel{Hub: str("us2"), TokenID: str("1"), TokenSecret: str("s"), BaseURL: null, MaxRetries: types.Int64Value(-2)}, nil, "max_retries", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, d := resolveConfig(tc.m, env(tc.env))
			assertAttrError(t, d, path.Root(tc.attr), tc.contains...)
		})
	}
}

func TestResolveConfigSettings(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	str, null := types.StringValue, types.StringNull()
	base := func() providerModel {
		return providerModel{Hub: str("us2"), TokenID: str("1.1"), TokenSecret: str("s"), BaseURL: null, MaxRetries: types.Int64Null(),
			RetryWaitMin: null, RetryWaitMax: null, RequestTimeout: null, CACertPEM: null, CACertFile: null}
	}
	ts, _, certPEM, err := emulator.NewTLSServer(emulator.Options{Instant: true})
	if err != nil {
		t.Fatal(err)
	}
	ts.Close()
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.pem", certPEM)
	notPEM := writeFile(t, dir, "not.pem", []byte("hello"))

	m := base()
	m.RetryWaitMin, m.RetryWaitMax, m.RequestTimeout = str("5ms"), str("2s"), str("90s")
	c, d := resolveConfig(m, env(nil))
	if d.HasError() || c.RetryWaitMin != 5*time.Millisecond || c.RetryWaitMax != 2*time.Second || c.RequestTimeout != 90*time.Second {
		t.Errorf("durations: %+v %v", c, d)
	}
	c, d = resolveConfig(base(), env(nil))
	if d.HasError() || c.RetryWaitMin != etl.DefaultRetryWaitMin || c.RetryWaitMax != etl.DefaultRetryWaitMax || c.RequestTimeout != etl.DefaultRequestTimeout || c.CACertPEM != nil {
		t.Errorf("defaults: %+v %v", c, d)
	}

	m = base()
	m.CACertPEM = str(string(certPEM))
	if c, d := resolveConfig(m, env(map[string]string{EnvCACertFile: notPEM})); d.HasError() || string(c.CACertPEM) != string(certPEM) {
		t.Errorf("ca_cert_pem wins over the environment's file: %v", d)
	}
	if c, d := resolveConfig(base(), env(map[string]string{EnvCACertFile: caFile})); d.HasError() || string(c.CACertPEM) != string(certPEM) {
		t.Errorf("ca_cert_file from the environment: %v", d)
	}

	cases := []struct {
		name     string
		set      func(*providerModel)
		env      map[string]string
		attr     string
		contains []string
	}{
		{"duration without unit", func(m *providerModel) { m.RetryWaitMin = str("5") }, nil, "retry_wait_min", []string{"retry_wait_min:", `"5" is not a duration`}},
		{"zero timeout", func(m *providerModel) { m.RequestTimeout = str("0s") }, nil, "request_timeout", []string{"longer than zero"}},
		{"max below min", func(m *providerModel) { m.RetryWaitMin, m.RetryWaitMax = str("10s"), str("1s") }, nil, "retry_wait_max", []string{"shorter than retry_wait_min"}},
		{"ca_cert_pem not PEM", func(m *providerModel) { m.CACertPEM = str("hello") }, nil, "ca_cert_pem", []string{"no PEM certificate", "BEGIN CERTIFICATE"}},
		{"ca_cert_file missing", func(m *providerModel) { m.CACertFile = str(dir + "/none.pem") }, nil, "ca_cert_file", []string{"cannot be read", EnvCACertFile}},
		{"ca_cert_file from the environment not PEM", func(*providerModel) {}, map[string]string{EnvCACertFile: notPEM}, "ca_cert_file", []string{"holds no PEM certificate", "not.pem"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := base()
			tc.set(&m)
			_, d := resolveConfig(m, env(tc.env))
			assertAttrError(t, d, path.Root(tc.attr), tc.contains...)
		})
	}
}
