package etl

import "strings"

// CRLFCell is where FindCRLF found a cell holding a CR LF ("\r\n"): the
// first such cell, row by row (the header row is rows[0]), and how many
// cells hold one. Such a cell imports as it is when the rows are sent as
// the JSON body of start with data, but a CSV reader, the service's
// included, reads a CR LF inside a quoted cell as LF ("\n") when the same
// rows are sent as a CSV file (CSVFile, for rows over MaxDataBodyBytes) or
// encoded by WriteCSV: the value imported then depends on the rows' size.
type CRLFCell struct {
	Row, Cell int // rows[Row][Cell]
	Count     int // cells holding a CR LF, this one included
}

// FindCRLF returns the first cell of rows that holds a CR LF, and how many
// do; false when none does. A lone CR or LF is not one: a CSV reader keeps
// it.
func FindCRLF(rows [][]string) (CRLFCell, bool) {
	found := CRLFCell{Row: -1, Cell: -1}
	for i, row := range rows {
		for j, cell := range row {
			if !strings.Contains(cell, "\r\n") {
				continue
			}
			if found.Count == 0 {
				found.Row, found.Cell = i, j
			}
			found.Count++
		}
	}
	return found, found.Count > 0
}
