package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The hash cache as the resource uses it: one per plan (newHashCache),
// the record of a file sent (keepSentRecord), and the trusted hash of a
// file as it is now (trustedFor, cachedFileSHA256). How a plan uses it:
// common_hash_cache.go.

// newHashCache returns the hash cache of one plan: the user's disk cache
// (localfile.UserDiskCache); off when on is false.
func newHashCache(on bool) *hashCache {
	if !on {
		return &hashCache{}
	}
	return &hashCache{disk: localfile.UserDiskCache()}
}

// keepSentRecord records in the disk cache, after a file was sent, the
// hash of the bytes sent (localfile.DiskCache.KeepSent): they matched the
// planned hash, and the file's identity was the same when it was opened
// and after the send. The plan that the apply makes first checked those
// bytes (see planFileSHA256), and counted them: the record keeps the
// counts of that plan's record.
func keepSentRecord(ctx context.Context, on bool, m *importModel, up *preparedUpload) {
	if !on || up == nil || up.opened == nil {
		return
	}
	if f, _ := fileFrom(ctx, m.File); f != nil {
		localfile.UserDiskCache().KeepSent(up.opened, checkKey(*f))
	}
}

// cachedFileSHA256 returns the SHA-256 the disk cache holds for the file of
// file (an input's) as it is now, trusted as a plan trusts it; null when
// the cache is off, the file has no path or no trusted record.
func cachedFileSHA256(ctx context.Context, file types.Object, on bool) types.String {
	if r := newHashCache(on).trustedFor(ctx, file); r != nil {
		return types.StringValue(r.SHA256)
	}
	return types.StringNull()
}

// trustedFor returns the trusted record (localfile.DiskCache.Find) of the
// file the file attribute names, as the file is now and checked against
// its format and encoding; nil when it has no known path or no trusted
// record.
func (c *hashCache) trustedFor(ctx context.Context, file types.Object) *localfile.Record {
	f, _ := fileFrom(ctx, file)
	if f == nil || !known(f.Path) {
		return nil
	}
	return c.disk.Find(f.Path.ValueString(), checkKey(*f))
}
