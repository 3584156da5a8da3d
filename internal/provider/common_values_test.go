package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

func TestHubAndBaseURLValidators(t *testing.T) {
	ctx := context.Background()
	run := func(v validator.String, val types.String) diag.Diagnostics {
		resp := &validator.StringResponse{}
		v.ValidateString(ctx, validator.StringRequest{Path: path.Root("x"), ConfigValue: val}, resp)
		return resp.Diagnostics
	}
	for _, ok := range []types.String{types.StringValue("us2"), types.StringValue("eu1"), types.StringNull(), types.StringUnknown()} {
		if d := run(hubValidator, ok); d.HasError() {
			t.Errorf("hub %s: unexpected %v", ok, d)
		}
	}
	for _, bad := range []string{"US2", "us-2", "", "us 2", "eu1.vena.io"} {
		if d := run(hubValidator, types.StringValue(bad)); !d.HasError() || !strings.Contains(d.Errors()[0].Detail(), EnvHub) {
			t.Errorf("hub %q: want an error naming %s, got %v", bad, EnvHub, d)
		}
	}
	for _, ok := range []types.String{types.StringValue("https://us2.vena.io"), types.StringValue("http://127.0.0.1:8080"), types.StringValue("http://localhost:1/"), types.StringUnknown(), types.StringNull()} {
		if d := run(baseURLValidator, ok); d.HasError() {
			t.Errorf("base_url %s: unexpected %v", ok, d)
		}
	}
	for _, bad := range []string{"us2.vena.io", "ftp://x", "http://example.com", "https://u:p@x.io", "https://x.io/?a=b"} {
		if d := run(baseURLValidator, types.StringValue(bad)); !d.HasError() || !strings.Contains(d.Errors()[0].Detail(), EnvBaseURL) {
			t.Errorf("base_url %q: want an error naming %s, got %v", bad, EnvBaseURL, d)
		}
	}
}

func TestRowsValidator(t *testing.T) {
	ctx := context.Background()
	validate := func(l types.List) diag.Diagnostics {
		resp := &validator.ListResponse{}
		rowsValidator{}.ValidateList(ctx, validator.ListRequest{Path: path.Root("rows"), ConfigValue: l}, resp)
		return resp.Diagnostics
	}
	if d := validate(rowsValue(t, cells("Account", "Amount"), cells("4000", "1"), cells("", ""))); d.HasError() {
		t.Errorf("valid rows: %v", d)
	}
	if d := validate(rowsValue(t, cells("Account", "Amount"))); d.HasError() {
		t.Errorf("header only: %v", d)
	}
	if d := validate(types.ListUnknown(types.ListType{ElemType: types.StringType})); d.HasError() {
		t.Errorf("unknown rows: %v", d)
	}
	unknownRow, _ := types.ListValue(types.ListType{ElemType: types.StringType}, []attr.Value{
		rowsValue(t, cells("A", "B")).Elements()[0], types.ListUnknown(types.StringType),
	})
	if d := validate(unknownRow); d.HasError() {
		t.Errorf("unknown row must be skipped: %v", d)
	}

	assertAttrError(t, validate(rowsValue(t)), path.Root("rows"), "rows is empty", "header row")
	assertAttrError(t, validate(rowsValue(t, cells())), path.Root("rows").AtListIndex(0), "rows[0]")
	assertAttrError(t, validate(rowsValue(t, cells("A", "B"), cells("1", "2"), cells("1"))), path.Root("rows").AtListIndex(2),
		"rows[2] has 1 cells", "rows[0]) has 2")
	assertAttrError(t, validate(rowsValue(t, cells("A", "B"), cells("1", "2", "3"))), path.Root("rows").AtListIndex(1), "rows[1] has 3 cells")
	assertAttrError(t, validate(rowsValue(t, cells("A"), nil)), path.Root("rows").AtListIndex(1), "rows[1] is null")
	assertAttrError(t, validate(rowsValue(t, cells("A"), []attr.Value{types.StringNull()})), path.Root("rows").AtListIndex(1).AtListIndex(0), `use ""`)

	// Many ragged rows: a bounded number of diagnostics.
	many := [][]attr.Value{cells("A", "B")}
	for range 50 {
		many = append(many, cells("1"))
	}
	if d := validate(rowsValue(t, many...)); d.ErrorsCount() != maxRowDiagnostics+1 {
		t.Errorf("50 ragged rows: %d errors, want %d", d.ErrorsCount(), maxRowDiagnostics+1)
	}
}

func TestRegexpValidator(t *testing.T) {
	ctx := context.Background()
	for in, wantErr := range map[string]bool{"^GL ": false, "(?i)sales": false, "GL(": true, "a**": true} {
		resp := &validator.StringResponse{}
		regexpValidator.ValidateString(ctx, validator.StringRequest{Path: path.Root("name_regex"), ConfigValue: types.StringValue(in)}, resp)
		if resp.Diagnostics.HasError() != wantErr {
			t.Errorf("%q: error %v, want %v", in, resp.Diagnostics, wantErr)
		}
		if wantErr && !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "name_regex") {
			t.Errorf("%q: the error does not name name_regex", in)
		}
	}
}

