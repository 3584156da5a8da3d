package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// Counts of the data sent, as the action reports them: the same facts the
// resource plans (resource_import_data_facts.go), from the same reads.

// factsOfInputRows returns the facts of an input's rows, which are always
// sent as a UTF-8 CSV file (rowsInput): its data records and its size.
func factsOfInputRows(rows [][]string) dataFacts {
	d := etl.DataUpload{Rows: rows}
	return dataFacts{Columns: stringList(d.Columns()), RowCount: types.Int64Value(d.RowCount(true)), SizeBytes: types.Int64Value(d.CSVSize())}
}

// inputFileFacts returns the facts of an input's file block f (its
// content_wo filled in), just hashed with hc: a file's from the record of
// that read (hc.counted); unknown without hc.
func inputFileFacts(f fileModel, hc *hashCache, diags *diag.Diagnostics) dataFacts {
	_, name := f.inline()
	if hc == nil {
		return unknownFacts(name == "content_wo")
	}
	return factsOfFile(f, hc.counted, diags)
}

// describeCounts says how many data rows and bytes f holds, such as
// "3 data rows, 120 bytes", leaving out what is not known; never a cell.
func describeCounts(f dataFacts) string {
	var parts []string
	if !f.RowCount.IsNull() && !f.RowCount.IsUnknown() {
		n := f.RowCount.ValueInt64()
		if n == 1 {
			parts = append(parts, "1 data row")
		} else {
			parts = append(parts, fmt.Sprintf("%d data rows", n))
		}
	}
	if !f.SizeBytes.IsNull() && !f.SizeBytes.IsUnknown() {
		parts = append(parts, fmt.Sprintf("%d bytes", f.SizeBytes.ValueInt64()))
	}
	return strings.Join(parts, ", ")
}
