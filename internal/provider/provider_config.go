package provider

import (
	"crypto/x509"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// Environment variables read when the matching provider attribute is not
// set: every message that names a setting's source names them from here.
const (
	EnvHub         = "ETL_HUB"
	EnvTokenID     = "ETL_TOKEN_ID"     //nolint:gosec // an environment variable name, not a credential
	EnvTokenSecret = "ETL_TOKEN_SECRET" //nolint:gosec // an environment variable name, not a credential
	EnvBaseURL     = "ETL_BASE_URL"
	EnvCACertFile  = "ETL_CA_CERT_FILE"
	// EnvHashCache turns the file hash cache off ("0" or "false").
	EnvHashCache = "ETL_HASH_CACHE"
)

// The validators of the settings, each a stringRule over its rule, which
// resolveConfig applies again with the environment variable.
var (
	// hubValidator checks the provider's hub (hubProblem).
	hubValidator = stringRule{description: "must be lower-case letters and digits, such as us2",
		rule: func(_, v string) string { return hubProblem(v) }}
	// baseURLValidator checks the provider's base_url (baseURLProblem).
	baseURLValidator = stringRule{description: "must be an absolute https URL, or http to a loopback host",
		rule: func(_, v string) string { return baseURLProblem(v) }}
	// durationValidator checks the provider's retry_wait_min,
	// retry_wait_max and request_timeout (parseDuration).
	durationValidator = stringRule{description: `must be a positive duration such as "500ms", "30s" or "2m"`,
		rule: func(name, v string) string { _, p := parseDuration(name, v); return p }}
	// pemValidator checks the provider's ca_cert_pem (pemProblem).
	pemValidator = stringRule{description: "must hold at least one PEM certificate",
		rule: func(_, v string) string { return pemProblem([]byte(v)) }}
)

// resolveConfig reads each setting from its attribute, else its
// environment variable, and checks it: the client's configuration, less
// its user agent and log, the settings not set at the client's defaults.
// Every problem is found at once (the durations, the extra certificate
// authorities, max_retries, then the service: the hub or base_url, and
// both halves of the token), each an error on the setting's attribute,
// titled Invalid or Missing, naming it and its variable. getenv is
// os.Getenv outside tests.
func resolveConfig(m providerModel, getenv func(string) string) (etl.Config, diag.Diagnostics) {
	var diags diag.Diagnostics
	problem := func(summary, attr, detail string) {
		diags.AddAttributeError(path.Root(attr), summary+" "+attr, detail)
	}
	pick := func(v types.String, env string) string {
		if known(v) {
			return v.ValueString()
		}
		return getenv(env)
	}
	c := etl.Config{
		Hub: pick(m.Hub, EnvHub), TokenID: pick(m.TokenID, EnvTokenID), TokenSecret: pick(m.TokenSecret, EnvTokenSecret), BaseURL: pick(m.BaseURL, EnvBaseURL),
		MaxRetries: etl.DefaultMaxRetries, RetryWaitMin: etl.DefaultRetryWaitMin, RetryWaitMax: etl.DefaultRetryWaitMax, RequestTimeout: etl.DefaultRequestTimeout,
	}
	for _, d := range []struct {
		name string
		v    types.String
		into *time.Duration
	}{{"retry_wait_min", m.RetryWaitMin, &c.RetryWaitMin}, {"retry_wait_max", m.RetryWaitMax, &c.RetryWaitMax}, {"request_timeout", m.RequestTimeout, &c.RequestTimeout}} {
		if !known(d.v) {
			continue
		}
		if v, detail := parseDuration(d.name, d.v.ValueString()); detail != "" {
			problem("Invalid", d.name, detail)
		} else {
			*d.into = v
		}
	}
	if c.RetryWaitMax < c.RetryWaitMin {
		problem("Invalid", "retry_wait_max",
			fmt.Sprintf("retry_wait_max (%s) is shorter than retry_wait_min (%s): set retry_wait_max to at least retry_wait_min.", c.RetryWaitMax, c.RetryWaitMin))
	}
	if file := pick(m.CACertFile, EnvCACertFile); known(m.CACertPEM) {
		c.CACertPEM = []byte(m.CACertPEM.ValueString())
		if detail := pemProblem(c.CACertPEM); detail != "" {
			problem("Invalid", "ca_cert_pem", detail)
		}
	} else if file != "" {
		var detail string
		if c.CACertPEM, detail = readCACertFile(file); detail != "" {
			problem("Invalid", "ca_cert_file", detail)
		}
	}
	if !m.MaxRetries.IsNull() && !m.MaxRetries.IsUnknown() {
		if c.MaxRetries = int(m.MaxRetries.ValueInt64()); c.MaxRetries < 0 {
			problem("Invalid", "max_retries", "max_retries must be 0 or more.")
		}
	}
	switch {
	case c.Hub == "" && c.BaseURL == "":
		problem("Missing", "hub", "The provider needs the hub (region) the token was issued on, such as us2: set the hub attribute or the "+EnvHub+
			" environment variable (or set base_url / "+EnvBaseURL+" to give the service address directly).")
	case c.Hub != "" && hubProblem(c.Hub) != "":
		problem("Invalid", "hub", hubProblem(c.Hub))
	}
	if c.BaseURL != "" && baseURLProblem(c.BaseURL) != "" {
		problem("Invalid", "base_url", baseURLProblem(c.BaseURL))
	}
	if c.TokenID == "" {
		problem("Missing", "token_id", "The provider needs the application token's id: set the token_id attribute or the "+EnvTokenID+" environment variable.")
	}
	if c.TokenSecret == "" {
		problem("Missing", "token_secret", "The provider needs the application token's secret: set the token_secret attribute or the "+EnvTokenSecret+" environment variable.")
	}
	return c, diags
}

// The rules of the settings below each return "" for a good value, else
// what is wrong, where the value came from (the attribute, or its
// environment variable) and what to do, as one or more sentences: the
// validators check a value set in the configuration at plan time, and
// resolveConfig checks it again with its environment variable.

// hubProblem says what is wrong with a hub the client refuses
// (etl.CheckHub), or "".
func hubProblem(hub string) string {
	if etl.CheckHub(hub) == nil {
		return ""
	}
	return fmt.Sprintf("The hub %q (from the hub attribute or the %s environment variable) is not valid: "+
		"use the lower-case region name the token was issued on, such as us1, us2, us3, us5, ca3, eu1 or eu2.", hub, EnvHub)
}

// baseURLProblem says what is wrong with a base_url the client refuses
// (etl.ValidateBaseURL), or "".
func baseURLProblem(u string) string {
	if _, err := etl.ValidateBaseURL(u); err != nil {
		return fmt.Sprintf("The base_url (from the base_url attribute or the %s environment variable) is not usable: %s.", EnvBaseURL, err)
	}
	return ""
}

// parseDuration parses the positive Go duration of the setting name, such
// as "500ms" or "2m"; for a bad one it says what is wrong instead.
//
// Hand-written on purpose: terraform-plugin-framework-timetypes'
// GoDurationType accepts zero and negative durations, which these refuse,
// and the environment's values are not an attribute's.
func parseDuration(name, s string) (time.Duration, string) {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return 0, fmt.Sprintf("%s: %q is not a duration: use a number with a unit, such as \"500ms\", \"30s\" or \"2m\" (units ms, s, m, h).", name, s)
	case d <= 0:
		return 0, fmt.Sprintf("%s: %q must be longer than zero.", name, s)
	}
	return d, ""
}