func TestDurationAndPEMValidators(t *testing.T) {
	ctx := context.Background()
	run := func(v validator.String, at string, val types.String) diag.Diagnostics {
		resp := &validator.StringResponse{}
		v.ValidateString(ctx, validator.StringRequest{Path: path.Root(at), ConfigValue: val}, resp)
		return resp.Diagnostics
	}
	for _, ok := range []types.String{types.StringValue("500ms"), types.StringValue("2m"), types.StringNull(), types.StringUnknown()} {
		if d := run(durationValidator, "retry_wait_min", ok); d.HasError() {
			t.Errorf("duration %s: unexpected %v", ok, d)
		}
	}
	assertAttrError(t, run(durationValidator, "request_timeout", types.StringValue("90")), path.Root("request_timeout"), `request_timeout: "90" is not a duration`, `"500ms"`)
	assertAttrError(t, run(durationValidator, "retry_wait_max", types.StringValue("-1s")), path.Root("retry_wait_max"), "longer than zero")
	if d := run(durationValidator, "retry_wait_max", types.StringValue("-1s")); d.Errors()[0].Summary() != "Invalid retry_wait_max" {
		t.Errorf("summary %q", d.Errors()[0].Summary())
	}

	ts, _, certPEM, err := emulator.NewTLSServer(emulator.Options{Instant: true})
	if err != nil {
		t.Fatal(err)
	}
	ts.Close()
	if d := run(pemValidator, "ca_cert_pem", types.StringValue(string(certPEM))); d.HasError() {
		t.Errorf("a certificate: %v", d)
	}
	assertAttrError(t, run(pemValidator, "ca_cert_pem", types.StringValue("-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n")),
		path.Root("ca_cert_pem"), "no PEM certificate", "ca_cert_file")
}

// file.name and file.part_name: the control characters a multipart header
// cannot carry fail on the attribute, named with their offset (by
// etl.CheckPartHeaderValue); a tab, quotes and backslashes pass.
func TestPartHeaderValidator(t *testing.T) {
	ctx := context.Background()
	run := func(v string) diag.Diagnostics {
		resp := &validator.StringResponse{}
		partHeaderValidator.ValidateString(ctx, validator.StringRequest{Path: filePath("name"), ConfigValue: types.StringValue(v)}, resp)
		return resp.Diagnostics
	}
	for _, ok := range []string{"gl.csv", "my \"quoted\"\tname\\x.csv", "Montréal € 😀.csv"} {
		if d := run(ok); d.HasError() {
			t.Errorf("%q: unexpected %v", ok, d)
		}
	}
	for bad, want := range map[string]string{
		"gl.csv\r\n":  "carriage return (U+000D) at byte 6",
		"a\nb":        "line feed (U+000A) at byte 1",
		"nul\x00":     "NUL (U+0000) at byte 3",
		"esc\x1b[0m":  "escape (U+001B) at byte 3",
		"del\x7f.csv": "delete (U+007F) at byte 3",
	} {
		assertAttrError(t, run(bad), filePath("name"), want, "file.name", "multipart")
	}
}

// exactlyOneOfSiblings works wherever the file block is (top level, or in
// an input) and names the attributes by their full paths.
func TestExactlyOneOfSiblings(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&importResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	for _, c := range []struct {
		cfg  map[string]any
		at   path.Path
		want string // "" = no error
	}{
		{map[string]any{"file": map[string]any{"path": "a.csv"}}, filePath("path"), ""},
		{map[string]any{"file": map[string]any{"content": "A\n1\n"}}, filePath("path"), ""},
		{map[string]any{"file": map[string]any{"path": "a.csv", "content": "A\n"}}, filePath("path"), "2 attributes specified when one (and only one) of [file.path,file.content] is required"},
		{map[string]any{"file": map[string]any{"format": "CSV"}}, filePath("path"), "No attribute specified when one (and only one) of [file.path,file.content] is required"},
		{map[string]any{"inputs": inputsTF(t, map[string]map[string]any{"k": {"file": map[string]any{"content": "A\n"}}})}, inputPath("k").AtName("file").AtName("path"), ""},
		{map[string]any{"inputs": inputsTF(t, map[string]map[string]any{"k": {"file": map[string]any{"format": "CSV"}}})}, inputPath("k").AtName("file").AtName("path"),
			`No attribute specified when one (and only one) of [inputs["k"].file.path,inputs["k"].file.content] is required`},
	} {
		cfg := tfsdk.Config{Schema: resp.Schema, Raw: tfValue(t, importType(), c.cfg)}
		var v types.String
		if d := cfg.GetAttribute(ctx, c.at, &v); d.HasError() {
			t.Fatal(d)
		}
		var out validator.StringResponse
		exactlyOneOfSiblings{"content"}.ValidateString(ctx, validator.StringRequest{Path: c.at, Config: cfg, ConfigValue: v}, &out)
		switch {
		case c.want == "" && out.Diagnostics.HasError():
			t.Errorf("%v: %v", c.cfg, out.Diagnostics)
		case c.want != "":
			assertAttrError(t, out.Diagnostics, c.at, c.want)
		}
	}
}

// TestConfiguredTimeout: a set timeout is read; an unset one is the
// default, with no log line.
func TestConfiguredTimeout(t *testing.T) {
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	typ := map[string]attr.Type{"create": types.StringType, "delete": types.StringType}
	value := func(create attr.Value) timeouts.Value {
		return timeouts.Value{Object: types.ObjectValueMust(typ, map[string]attr.Value{"create": create, "delete": types.StringNull()})}
	}
	for name, v := range map[string]timeouts.Value{
		"no timeouts": {Object: types.ObjectNull(typ)},
		"create null": value(types.StringNull()),
	} {
		if d, diags := configuredTimeout(ctx, v.Object, "create", time.Minute, v.Create); d != time.Minute || diags.HasError() {
			t.Errorf("%s: %s, %v; want the default", name, d, diags)
		}
	}
	v := value(types.StringValue("90s"))
	if d, diags := configuredTimeout(ctx, v.Object, "create", time.Minute, v.Create); d != 90*time.Second || diags.HasError() {
		t.Errorf("90s: %s, %v", d, diags)
	}
	if strings.Contains(out.String(), "not found") || strings.Contains(out.String(), "null or unknown") {
		t.Errorf("a default was logged: %s", out.String())
	}
}
