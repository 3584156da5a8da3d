package importjob

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The docs state the rules as tables; the tests below hold one case (or
// more) per row, named by the row's first cell as the docs write it. A row
// added to a table without a case, or a case whose row is gone, fails
// TestDocTables: a change of behaviour changes both or neither.

// docTable is one table of the docs (their source, under templates/),
// found by its header row.
type docTable struct {
	file, header string
	cases        []rowCase
}

// rowCase is one case of a table's row: check calls the rules with the
// facts the row describes and asserts what its other cells say.
type rowCase struct {
	row   string
	check func(t *testing.T)
}

// docTables are the tables the rules answer for, with their cases.
func docTables() []docTable {
	return []docTable{
		{"templates/resources/import.md.tmpl", "| Change | Starts a new job? |", changeCases()},
		{"templates/guides/interrupted-applies.md.tmpl", "| The job, at the next apply | What that apply does | Jobs started |", nextApplyCases()},
		{"templates/guides/exactly-once.md.tmpl", "| What you run or change | What the next apply does | Jobs started |", runOrChangeCases()},
		{"templates/guides/exactly-once.md.tmpl", "| What happens | The entry | What you see |", entryCases()},
	}
}

// tableRows is the first cell of each row of the table under header in
// file (relative to the repository's root).
func tableRows(t *testing.T, file, header string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", file))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	i := slices.Index(lines, header)
	if i < 0 {
		t.Fatalf("%s has no table %q", file, header)
	}
	var rows []string
	for _, l := range lines[i+2:] { // past the header and its separator
		if !strings.HasPrefix(l, "|") {
			break
		}
		rows = append(rows, strings.TrimSpace(strings.Split(l, " | ")[0][1:]))
	}
	return rows
}

// TestDocTables runs each table's cases, and fails when a row has no case
// or a case no row.
func TestDocTables(t *testing.T) {
	for _, tb := range docTables() {
		rows := tableRows(t, tb.file, tb.header)
		covered := map[string]bool{}
		for _, c := range tb.cases {
			if !slices.Contains(rows, c.row) {
				t.Errorf("%s, table %s: a case names the row %q, which the table does not have", tb.file, tb.header, c.row)
			}
			covered[c.row] = true
			t.Run(c.row, c.check)
		}
		for _, r := range rows {
			if !covered[r] {
				t.Errorf("%s, table %s: the row %q has no case", tb.file, tb.header, r)
			}
		}
		t.Logf("%s, table %s: %d rows, %d cases", tb.file, tb.header, len(rows), len(tb.cases))
	}
}
