package provider

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// An outsideError is an error on its attribute wherever it is added; a
// plan that holds a job turns it, and it alone, into a warning that ends
// with the note.
func TestOutsideAsWarnings(t *testing.T) {
	var diags diag.Diagnostics
	addFileError(&diags, &localfile.PathError{Path: "d.csv", Kind: localfile.NotFound, Err: errors.New("no such file")})
	diags.AddAttributeError(path.Root("rows"), "Row of unequal width", "in the configuration")
	diags.AddWarning("Other", "kept as it is")
	if !diags.HasError() || diags.ErrorsCount() != 2 {
		t.Fatalf("added: %v", diags)
	}
	if n := len(outsideErrors(diags)); n != 1 {
		t.Fatalf("%d outside errors, want 1 (the file's)", n)
	}
	out := outsideAsWarnings(diags, "The note.")
	if out.ErrorsCount() != 1 || out.WarningsCount() != 2 || out[1].Summary() != "Row of unequal width" {
		t.Fatalf("converted: %v", out)
	}
	w, ok := out[0].(diag.DiagnosticWithPath)
	if !ok || w.Severity() != diag.SeverityWarning || w.Summary() != "File not found" || !w.Path().Equal(filePath("path")) ||
		!strings.HasPrefix(w.Detail(), `file.path: The file "d.csv" does not exist`) || !strings.HasSuffix(w.Detail(), "\n\nThe note.") {
		t.Errorf("the file's warning: %#v", out[0])
	}
}

// Moved into an input, an outsideError stays one.
func TestInInput_keepsOutsideErrors(t *testing.T) {
	var diags diag.Diagnostics
	addOutsideError(&diags, filePath("path"), "File not found", "gone")
	diags.AddAttributeError(filePath("format"), "Missing file format", "set it")
	out := inInput("gl", diags)
	got := outsideErrors(out)
	if len(got) != 1 || !got[0].Path().Equal(inputPath("gl").AtName("file").AtName("path")) || got[0].Detail() != `In inputs["gl"]: gone` {
		t.Errorf("outside errors in the input: %+v", got)
	}
	if out.ErrorsCount() != 2 {
		t.Errorf("errors: %v", out)
	}
}

// Equal tells outside errors apart by summary, detail and attribute.
func TestOutsideError_Equal(t *testing.T) {
	a := outsideError{at: filePath("path"), summary: "S", detail: "D"}
	for _, tc := range []struct {
		b    diag.Diagnostic
		want bool
	}{
		{a, true},
		{outsideError{at: filePath("format"), summary: "S", detail: "D"}, false},
		{outsideError{at: filePath("path"), summary: "S", detail: "E"}, false},
		{diag.NewAttributeErrorDiagnostic(filePath("path"), "S", "D"), false},
	} {
		if got := a.Equal(tc.b); got != tc.want {
			t.Errorf("Equal(%#v) = %v, want %v", tc.b, got, tc.want)
		}
	}
}
