package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// rowsFrom converts the rows attribute; known is false when a row or cell
// is unknown.
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

// hashRows returns the SHA-256 hex digest and the size of the JSON body
// start-with-data sends for the rows.
func hashRows(rows [][]string) (string, int64) {
	h := sha256.New()
	n, _ := etl.DataUpload{Rows: rows}.WriteTo(h)
	return hex.EncodeToString(h.Sum(nil)), n
}

// rowsPayload is how rows are sent: as the JSON body of start with data
// when it fits the service's limit, else as a UTF-8 CSV file through start
// with file (asFile). sum is the SHA-256 of the bytes sent either way, and
// jsonSize the length of the JSON body.
func rowsPayload(rows [][]string) (sum string, asFile bool, jsonSize int64) {
	sum, jsonSize = hashRows(rows)
	if jsonSize <= etl.MaxDataBodyBytes {
		return sum, false, jsonSize
	}
	return hashRowsCSV(rows), true, jsonSize
}

// hashRowsCSV returns the SHA-256 hex digest of the CSV file rows over the
// limit are sent as.
func hashRowsCSV(rows [][]string) string {
	h := sha256.New()
	_, _ = etl.DataUpload{Rows: rows}.WriteCSV(h)
	return hex.EncodeToString(h.Sum(nil))
}

// rowsAsFileDetail explains the warning about rows sent as a file.
func rowsAsFileDetail(jsonSize int64) string {
	return fmt.Sprintf("The rows encode to a %d-byte JSON body, over the %d-byte limit of start with data, so they are sent instead as a UTF-8 CSV file (%s) "+
		"through start with file, with the same header, rows and template. content_sha256 is the SHA-256 of that CSV file. "+
		"To silence this warning, write the rows to a file and use file.path.", jsonSize, etl.MaxDataBodyBytes, etl.CSVFileName)
}

const rowsAsFileSummary = "Rows sent as a CSV file"
