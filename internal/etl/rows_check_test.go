package etl

import (
	"strings"
	"testing"
)

func TestCheckRows(t *testing.T) {
	cases := []struct {
		name  string
		rows  [][]string
		kinds []RowsProblemKind
		rowAt []int
		has   string
	}{
		{"ok", [][]string{{"A", "B"}, {"1", "2"}}, nil, nil, ""},
		{"header only", [][]string{{"A", "B"}}, nil, nil, ""},
		{"empty", nil, []RowsProblemKind{RowsEmpty}, []int{-1}, "header row"},
		{"empty header", [][]string{{}}, []RowsProblemKind{RowsEmptyHeader}, []int{0}, "rows[0]"},
		{"blank name", [][]string{{"A", " "}, {"1", "2"}}, []RowsProblemKind{RowsEmptyColumnName}, []int{0}, "rows[0][1]"},
		{"ragged", [][]string{{"A", "B"}, {"1"}, {"1", "2"}, {"1", "2", "3"}}, []RowsProblemKind{RowsWidth, RowsWidth}, []int{1, 3}, "rows[1] has 1 cells but the header row (rows[0]) has 2"},
		{"unknown row skipped", [][]string{{"A"}, nil, {"1"}}, nil, nil, ""},
		{"unknown header", [][]string{nil, {"1", "2"}}, nil, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CheckRows("rows", c.rows, 0)
			if len(got) != len(c.kinds) {
				t.Fatalf("got %+v, want kinds %v", got, c.kinds)
			}
			for i, p := range got {
				if p.Kind != c.kinds[i] || p.Row != c.rowAt[i] {
					t.Errorf("problem %d: %+v, want %s at row %d", i, p, c.kinds[i], c.rowAt[i])
				}
			}
			if c.has != "" && !strings.Contains(got[0].Message, c.has) {
				t.Errorf("%q does not contain %q", got[0].Message, c.has)
			}
		})
	}
	many := [][]string{{"A", "B"}}
	for range 30 {
		many = append(many, []string{"1"})
	}
	if got := CheckRows("rows", many, 5); len(got) != 6 || got[5].Kind != RowsMore {
		t.Fatalf("want 5 problems and a RowsMore, got %d: %+v", len(got), got[len(got)-1])
	}
}

// TestCheckRows_name: the messages call the rows by the name given.
func TestCheckRows_name(t *testing.T) {
	for _, name := range []string{"rows", "rows_wo", `inputs["Load Rates"].rows`} {
		ragged := CheckRows(name, [][]string{{"A", " "}, {"1"}}, 0)
		empty := CheckRows(name, nil, 0)
		if len(ragged) != 2 || len(empty) != 1 {
			t.Fatalf("%s: %+v, %+v", name, ragged, empty)
		}
		for got, want := range map[string]string{
			ragged[0].Message: "column 2 of the header row (" + name + "[0][1]) has no name",
			ragged[1].Message: name + "[1] has 1 cells but the header row (" + name + "[0]) has 2",
			empty[0].Message:  name + " is empty: the first row",
			CheckRows(name, [][]string{{}}, 0)[0].Message: "the header row (" + name + "[0]) has no column names",
		} {
			if !strings.HasPrefix(got, want) {
				t.Errorf("%q, want it to begin %q", got, want)
			}
		}
	}
}

// TestCheckTable: rows as a table: empty, a header with no cells, rows of
// another width (the first named, the others counted); blank column
// names pass.
func TestCheckTable(t *testing.T) {
	for _, c := range []struct {
		rows [][]string
		want string
	}{
		{[][]string{{"A", "B"}, {"1", "2"}}, ""},
		{[][]string{{"", " "}, {"1", "2"}}, ""},
		{nil, `rows is empty: the first row must be the header row of column names, followed by the data rows, for example [["Account", "Amount"], ["4000", "100"]]`},
		{[][]string{{}, {}}, `the header row (rows[0]) has no column names: the first row must name the template's columns, for example ["Account", "Amount"]`},
		{[][]string{nil}, "the header row (rows[0]) has no cells"},
		{[][]string{{"A", "B"}, {"1", "2", "3"}}, `rows[1] has 3 cells but the header row (rows[0]) has 2: every row must have one cell per column (use "" for an empty cell)`},
		{[][]string{{"", " "}, {"1"}, {"2"}}, `rows[1] has 1 cells but the header row (rows[0]) has 2: every row must have one cell per column (use "" for an empty cell); 1 more row has a different number of cells too`},
		{[][]string{{"A", "B"}, {"1"}, {"2"}, {"1", "2", "3"}}, `rows[1] has 1 cells but the header row (rows[0]) has 2: every row must have one cell per column (use "" for an empty cell); 2 more rows have a different number of cells too`},
	} {
		if got := CheckTable("rows", c.rows); got != c.want {
			t.Errorf("%q: %q, want %q", c.rows, got, c.want)
		}
	}
}

// rowsFromBytes splits fuzz input into rows: '\n' ends a row, ',' a cell,
// a row "~" is nil (unknown).
func rowsFromBytes(in string) [][]string {
	if in == "" {
		return nil
	}
	var rows [][]string
	for _, ln := range strings.Split(in, "\n") {
		switch ln {
		case "~":
			rows = append(rows, nil)
		case "":
			rows = append(rows, []string{})
		default:
			rows = append(rows, strings.Split(ln, ","))
		}
	}
	return rows
}

// FuzzCheckRows: never panics; every problem points inside the rows; a
// width problem is exactly a known row whose width differs from the
// header's; no problem means a header of named columns and rows as wide.
func FuzzCheckRows(f *testing.F) {
	for _, s := range []string{"", "A,B\n1,2", "A,B\n1", "\nA", "A, \n1,2", "~\n1,2", "A\n~\n1,2", "A,B\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, in string, maxProblems uint8) {
		rows := rowsFromBytes(in)
		probs := CheckRows("rows", rows, int(maxProblems))
		limit := int(maxProblems)
		if limit == 0 {
			limit = 10
		}
		if len(probs) > limit+1 {
			t.Fatalf("%d problems listed, limit %d", len(probs), limit)
		}
		widths := map[int]bool{}
		for _, p := range probs {
			if p.Message == "" {
				t.Fatalf("problem without a message: %+v", p)
			}
			switch p.Kind {
			case RowsWidth:
				if p.Row < 1 || p.Row >= len(rows) || rows[p.Row] == nil || len(rows[p.Row]) == len(rows[0]) || p.Got != len(rows[p.Row]) || p.Want != len(rows[0]) {
					t.Fatalf("bad width problem %+v", p)
				}
				widths[p.Row] = true
			case RowsEmptyColumnName:
				if p.Row != 0 || strings.TrimSpace(rows[0][p.Cell]) != "" {
					t.Fatalf("bad column name problem %+v", p)
				}
			case RowsEmpty:
				if len(rows) != 0 {
					t.Fatalf("empty reported for %d rows", len(rows))
				}
			}
		}
		if len(probs) == 0 && len(rows) > 0 && rows[0] != nil {
			if len(rows[0]) == 0 {
				t.Fatal("an empty header passed")
			}
			for i, r := range rows[1:] {
				if r != nil && len(r) != len(rows[0]) {
					t.Fatalf("row %d of width %d passed with header %d", i+1, len(r), len(rows[0]))
				}
			}
		}
	})
}
