package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// inputEntry is what one input contributes to content_sha256 (its input
// id, format, encoding and the SHA-256 of its bytes), with the step it
// loads: its name and position in the template's steps, which the hash
// does not cover (see sameStepsNewIDs).
type inputEntry struct {
	InputID  string `json:"input_id"`
	Format   string `json:"format"`
	Encoding string `json:"encoding"`
	Sum      string `json:"sha256"`
	StepName string `json:"step_name"`
	Position int    `json:"position"`
	// Facts is what the input holds, counted in the read that hashed it
	// when hc was given (planInputEntry); not part of the hash, nor kept.
	Facts *dataFacts `json:"-"`
}

// rowsInput is how a rows input is sent: a UTF-8 CSV file.
var rowsInput = etl.DataUpload{}.CSVFile().Input

// inputsHash is content_sha256 of a job with inputs, as
// inputsHashDescription documents it.
func inputsHash(entries []inputEntry) string {
	sorted := slices.SortedFunc(slices.Values(entries), func(a, b inputEntry) int { return strings.Compare(a.InputID, b.InputID) })
	h := sha256.New()
	for _, e := range sorted {
		fmt.Fprintf(h, "%s\n%s\n%s\n%s\n", e.InputID, e.Format, e.Encoding, e.Sum)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// planInputEntry hashes one input as planned (a file is checked in the
// same read, as the top-level file is); nil when a value it needs is
// unknown or the file has a problem. wo holds the input's write-only
// content (file.content_wo); hc the caches of file hashes (nil: none).
func planInputEntry(ctx context.Context, in keyedInput, step etl.Step, wo writeOnlyData, hc *hashCache) (*inputEntry, diag.Diagnostics) {
	if hc == nil {
		hc = &hashCache{} // off: the file is read, and counted in that read
	}
	if !in.Rows.IsNull() {
		rows, ok := rowsFrom(in.Rows)
		if !ok {
			return nil, nil
		}
		e := &inputEntry{InputID: step.InputID, Format: string(rowsInput.FileFormat), Encoding: string(rowsInput.FileEncoding), Sum: etl.DataUpload{Rows: rows}.CSVSHA256()}
		facts := factsOfInputRows(rows)
		e.Facts = &facts
		return e, nil
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
	e := &inputEntry{InputID: step.InputID, Format: full.Format.ValueString(), Encoding: full.Encoding.ValueString(), Sum: sum.ValueString()}
	facts := inputFileFacts(withContent, hc, &diags) // a header that cannot be shown warns
	e.Facts = &facts
	return e, diags
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
		// Hashed whole, its first fileCheckLimit bytes checked in the same
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
	b, err := encodeContent(content.ValueString(), etl.Encoding(f.Encoding.ValueString()))
	if err != nil {
		addContentError(&diags, name, etl.Encoding(f.Encoding.ValueString()), err)
		return types.StringUnknown(), diags
	}
	checkContent(f, b, &diags)
	return types.StringValue(localfile.HashBytes(b)), diags
}
