package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
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
