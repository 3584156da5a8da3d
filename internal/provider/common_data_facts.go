package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// Data facts (columns, row_count, size_bytes): what they are (dataFacts),
// and how the data sent is counted: a file's in the read that hashes it,
// inline content from its encoded bytes, rows as they are sent. The
// resource plans them (resource_import_data_facts.go), the action reports
// them.

// dataFacts is the columns, row_count and size_bytes of a job's data, as
// the resource's model and each of its inputs embed them.
type dataFacts struct {
	Columns   types.List  `tfsdk:"columns"`
	RowCount  types.Int64 `tfsdk:"row_count"`
	SizeBytes types.Int64 `tfsdk:"size_bytes"`
}

// nullFacts are the facts of inputs, or of no data.
func nullFacts() dataFacts {
	return dataFacts{Columns: types.ListNull(types.StringType), RowCount: types.Int64Null(), SizeBytes: types.Int64Null()}
}

// unknownFacts are the facts of data unknown until apply; columns null
// when the data is write-only.
func unknownFacts(writeOnly bool) dataFacts {
	f := dataFacts{Columns: types.ListUnknown(types.StringType), RowCount: types.Int64Unknown(), SizeBytes: types.Int64Unknown()}
	if writeOnly {
		f.Columns = types.ListNull(types.StringType)
	}
	return f
}

// factsOfCounts maps the counts of the data sent: the one place they
// become the facts; columns null when the data is write-only, or (with a
// warning on at) when the header row could not be read.
func factsOfCounts(c *flatfile.Counts, writeOnly bool, at path.Path, diags *diag.Diagnostics) dataFacts {
	f := dataFacts{Columns: types.ListNull(types.StringType), RowCount: types.Int64Value(c.Rows), SizeBytes: types.Int64Value(c.Size)}
	switch {
	case writeOnly:
	case c.Columns == nil:
		diags.AddAttributeWarning(at, "The header row cannot be shown",
			fmt.Sprintf("columns is null in the plan: %s. row_count and size_bytes are known.", c.NoColumns))
	default:
		f.Columns = stringList(c.Columns)
	}
	return f
}

// factsOfRows returns the facts of rows (rows_wo: writeOnly, columns null),
// as they are sent (etl.DataUpload.Payload): the JSON body, or the CSV
// file over limit bytes.
func factsOfRows(l types.List, writeOnly bool, limit int64) dataFacts {
	rows, ok := rowsFrom(l)
	if !ok {
		return unknownFacts(writeOnly)
	}
	d := etl.DataUpload{Rows: rows}
	p := d.Payload(limit)
	return factsOfCounts(&flatfile.Counts{Columns: d.Columns(), Rows: p.Rows, Size: p.Size}, writeOnly, path.Empty(), nil)
}

// factsOfFile returns the facts of the file block f (its content_wo
// filled in): a file's from rec, the record of its hash (nil or without
// counts: unknown), inline content's counted from its encoded bytes.
func factsOfFile(f fileModel, rec *localfile.Record, diags *diag.Diagnostics) dataFacts {
	content, name := f.inline()
	writeOnly := name == "content_wo"
	switch {
	case f.Path.IsUnknown():
		return unknownFacts(false)
	case !f.Path.IsNull():
		c := rec.CountsFor(checkKey(f))
		if c == nil {
			return unknownFacts(false)
		}
		return factsOfCounts(c, false, filePath("path"), diags)
	case !known(content) || !known(f.Encoding):
		return unknownFacts(writeOnly)
	}
	b, err := etl.EncodeText(content.ValueString(), flatfile.Encoding(f.Encoding.ValueString()))
	if err != nil {
		return unknownFacts(writeOnly) // the hash reports it
	}
	t, ok := checkTarget(f) // b counted as a file in f's format and encoding
	if !ok {
		return unknownFacts(writeOnly)
	}
	c, err := t.Counter()
	if err != nil {
		return unknownFacts(writeOnly)
	}
	_, _ = c.Write(b)
	counts := c.Result()
	return factsOfCounts(&counts, writeOnly, filePath(name), diags)
}

// planDataFacts returns the facts of the data s sends (wo: its write-only
// data; limit: the largest JSON body of rows); rec is the record of the
// top-level file's hash (nil: none).
func planDataFacts(ctx context.Context, s importSpec, wo writeOnlyData, rec *localfile.Record, limit int64, diags *diag.Diagnostics) dataFacts {
	if !s.Inputs.IsNull() {
		return nullFacts()
	}
	if rows, at := wo.rowsOf(s); !rows.IsNull() {
		return factsOfRows(rows, at.Equal(path.Root("rows_wo")), limit)
	}
	if s.File.IsUnknown() {
		return unknownFacts(false)
	}
	f, _ := fileFrom(ctx, s.File)
	if f == nil {
		return nullFacts()
	}
	return factsOfFile(wo.withContent(*f), rec, diags)
}

// factsOfInputRows returns the facts of an input's rows, which are always
// sent as a UTF-8 CSV file (rowsInput): its data records and its size.
func factsOfInputRows(rows [][]string) dataFacts {
	d := etl.DataUpload{Rows: rows}
	return factsOfCounts(&flatfile.Counts{Columns: d.Columns(), Rows: d.RowCount(true), Size: d.CSVSize()}, false, path.Empty(), nil)
}

// describeCounts says how many data rows and bytes f holds
// (importjob.DescribeCounts), leaving out what is not known.
func describeCounts(f dataFacts) string {
	count := func(v types.Int64) int64 {
		if v.IsNull() || v.IsUnknown() {
			return -1
		}
		return v.ValueInt64()
	}
	return importjob.DescribeCounts(count(f.RowCount), count(f.SizeBytes))
}
