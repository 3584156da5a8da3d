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
const hashCacheDescription = "Whether a plan may reuse a file's SHA-256 instead of reading the file whole (`file.path`). Defaults to `true`. " +
	"Can also be set with the `" + EnvHashCache + "` environment variable (`0` or `false` turns the cache off).\n\n" +
	"The hash of a file is recorded with the file's size, modification and change times (nanoseconds), inode and device: in the resource's private state, " +
	"and in a small cache in the user's cache directory (`terraform-provider-etl/` under `$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS; " +
	"at most 4096 records of a few hundred bytes) for the apply of a new resource, which plans again in a new provider process. " +
	"A plan reuses a recorded hash only when all of these are unchanged and the file's times are more than 2 seconds older than the moment its hash was taken " +
	"(a file changed just before or while it was read is read again, as git does). Any write to a file changes its change time, which no tool can set back, " +
	"so an edited file is read again even when its size and modification time are kept. " +
	"Limits: the cache trusts the file system; a file system that does not update change times, a file server whose clock runs more than 2 seconds behind " +
	"for a file whose timestamps are coarser than that, or a system clock set backwards can hide an edit from a plan. " +
	"The bytes sent are never taken on trust: an apply hashes what it sends and refuses bytes other than the planned ones. " +
	"On systems other than Linux, macOS and the BSDs every plan reads the file."

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
