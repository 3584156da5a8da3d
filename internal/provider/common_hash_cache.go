package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// hashCache is where one plan may find a file's trusted hash instead of
// reading it: the disk cache (localfile.DiskCache), where a plan that
// reads the file records its hash. What a record is and when it is
// trusted: localfile.Record.
type hashCache struct {
	disk *localfile.DiskCache // nil: the cache is off
	// counted is the record of the file this plan read or trusted last,
	// the cache on or off: its counts are the planned data facts.
	counted *localfile.Record
}

// planFileSHA256 returns the SHA-256 of the file at f.path: a trusted
// record's, else read whole and checked (readFileRecord), then recorded.
func (c *hashCache) planFileSHA256(ctx context.Context, f fileModel, diags *diag.Diagnostics) (string, error) {
	if c == nil {
		c = &hashCache{}
	}
	p, check := f.Path.ValueString(), checkKey(f)
	if r := c.disk.Find(p, check); r != nil {
		tflog.Debug(ctx, "file unchanged since its hash was taken; not read", map[string]any{"path": p, "sha256": r.SHA256, "hashed_at": time.Unix(0, r.HashedAt).UTC().Format(time.RFC3339Nano)})
		c.counted = r
		return r.SHA256, nil
	}
	n := len(*diags)
	r, err := readFileRecord(f, diags)
	if err != nil {
		return "", err
	}
	c.counted = r
	if len(*diags) == n { // its head checked without a problem
		r.Checked = check
		c.disk.Put(r)
	}
	return r.SHA256, nil
}
