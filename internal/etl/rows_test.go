package etl

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// TestPayload: under the limit, the JSON body's hash, size and rows; over
// it, the CSV's (a row of no cells not counted), flagged as a file.
func TestPayload(t *testing.T) {
	small := DataUpload{Rows: [][]string{{"Account", "Amount"}, {"4000", "1"}, {}}}
	p := small.Payload(MaxDataBodyBytes)
	if js, size := small.SHA256(); p.AsFile || p.SHA256 != js || p.JSONSize != size || p.Size != size || p.Rows != 2 {
		t.Fatalf("small rows: %+v", p)
	}
	var file bytes.Buffer
	_, _ = small.WriteCSV(&file)
	if p := small.Payload(p.JSONSize - 1); !p.AsFile || p.SHA256 != small.CSVSHA256() || p.Size != int64(file.Len()) || p.Rows != 1 {
		t.Fatalf("small rows over a lower limit: %+v", p)
	}
	big := DataUpload{Rows: [][]string{{"Account", "Memo"}}}
	cell := strings.Repeat("x", 1<<20)
	for range 26 {
		big.Rows = append(big.Rows, []string{"4000", cell})
	}
	p = big.Payload(MaxDataBodyBytes)
	var want bytes.Buffer
	_, _ = big.WriteCSV(&want)
	if !p.AsFile || p.SHA256 != sha(want.Bytes()) || p.JSONSize <= MaxDataBodyBytes {
		t.Fatalf("big rows: %+v", p)
	}
}

// TestPayloadOverTheLimitGolden: rows just over the 25 MB JSON limit are
// sent as a CSV file, and content_sha256 in users' state is that file's
// hash: this value must never change.
func TestPayloadOverTheLimitGolden(t *testing.T) {
	big := DataUpload{Rows: [][]string{{"Account", "Amount", "Memo, long"}}}
	for i := range 27 {
		big.Rows = append(big.Rows, []string{fmt.Sprint(4000 + i), strings.Repeat(fmt.Sprint(i%10), 1<<20), `say "hi"`})
	}
	p := big.Payload(MaxDataBodyBytes)
	if !p.AsFile {
		t.Fatalf("rows of %d bytes not sent as a file", p.JSONSize)
	}
	if want := "3f90d77d0339750feeea13a4e9524782f72e10eb428159ba94c94a680ba06c9d"; p.SHA256 != want || p.JSONSize != 28312281 {
		t.Errorf("rows over the limit: SHA-256 %s (JSON %d bytes), want %s", p.SHA256, p.JSONSize, want)
	}
}

// TestDataUploadSHA256: the rows' hash is the hash of exactly the body the
// client sends, and the CSV's of exactly the file.
func TestDataUploadSHA256(t *testing.T) {
	d := DataUpload{Rows: [][]string{{"Account", "Amount"}, {"4000", "Montréal \"quoted\" <&>\n"}}}
	var body, file bytes.Buffer
	if _, err := d.WriteTo(&body); err != nil {
		t.Fatal(err)
	}
	if _, err := d.WriteCSV(&file); err != nil {
		t.Fatal(err)
	}
	if rs, size := d.SHA256(); rs != sha(body.Bytes()) || size != int64(body.Len()) {
		t.Errorf("SHA256 = %s, %d; want the hash of %q", rs, size, body.String())
	}
	if !strings.HasPrefix(body.String(), `{"input":{"data":[["Account","Amount"],`) {
		t.Errorf("body %q", body.String())
	}
	if got := d.CSVSHA256(); got != sha(file.Bytes()) {
		t.Errorf("CSVSHA256 = %s; want the hash of %q", got, file.String())
	}
}

// TestDataUploadRowCount: the rows after the header; sent as CSV, a row
// of no cells (an empty line) is not one.
func TestDataUploadRowCount(t *testing.T) {
	d := DataUpload{Rows: [][]string{{"A", "B"}, {"1", "2"}, {}, {""}}}
	if got := d.RowCount(false); got != 3 {
		t.Fatalf("JSON: %d rows, want 3", got)
	}
	if got := d.RowCount(true); got != 2 {
		t.Fatalf("CSV: %d rows, want 2", got)
	}
	if !slices.Equal(d.Columns(), []string{"A", "B"}) {
		t.Fatalf("columns %q", d.Columns())
	}
	for _, e := range []DataUpload{{}, {Rows: [][]string{{"A"}}}} {
		if e.RowCount(true) != 0 || e.RowCount(false) != 0 || e.Columns() == nil {
			t.Fatalf("%v: %d rows, columns %q", e.Rows, e.RowCount(false), e.Columns())
		}
	}
}

// TestDataUploadRowCountMatchesCSVFile: the count for CSV is what the
// counter finds in the CSV file the rows are sent as.
func TestDataUploadRowCountMatchesCSVFile(t *testing.T) {
	d := DataUpload{Rows: [][]string{{"A", "B"}, {"1", "x\ny"}, {}, {""}, {"", ""}}}
	var buf []byte
	for _, row := range d.Rows {
		buf = appendCSVRow(buf, row)
	}
	c, _ := flatfile.NewRowCounter(flatfile.FormatCSV, flatfile.EncodingUTF8)
	_, _ = c.Write(buf)
	got := c.Result()
	if got.Rows != d.RowCount(true) || !slices.Equal(got.Columns, d.Columns()) {
		t.Fatalf("counter %+v, RowCount %d", got, d.RowCount(true))
	}
}

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

