package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// checkTarget returns the format and encoding, defaults filled in, that a
// file block's bytes are checked against (flatfile.TargetOf); false when either
// is unknown or not one the service knows, and the bytes then go
// unchecked.
func checkTarget(f fileModel) (flatfile.FileTarget, bool) {
	f = withDefaults(f)
	if !known(f.Format) || !known(f.Encoding) {
		return flatfile.FileTarget{}, false
	}
	return flatfile.TargetOf(f.Format.ValueString(), f.Encoding.ValueString())
}

// checkKey names what the plan-time check of f checks against, as a hash
// record keeps it (localfile.Record.Checked): flatfile.FileTarget.Key, or ""
// when it is not checked.
func checkKey(f fileModel) string {
	if t, ok := checkTarget(f); ok {
		return t.Key()
	}
	return ""
}

// readFileRecord reads the file at f.path whole, once (localfile.HashFile):
// its SHA-256 and identity, with a diagnostic for the first problem found
// in its first flatfile.FileCheckLimit bytes, and its rows and header row
// counted (the Record's Counts, under checkKey) when its format and
// encoding are known.
func readFileRecord(f fileModel, diags *diag.Diagnostics) (*localfile.Record, error) {
	p := f.Path.ValueString()
	var o localfile.HashOptions
	if t, ok := checkTarget(f); ok {
		o.Check, o.Limit = t.CheckHead, flatfile.FileCheckLimit
		if c, err := t.Counter(); err == nil {
			o.Counter = c
		}
	}
	r, checkErr, err := localfile.HashFile(p, o)
	if err != nil {
		return nil, err
	}
	addCheckDiagnostic(diags, "path", fmt.Sprintf("The file %q", p), checkErr)
	return r, nil
}

// checkContent checks encoded inline content b whole against f's format
// and encoding, and adds a diagnostic on file.content (or file.content_wo)
// for the first problem found; it checks nothing while they are unknown.
func checkContent(f fileModel, b []byte, diags *diag.Diagnostics) {
	t, ok := checkTarget(f)
	if !ok {
		return
	}
	_, name := f.inline()
	addCheckDiagnostic(diags, name, "file."+name, t.Check(b))
}
