package provider

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// defaultMaxRetries holds how many times a failed request is retried when
// max_retries is not set: the client's own, as are the defaults below.
const defaultMaxRetries = etl.DefaultMaxRetries

// Defaults of the retry and timeout settings: the client's own, so that
// the schema's descriptions and the client agree.
var (
	// defaultRetryWaitMin holds retry_wait_min's default.
	defaultRetryWaitMin = etl.DefaultRetryWaitMin
	// defaultRetryWaitMax holds retry_wait_max's default.
	defaultRetryWaitMax = etl.DefaultRetryWaitMax
	// defaultRequestTimeout holds request_timeout's default.
	defaultRequestTimeout = etl.DefaultRequestTimeout
)

// resolveConfig merges attributes with their environment variables and
// checks the result: the client's configuration, less its user agent and
// log. Every diagnostic names the attribute and its variable. getenv is
// os.Getenv outside tests.
func resolveConfig(m providerModel, getenv func(string) string) (etl.Config, diag.Diagnostics) {
	var diags diag.Diagnostics
	pick := func(v types.String, env string) string {
		if known(v) {
			return v.ValueString()
		}
		return getenv(env)
	}
	c := etl.Config{
		Hub:         pick(m.Hub, EnvHub),
		TokenID:     pick(m.TokenID, EnvTokenID),
		TokenSecret: pick(m.TokenSecret, EnvTokenSecret),
		BaseURL:     pick(m.BaseURL, EnvBaseURL),
		MaxRetries:  defaultMaxRetries,

		RetryWaitMin:   defaultRetryWaitMin,
		RetryWaitMax:   defaultRetryWaitMax,
		RequestTimeout: defaultRequestTimeout,
	}
	resolveDurations(&c, m, &diags)
	resolveCACert(&c, m.CACertPEM, pick(m.CACertFile, EnvCACertFile), &diags)
	if !m.MaxRetries.IsNull() && !m.MaxRetries.IsUnknown() {
		c.MaxRetries = int(m.MaxRetries.ValueInt64())
		if c.MaxRetries < 0 {
			diags.AddAttributeError(path.Root("max_retries"), "Invalid max_retries", "max_retries must be 0 or more.")
		}
	}
	checkService(c, &diags)
	return c, diags
}

// resolveDurations parses into c the retry waits and the request timeout
// that are set, over their defaults, and requires retry_wait_max to be at
// least retry_wait_min.
func resolveDurations(c *etl.Config, m providerModel, diags *diag.Diagnostics) {
	for _, s := range []struct {
		name string
		v    types.String
		into *time.Duration
	}{
		{"retry_wait_min", m.RetryWaitMin, &c.RetryWaitMin},
		{"retry_wait_max", m.RetryWaitMax, &c.RetryWaitMax},
		{"request_timeout", m.RequestTimeout, &c.RequestTimeout},
	} {
		if !known(s.v) {
			continue
		}
		d, problem := etl.ParseSettingDuration(s.name, s.v.ValueString())
		if problem != "" {
			diags.AddAttributeError(path.Root(s.name), "Invalid "+s.name, problem)
			continue
		}
		*s.into = d
	}
	if c.RetryWaitMax < c.RetryWaitMin {
		diags.AddAttributeError(path.Root("retry_wait_max"), "Invalid retry_wait_max",
			fmt.Sprintf("retry_wait_max (%s) is shorter than retry_wait_min (%s): set retry_wait_max to at least retry_wait_min.", c.RetryWaitMax, c.RetryWaitMin))
	}
}

// resolveCACert reads into c the extra certificate authorities:
// ca_cert_pem, else the file named by ca_cert_file or its environment
// variable.
func resolveCACert(c *etl.Config, pem types.String, file string, diags *diag.Diagnostics) {
	if known(pem) {
		c.CACertPEM = []byte(pem.ValueString())
		if problem := etl.PEMProblem(c.CACertPEM); problem != "" {
			diags.AddAttributeError(path.Root("ca_cert_pem"), "Invalid ca_cert_pem", problem)
		}
		return
	}
	if file == "" {
		return
	}
	b, err := os.ReadFile(file)
	switch {
	case err != nil:
		diags.AddAttributeError(path.Root("ca_cert_file"), "Invalid ca_cert_file",
			fmt.Sprintf("The CA certificate file %q (from the ca_cert_file attribute or the %s environment variable) cannot be read: %s.", file, EnvCACertFile, err))
	case etl.PEMProblem(b) != "":
		diags.AddAttributeError(path.Root("ca_cert_file"), "Invalid ca_cert_file",
			fmt.Sprintf("The CA certificate file %q (from the ca_cert_file attribute or the %s environment variable) holds no PEM certificate: it must hold the certificate authority's certificate as PEM text (\"-----BEGIN CERTIFICATE-----\" ...).", file, EnvCACertFile))
	default:
		c.CACertPEM = b
	}
}

// checkService requires of c the hub or base_url, each valid when set,
// and both halves of the token.
func checkService(c etl.Config, diags *diag.Diagnostics) {
	switch {
	case c.Hub == "" && c.BaseURL == "":
		diags.AddAttributeError(path.Root("hub"), "Missing hub",
			"The provider needs the hub (region) the token was issued on, such as us2: set the hub attribute or the "+EnvHub+
				" environment variable (or set base_url / "+EnvBaseURL+" to give the service address directly).")
	case c.Hub != "":
		if problem := etl.HubProblem(c.Hub); problem != "" {
			diags.AddAttributeError(path.Root("hub"), "Invalid hub", problem)
		}
	}
	if c.BaseURL != "" {
		if problem := etl.BaseURLProblem(c.BaseURL); problem != "" {
			diags.AddAttributeError(path.Root("base_url"), "Invalid base_url", problem)
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
}

// EnvHashCache names the environment variable that turns the file hash
// caches off ("0" or "false") when the hash_cache attribute is not set.
const EnvHashCache = "ETL_HASH_CACHE"

// hashCacheDescription holds hash_cache's description: what the cache
// guarantees and where that ends.
const hashCacheDescription = "Whether a plan may reuse a file's recorded SHA-256 while its size, times and inode are unchanged, " +
	"instead of reading it again; an apply always hashes what it sends. Defaults to `true`. " +
	"Can also be set with the `" + EnvHashCache + "` environment variable (`0` or `false` turns it off). See [Importing large files](guides/large-files.md)."

// resolveHashCache reports whether the file hash caches are on: hash_cache,
// else its environment variable, else on. A variable that is not a
// boolean is an error, and leaves the caches on. getenv is os.Getenv
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
