package etl

import (
	"bytes"
	"encoding/csv"
	"testing"
)

func TestFindCRLF(t *testing.T) {
	cases := []struct {
		name  string
		rows  [][]string
		want  CRLFCell
		found bool
	}{
		{"none", [][]string{{"A", "B"}, {"1", "2"}}, CRLFCell{-1, -1, 0}, false},
		{"no rows", nil, CRLFCell{-1, -1, 0}, false},
		{"lone LF and lone CR are kept", [][]string{{"A", "B"}, {"a\nb", "a\rb"}, {"\n\r", "x\r"}}, CRLFCell{-1, -1, 0}, false},
		{"a data cell", [][]string{{"A", "B"}, {"1", "2"}, {"3", "line 1\r\nline 2"}}, CRLFCell{2, 1, 1}, true},
		{"first of three, row by row", [][]string{{"A", "B"}, {"1", "x\r\n"}, {"\r\n", "\r\n\r\n"}}, CRLFCell{1, 1, 3}, true},
		{"the header row", [][]string{{"A\r\nB"}, {"1"}}, CRLFCell{0, 0, 1}, true},
		{"a nil row is skipped", [][]string{{"A"}, nil, {"\r\n"}}, CRLFCell{2, 0, 1}, true},
	}
	for _, c := range cases {
		got, found := FindCRLF(c.rows)
		if got != c.want || found != c.found {
			t.Errorf("%s: FindCRLF = %+v, %v; want %+v, %v", c.name, got, found, c.want, c.found)
		}
	}
}

// TestFindCRLFIsWhatCSVChanges: the cells FindCRLF counts are exactly the
// cells whose value changes when the rows go as the CSV file (WriteCSV,
// CSVFile) and are read back by a CSV reader (encoding/csv, as csvdecode
// and most readers): CR LF becomes LF there, and nothing else changes.
func TestFindCRLFIsWhatCSVChanges(t *testing.T) {
	rows := [][]string{
		{"Account", "Note\r\nheader", "Amount"},
		{"4000", "a\r\nb", "1"},
		{"4001", "a\nb", "\r"},
		{" lead", "\r\n\r\n", "x\ry"},
		{"\"q\"\r\n", ",", "\n"},
	}
	var buf bytes.Buffer
	if _, err := (DataUpload{Rows: rows}).WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	changed, first := 0, CRLFCell{Row: -1, Cell: -1}
	for i, row := range rows {
		for j, cell := range row {
			if back[i][j] == cell {
				continue
			}
			if changed == 0 {
				first.Row, first.Cell = i, j
			}
			changed++
		}
	}
	first.Count = changed
	if got, found := FindCRLF(rows); got != first || !found || changed != 4 {
		t.Errorf("FindCRLF = %+v; the CSV round trip changed %d cells, the first rows[%d][%d]", got, changed, first.Row, first.Cell)
	}
}
