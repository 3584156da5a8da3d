package provider

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// fileCheckLimit bounds the plan-time check of a file: its first 64 MiB
// are checked (encoding, header, quoting, row widths); a larger file is
// hashed whole but only its head is checked.
const fileCheckLimit = 64 << 20

// smallFile: files below this size are read into memory once, hashed and
// checked from there.
const smallFile = 2 << 20

var errCheckDone = errors.New("check finished")

// checkTarget says how a file block is checked: the format and encoding
// to check against, and whether they are known.
func checkTarget(f fileModel) (etl.FileFormat, etl.Encoding, bool) {
	f = withDefaults(f)
	if !known(f.Format) || !known(f.Encoding) {
		return "", "", false
	}
	format, enc := etl.FileFormat(f.Format.ValueString()), etl.Encoding(f.Encoding.ValueString())
	if format.Delimiter() == 0 || !validEncodingName(enc) {
		return "", "", false
	}
	return format, enc, true
}

// hashAndCheckFile returns the SHA-256 of the file at f.path and adds a
// diagnostic for the first problem found in its first fileCheckLimit
// bytes (see hashAndCheckOpen).
func hashAndCheckFile(f fileModel, diags *diag.Diagnostics) (string, error) {
	r, err := readFileHash(f, diags)
	if err != nil {
		return "", err
	}
	return r.SHA256, nil
}

// hashAndCheckOpen reads the open file fh of size bytes whole: it returns
// its SHA-256 and adds a diagnostic for the first problem found in its
// first fileCheckLimit bytes. One read serves both: the bytes read for the
// hash are teed to etl.CheckFile, which runs in a goroutine of its own.
func hashAndCheckOpen(fh *os.File, size int64, f fileModel, diags *diag.Diagnostics) (string, error) {
	p := f.Path.ValueString()
	format, enc, ok := checkTarget(f)
	if !ok {
		sum, _, err := hashReader(fh)
		if err != nil {
			return "", readError(p, err)
		}
		return sum, nil
	}
	if size < smallFile {
		b, err := io.ReadAll(fh)
		if err != nil {
			return "", readError(p, err)
		}
		s := sha256.Sum256(b)
		_, cerr := etl.CheckFile(bytes.NewReader(b), format, enc, fileCheckLimit)
		addCheckDiagnostic(diags, "path", fmt.Sprintf("The file %q", p), cerr)
		return hex.EncodeToString(s[:]), nil
	}

	pr, pw := io.Pipe()
	type result struct {
		sum *etl.FileSummary
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := etl.CheckFile(pr, format, enc, fileCheckLimit)
		_ = pr.CloseWithError(errCheckDone) // the tee stops feeding
		done <- result{s, err}
	}()
	tee := &headTee{r: fh, w: pw, left: fileCheckLimit + 1}
	sum, _, err := hashReader(tee)
	tee.stop(err)
	res := <-done
	if err != nil {
		return "", readError(p, err)
	}
	addCheckDiagnostic(diags, "path", fmt.Sprintf("The file %q", p), res.err)
	return sum, nil
}

// checkContent checks encoded inline content.
func checkContent(f fileModel, b []byte, diags *diag.Diagnostics) {
	format, enc, ok := checkTarget(f)
	if !ok {
		return
	}
	_, err := etl.CheckFile(bytes.NewReader(b), format, enc, 0)
	_, name := f.inline()
	addCheckDiagnostic(diags, name, "file."+name, err)
}

// headTee passes reads through and copies the first left bytes to w, then
// closes w. A failed write (the checker is done) stops the copying.
type headTee struct {
	r    io.Reader
	w    *io.PipeWriter
	left int64
}

func (t *headTee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if t.w != nil && n > 0 {
		k := min(int64(n), t.left)
		if _, werr := t.w.Write(p[:k]); werr != nil {
			t.w = nil
		} else if t.left -= k; t.left == 0 {
			t.stop(nil)
		}
	}
	if err != nil {
		t.stop(err)
	}
	return n, err
}

// stop ends the copy: the checker sees the end of the file (err nil or
// io.EOF) or the read error.
func (t *headTee) stop(err error) {
	if t.w == nil {
		return
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	_ = t.w.CloseWithError(err)
	t.w = nil
}