// hasPEMCertificate reports whether b holds at least one PEM certificate
// that parses.
func hasPEMCertificate(b []byte) bool { return x509.NewCertPool().AppendCertsFromPEM(b) }

// readCACertFile reads the PEM certificates of the file ca_cert_file, or
// its environment variable, names; else it says what is wrong.
func readCACertFile(file string) ([]byte, string) {
	b, err := os.ReadFile(file)
	from := fmt.Sprintf("The CA certificate file %q (from the ca_cert_file attribute or the %s environment variable)", file, EnvCACertFile)
	switch {
	case err != nil:
		return nil, fmt.Sprintf("%s cannot be read: %s.", from, err)
	case !hasPEMCertificate(b):
		return nil, from + " holds no PEM certificate: it must hold the certificate authority's certificate as PEM text (\"-----BEGIN CERTIFICATE-----\" ...)."
	}
	return b, ""
}

// pemProblem says what is wrong with a ca_cert_pem that holds no PEM
// certificate, or "".
func pemProblem(b []byte) string {
	if hasPEMCertificate(b) {
		return ""
	}
	return "ca_cert_pem holds no PEM certificate: give the certificate authority's certificate as PEM text, " +
		"from \"-----BEGIN CERTIFICATE-----\" to \"-----END CERTIFICATE-----\" (for example file(\"ca.pem\")), or use ca_cert_file."
}

// hashCacheDescription holds hash_cache's description: what the cache
// guarantees and where that ends.
const hashCacheDescription = "Whether a plan may reuse a file's recorded SHA-256 while its size, times and inode are unchanged, " +
	"instead of reading it again; an apply always hashes what it sends. Defaults to `true`. " +
	"Can also be set with the `" + EnvHashCache + "` environment variable (`0` or `false` turns it off). See [Importing large files](guides/large-files.md)."

// resolveHashCache reports whether the file hash cache is on: hash_cache,
// else its environment variable, else on. A variable that is not a
// boolean is an error, and leaves the cache on. getenv is os.Getenv
// outside tests.
func resolveHashCache(v types.Bool, getenv func(string) string) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	if !v.IsNull() && !v.IsUnknown() {
		return v.ValueBool(), diags
	}
	s := getenv(EnvHashCache)
	if s == "" {
		return true, diags
	}
	on, err := strconv.ParseBool(s)
	if err != nil {
		diags.AddAttributeError(path.Root("hash_cache"), "Invalid "+EnvHashCache,
			fmt.Sprintf("The %s environment variable is %q: set it to \"false\" or \"0\" to turn the file hash cache off, \"true\" or \"1\" to keep it on (or set the hash_cache attribute).", EnvHashCache, s))
		return true, diags
	}
	return on, diags
}
