package provider

import (
	"bytes"
	"fmt"
	"io"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// fileCheckLimit bounds the plan-time check of a file: its first 64 MiB
// are checked (encoding, header, quoting, row widths); a larger file is
// hashed whole but only its head is checked.
const fileCheckLimit = 64 << 20

// checkTarget returns the format and encoding, defaults filled in, that a
// file block's bytes are checked against; false when either is unknown or
// not one the service knows, and the bytes then go unchecked.
func checkTarget(f fileModel) (etl.FileFormat, etl.Encoding, bool) {
	f = withDefaults(f)
	if !known(f.Format) || !known(f.Encoding) {
		return "", "", false
	}
	format, enc := etl.FileFormat(f.Format.ValueString()), etl.Encoding(f.Encoding.ValueString())
	if format.Delimiter() == 0 || !enc.Known() {
		return "", "", false
	}
	return format, enc, true
}

// checkKey names what the plan-time check of f checks against, as a hash
// record keeps it (localfile.Record.Checked): its format and encoding, or
// "" when it is not checked.
func checkKey(f fileModel) string {
	format, enc, ok := checkTarget(f)
	if !ok {
		return ""
	}
	return string(format) + "/" + string(enc)
}

// fileCheck returns the check of a file's head against f's format and
// encoding; nil when they are not known.
func fileCheck(f fileModel) localfile.Check {
	format, enc, ok := checkTarget(f)
	if !ok {
		return nil
	}
	return func(r io.Reader) error {
		_, err := etl.CheckFile(r, format, enc, fileCheckLimit)
		return err
	}
}

// readFileRecord reads the file at f.path whole, once (localfile.HashFile):
// its SHA-256 and identity, with a diagnostic for the first problem found
// in its first fileCheckLimit bytes, and its rows and header row counted
// (the Record's Counts, under checkKey) when its format and encoding are
// known.
func readFileRecord(f fileModel, diags *diag.Diagnostics) (*localfile.Record, error) {
	p := f.Path.ValueString()
	o := localfile.HashOptions{Check: fileCheck(f), Limit: fileCheckLimit}
	if format, enc, ok := checkTarget(f); ok {
		if c, err := etl.NewRowCounter(format, enc); err == nil {
			o.Counter, o.CountKey = c, checkKey(f)
		}
	}
	r, checkErr, err := localfile.HashFile(p, o)
	if err != nil {
		return nil, err
	}
	addFileCheckError(diags, fmt.Sprintf("The file %q", p), checkErr)
	return r, nil
}

// checkContent checks encoded inline content b whole against f's format
// and encoding, and adds a diagnostic on file.content (or file.content_wo)
// for the first problem found; it checks nothing while they are unknown.
func checkContent(f fileModel, b []byte, diags *diag.Diagnostics) {
	format, enc, ok := checkTarget(f)
	if !ok {
		return
	}
	_, err := etl.CheckFile(bytes.NewReader(b), format, enc, 0)
	_, name := f.inline()
	addCheckDiagnostic(diags, name, "file."+name, err)
}
