package provider

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// A file problem is reported on the attribute to fix.
func TestAddCheckDiagnostic(t *testing.T) {
	cases := []struct {
		err     error
		at      string
		summary string
	}{
		{&flatfile.FileError{Problem: flatfile.ProblemEncoding, Detail: "line 2: byte 0xE9", Fix: "set encoding"}, "encoding", "File not in its declared encoding"},
		{&flatfile.FileError{Problem: flatfile.ProblemDelimiter, Detail: "looks like PSV"}, "format", "Delimiter does not match the format"},
		{&flatfile.FileError{Problem: flatfile.ProblemWidth, Detail: "line 3 has 3 fields"}, "path", "Row of unequal width"},
		{&flatfile.FileError{Problem: "new kind", Detail: "x"}, "path", "Invalid file"},
		{errors.New("read failed"), "path", summaryUnreadable},
	}
	for _, tc := range cases {
		var d diag.Diagnostics
		addCheckDiagnostic(&d, "path", `The file "gl.csv"`, tc.err)
		assertAttrError(t, d, filePath(tc.at), `The file "gl.csv"`)
		if got := d.Errors()[0].Summary(); got != tc.summary {
			t.Errorf("%v: summary %q, want %q", tc.err, got, tc.summary)
		}
	}
	var d diag.Diagnostics
	addCheckDiagnostic(&d, "content", "file.content", &flatfile.FileError{Problem: flatfile.ProblemQuote, Detail: "line 2", Fix: "double the quote"})
	assertAttrError(t, d, filePath("content"), "file.content (file.content): line 2.", "Fix: double the quote.")
	d = nil
	addCheckDiagnostic(&d, "path", "x", nil)
	if d.HasError() {
		t.Errorf("no problem, but %v", d)
	}
}

func TestAddFileAndStartErrors(t *testing.T) {
	var d diag.Diagnostics
	addFileError(&d, &localfile.PathError{Op: localfile.OpStat, Kind: localfile.IsDir, Path: "x"})
	assertAttrError(t, d, filePath("path"), `file.path: "x" is a directory: file.path must name a file.`)
	d = nil
	addFileError(&d, errors.New("odd"))
	assertAttrError(t, d, filePath("path"), "file.path: odd")

	d = nil
	addStartError(&d, "640101874288689152", &etl.JobMaybeCreatedError{TemplateID: "640101874288689152", Err: errors.New("EOF")}, adoptAdvice)
	if d.ErrorsCount() != 1 || d.Errors()[0].Summary() != "Import job may have been created" || !strings.Contains(d.Errors()[0].Detail(), "terraform import etl_import.<name> <job id>") {
		t.Errorf("answer lost: %v", d)
	}
	d = nil
	addStartError(&d, "640101874288689152", &etl.APIError{StatusCode: http.StatusForbidden, Attempts: 1}, adoptAdvice)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), "No job was created") || !strings.Contains(d.Errors()[0].Detail(), "Hint: the token or its user lacks a permission") {
		t.Errorf("refused: %v", d)
	}
}

// A value still unknown when it must be known is an error on it that says
// when, and that it is the provider's bug.
func TestAddStillUnknown(t *testing.T) {
	var d diag.Diagnostics
	addStillUnknown(&d, path.Root("inputs"), whenInvoked)
	assertAttrError(t, d, path.Root("inputs"), "inputs still has unknown values when the action is invoked", "bug in the provider")
}

// TestAddContentError: inline content the encoding cannot write is an
// error on its attribute; content_wo's names where, never the character.
func TestAddContentError(t *testing.T) {
	_, err := etl.EncodeText("A,B\n1,Ω\n", flatfile.EncodingLatin1)
	var d diag.Diagnostics
	addContentError(&d, "content", flatfile.EncodingLatin1, err)
	addContentError(&d, "content_wo", flatfile.EncodingLatin1, err)
	if d.ErrorsCount() != 2 {
		t.Fatalf("want two errors, got %v", d)
	}
	assertAttrError(t, d[:1], filePath("content"), "file.content cannot be encoded as Windows Latin-1", "U+03A9", "line 2, column 3")
	assertAttrError(t, d[1:], filePath("content_wo"), "file.content_wo cannot be encoded", "line 2, column 3", "the value is write-only")
	if d[0].Summary() != summaryNotEncodable || d[1].Summary() != summaryNotEncodable {
		t.Errorf("summaries %q, %q", d[0].Summary(), d[1].Summary())
	}
	if detail := d[1].Detail(); strings.Contains(detail, "Ω") || strings.Contains(detail, "03A9") {
		t.Errorf("content_wo's error shows the character: %q", detail)
	}
}
