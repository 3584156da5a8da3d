package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The hash cache as the resource keeps it: the record in its private
// state (newHashCache, keep), the record of a file sent (keepSentRecord)
// or trusted at a refresh (refreshRecord), and the disk cache's hash of an
// input's file (cachedFileSHA256). How a plan uses it:
// common_hash_cache.go.

// newHashCache returns the hash cache of one plan, reading the prior
// record from private (nil: none); off when on is false.
func newHashCache(ctx context.Context, on bool, private privateGetter) *hashCache {
	if !on {
		return &hashCache{}
	}
	return &hashCache{records: &localfile.Records{Prior: recordFrom(ctx, private), Disk: localfile.UserDiskCache()}}
}

// keep stores the record behind the planned hash in the planned private
// state: an update keeps it in state.
func (c *hashCache) keep(ctx context.Context, p privateSetter, diags *diag.Diagnostics) {
	if c != nil && c.records != nil && c.used != nil {
		saveRecord(ctx, p, c.used, diags)
	}
}

// keepSentRecord records in private state, after a file was sent, the
// hash of the bytes sent: they matched the planned hash, and the file's
// identity was the same when it was opened and after the send. The plan
// that the apply makes first checked those bytes (see planFileSHA256),
// and counted them: the record keeps the counts of the planned record
// (localfile.Records.Sent): from p when it holds the plan's private
// state, else from the disk cache, where that plan put it.
func keepSentRecord(ctx context.Context, on bool, m *importModel, up *preparedUpload, p privateStore, diags *diag.Diagnostics) {
	if !on || up == nil || up.opened == nil {
		return
	}
	f, _ := fileFrom(ctx, m.File)
	if f == nil {
		return
	}
	rs := &localfile.Records{Prior: recordFrom(ctx, p), Disk: localfile.UserDiskCache()}
	if r, ok := rs.Sent(up.opened, checkKey(*f)); ok {
		saveRecord(ctx, p, r, diags)
	}
}

// refreshRecord, at a refresh, takes the disk cache's record of the file
// into private state when it is trusted for the file as it is now and has
// the hash in state (a plan read the file again, as after a chmod): the
// record then lasts as long as the resource.
func refreshRecord(ctx context.Context, on bool, m *importModel, req privateGetter, resp privateSetter, diags *diag.Diagnostics) {
	if !on || !known(m.ContentSHA256) {
		return
	}
	c := newHashCache(ctx, true, req)
	if r := c.trustedFor(ctx, m.File); r != nil && r != c.records.Prior && r.SHA256 == m.ContentSHA256.ValueString() {
		saveRecord(ctx, resp, r, diags)
	}
}

// cachedFileSHA256 returns the SHA-256 the disk cache holds for the file of
// file (an input's) as it is now, trusted as a plan trusts it; null when
// the cache is off, the file has no path or no trusted record.
func cachedFileSHA256(ctx context.Context, file types.Object, on bool) types.String {
	if r := newHashCache(ctx, on, nil).trustedFor(ctx, file); r != nil {
		return types.StringValue(r.SHA256)
	}
	return types.StringNull()
}

// trustedFor returns the trusted record (localfile.Records.Find) of the
// file the file attribute names, as the file is now and checked against
// its format and encoding; nil when it has no known path or no trusted
// record.
func (c *hashCache) trustedFor(ctx context.Context, file types.Object) *localfile.Record {
	f, _ := fileFrom(ctx, file)
	if f == nil || !known(f.Path) {
		return nil
	}
	return c.records.Find(f.Path.ValueString(), checkKey(*f))
}
