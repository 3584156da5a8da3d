package provider

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// csvEncodeRowType is the type of one row of csv_encode's argument.
var csvEncodeRowType = types.ListType{ElemType: types.StringType}

// csvEncodeArg builds csv_encode's argument from rows: a nil row is a
// null row.
func csvEncodeArg(t testing.TB, rows [][]string) types.List {
	t.Helper()
	elems := make([]attr.Value, len(rows))
	for i, r := range rows {
		if r == nil {
			elems[i] = types.ListNull(types.StringType)
			continue
		}
		cells := make([]attr.Value, len(r))
		for j, c := range r {
			cells[j] = types.StringValue(c)
		}
		elems[i] = types.ListValueMust(types.StringType, cells)
	}
	return types.ListValueMust(csvEncodeRowType, elems)
}

// runCSVEncode runs csv_encode as the framework does (function.RunRequest
// and RunResponse) and returns its result and error.
func runCSVEncode(t testing.TB, arg types.List) (types.String, *function.FuncError) {
	t.Helper()
	req := function.RunRequest{Arguments: function.NewArgumentsData([]attr.Value{arg})}
	resp := function.RunResponse{Result: function.NewResultData(types.StringUnknown())}
	newCSVEncodeFunction().Run(context.Background(), req, &resp)
	s, ok := resp.Result.Value().(types.String)
	if !ok {
		t.Fatalf("result is %T, want types.String", resp.Result.Value())
	}
	return s, resp.Error
}

// csvEncode runs csv_encode on rows and fails the test on an error.
func csvEncode(t testing.TB, rows [][]string) string {
	t.Helper()
	s, ferr := runCSVEncode(t, csvEncodeArg(t, rows))
	if ferr != nil {
		t.Fatalf("csv_encode(%q): %v", rows, ferr)
	}
	if s.IsNull() || s.IsUnknown() {
		t.Fatalf("csv_encode(%q) = %v, want a known string", rows, s)
	}
	return s.ValueString()
}

// csvEncodeUploadBytes is the CSV file the provider sends for rows as a
// file: read from etl.DataUpload.CSVFile, as the upload reads it, and
// checked against its declared size.
func csvEncodeUploadBytes(t testing.TB, rows [][]string) string {
	t.Helper()
	f := etl.DataUpload{Rows: rows}.CSVFile()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) != f.Size {
		t.Fatalf("CSVFile sent %d bytes but declared %d", len(b), f.Size)
	}
	return string(b)
}

// csvEncodeReadBack reads text back with encoding/csv as it is configured
// by default: comma separated, nothing trimmed, every record as wide as
// the first (FieldsPerRecord 0).
func csvEncodeReadBack(text string) ([][]string, error) {
	return csv.NewReader(strings.NewReader(text)).ReadAll()
}

func TestCSVEncodeFunction_definition(t *testing.T) {
	ctx := context.Background()
	f := newCSVEncodeFunction()
	var meta function.MetadataResponse
	f.Metadata(ctx, function.MetadataRequest{}, &meta)
	if meta.Name != "csv_encode" {
		t.Fatalf("name %q, want csv_encode", meta.Name)
	}
	var def function.DefinitionResponse
	f.Definition(ctx, function.DefinitionRequest{}, &def)
	d := def.Definition
	var vresp function.DefinitionValidateResponse
	d.ValidateImplementation(ctx, function.DefinitionValidateRequest{FuncName: meta.Name}, &vresp)
	if vresp.Diagnostics.HasError() {
		t.Fatalf("definition: %v", vresp.Diagnostics)
	}
	if len(d.Parameters) != 1 || d.VariadicParameter != nil {
		t.Fatalf("parameters %v (variadic %v), want rows only", d.Parameters, d.VariadicParameter)
	}
	p, ok := d.Parameters[0].(function.ListParameter)
	if !ok || p.Name != "rows" || !p.ElementType.Equal(csvEncodeRowType) || p.AllowNullValue || p.AllowUnknownValues {
		t.Fatalf("parameter %#v, want rows list(list(string)), no null or unknown", d.Parameters[0])
	}
	if _, ok := d.Return.(function.StringReturn); !ok {
		t.Fatalf("return %T, want function.StringReturn", d.Return)
	}
	for _, want := range []string{"fixture", "`content`", "`local_file`", "check", "`csvdecode`"} {
		if !strings.Contains(d.Summary+d.MarkdownDescription, want) {
			t.Errorf("summary and description do not mention %s", want)
		}
	}
}

