package provider

import (
	"fmt"
	"os"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// EnvHashCache turns the file hash caches off ("0" or "false") when the
// hash_cache attribute is not set.
const EnvHashCache = "ETL_HASH_CACHE"

// hashCacheDescription documents hash_cache: what the cache guarantees and
// where that ends.
const hashCacheDescription = "Whether a plan may reuse a file's recorded SHA-256 instead of reading the file whole (`file.path`): " +
	"the hash is reused only while the file's size, modification and change times (nanoseconds), inode and device are as recorded, " +
	"and the file did not change within 2 seconds of the moment its hash was taken. An apply always hashes the bytes it sends. Defaults to `true`. " +
	"Can also be set with the `" + EnvHashCache + "` environment variable (`0` or `false` turns the cache off). " +
	"What the cache guarantees and where that ends: the Large files guide."

// importResourceData is what Configure hands the etl_import resource.
type importResourceData struct {
	client    *etl.Client // nil until the provider's settings are known
	hashCache bool
}

// resolveHashCache reads hash_cache, else its environment variable; the
// caches are on by default. getenv is os.Getenv outside tests.
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

// importDataFrom extracts what Configure handed the import resource. A nil
// client with no error means the provider is not configured yet. Before
// Configure, the caches follow the environment variable.
func importDataFrom(data any, diags *diag.Diagnostics) (*etl.Client, bool) {
	if data == nil {
		on, _ := resolveHashCache(types.BoolNull(), os.Getenv)
		return nil, on
	}
	d, ok := data.(*importResourceData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected *importResourceData, got %T. This is a bug in the provider; please report it.", data))
		return nil, false
	}
	return d.client, d.hashCache
}
