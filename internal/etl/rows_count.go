package etl

// RowCount returns how many data rows the service imports from d: the rows
// after the header row. Sent as a CSV file (asCSV: CSVFile), a row of no
// cells is an empty line, which the service skips; sent as JSON
// (StartWithData), every row counts.
func (d DataUpload) RowCount(asCSV bool) int64 {
	if len(d.Rows) < 2 {
		return 0
	}
	n := int64(len(d.Rows) - 1)
	if asCSV {
		for _, row := range d.Rows[1:] {
			if len(row) == 0 {
				n--
			}
		}
	}
	return n
}

// Columns returns the header row's cells, d.Rows[0]; empty when there are
// no rows.
func (d DataUpload) Columns() []string {
	if len(d.Rows) == 0 {
		return []string{}
	}
	return d.Rows[0]
}