func TestCSVEncodeFunction_plainRows(t *testing.T) {
	rows := [][]string{{"Account", "Amount"}, {"4000", "100.50"}, {"4010", "-20"}}
	const want = "Account,Amount\n4000,100.50\n4010,-20\n"
	if got := csvEncode(t, rows); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// A header row alone is a file of one record.
	if got := csvEncode(t, rows[:1]); got != "Account,Amount\n" {
		t.Fatalf("header alone: got %q", got)
	}
}

// TestCSVEncodeFunction_cells: each cell, in a data row between two plain
// cells, is written as RFC 4180 wants it and as little quoted as it can
// be, and encoding/csv reads it back (a CRLF aside: see below).
func TestCSVEncodeFunction_cells(t *testing.T) {
	cases := []struct {
		name, cell, want string
	}{
		{"plain", "4000", `4000`},
		{"inner space", "GL 4000", `GL 4000`},
		{"empty", "", ``},
		{"comma", "Memo, long", `"Memo, long"`},
		{"quotes", `say "hi"`, `"say ""hi"""`},
		{"only a quote", `"`, `""""`},
		{"quoted already", `"x"`, `"""x"""`},
		{"LF", "line 1\nline 2", "\"line 1\nline 2\""},
		{"CR", "a\rb", "\"a\rb\""},
		{"CRLF", "a\r\nb", "\"a\r\nb\""},
		{"trailing CR", "a\r", "\"a\r\""},
		{"leading space", " 4000", `" 4000"`},
		{"trailing space", "4000 ", `"4000 "`},
		{"leading tab", "\t4000", "\"\t4000\""},
		{"only spaces", "   ", `"   "`},
		{"inner tab", "a\tb", "a\tb"},
		{"unicode", "Montréal Zürich 東京 🙂", "Montréal Zürich 東京 🙂"},
		{"unicode space", "\u00a0x\u00a0", "\u00a0x\u00a0"},
		{"unicode and comma", "Zürich, CH", `"Zürich, CH"`},
		{"byte order mark", "\ufeffx", "\ufeffx"},
		{"backslash", `a\.b`, `a\.b`},
		{"hash", "# not a comment", "# not a comment"},
		{"everything", " a,\"b\"\r\nc ", "\" a,\"\"b\"\"\r\nc \""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows := [][]string{{"Account", "Memo", "Amount"}, {"4000", c.cell, "100"}}
			got := csvEncode(t, rows)
			if want := "Account,Memo,Amount\n4000," + c.want + ",100\n"; got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
			if up := csvEncodeUploadBytes(t, rows); got != up {
				t.Fatalf("csv_encode %q differs from the upload's CSV %q", got, up)
			}
			back, err := csvEncodeReadBack(got)
			if err != nil {
				t.Fatalf("encoding/csv cannot read %q: %v", got, err)
			}
			// encoding/csv reads every "\r\n" as "\n", inside quotes too:
			// the bytes written keep the CRLF (above), the reader does not.
			want := [][]string{rows[0], {"4000", strings.ReplaceAll(c.cell, "\r\n", "\n"), "100"}}
			if !slices.EqualFunc(back, want, slices.Equal) {
				t.Fatalf("encoding/csv read back %q, want %q", back, want)
			}
		})
	}
}

// TestCSVEncodeFunction_emptyCellRows: a row of one empty cell is written
// as "" (an empty line would be skipped by a reader), and rows of empty
// cells as commas.
func TestCSVEncodeFunction_emptyCellRows(t *testing.T) {
	for _, c := range []struct {
		rows [][]string
		want string
	}{
		{[][]string{{"Account"}, {""}, {"4000"}, {""}}, "Account\n\"\"\n4000\n\"\"\n"},
		{[][]string{{""}}, "\"\"\n"},
		{[][]string{{"Account", "Amount"}, {"", ""}}, "Account,Amount\n,\n"},
		{[][]string{{"", "", ""}}, ",,\n"},
	} {
		got := csvEncode(t, c.rows)
		if got != c.want {
			t.Errorf("csv_encode(%q) = %q, want %q", c.rows, got, c.want)
		}
		if back, err := csvEncodeReadBack(got); err != nil || !slices.EqualFunc(back, c.rows, slices.Equal) {
			t.Errorf("encoding/csv read %q back as %q (%v), want %q", got, back, err, c.rows)
		}
	}
}

