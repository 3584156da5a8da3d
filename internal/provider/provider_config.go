package provider

import (
	"fmt"
	"strconv"

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

// resolveConfig reads each setting from its attribute, else its
// environment variable, and checks them (etl.Settings.Config): the
// client's configuration, less its user agent and log. Every diagnostic is
// on the setting's attribute, and names it and its variable. getenv is
// os.Getenv outside tests.
func resolveConfig(m providerModel, getenv func(string) string) (etl.Config, diag.Diagnostics) {
	pick := func(v types.String, env string) string {
		if known(v) {
			return v.ValueString()
		}
		return getenv(env)
	}
	set := func(v types.String) *string {
		if known(v) {
			return v.ValueStringPointer()
		}
		return nil
	}
	s := etl.Settings{
		Hub: pick(m.Hub, EnvHub), TokenID: pick(m.TokenID, EnvTokenID), TokenSecret: pick(m.TokenSecret, EnvTokenSecret), BaseURL: pick(m.BaseURL, EnvBaseURL),
		RetryWaitMin: set(m.RetryWaitMin), RetryWaitMax: set(m.RetryWaitMax), RequestTimeout: set(m.RequestTimeout),
		CACertPEM: set(m.CACertPEM), CACertFile: pick(m.CACertFile, EnvCACertFile),
	}
	if !m.MaxRetries.IsNull() && !m.MaxRetries.IsUnknown() {
		n := int(m.MaxRetries.ValueInt64())
		s.MaxRetries = &n
	}
	c, problems := s.Config()
	var diags diag.Diagnostics
	for _, p := range problems {
		diags.AddAttributeError(path.Root(p.Setting), p.Summary, p.Detail)
	}
	return c, diags
}

// EnvHashCache names the environment variable that turns the file hash
// cache off ("0" or "false") when the hash_cache attribute is not set.
const EnvHashCache = "ETL_HASH_CACHE"

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
