package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// content_sha256, the one place it is computed: of a file at its path
// (read whole and checked, or found in the hash cache: hashCache), of
// inline content, of rows as they are sent (planContentHash), and of
// inputs (planInputEntry, inputsHash).

// inputEntry is one input as planned: what it contributes to
// content_sha256, with the step it loads (importjob.Input, which the
// private state keeps as its JSON), and what it holds (facts), counted in
// the read that hashed it when hc was given (planInputEntry): not part of
// the hash, nor kept.
type inputEntry struct {
	importjob.Input
	facts *dataFacts
}

// inputsOf is the importjob.Input of each entry.
func inputsOf(entries []inputEntry) []importjob.Input {
	out := make([]importjob.Input, len(entries))
	for i, e := range entries {
		out[i] = e.Input
	}
	return out
}

// inputsHash is content_sha256 of a job with inputs (importjob.InputsHash),
// as inputsHashDescription documents it.
func inputsHash(entries []inputEntry) string { return importjob.InputsHash(inputsOf(entries)) }

// rowsInput is how a rows input is sent: a UTF-8 CSV file.
var rowsInput = etl.DataUpload{}.CSVFile().Input

// planInputEntry hashes one input as planned (a file is checked in the
// same read, as the top-level file is); nil when a value it needs is
// unknown or the file has a problem. wo holds the input's write-only
// content (file.content_wo); hc the hash cache (nil: none).
func planInputEntry(ctx context.Context, in keyedInput, step importjob.Step, wo writeOnlyData, hc *hashCache) (*inputEntry, diag.Diagnostics) {
	if hc == nil {
		hc = &hashCache{} // off: the file is read, and counted in that read
	}
	if !in.Rows.IsNull() {
		rows, ok := rowsFrom(in.Rows)
		if !ok {
			return nil, nil
		}
		facts := factsOfInputRows(rows)
		return &inputEntry{Input: importjob.Input{InputID: step.InputID, Format: string(rowsInput.FileFormat), Encoding: string(rowsInput.FileEncoding),
			SHA256: etl.DataUpload{Rows: rows}.CSVSHA256()}, facts: &facts}, nil
	}
	f, diags := fileFrom(ctx, in.File)
	if f == nil || diags.HasError() {
		return nil, diags
	}
	withContent := wo.withContent(*f)
	sum, d := planFileHash(ctx, withContent, hc)
	diags.Append(d...)
	full := withDefaults(*f)
	if !known(sum) || !known(full.Format) || !known(full.Encoding) || diags.HasError() {
		return nil, diags
	}
	facts := factsOfFile(withContent, hc.counted, &diags) // counted in the read that hashed it; a header that cannot be shown warns
	return &inputEntry{Input: importjob.Input{InputID: step.InputID, Format: full.Format.ValueString(), Encoding: full.Encoding.ValueString(),
		SHA256: sum.ValueString()}, facts: &facts}, diags
}

// planContentHash returns the SHA-256 of the bytes the job s plans would
// send, unknown when an input is unknown. wo holds the write-only data. A
// file's hash comes from hc when it can (nil: the file is read); rows
// whose JSON body is over limit bytes are sent as a CSV file.
func planContentHash(ctx context.Context, s importSpec, wo writeOnlyData, hc *hashCache, limit int64) (types.String, diag.Diagnostics) {
	if rows, at := wo.rowsOf(s); !rows.IsNull() {
		return planRowsHash(rows, at, limit)
	}
	f, diags := fileFrom(ctx, s.File)
	if f == nil || diags.HasError() {
		return types.StringUnknown(), diags
	}
	sum, d := planFileHash(ctx, wo.withContent(*f), hc)
	diags.Append(d...)
	return sum, diags
}

// planRowsHash hashes the body the rows are sent as (a CSV file when their
// JSON body is over limit bytes), and warns (on the attribute at) when they
// are sent as a CSV file, and about a cell holding a CR LF
// (rowsCRLFWarning).
func planRowsHash(l types.List, at path.Path, limit int64) (types.String, diag.Diagnostics) {
	var diags diag.Diagnostics
	rows, known := rowsFrom(l)
	if !known {
		return types.StringUnknown(), diags
	}
	diags.Append(rowsCRLFWarning(rows, at, limit)...)
	p := etl.DataUpload{Rows: rows}.Payload(limit)
	if p.AsFile {
		diags.AddAttributeWarning(at, rowsAsFileSummary, rowsAsFileDetail(p.JSONSize, limit))
	}
	return types.StringValue(p.SHA256), diags
}

// planFileHash hashes the file at path, or the encoded inline content, and
// checks it against its format and encoding.
func planFileHash(ctx context.Context, f fileModel, hc *hashCache) (types.String, diag.Diagnostics) {
	var diags diag.Diagnostics
	content, name := f.inline()
	switch {
	case f.Path.IsUnknown():
		return types.StringUnknown(), diags
	case !f.Path.IsNull():
		// Hashed whole, its first flatfile.FileCheckLimit bytes checked in the same
		// read; or unchanged since a trusted record of its hash.
		sum, err := hc.planFileSHA256(ctx, f, &diags)
		if err != nil {
			addFileError(&diags, err)
			return types.StringUnknown(), diags
		}
		return types.StringValue(sum), diags
	case content.IsUnknown() || f.Encoding.IsUnknown() || content.IsNull():
		return types.StringUnknown(), diags
	}
	b, err := etl.EncodeText(content.ValueString(), flatfile.Encoding(f.Encoding.ValueString()))
	if err != nil {
		addContentError(&diags, name, flatfile.Encoding(f.Encoding.ValueString()), err)
		return types.StringUnknown(), diags
	}
	checkContent(f, b, &diags)
	return types.StringValue(localfile.HashBytes(b)), diags
}

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
