package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func TestResolveConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	str := types.StringValue
	null := types.StringNull()
	full := providerModel{Hub: str("us2"), TokenID: str("1.1"), TokenSecret: str("s"), BaseURL: null, MaxRetries: types.Int64Null()}

	t.Run("attributes", func(t *testing.T) {
		c, d := resolveConfig(full, env(map[string]string{EnvHub: "eu1", EnvTokenID: "other"}))
		if d.HasError() || c.Hub != "us2" || c.TokenID != "1.1" || c.TokenSecret != "s" || c.MaxRetries != defaultMaxRetries {
			t.Fatalf("got %+v %v; attributes must win over the environment, max_retries default %d", c, d, defaultMaxRetries)
		}
	})
	t.Run("environment", func(t *testing.T) {
		m := providerModel{Hub: null, TokenID: null, TokenSecret: null, BaseURL: null, MaxRetries: types.Int64Value(0)}
		c, d := resolveConfig(m, env(map[string]string{EnvBaseURL: "http://127.0.0.1:1", EnvTokenID: "1.1", EnvTokenSecret: "s"}))
		if d.HasError() || c.BaseURL != "http://127.0.0.1:1" || c.Hub != "" || c.MaxRetries != 0 {
			t.Fatalf("got %+v %v", c, d)
		}
	})
	cases := []struct {
		name     string
		m        providerModel
		env      map[string]string
		attr     string
		contains []string
	}{
		{"no hub nor base_url", providerModel{Hub: null, TokenID: str("1"), TokenSecret: str("s"), BaseURL: null}, nil, "hub", []string{"ETL_HUB", "base_url"}},
		{"hub from env invalid", providerModel{Hub: null, TokenID: str("1"), TokenSecret: str("s"), BaseURL: null}, map[string]string{EnvHub: "US2"}, "hub", []string{`"US2"`, "ETL_HUB"}},
		{"base_url from env invalid", providerModel{Hub: null, TokenID: str("1"), TokenSecret: str("s"), BaseURL: null}, map[string]string{EnvBaseURL: "example.com"}, "base_url", []string{"ETL_BASE_URL"}},
		{"plain http to remote", providerModel{Hub: null, TokenID: str("1"), TokenSecret: str("s"), BaseURL: str("http://example.com")}, nil, "base_url", []string{"http"}},
		{"no token id", providerModel{Hub: str("us2"), TokenID: null, TokenSecret: str("s"), BaseURL: null}, nil, "token_id", []string{"ETL_TOKEN_ID"}},
		{"no token secret", providerModel{Hub: str("us2"), TokenID: str("1"), TokenSecret: null, BaseURL: null}, nil, "token_secret", []string{"ETL_TOKEN_SECRET"}},
		{"negative retries", providerModel{Hub: str("us2"), TokenID: str("1"), TokenSecret: str("s"), BaseURL: null, MaxRetries: types.Int64Value(-2)}, nil, "max_retries", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, d := resolveConfig(tc.m, env(tc.env))
			assertAttrError(t, d, path.Root(tc.attr), tc.contains...)
		})
	}
}

// assertAttrError requires exactly one error, on the attribute, whose
// detail contains every string.
func assertAttrError(t *testing.T, d diag.Diagnostics, at path.Path, contains ...string) {
	t.Helper()
	if d.ErrorsCount() != 1 {
		t.Fatalf("want exactly one error on %s, got %v", at, d)
	}
	e := d.Errors()[0]
	wp, ok := e.(diag.DiagnosticWithPath)
	if !ok || !wp.Path().Equal(at) {
		t.Fatalf("error %q is not on %s", e.Summary(), at)
	}
	for _, s := range contains {
		if !strings.Contains(e.Detail(), s) {
			t.Errorf("error detail %q does not contain %q", e.Detail(), s)
		}
	}
}

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

