package etl

import (
	"bytes"
	"encoding/csv"
	"io"
	"slices"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

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
