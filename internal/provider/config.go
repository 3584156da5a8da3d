package provider

import (
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// defaultMaxRetries is used when max_retries is not set.
const defaultMaxRetries = 4

// Defaults of the retry and timeout settings (the client's).
var (
	defaultRetryWaitMin   = etl.DefaultRetryWaitMin
	defaultRetryWaitMax   = etl.DefaultRetryWaitMax
	defaultRequestTimeout = etl.DefaultRequestTimeout
)

// resolvedConfig is the provider configuration after environment fallback.
type resolvedConfig struct {
	Hub, TokenID, TokenSecret, BaseURL string
	MaxRetries                         int
	RetryWaitMin, RetryWaitMax         time.Duration
	RequestTimeout                     time.Duration
	CACertPEM                          []byte
}

// resolveConfig merges attributes with their environment variables and
// checks the result. Every diagnostic names the attribute and its variable.
// getenv is os.Getenv outside tests.
func resolveConfig(m providerModel, getenv func(string) string) (resolvedConfig, diag.Diagnostics) {
	var diags diag.Diagnostics
	pick := func(v types.String, env string) string {
		if !v.IsNull() && !v.IsUnknown() {
			return v.ValueString()
		}
		return getenv(env)
	}
	c := resolvedConfig{
		Hub:         pick(m.Hub, EnvHub),
		TokenID:     pick(m.TokenID, EnvTokenID),
		TokenSecret: pick(m.TokenSecret, EnvTokenSecret),
		BaseURL:     pick(m.BaseURL, EnvBaseURL),
		MaxRetries:  defaultMaxRetries,

		RetryWaitMin:   defaultRetryWaitMin,
		RetryWaitMax:   defaultRetryWaitMax,
		RequestTimeout: defaultRequestTimeout,
	}
	duration := func(v types.String, name string, into *time.Duration) {
		if v.IsNull() || v.IsUnknown() {
			return
		}
		d, err := parseDuration(v.ValueString())
		if err != nil {
			diags.AddAttributeError(path.Root(name), "Invalid "+name, fmt.Sprintf("%s: %s.", name, err))
			return
		}
		*into = d
	}
	duration(m.RetryWaitMin, "retry_wait_min", &c.RetryWaitMin)
	duration(m.RetryWaitMax, "retry_wait_max", &c.RetryWaitMax)
	duration(m.RequestTimeout, "request_timeout", &c.RequestTimeout)
	if c.RetryWaitMax < c.RetryWaitMin {
		diags.AddAttributeError(path.Root("retry_wait_max"), "Invalid retry_wait_max",
			fmt.Sprintf("retry_wait_max (%s) is shorter than retry_wait_min (%s): set retry_wait_max to at least retry_wait_min.", c.RetryWaitMax, c.RetryWaitMin))
	}
	switch {
	case !m.CACertPEM.IsNull() && !m.CACertPEM.IsUnknown():
		c.CACertPEM = []byte(m.CACertPEM.ValueString())
		if !hasPEMCertificate(c.CACertPEM) {
			diags.AddAttributeError(path.Root("ca_cert_pem"), "Invalid ca_cert_pem",
				"ca_cert_pem holds no PEM certificate: give the certificate authority's certificate as PEM text, from \"-----BEGIN CERTIFICATE-----\" to \"-----END CERTIFICATE-----\" (for example file(\"ca.pem\")), or use ca_cert_file.")
		}
	default:
		if f := pick(m.CACertFile, EnvCACertFile); f != "" {
			b, err := os.ReadFile(f)
			switch {
			case err != nil:
				diags.AddAttributeError(path.Root("ca_cert_file"), "Invalid ca_cert_file",
					fmt.Sprintf("The CA certificate file %q (from the ca_cert_file attribute or the %s environment variable) cannot be read: %s.", f, EnvCACertFile, err))
			case !hasPEMCertificate(b):
				diags.AddAttributeError(path.Root("ca_cert_file"), "Invalid ca_cert_file",
					fmt.Sprintf("The CA certificate file %q (from the ca_cert_file attribute or the %s environment variable) holds no PEM certificate: it must hold the certificate authority's certificate as PEM text (\"-----BEGIN CERTIFICATE-----\" ...).", f, EnvCACertFile))
			default:
				c.CACertPEM = b
			}
		}
	}
	if !m.MaxRetries.IsNull() && !m.MaxRetries.IsUnknown() {
		c.MaxRetries = int(m.MaxRetries.ValueInt64())
		if c.MaxRetries < 0 {
			diags.AddAttributeError(path.Root("max_retries"), "Invalid max_retries", "max_retries must be 0 or more.")
		}
	}
	switch {
	case c.Hub == "" && c.BaseURL == "":
		diags.AddAttributeError(path.Root("hub"), "Missing hub",
			"The provider needs the hub (region) the token was issued on, such as us2: set the hub attribute or the "+EnvHub+
				" environment variable (or set base_url / "+EnvBaseURL+" to give the service address directly).")
	case c.Hub != "" && !hubRegexp.MatchString(c.Hub):
		diags.AddAttributeError(path.Root("hub"), "Invalid hub",
			fmt.Sprintf("The hub %q (from the hub attribute or the %s environment variable) is not valid: use the lower-case region name such as us1, us2, us3, us5, ca3, eu1 or eu2.", c.Hub, EnvHub))
	}
	if c.BaseURL != "" {
		if _, err := etl.ValidateBaseURL(c.BaseURL); err != nil {
			diags.AddAttributeError(path.Root("base_url"), "Invalid base_url",
				fmt.Sprintf("The base_url (from the base_url attribute or the %s environment variable) is not usable: %s.", EnvBaseURL, err))
		}
	}
	if c.TokenID == "" {
		diags.AddAttributeError(path.Root("token_id"), "Missing token_id",
			"The provider needs the application token's id: set the token_id attribute or the "+EnvTokenID+" environment variable.")
	}
	if c.TokenSecret == "" {
		diags.AddAttributeError(path.Root("token_secret"), "Missing token_secret",
			"The provider needs the application token's secret: set the token_secret attribute or the "+EnvTokenSecret+" environment variable.")
	}
	return c, diags
}
