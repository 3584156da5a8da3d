package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

func TestFileFrom(t *testing.T) {
	ctx := context.Background()
	for _, obj := range []types.Object{types.ObjectNull(fileAttrTypes), types.ObjectUnknown(fileAttrTypes)} {
		if f, d := fileFrom(ctx, obj); f != nil || d.HasError() {
			t.Errorf("%s: %v, %v; want nothing", obj, f, d)
		}
	}
	obj := types.ObjectValueMust(fileAttrTypes, map[string]attr.Value{
		"path": types.StringValue("gl.csv"), "content": types.StringNull(), "format": types.StringUnknown(),
		"encoding": types.StringValue("UTF-8"), "name": types.StringNull(), "part_name": types.StringValue("file"), "content_wo": types.StringNull(),
	})
	f, d := fileFrom(ctx, obj)
	if d.HasError() || f == nil || f.Path.ValueString() != "gl.csv" || !f.Format.IsUnknown() || !f.Name.IsNull() {
		t.Fatalf("fileFrom = %+v, %v", f, d)
	}
	if !known(f.Path) || known(f.Format) || known(f.Name) {
		t.Error("known: a value is known; null and unknown are not")
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

// At apply, resolveFile fills what is still null or unknown from the rule
// (a default that depended on a path unknown at plan time) and writes the
// file block back into the model.
func TestResolveFile(t *testing.T) {
	ctx := context.Background()
	s, null, unk := types.StringValue, types.StringNull(), types.StringUnknown()
	m := func(f fileModel) *importSpec {
		obj, d := types.ObjectValueFrom(ctx, fileAttrTypes, f)
		if d.HasError() {
			t.Fatal(d)
		}
		return &importSpec{File: obj}
	}
	// The path was unknown at plan: format and name were unknown.
	model := m(fileModel{Path: s("/data/gl.tsv"), Content: null, Format: unk, Encoding: s("UTF-16"), Name: unk, PartName: unk})
	f, d := resolveFile(ctx, model)
	if d.HasError() || f == nil {
		t.Fatalf("resolveFile: %v", d)
	}
	if f.Format.ValueString() != "TDF" || f.Name.ValueString() != "gl.tsv" || f.Encoding.ValueString() != "UTF-16" || f.PartName.ValueString() != "file" {
		t.Errorf("resolved %+v", f)
	}
	var back fileModel
	if d := model.File.As(ctx, &back, basetypes.ObjectAsOptions{}); d.HasError() || back != *f {
		t.Errorf("the spec holds %+v, want %+v", back, f)
	}

	// Inline content with a format: named data.<ext>.
	f, d = resolveFile(ctx, m(fileModel{Path: null, Content: s("A|B\n1|2\n"), Format: s("PSV"), Encoding: s("UTF-8"), Name: unk, PartName: s("upload")}))
	if d.HasError() || f.Name.ValueString() != "data.psv" || f.PartName.ValueString() != "upload" {
		t.Errorf("inline: %+v, %v", f, d)
	}

	// A path unknown at plan whose extension gives no format, no name: the
	// error says file.format is required (the unknown planned name is not
	// a configured one).
	f, d = resolveFile(ctx, m(fileModel{Path: s("/data/gl.data"), Content: null, Format: unk, Encoding: s("UTF-8"), Name: unk, PartName: s("file")}))
	if f != nil {
		t.Fatalf("resolved %+v without a format", f)
	}
	assertAttrError(t, d, filePath("format"), "file.format is required", "gl.data")

	// Rows: no file.
	if f, d := resolveFile(ctx, &importSpec{File: types.ObjectNull(fileAttrTypes)}); f != nil || d.HasError() {
		t.Errorf("rows: %+v, %v", f, d)
	}
}

func TestCheckTarget(t *testing.T) {
	s, null, unk := types.StringValue, types.StringNull(), types.StringUnknown()
	cases := []struct {
		name                   string
		path, format, encoding types.String
		wantFormat             flatfile.Format
		wantEncoding           flatfile.Encoding
		ok                     bool
	}{
		{"set", s("gl.txt"), s("TDF"), s("UTF-16"), flatfile.FormatTDF, flatfile.EncodingUTF16, true},
		{"format from the extension, encoding by default", s("gl.psv"), null, null, flatfile.FormatPSV, flatfile.EncodingUTF8, true},
		{"no format", s("gl.txt"), null, s("UTF-8"), "", "", false},
		{"format unknown", s("gl.csv"), unk, s("UTF-8"), "", "", false},
		{"encoding unknown", s("gl.csv"), s("CSV"), unk, "", "", false},
		{"format the service does not know", s("gl.csv"), s("XLSX"), s("UTF-8"), "", "", false},
		{"encoding the service does not know", s("gl.csv"), s("CSV"), s("utf-8"), "", "", false},
	}
	for _, tc := range cases {
		target, ok := checkTarget(fileModel{Path: tc.path, Content: null, Format: tc.format, Encoding: tc.encoding, Name: null, PartName: null})
		if target.Format != tc.wantFormat || target.Encoding != tc.wantEncoding || ok != tc.ok {
			t.Errorf("%s: %+v %v; want %q %q %v", tc.name, target, ok, tc.wantFormat, tc.wantEncoding, tc.ok)
		}
	}
}

// The plan-time read hashes the whole file and checks it, for a small file
// read at once and for a larger one teed to the checker.
func TestReadFileRecord(t *testing.T) {
	dir := t.TempDir()
	big := repeatCSV("Account,Amount", "4000,100", (3<<20)/9) // over localfile's 2 MiB: teed to the check
	cases := []struct {
		name    string
		content []byte
		enc     string
		at      string // attribute of the problem, "" for none
		has     string
	}{
		{"small", []byte("Account,Amount\n4000,1\n"), "UTF-8", "", ""},
		{"small ragged", []byte("Account,Amount\n4000,1,2\n"), "UTF-8", "path", "line 2 has 3 fields"},
		{"large", big, "UTF-8", "", ""},
		{"large ragged", append(append([]byte("Account,Amount\n4000\n"), big[15:]...), "4000,1,2\n"...), "UTF-8", "path", "line 2 has 1 field"},
		{"large, not its encoding", append([]byte("Account,City\n4000,Montr\xe9al\n"), big[15:]...), "UTF-8", "encoding", "0xE9"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name[:5] == "large" && len(tc.content) < 2<<20 {
				t.Fatalf("%d bytes: not large", len(tc.content))
			}
			p := writeFile(t, dir, "gl.csv", tc.content)
			var d diag.Diagnostics
			r, err := readFileRecord(fileModel{Path: types.StringValue(p), Format: types.StringValue("CSV"), Encoding: types.StringValue(tc.enc)}, &d)
			want := sha256.Sum256(tc.content)
			if err != nil || r.SHA256 != hex.EncodeToString(want[:]) {
				t.Fatalf("readFileRecord = %+v, %v; want the file's SHA-256", r, err)
			}
			if tc.at == "" {
				if d.HasError() {
					t.Fatalf("unexpected %v", d)
				}
				return
			}
			assertAttrError(t, d, filePath(tc.at), tc.has)
		})
	}
	// Without a format to check against, the file is only hashed.
	p := writeFile(t, dir, "gl.data", []byte("not,a\ncsv"))
	var d diag.Diagnostics
	if r, err := readFileRecord(fileModel{Path: types.StringValue(p), Format: types.StringNull(), Encoding: types.StringNull(), Name: types.StringNull()}, &d); err != nil || r.SHA256 != sha256Hex([]byte("not,a\ncsv")) || d.HasError() {
		t.Fatalf("unchecked file: %+v, %v, %v", r, err, d)
	}
}

func TestCheckContent(t *testing.T) {
	var d diag.Diagnostics
	f := fileModel{Path: types.StringNull(), Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8"), Name: types.StringNull()}
	checkContent(f, []byte("A,B\n1\n"), &d)
	assertAttrError(t, d, filePath("content"), "file.content", "line 2 has 1 field but the header has 2")
	d = nil
	checkContent(f, []byte("A,B\n1,2\n"), &d)
	if d.HasError() {
		t.Errorf("good content: %v", d)
	}
}

func TestCheckKey(t *testing.T) {
	s, null := types.StringValue, types.StringNull()
	if k := checkKey(fileModel{Path: s("gl.csv"), Format: null, Encoding: null}); k != "CSV/UTF-8" {
		t.Errorf("defaults: %q", k)
	}
	if k := checkKey(fileModel{Path: s("gl.csv"), Format: s("TDF"), Encoding: s("UTF-16")}); k != "TDF/UTF-16" {
		t.Errorf("set: %q", k)
	}
	if k := checkKey(fileModel{Path: s("gl.data"), Format: null, Encoding: null}); k != "" {
		t.Errorf("no format: %q", k)
	}
}