func cells(ss ...string) []attr.Value {
	out := make([]attr.Value, len(ss))
	for i, s := range ss {
		out[i] = types.StringValue(s)
	}
	return out
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

func TestEncodeContent(t *testing.T) {
	const text = "City\nMontréal\n"
	cases := []struct {
		enc  etl.Encoding
		want []byte
	}{
		{etl.EncodingUTF8, []byte("City\nMontr\xc3\xa9al\n")},
		{etl.EncodingLatin1, []byte("City\nMontr\xe9al\n")},
		{etl.EncodingUTF16, []byte("\xff\xfeC\x00i\x00t\x00y\x00\n\x00M\x00o\x00n\x00t\x00r\x00\xe9\x00a\x00l\x00\n\x00")},
	}
	for _, tc := range cases {
		got, err := encodeContent(text, tc.enc)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s: got % x, %v; want % x", tc.enc, got, err, tc.want)
		}
	}
	// Windows-1252 has the euro sign (0x80), not the Greek omega.
	if got, err := encodeContent("€", etl.EncodingLatin1); err != nil || !bytes.Equal(got, []byte{0x80}) {
		t.Errorf("euro: % x, %v", got, err)
	}
	_, err := encodeContent("A,B\n1,Ω\n", etl.EncodingLatin1)
	if err == nil || !strings.Contains(err.Error(), "U+03A9") || !strings.Contains(err.Error(), "line 2, column 3") {
		t.Errorf("omega in Latin-1: %v, want an error naming U+03A9 at line 2, column 3", err)
	}
	// Characters outside the BMP become surrogate pairs in UTF-16.
	if got, _ := encodeContent("😀", etl.EncodingUTF16); !bytes.Equal(got, []byte{0xff, 0xfe, 0x3d, 0xd8, 0x00, 0xde}) {
		t.Errorf("emoji in UTF-16: % x", got)
	}
	if _, err := encodeContent("x", "UTF-32"); err == nil {
		t.Error("UTF-32 must be refused")
	}
}

func TestFileDefaults(t *testing.T) {
	s, null, unk := types.StringValue, types.StringNull(), types.StringUnknown()
	cases := []struct {
		attr               string
		path, name, format types.String
		want               string
		known              bool
	}{
		{"format", s("data/gl.csv"), null, null, "CSV", true},
		{"format", s("gl.PSV"), null, null, "PSV", true},
		{"format", s("gl.tsv"), null, null, "TDF", true},
		{"format", s("gl.tdf"), null, null, "TDF", true},
		{"format", s("gl.tab"), null, null, "TDF", true},
		{"format", s("gl.txt"), null, null, "", true},
		{"format", s("gl.txt"), s("gl.csv"), null, "CSV", true},
		{"format", unk, null, null, "", false},
		{"format", null, null, null, "", true},
		{"format", null, s("x.psv"), null, "PSV", true},
		{"format", null, unk, null, "", false},
		{"name", s("/tmp/data/gl.csv"), null, null, "gl.csv", true},
		{"name", unk, null, null, "", false},
		{"name", null, null, s("CSV"), "data.csv", true},
		{"name", null, null, s("PSV"), "data.psv", true},
		{"name", null, null, s("TDF"), "data.tsv", true},
		{"name", null, null, null, "", true},
		{"name", null, null, unk, "", false},
	}
	for _, tc := range cases {
		f := withDefaults(fileModel{Path: tc.path, Name: tc.name, Format: tc.format, Content: null, Encoding: null, PartName: null})
		v := f.Format
		if tc.attr == "name" {
			v = f.Name
		}
		got, known := v.ValueString(), !v.IsUnknown()
		if got != tc.want || known != tc.known || (tc.want == "" && known && !v.IsNull()) {
			t.Errorf("%s(path %s, name %s, format %s) = %s; want %q, known %v", tc.attr, tc.path, tc.name, tc.format, v, tc.want, tc.known)
		}
	}
}

