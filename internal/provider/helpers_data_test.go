package provider

// Test data built independently of the provider's code: rows as
// framework values, delimited text in each format and encoding, files
// written to a test's directory, large CSV files, the start-with-data body
// and SHA-256 sums; the rows and goldens several tests send, the hash of
// inputs computed apart (entryHash), and files with old or frozen
// timestamps for the hash cache.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
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

var glRows = [][]string{{"Account", "Amount"}, {"4000", "1"}}

// factsCSV has a quoted line break, CR LF line ends and no final line
// break: 3 data rows.
const factsCSV = "Account,Amount\r\n\"40\r\n00\",1\r\n4010,\"2\n3\"\r\n4020,4"

// entryHash is content_sha256 of a job with inputs, computed here from
// its documented construction: per input, in ascending input id,
// "<input id>\n<format>\n<encoding>\n<sha256 hex>\n".
func entryHash(entries ...[4]string) string {
	slices.SortFunc(entries, func(a, b [4]string) int { return strings.Compare(a[0], b[0]) })
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e[0] + "\n" + e[1] + "\n" + e[2] + "\n" + e[3] + "\n")
	}
	s := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(s[:])
}

// The rows of the "Load Rates" step, and the CSV file they are sent as
// (written by encoding/csv, not by the provider).
var ratesRows = [][]string{{"Currency", "Rate"}, {"EUR", "1.08"}, {"CAD", "0.73"}}

var actualsRows = [][]string{{"Account", "Amount"}, {"4000", "100.50"}, {"4010", "-20"}}

// goldenRows exercises the JSON encoder (HTML characters, escapes, U+2028,
// control characters, non-BMP) and the CSV writer (quoting of delimiters,
// quotes, CR, LF, leading and trailing spaces, an empty row cell).
var goldenRows = [][]string{
	{"Account", "Amount", "Memo"},
	{"4000", "100.50", `<a href="x">&amp;</a>`},
	{"4010", "-20", "back\\slash \"quoted\"\ttab"},
	{"4020", "", "line\nbreak\r\nCRLF"},
	{"4030", "1e3", "sep\u2028par\u2029 nul-ish \x01\x1f"},
	{"4040", " 7", "trailing "},
	{"4050", "8", "Montréal € 😀 中"},
	{"4060", "9", ","},
}

func goldenFile(t *testing.T, content, format, enc string) types.Object {
	t.Helper()
	obj, d := types.ObjectValueFrom(context.Background(), fileAttrTypes, fileModel{
		Path: types.StringNull(), Content: types.StringValue(content), Format: types.StringValue(format),
		Encoding: types.StringValue(enc), Name: types.StringNull(), PartName: types.StringValue("file"),
	})
	if d.HasError() {
		t.Fatal(d)
	}
	return obj
}

func goldenPath(t *testing.T, content string) types.Object {
	t.Helper()
	p := writeFile(t, t.TempDir(), "golden.csv", []byte(content))
	obj, d := types.ObjectValueFrom(context.Background(), fileAttrTypes, fileModel{
		Path: types.StringValue(p), Content: types.StringNull(), Format: types.StringValue("CSV"),
		Encoding: types.StringValue("UTF-8"), Name: types.StringValue("golden.csv"), PartName: types.StringValue("file"),
	})
	if d.HasError() {
		t.Fatal(d)
	}
	return obj
}

func goldenRowsList(t *testing.T, rows [][]string) types.List {
	t.Helper()
	elems := make([]attr.Value, len(rows))
	for i, r := range rows {
		cells := make([]attr.Value, len(r))
		for j, c := range r {
			cells[j] = types.StringValue(c)
		}
		elems[i] = types.ListValueMust(types.StringType, cells)
	}
	return types.ListValueMust(types.ListType{ElemType: types.StringType}, elems)
}

// inputsTF builds the inputs value: key -> {"file": {...}} or {"rows": [][]string}.
func inputsTF(t *testing.T, ins map[string]map[string]any) tftypes.Value {
	t.Helper()
	mt := importType().AttributeTypes["inputs"].(tftypes.Map)
	vals := map[string]tftypes.Value{}
	for k, in := range ins {
		vals[k] = tfValue(t, mt.ElementType, in)
	}
	return tftypes.NewValue(mt, vals)
}

// oldFile writes a file whose timestamps are older than the racy window:
// it waits the window out (a file's change time cannot be set back).
func oldFile(t *testing.T, content string) string {
	t.Helper()
	p := writeFile(t, t.TempDir(), "gl.csv", []byte(content))
	time.Sleep(localfile.RacyMargin + 50*time.Millisecond)
	return p
}

// freeze makes the file at abs report the timestamps at until the test
// ends: a file system whose clock does not move (for this path only).
func freeze(t *testing.T, abs string, at time.Time) {
	t.Helper()
	freezeOnce.Do(func() {
		h := func(p string, id localfile.Identity) localfile.Identity {
			if v, ok := frozen.Load(p); ok {
				ns := v.(time.Time).UnixNano()
				id.MtimeNs, id.CtimeNs = ns, ns
			}
			return id
		}
		localfile.IdentityHook.Store(&h)
	})
	frozen.Store(abs, at)
	t.Cleanup(func() { frozen.Delete(abs) })
}

// frozen holds the paths whose timestamps freeze fixes (abs -> time.Time).
var (
	frozen     sync.Map
	freezeOnce sync.Once
)

// actionFileAttrTypes are the attributes of the action's file block: the
// resource's (fileAttrTypes) less content_wo.
var actionFileAttrTypes = func() map[string]attr.Type {
	m := maps.Clone(fileAttrTypes)
	delete(m, "content_wo")
	return m
}()
