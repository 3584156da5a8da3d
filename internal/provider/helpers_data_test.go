package provider

// Test data built independently of the provider's code: rows as
// framework values, delimited text in each format and encoding, files
// written to a test's directory, large CSV files, the start-with-data body
// and SHA-256 sums.

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// rowsValue builds a rows list (a list of lists of strings) from rows
// of cells; a nil row is a null list.
func rowsValue(t *testing.T, rows ...[]attr.Value) types.List {
	t.Helper()
	elems := make([]attr.Value, len(rows))
	for i, r := range rows {
		if r == nil {
			elems[i] = types.ListNull(types.StringType)
			continue
		}
		l, d := types.ListValue(types.StringType, r)
		if d.HasError() {
			t.Fatal(d)
		}
		elems[i] = l
	}
	l, d := types.ListValue(types.ListType{ElemType: types.StringType}, elems)
	if d.HasError() {
		t.Fatal(d)
	}
	return l
}

// cells makes string values of ss: one row for rowsValue.
func cells(ss ...string) []attr.Value {
	out := make([]attr.Value, len(ss))
	for i, s := range ss {
		out[i] = types.StringValue(s)
	}
	return out
}

// encodeTestText encodes text independently of the provider's code: UTF-16
// little-endian with a BOM, or one byte per rune for Windows Latin-1
// (the test texts stay within Latin-1).
func encodeTestText(t *testing.T, s string, enc string) []byte {
	t.Helper()
	switch enc {
	case "UTF-8":
		return []byte(s)
	case "UTF-16":
		out := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(s)) {
			out = append(out, byte(u), byte(u>>8))
		}
		return out
	case "Windows Latin-1":
		var out []byte
		for _, r := range s {
			if r > 0xFF || (r >= 0x80 && r < 0xA0) {
				t.Fatalf("test text rune %q is not in Latin-1", r)
			}
			out = append(out, byte(r))
		}
		return out
	}
	t.Fatalf("unknown encoding %q", enc)
	return nil
}

// sha256Hex is the SHA-256 of b in lower-case hex.
func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// testRows is a header row and two data rows whose cells are not all
// ASCII.
var testRows = [][]string{
	{"Account", "Amount", "City"},
	{"4000", "100.50", "Montréal"},
	{"4010", "-20", "Zürich"},
}

// delimited writes rows as a delimited file of the format (CSV, PSV or
// TDF) with encoding/csv, independently of the provider's code: "\n" line
// ends, and a cell quoted only when it must be.
func delimited(rows [][]string, format string) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Comma = map[string]rune{"CSV": ',', "PSV": '|', "TDF": '\t'}[format]
	if err := w.WriteAll(rows); err != nil {
		panic(err)
	}
	return b.String()
}

// repeatCSV is a large CSV file: a header line, then n copies of row.
func repeatCSV(header, row string, n int) []byte {
	b := make([]byte, 0, len(header)+1+n*(len(row)+1))
	b = append(append(b, header...), '\n')
	for range n {
		b = append(append(b, row...), '\n')
	}
	return b
}

// writeFile writes b to name in dir and returns its path.
func writeFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeTestFile writes rows as a delimited file in the encoding and returns
// its path and bytes.
func writeTestFile(t *testing.T, dir, name, format, enc string, rows [][]string) (string, []byte) {
	t.Helper()
	raw := encodeTestText(t, delimited(rows, format), enc)
	return writeFile(t, dir, name, raw), raw
}

// rowsBody is the start-with-data JSON body, built independently of the client.
func rowsBody(t *testing.T, rows [][]string) []byte {
	t.Helper()
	type input struct {
		Data [][]string `json:"data"`
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Input input `json:"input"`
	}{input{rows}}); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// testDataBodyLimit is the start-with-data limit the acceptance tests of
// rows sent as a file cross (lowLimitProvider, lowerDataBodyLimit): 64 KiB
// of rows instead of 25 MB, which kept both cores busy for minutes under
// -race.
const testDataBodyLimit = 64 << 10

// lowerDataBodyLimit returns the emulator options that refuse a JSON body
// over testDataBodyLimit (413), so that a body over it would fail a test
// of a lowLimitProvider.
func lowerDataBodyLimit(opts emulator.Options) emulator.Options {
	opts.MaxDataBytes = testDataBodyLimit
	return opts
}

// fileObject is a file attribute naming the file at path p, as CSV in
// UTF-8.
func fileObject(t *testing.T, p string) types.Object {
	t.Helper()
	null := types.StringNull()
	obj, d := types.ObjectValueFrom(t.Context(), fileAttrTypes, fileModel{Path: types.StringValue(p), Content: null, ContentWO: null,
		Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8"), Name: null, PartName: null})
	if d.HasError() {
		t.Fatal(d)
	}
	return obj
}

// inputsObject is an inputs map of ins.
func inputsObject(t *testing.T, ins ...keyedInput) types.Map {
	t.Helper()
	m, d := inputsValue(t.Context(), ins)
	if d.HasError() {
		t.Fatal(d)
	}
	return m
}