// TestCSVEncodeFunction_errors: the rows that are no table are function
// errors on the argument (0), naming the row (and the cell).
func TestCSVEncodeFunction_errors(t *testing.T) {
	nullCell := types.ListValueMust(csvEncodeRowType, []attr.Value{
		csvEncodeArg(t, [][]string{{"Account", "Amount"}}).Elements()[0],
		types.ListValueMust(types.StringType, []attr.Value{types.StringValue("4000"), types.StringValue("1")}),
		types.ListValueMust(types.StringType, []attr.Value{types.StringNull(), types.StringValue("2")}),
	})
	cases := []struct {
		name string
		arg  types.List
		want []string
	}{
		{"short row", csvEncodeArg(t, [][]string{{"Account", "Amount"}, {"4000", "1"}, {"4010"}}),
			[]string{"rows[2] has 1 cells but the header row (rows[0]) has 2", `use "" for an empty cell`}},
		{"long row", csvEncodeArg(t, [][]string{{"Account", "Amount"}, {"4000", "1", "x"}}),
			[]string{"rows[1] has 3 cells but the header row (rows[0]) has 2"}},
		{"empty data row", csvEncodeArg(t, [][]string{{"Account"}, {}}),
			[]string{"rows[1] has 0 cells but the header row (rows[0]) has 1"}},
		{"ragged rows", csvEncodeArg(t, [][]string{{"Account", "Amount"}, {"4000", "1"}, {"4010"}, {"4020"}, {"1", "2", "3"}}),
			[]string{"rows[2] has 1 cells but the header row (rows[0]) has 2", "2 more rows have a different number of cells too"}},
		{"ragged rows after blank column names", csvEncodeArg(t, [][]string{{"", " "}, {"4010"}, {"4020"}}),
			[]string{"rows[1] has 1 cells", "1 more row has a different number of cells too"}},
		{"null cell", nullCell, []string{`rows[2][0] is null`, `use "" for an empty cell`}},
		{"null row", csvEncodeArg(t, [][]string{{"Account"}, {"4000"}, nil}), []string{"rows[2] is null"}},
		{"empty list", csvEncodeArg(t, [][]string{}), []string{"rows is empty", "the header row"}},
		{"empty header row", csvEncodeArg(t, [][]string{{}, {}}), []string{"the header row (rows[0]) has no column names"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ferr := runCSVEncode(t, c.arg)
			if ferr == nil {
				t.Fatalf("no error; result %q", got.ValueString())
			}
			if ferr.FunctionArgument == nil || *ferr.FunctionArgument != 0 {
				t.Fatalf("error %q is not on the argument rows (0): %v", ferr.Text, ferr.FunctionArgument)
			}
			for _, w := range c.want {
				if !strings.Contains(ferr.Text, w) {
					t.Errorf("error %q does not say %q", ferr.Text, w)
				}
			}
		})
	}
}

// TestCSVEncodeFunction_blankHeaderNames: the header is not checked
// against a template: blank column names are encoded like any cell.
func TestCSVEncodeFunction_blankHeaderNames(t *testing.T) {
	if got := csvEncode(t, [][]string{{"", " "}, {"1", "2"}}); got != ",\" \"\n1,2\n" {
		t.Fatalf("got %q", got)
	}
}

// TestCSVEncodeFunction_unknown: a row or a cell not known yet gives an
// unknown result (Terraform itself never calls the function so).
func TestCSVEncodeFunction_unknown(t *testing.T) {
	header := csvEncodeArg(t, [][]string{{"Account"}}).Elements()[0]
	for name, arg := range map[string]types.List{
		"list": types.ListUnknown(csvEncodeRowType),
		"row":  types.ListValueMust(csvEncodeRowType, []attr.Value{header, types.ListUnknown(types.StringType)}),
		"cell": types.ListValueMust(csvEncodeRowType, []attr.Value{header,
			types.ListValueMust(types.StringType, []attr.Value{types.StringUnknown()})}),
	} {
		got, ferr := runCSVEncode(t, arg)
		if ferr != nil || !got.IsUnknown() {
			t.Errorf("%s unknown: got %v, %v; want an unknown result", name, got, ferr)
		}
	}
}

