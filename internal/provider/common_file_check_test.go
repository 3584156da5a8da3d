package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

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
