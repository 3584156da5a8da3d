package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestResolveConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	str := types.StringValue
	null := types.StringNull()
	full := providerModel{Hub: str("us2"), TokenID: str("1.1"), TokenSecret: str("s"), BaseURL: null, MaxRetries: types.Int64Null()}

	t.Run("attributes", func(t *testing.T) {
		c, d := resolveConfig(full, env(map[string]string{EnvHub: "eu1", EnvTokenID: "other"}))
		if d.HasError() || c.Hub != "us2" || c.TokenID != "1.1" || c.TokenSecret != "s" || c.MaxRetries != defaultMaxRetries {
			t.Fatalf("got %+v %v; attributes must win over the environment, max_retries default %d", c, d, defaultMaxRetries)
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
