package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// rowsFrom converts the rows attribute to its cells; false when the list,
// a row or a cell is unknown. A null list gives no rows.
func rowsFrom(l types.List) ([][]string, bool) {
	if l.IsUnknown() {
		return nil, false
	}
	out := make([][]string, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		row, ok := e.(types.List)
		if !ok || row.IsUnknown() {
			return nil, false
		}
		cells := make([]string, 0, len(row.Elements()))
		for _, c := range row.Elements() {
			s, ok := c.(types.String)
			if !ok || s.IsUnknown() {
				return nil, false
			}
			cells = append(cells, s.ValueString())
		}
		out = append(out, cells)
	}
	return out, true
}

// rowsAsFileDetail returns the detail of the warning for rows whose JSON
// body (jsonSize bytes) is over the limit of start with data (limit
// bytes), which are sent as a CSV file instead.
func rowsAsFileDetail(jsonSize, limit int64) string {
	return fmt.Sprintf("The rows encode to a %d-byte JSON body, over the service's %d-byte limit for JSON, so they are sent instead as a UTF-8 CSV file (%s) "+
		"as a file upload, with the same header, rows and template. content_sha256 is the SHA-256 of that CSV file. "+
		"To silence this warning, write the rows to a file and use file.path.", jsonSize, limit, etl.CSVFileName)
}

// rowsAsFileSummary titles the warning for rows sent as a CSV file
// (rowsAsFileDetail).
const rowsAsFileSummary = "Rows sent as a CSV file"
