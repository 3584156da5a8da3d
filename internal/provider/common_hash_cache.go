package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// hashCache is where one plan of one resource may find a file's trusted
// hash instead of reading it (localfile.Records): the record in the
// resource's private state, then the disk cache. A plan that reads the
// file records its hash in both (used, then keep). What a record is and
// when it is trusted: localfile.Record; why the disk cache:
// localfile.DiskCache.
type hashCache struct {
	records *localfile.Records // nil: the caches are off
	// used is the record behind the planned hash, reused or taken now.
	used *localfile.Record
	// counted is the record of the top-level file this plan read or
	// trusted, caches on or off: its counts are the planned data facts.
	counted *localfile.Record
}

// newHashCache returns the hash cache of one plan, reading the prior
// record from private (nil: none); off when on is false.
func newHashCache(ctx context.Context, on bool, private privateGetter) *hashCache {
	if !on {
		return &hashCache{}
	}
	return &hashCache{records: &localfile.Records{Prior: recordFrom(ctx, private), Disk: localfile.UserDiskCache()}}
}

// diskOnly returns the hash cache for the files of inputs: the disk cache
// only, since the resource's private state holds one record (the
// top-level file's). Nil when the caches are off.
func (c *hashCache) diskOnly() *hashCache {
	if c == nil || c.records == nil {
		return nil
	}
	return &hashCache{records: &localfile.Records{Disk: c.records.Disk}}
}

// planFileSHA256 returns the SHA-256 of the file at f.path: a trusted
// record's, else read whole and checked (readFileRecord), then recorded.
func (c *hashCache) planFileSHA256(ctx context.Context, f fileModel, diags *diag.Diagnostics) (string, error) {
	p, check := f.Path.ValueString(), checkKey(f)
	if c != nil {
		if r := c.records.Find(p, check); r != nil {
			tflog.Debug(ctx, "file unchanged since its hash was taken; not read", map[string]any{"path": p, "sha256": r.SHA256, "hashed_at": time.Unix(0, r.HashedAt).UTC().Format(time.RFC3339Nano)})
			c.used, c.counted = r, r
			return r.SHA256, nil
		}
	}
	n := len(*diags)
	r, err := readFileRecord(f, diags)
	if err != nil {
		return "", err
	}
	if c != nil {
		c.counted = r
	}
	if c != nil && c.records != nil && r.Path != "" && len(*diags) == n {
		c.records.Keep(r, check)
		c.used = r
	}
	return r.SHA256, nil
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