func TestHashFileAndRows(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "big.csv")
	// A few MiB, streamed.
	content := bytes.Repeat([]byte("4000,100.50,Montréal\n"), 200_000)
	if err := os.WriteFile(p, content, 0o600); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(content)
	sum, n, err := hashFile(p)
	if err != nil || sum != hex.EncodeToString(want[:]) || n != int64(len(content)) {
		t.Fatalf("hashFile = %s, %d, %v", sum, n, err)
	}

	var fp *fileError
	if _, _, err := hashFile(filepath.Join(dir, "missing.csv")); !errors.As(err, &fp) || fp.Summary != "File not found" {
		t.Errorf("missing file: %v", err)
	}
	if _, _, err := hashFile(dir); !errors.As(err, &fp) || fp.Summary != "Path is a directory" {
		t.Errorf("directory: %v", err)
	}

	// The rows hash is the hash of exactly the body the client sends.
	rows := [][]string{{"Account", "Amount"}, {"4000", "Montréal \"quoted\" <&>\n"}}
	var body bytes.Buffer
	if _, err := (etl.DataUpload{Rows: rows}).WriteTo(&body); err != nil {
		t.Fatal(err)
	}
	rs, size := hashRows(rows)
	if rs != hashBytes(body.Bytes()) || size != int64(body.Len()) {
		t.Errorf("hashRows = %s, %d; want the hash of %q", rs, size, body.String())
	}
	if !strings.HasPrefix(body.String(), `{"input":{"data":[["Account","Amount"],`) {
		t.Errorf("body %q", body.String())
	}
}

func TestOpenedFileDetectsChange(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gl.csv")
	if err := os.WriteFile(p, []byte("Account,Amount\n4000,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	of, err := openImportFile(p, "")
	if err != nil {
		t.Fatal(err)
	}
	defer of.Close()
	read := func() ([]byte, error) {
		rc, err := of.Open()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		return io.ReadAll(rc)
	}
	// Every attempt reads the same bytes.
	for range 2 {
		if b, err := read(); err != nil || string(b) != "Account,Amount\n4000,1\n" {
			t.Fatalf("read %q, %v", b, err)
		}
	}
	if of.wantSum != hashBytes([]byte("Account,Amount\n4000,1\n")) || of.size != 22 {
		t.Fatalf("sum %s size %d", of.wantSum, of.size)
	}
	// The file is rewritten in place: the upload fails rather than send other bytes.
	if err := os.WriteFile(p, []byte("Account,Amount\n9999,9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := read(); err == nil || !strings.Contains(err.Error(), "while it was being sent") {
		t.Fatalf("changed file: %v", err)
	}
}

func TestCheckFileConfig(t *testing.T) {
	s, null := types.StringValue, types.StringNull()
	base := fileModel{Path: null, Content: null, Format: null, Encoding: null, Name: null, PartName: null}
	withPath := base
	withPath.Path = s("gl.txt")
	assertAttrError(t, checkFileConfig(withPath), filePath("format"), "file.format is required", "gl.txt")
	withPath.Format = s("CSV")
	if d := checkFileConfig(withPath); d.HasError() {
		t.Errorf("format set: %v", d)
	}
	content := base
	content.Content = s("A,B\n1,Ω\n")
	content.Format = s("CSV")
	content.Encoding = s("Windows Latin-1")
	assertAttrError(t, checkFileConfig(content), filePath("content"), "Windows Latin-1", "U+03A9")
	content.Encoding = s("UTF-16")
	if d := checkFileConfig(content); d.HasError() {
		t.Errorf("UTF-16 content: %v", d)
	}
	content.Format = null
	assertAttrError(t, checkFileConfig(content), filePath("format"), "inline content")
	content.Name = s("x.tsv")
	if d := checkFileConfig(content); d.HasError() {
		t.Errorf("format from name: %v", d)
	}
}

// The client's log lines go through tflog with the secret and the Basic
// credentials masked, whatever field or message carries them.
func TestLogMasksSecret(t *testing.T) {
	const id, secret = "1112140681100620800.1", "5f4dcc3b5aa765d61d8327deb882cf99"
	basic := base64.StdEncoding.EncodeToString([]byte(id + ":" + secret))
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	logf := tflogFunc(id, secret)
	for _, level := range []string{"trace", "debug", "warn"} {
		logf(ctx, level, "request with "+secret+" and Basic "+basic, map[string]any{
			"authorization": "Basic " + basic,
			"secret":        secret,
			"url":           "https://us2.vena.io/x?token=" + secret,
		})
	}
	logs := out.String()
	if strings.Count(logs, "\n") != 3 {
		t.Fatalf("want 3 log lines, got %q", logs)
	}
	if strings.Contains(logs, secret) || strings.Contains(logs, basic) {
		t.Fatalf("secret in logs: %s", logs)
	}
	if !strings.Contains(logs, "1112140681100620800.1") && !strings.Contains(logs, "***") {
		t.Fatalf("logs were not written with masks: %s", logs)
	}
}
