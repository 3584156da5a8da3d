package provider

import (
	"context"
	"fmt"
	"io"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// preparedUpload is what Create sends: a file or rows, and the SHA-256 of
// the bytes.
type preparedUpload struct {
	file   *etl.FileUpload
	data   *etl.DataUpload
	sum    string
	closer io.Closer
	// at is the attribute that holds the data.
	at     path.Path
	opened *localfile.Opened // a file at path: its progress and identity
	// rowsAsFile: rows too large for start with data, sent as a CSV file.
	rowsAsFile bool
}

func (p *preparedUpload) Close() {
	if p != nil && p.closer != nil {
		p.closer.Close()
	}
}

// prepareUpload builds the upload of s from known values, filling the
// defaults of its file into s (resolveFile); wo holds the write-only data,
// and rows whose JSON body is over limit bytes are sent as a CSV file.
func prepareUpload(ctx context.Context, s *importSpec, wo writeOnlyData, limit int64) (*preparedUpload, diag.Diagnostics) {
	if rows, at := wo.rowsOf(*s); !rows.IsNull() {
		return prepareRows(rows, at, s.ContentSHA256, limit)
	}
	return prepareFileUpload(ctx, s, wo)
}

// prepareFileUpload builds the upload of the file of s (prepareUpload).
func prepareFileUpload(ctx context.Context, s *importSpec, wo writeOnlyData) (*preparedUpload, diag.Diagnostics) {
	f, diags := resolveFile(ctx, s)
	if diags.HasError() {
		return nil, diags
	}
	if f == nil {
		diags.AddError("Nothing to import", "Set exactly one of file and rows.")
		return nil, diags
	}
	up, d := prepareFile(wo.withContent(*f), s.ContentSHA256.ValueString())
	diags.Append(d...)
	return up, diags
}

// prepareRows sends rows (the attribute at) as the JSON body of start with
// data, or as a CSV file when the body would be over limit bytes.
func prepareRows(l types.List, at path.Path, planned types.String, limit int64) (*preparedUpload, diag.Diagnostics) {
	var diags diag.Diagnostics
	rows, known := rowsFrom(l)
	if !known {
		addStillUnknown(&diags, at, atApply)
		return nil, diags
	}
	d := etl.DataUpload{Rows: rows}
	p := d.Payload(limit)
	if !p.AsFile {
		return &preparedUpload{data: &d, sum: p.SHA256, at: at}, diags
	}
	if planned.IsUnknown() || planned.IsNull() { // else the plan warned
		diags.AddAttributeWarning(at, rowsAsFileSummary, rowsAsFileDetail(p.JSONSize, limit))
	}
	f := d.CSVFile()
	return &preparedUpload{file: &f, sum: p.SHA256, rowsAsFile: true, at: at}, diags
}

// prepareFile opens the file at path (checked while it is sent against
// the planned SHA-256, when there is one; see localfile.Open: a read that
// finds other bytes stops the upload for good, ChangedError.AbortsUpload),
// or encodes the inline content.
func prepareFile(f fileModel, planned string) (*preparedUpload, diag.Diagnostics) {
	var diags diag.Diagnostics
	input := etl.FileInput{
		PartName:     f.PartName.ValueString(),
		FileFormat:   flatfile.Format(f.Format.ValueString()),
		FileEncoding: flatfile.Encoding(f.Encoding.ValueString()),
		FileName:     f.Name.ValueString(),
	}
	if !f.Path.IsNull() {
		of, err := localfile.Open(f.Path.ValueString(), planned)
		if err != nil {
			addFileError(&diags, err)
			return nil, diags
		}
		return &preparedUpload{
			file:   &etl.FileUpload{Input: input, Open: of.Reader, Size: of.Size()},
			sum:    of.SHA256(),
			closer: of,
			at:     filePath("path"),
			opened: of,
		}, diags
	}
	content, name := f.inline()
	b, err := etl.EncodeText(content.ValueString(), input.FileEncoding)
	if err != nil {
		addContentError(&diags, name, input.FileEncoding, err)
		return nil, diags
	}
	up := etl.BytesFile(input, b)
	return &preparedUpload{file: &up, sum: localfile.HashBytes(b), at: filePath(name)}, diags
}

// checkPlanned reports whether the bytes to send are the ones the plan
// hashed (planned is the plan's content_sha256, unknown when the plan
// could not read them); when not, nothing is sent and the error says so.
func (p *preparedUpload) checkPlanned(planned types.String, diags *diag.Diagnostics) bool {
	if !known(planned) || planned.ValueString() == p.sum {
		return true
	}
	diags.AddAttributeError(p.at, summaryDataChanged,
		fmt.Sprintf("The data to import changed between plan and apply: its SHA-256 is now %s, the plan has %s. "+
			"Nothing was sent, so that data other than the planned data is never imported. Run terraform plan again.", p.sum, planned.ValueString()))
	return false
}