// TestCSVEncodeFunction_protocol calls the function as Terraform does,
// through the plugin protocol: it is listed among the provider's
// functions, returns the CSV, and its errors name the argument.
func TestCSVEncodeFunction_protocol(t *testing.T) {
	h := newProtoHarness(t)
	ctx := context.Background()
	fns, err := h.srv.GetFunctions(ctx, &tfprotov6.GetFunctionsRequest{})
	if err != nil || len(fns.Diagnostics) > 0 {
		t.Fatalf("GetFunctions: %v %v", err, fns.Diagnostics)
	}
	def, ok := fns.Functions["csv_encode"]
	if !ok {
		t.Fatalf("functions %v: no csv_encode", fns.Functions)
	}
	rowsType := tftypes.List{ElementType: tftypes.List{ElementType: tftypes.String}}
	if len(def.Parameters) != 1 || def.Parameters[0].Name != "rows" || !def.Parameters[0].Type.Equal(rowsType) ||
		!def.Return.Type.Equal(tftypes.String) {
		t.Fatalf("csv_encode declared as %+v -> %+v", def.Parameters, def.Return)
	}
	call := func(rows [][]string) *tfprotov6.CallFunctionResponse {
		t.Helper()
		arg, err := tfprotov6.NewDynamicValue(rowsType, tfValue(t, rowsType, rows))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := h.srv.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: "csv_encode", Arguments: []*tfprotov6.DynamicValue{&arg}})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	rows := [][]string{{"Account", "Memo"}, {"4000", "a, \"b\"\n"}}
	resp := call(rows)
	if resp.Error != nil {
		t.Fatalf("error %+v", resp.Error)
	}
	v, err := resp.Result.Unmarshal(tftypes.String)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := v.As(&got); err != nil {
		t.Fatal(err)
	}
	if want := "Account,Memo\n4000,\"a, \"\"b\"\"\n\"\n"; got != want || got != csvEncodeUploadBytes(t, rows) {
		t.Fatalf("got %q, want %q", got, want)
	}

	resp = call([][]string{{"Account", "Amount"}, {"4000"}})
	if resp.Error == nil || resp.Error.FunctionArgument == nil || *resp.Error.FunctionArgument != 0 ||
		!strings.Contains(resp.Error.Text, "rows[1] has 1 cells") {
		t.Fatalf("ragged rows: error %+v, want one on argument 0 naming rows[1]", resp.Error)
	}
}

// csvEncodeReferenceTables are tables for the reference test: the tricky
// cells, and one big enough that CSVFile encodes it in several buffers.
func csvEncodeReferenceTables() map[string][][]string {
	big := [][]string{{"Account", "Amount", "Memo, long"}}
	for i := range 5000 {
		big = append(big, []string{fmt.Sprint(4000 + i), strings.Repeat("9", i%97), fmt.Sprintf("say \"%d\"\r\n ", i)})
	}
	return map[string][][]string{
		"plain":    {{"Account", "Amount"}, {"4000", "100.50"}},
		"testRows": testRows,
		"tricky": {
			{"Account", "Memo", "Amount"},
			{"4000", "a,b", `"q"`},
			{" lead", "trail ", "\t"},
			{"cr\r", "lf\n", "crlf\r\n"},
			{"", "", ""},
			{"Zürich", "東京", "🙂"},
		},
		"one column": {{"Account"}, {""}, {"4000"}, {""}},
		"big":        big,
	}
}

// TestCSVEncode_matchesUploadEncoder: the function's output is byte for
// byte what etl.DataUpload.WriteCSV writes and what CSVFile sends for the
// same rows, and hashes to the content_sha256 the resource plans for them
// as a file (etl.DataUpload.CSVSHA256).
func TestCSVEncode_matchesUploadEncoder(t *testing.T) {
	for name, rows := range csvEncodeReferenceTables() {
		t.Run(name, func(t *testing.T) {
			got := csvEncode(t, rows)
			var want bytes.Buffer
			n, err := etl.DataUpload{Rows: rows}.WriteCSV(&want)
			if err != nil || n != int64(want.Len()) {
				t.Fatalf("WriteCSV: %d bytes, %v", n, err)
			}
			if got != want.String() {
				t.Fatalf("csv_encode differs from WriteCSV:\n got %q\nwant %q", got, want.String())
			}
			if up := csvEncodeUploadBytes(t, rows); got != up {
				t.Fatal("csv_encode differs from the CSVFile upload's bytes")
			}
			if sum, want := sha256Hex([]byte(got)), (etl.DataUpload{Rows: rows}).CSVSHA256(); sum != want {
				t.Fatalf("SHA-256 %s, the resource's rows-as-file hash %s", sum, want)
			}
		})
	}
}

