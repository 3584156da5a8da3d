package etl

import (
	"fmt"
	"strings"
)

// RowsProblemKind names the kind of problem CheckRows found.
type RowsProblemKind string

// The problems CheckRows reports.
const (
	// RowsEmpty means there are no rows at all.
	RowsEmpty RowsProblemKind = "empty"
	// RowsEmptyHeader means the header row has no cells.
	RowsEmptyHeader RowsProblemKind = "empty header"
	// RowsEmptyColumnName means a header cell is "" or only spaces and
	// tabs.
	RowsEmptyColumnName RowsProblemKind = "empty column name"
	// RowsWidth means a data row has more or fewer cells than the header.
	RowsWidth RowsProblemKind = "width"
	// RowsMore means there are more problems than were listed.
	RowsMore RowsProblemKind = "more"
)

// RowsProblem is one problem with the rows of a start with data: Row and
// Cell locate it (Cell -1: the whole row; Row -1: the rows as a whole).
type RowsProblem struct {
	Kind      RowsProblemKind
	Row, Cell int
	Want, Got int // the header's and the row's cell counts (RowsWidth)
	Message   string
}

// CheckRows checks rows for start with data: a header row of column
// names first, each name not blank, then data rows with one cell per
// column. Messages call the rows name, such as rows (rows[2], the header
// row rows[0]). A nil row is skipped (its value is not known yet); a nil
// header row skips the whole check. At most maxProblems problems are
// listed (maxProblems <= 0: 10), then one RowsMore.
func CheckRows(name string, rows [][]string, maxProblems int) []RowsProblem {
	if maxProblems <= 0 {
		maxProblems = 10
	}
	if len(rows) == 0 {
		return []RowsProblem{{Kind: RowsEmpty, Row: -1, Cell: -1,
			Message: name + ` is empty: the first row must be the header row of column names, followed by the data rows, for example [["Account", "Amount"], ["4000", "100"]]`}}
	}
	header := rows[0]
	if header == nil {
		return nil
	}
	if len(header) == 0 {
		return []RowsProblem{{Kind: RowsEmptyHeader, Row: 0, Cell: -1,
			Message: `the header row (` + name + `[0]) has no column names: the first row must name the template's columns, for example ["Account", "Amount"]`}}
	}
	var out []RowsProblem
	add := func(p RowsProblem) bool {
		if len(out) == maxProblems {
			out = append(out, RowsProblem{Kind: RowsMore, Row: -1, Cell: -1,
				Message: fmt.Sprintf("further rows have problems too; only the first %d are listed", maxProblems)})
			return false
		}
		out = append(out, p)
		return true
	}
	for j, col := range header {
		if isBlank(col) {
			if !add(RowsProblem{Kind: RowsEmptyColumnName, Row: 0, Cell: j,
				Message: fmt.Sprintf("column %d of the header row (%s[0][%d]) has no name: every column needs the name of a template column", j+1, name, j)}) {
				return out
			}
		}
	}
	for i := 1; i < len(rows); i++ {
		r := rows[i]
		if r == nil || len(r) == len(header) {
			continue
		}
		if !add(RowsProblem{Kind: RowsWidth, Row: i, Cell: -1, Want: len(header), Got: len(r),
			Message: fmt.Sprintf(`%[1]s[%[2]d] has %[3]d cells but the header row (%[1]s[0]) has %[4]d: every row must have one cell per column (use "" for an empty cell)`, name, i, len(r), len(header))}) {
			return out
		}
	}
	return out
}

// isBlank reports whether s is empty or only spaces and tabs.
func isBlank(s string) bool { return strings.Trim(s, " \t") == "" }

// CheckTable returns what is wrong with rows (called name) as a table, in
// CheckRows's words: no rows, a header row with no cells, or rows whose
// width differs from the header row's (the first named, the others
// counted); "" when they form one. A blank column name is no problem
// here: the rows are not checked against a template.
func CheckTable(name string, rows [][]string) string {
	if len(rows) == 0 || len(rows[0]) == 0 {
		// RowsEmpty or RowsEmptyHeader: the only problem listed (CheckRows
		// skips a nil header row as not yet known).
		if ps := CheckRows(name, rows, 1); len(ps) > 0 {
			return ps[0].Message
		}
		return "the header row (" + name + "[0]) has no cells"
	}
	// Room for every problem, so that none is cut off by RowsMore: at most
	// one per header cell and one per data row.
	var first string
	var more int
	for _, p := range CheckRows(name, rows, len(rows[0])+len(rows)) {
		if p.Kind != RowsWidth {
			continue
		}
		if first == "" {
			first = p.Message
		} else {
			more++
		}
	}
	switch more {
	case 0:
		return first
	case 1:
		return first + "; 1 more row has a different number of cells too"
	default:
		return fmt.Sprintf("%s; %d more rows have a different number of cells too", first, more)
	}
}