// goldenCSV pins the CSV file of rows sent as a file for goldenRowSets:
// content_sha256 in users' state is a hash of these bytes, so a changed
// byte would replace their imports. These values must never change.
var goldenCSV = map[string]golden{
	"plain":          {35, "b5e1317f2fdf4ec945afd576fc48484abe7bc06ee822f7a73ed7b6119597dfe1"},
	"tricky":         {222, "536dd139fda6dfb2d70bd32b4a8d861ea77ca42e2e3c11b448e251a30c7e17d7"},
	"one empty cell": {10, "ba030c49900bbcb59be4ef4b88c141b970289be6ed72821eb7624ee696986713"},
	"header only":    {15, "61a4261d788b79bfdbcbb532ad43ab4e65dece8e7fb3b20f621151e7cde7f667"},
	"many rows":      {215552, "bb76f2c7d840e7153403d11bfafa42f0f127f6e3e915af4e84040a808a638e81"},
}

func TestCSVRowsEncodingIsGolden(t *testing.T) {
	for name, rows := range goldenRowSets {
		d := DataUpload{Rows: rows}
		var c bytes.Buffer
		if _, err := d.WriteCSV(&c); err != nil {
			t.Fatal(err)
		}
		rc, _ := d.CSVFile().Open()
		streamed, _ := io.ReadAll(rc)
		if !bytes.Equal(streamed, c.Bytes()) {
			t.Errorf("%s: the streamed CSV differs from WriteCSV", name)
		}
		if got, want := goldenOf(c.Bytes()), goldenCSV[name]; got != want {
			t.Errorf("%s: CSV rows encoding is %d bytes, sha256 %s; pinned %d bytes, %s", name, got.size, got.sha, want.size, want.sha)
		}
	}
	for name, want := range map[string]string{
		"plain":          "Account,Amount\n4000,100.5\n4010,-20\n",
		"one empty cell": "Only\n\"\"\nx\n",
	} {
		var c bytes.Buffer
		_, _ = DataUpload{Rows: goldenRowSets[name]}.WriteCSV(&c)
		if c.String() != want {
			t.Errorf("%s: CSV %q, want %q", name, c.String(), want)
		}
	}
}

var csvTestRows = [][]string{
	{"Account", "Amount", "Memo"},
	{"4000", "100.5", "plain"},
	{"4010", "-20", `say "hi", twice`},
	{"4020", "", "line one\nline two"},
	{"4030", " lead", "trail\t"},
	{"4040", "Montréal", "<&>"},
	{"4050", `""`, ","},
}

// The CSV reads back, with encoding/csv, as exactly the rows; its size is
// exact, and streaming it gives the same bytes as WriteCSV.
func TestRowsCSVRoundTrip(t *testing.T) {
	for _, rows := range [][][]string{csvTestRows, {{"Only"}, {""}, {"x"}}} {
		d := DataUpload{Rows: rows}
		var buf bytes.Buffer
		n, err := d.WriteCSV(&buf)
		if err != nil || n != int64(buf.Len()) || d.CSVSize() != n {
			t.Fatalf("WriteCSV %d (%v), buffer %d, CSVSize %d", n, err, buf.Len(), d.CSVSize())
		}
		r := csv.NewReader(bytes.NewReader(buf.Bytes()))
		r.FieldsPerRecord = -1
		got, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%v in %q", err, buf.String())
		}
		if !slices.EqualFunc(got, rows, slices.Equal) {
			t.Fatalf("read back %q, want %q", got, rows)
		}
		f := d.CSVFile()
		rc, _ := f.Open()
		streamed, err := io.ReadAll(io.LimitReader(rc, 1<<30))
		if err != nil || !bytes.Equal(streamed, buf.Bytes()) || f.Size != n {
			t.Fatalf("streamed %q (%v), size %d; want %q", streamed, err, f.Size, buf.String())
		}
	}
}

// Many rows stream through the chunked reader, read in small pieces.
func TestRowsCSVStreamsInChunks(t *testing.T) {
	d := DataUpload{Rows: testRows(20000)}
	var want bytes.Buffer
	_, _ = d.WriteCSV(&want)
	rc, _ := d.CSVFile().Open()
	var got bytes.Buffer
	if _, err := io.CopyBuffer(&got, struct{ io.Reader }{rc}, make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("streamed %d bytes, want %d", got.Len(), want.Len())
	}
}

// TestCSVFile_input: rows go as a UTF-8 CSV file named CSVFileName, in the
// part a file goes in by default, "file": users' states hold its hash.
func TestCSVFile_input(t *testing.T) {
	want := FileInput{PartName: "file", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "rows.csv"}
	if got := (DataUpload{}).CSVFile().Input; got != want || DefaultPartName != "file" {
		t.Errorf("CSVFile().Input = %+v, want %+v", got, want)
	}
}

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