// csvEncodeFuzzRows turns fuzz input into a rectangular table of valid
// UTF-8 cells: text's first byte separates the cells of the rest (so any
// other byte can be in a cell), 1 to 8 cells a row, the last row padded
// with "" to the width.
//
// Two constraints keep what the encoder is given to what csv_encode can
// get and encoding/csv can return unchanged:
//   - cells are valid UTF-8 (invalid sequences become U+FFFD): Terraform
//     strings are always UTF-8, so the function never sees anything else;
//   - "\r\n" in a cell becomes "\n" (until none is left): encoding/csv
//     reads every CRLF as LF, even inside a quoted field, so it cannot
//     return a cell holding one. The encoder writes it unchanged
//     (TestCSVEncodeFunction_cells checks the bytes), and a lone "\r" (also
//     one just before the closing quote) is read back as it is, so only
//     the pair is rewritten.
func csvEncodeFuzzRows(width uint8, text string) [][]string {
	w := 1 + int(width%8)
	var cells []string
	if text != "" {
		cells = strings.Split(text[1:], text[:1])
	}
	for i, c := range cells {
		c = strings.ToValidUTF8(c, "\uFFFD")
		for strings.Contains(c, "\r\n") { // "\r\r\n" gives another
			c = strings.ReplaceAll(c, "\r\n", "\n")
		}
		cells[i] = c
	}
	for len(cells) == 0 || len(cells)%w != 0 {
		cells = append(cells, "")
	}
	rows := make([][]string, 0, len(cells)/w)
	for i := 0; i < len(cells); i += w {
		rows = append(rows, cells[i:i+w:i+w])
	}
	return rows
}

// FuzzCSVEncode: for any rectangular table, encoding/csv reads the
// function's output back as exactly the rows it was given (every record as
// wide as the header), and the output is what the upload sends.
func FuzzCSVEncode(f *testing.F) {
	f.Add(uint8(1), "|Account|Amount|4000|100.50")
	f.Add(uint8(2), "|a,b|\"q\"| lead|trail |\t|cr\r|lf\n|x\r\ny|Zürich|🙂|||")
	f.Add(uint8(0), ";;;\"\";\"")
	f.Add(uint8(3), "\x00\r\x00\n\x00\r\r\n\n\x00\"\r\"\x00 \x00")
	f.Add(uint8(7), "\xff\xfe\xff\xc3")
	f.Fuzz(func(t *testing.T, width uint8, text string) {
		rows := csvEncodeFuzzRows(width, text)
		for _, r := range rows {
			for _, c := range r {
				if !utf8.ValidString(c) || strings.Contains(c, "\r\n") {
					t.Fatalf("generator gave cell %q", c)
				}
			}
		}
		got, ferr := runCSVEncode(t, csvEncodeArg(t, rows))
		if ferr != nil {
			t.Fatalf("csv_encode(%q): %v", rows, ferr)
		}
		out := got.ValueString()
		if up := csvEncodeUploadBytes(t, rows); out != up {
			t.Fatalf("csv_encode(%q) = %q, the upload sends %q", rows, out, up)
		}
		r := csv.NewReader(strings.NewReader(out))
		r.FieldsPerRecord = len(rows[0]) // exact widths
		back, err := r.ReadAll()
		if err != nil {
			t.Fatalf("encoding/csv cannot read csv_encode(%q) = %q: %v", rows, out, err)
		}
		if !slices.EqualFunc(back, rows, slices.Equal) {
			t.Fatalf("encoding/csv read csv_encode(%q) = %q back as %q", rows, out, back)
		}
	})
}

// TestCSVEncodeFuzzRows: the generator's table is rectangular and keeps
// the cells it can.
func TestCSVEncodeFuzzRows(t *testing.T) {
	got := csvEncodeFuzzRows(1, "|a|b\r\nc|\xff")
	want := [][]string{{"a", "b\nc"}, {"\uFFFD", ""}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := csvEncodeFuzzRows(2, ""); len(got) != 1 || len(got[0]) != 3 {
		t.Fatalf("empty input: got %q, want one row of 3 empty cells", got)
	}
	// Why the generator rewrites "\r\n": the reader does.
	back, err := csvEncodeReadBack("\"a\r\nb\"\n")
	if err != nil || len(back) != 1 || back[0][0] != "a\nb" {
		t.Fatalf("encoding/csv read a quoted CRLF as %q, %v: the generator's constraint is stale", back, err)
	}
}
