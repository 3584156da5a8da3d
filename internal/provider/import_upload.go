package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// preparedUpload is what Create sends: a file or rows, and the SHA-256 of
// the bytes.
type preparedUpload struct {
	file   *etl.FileUpload
	data   *etl.DataUpload
	sum    string
	closer io.Closer
	// at is the attribute that holds the data.
	at path.Path
	// rowsAsFile: rows too large for start with data, sent as a CSV file.
	rowsAsFile bool
}

func (p *preparedUpload) Close() {
	if p != nil && p.closer != nil {
		p.closer.Close()
	}
}

// prepareUpload builds the upload from known values; wo holds the
// write-only data.
func prepareUpload(ctx context.Context, m *importModel, wo writeOnlyData) (*preparedUpload, diag.Diagnostics) {
	if rows, at := wo.rowsOf(*m); !rows.IsNull() {
		return prepareRows(rows, at, m.ContentSHA256)
	}
	f, diags := resolveFile(ctx, m)
	if diags.HasError() {
		return nil, diags
	}
	if f == nil {
		diags.AddError("Nothing to import", "Set exactly one of file and rows.")
		return nil, diags
	}
	up, d := prepareFile(wo.withContent(*f), m.ContentSHA256.ValueString())
	diags.Append(d...)
	return up, diags
}

// prepareRows sends rows (the attribute at) as the JSON body of start with
// data, or as a CSV file when the body would be over the service's limit.
func prepareRows(l types.List, at path.Path, planned types.String) (*preparedUpload, diag.Diagnostics) {
	var diags diag.Diagnostics
	rows, known := rowsFrom(l)
	if !known {
		diags.AddAttributeError(at, "Rows not known", attrName(at)+" still has unknown values at apply: this is a bug in the provider; please report it.")
		return nil, diags
	}
	sum, asFile, size := rowsPayload(rows)
	d := etl.DataUpload{Rows: rows}
	if !asFile {
		return &preparedUpload{data: &d, sum: sum, at: at}, diags
	}
	if planned.IsUnknown() || planned.IsNull() { // else the plan warned
		diags.AddAttributeWarning(at, rowsAsFileSummary, rowsAsFileDetail(size))
	}
	f := d.CSVFile()
	return &preparedUpload{file: &f, sum: sum, rowsAsFile: true, at: at}, diags
}

// prepareFile opens the file at path (checked while it is sent against
// the planned SHA-256, when there is one; see openImportFile), or
// encodes the inline content.
func prepareFile(f fileModel, planned string) (*preparedUpload, diag.Diagnostics) {
	var diags diag.Diagnostics
	input := etl.FileInput{
		PartName:     f.PartName.ValueString(),
		FileFormat:   etl.FileFormat(f.Format.ValueString()),
		FileEncoding: etl.Encoding(f.Encoding.ValueString()),
		FileName:     f.Name.ValueString(),
	}
	if !f.Path.IsNull() {
		of, err := openImportFile(f.Path.ValueString(), planned)
		if err != nil {
			addFileError(&diags, err)
			return nil, diags
		}
		return &preparedUpload{
			file:   &etl.FileUpload{Input: input, Open: of.Open, Size: of.size},
			sum:    of.wantSum,
			closer: of,
			at:     filePath("path"),
		}, diags
	}
	content, name := f.inline()
	b, err := encodeContent(content.ValueString(), input.FileEncoding)
	if err != nil {
		addContentError(&diags, name, err)
		return nil, diags
	}
	return &preparedUpload{file: &etl.FileUpload{Input: input, Open: bytesOpener(b), Size: int64(len(b))}, sum: hashBytes(b), at: filePath(name)}, diags
}

// checkPlanned reports whether the bytes to send are the ones the plan
// hashed (planned is the plan's content_sha256, unknown when the plan
// could not read them); when not, nothing is sent and the error says so.
func (p *preparedUpload) checkPlanned(planned types.String, diags *diag.Diagnostics) bool {
	if !known(planned) || planned.ValueString() == p.sum {
		return true
	}
	diags.AddAttributeError(p.at, summaryDataChanged,
		fmt.Sprintf("The data to import changed between plan and apply: its SHA-256 is now %s, the plan has %s. "+
			"Nothing was sent, so that data other than the planned data is never imported. Run terraform plan again.", p.sum, planned.ValueString()))
	return false
}

// openedFile is a file opened once for an upload: every attempt reads the
// same open file, and hashes the bytes as it sends them. A reader that
// reaches the end withholds the file's last bytes until they check out
// against the expected SHA-256, so bytes other than the planned ones are
// never sent whole: the request is aborted and the service never receives
// a complete body.
type openedFile struct {
	f       *os.File
	size    int64
	wantSum string
}

// openImportFile opens the file to send. want is the SHA-256 the plan
// recorded: the bytes are then checked against it while they are sent, and
// the file is read once. Without it (the path was unknown at plan), the
// file is hashed first, so that the state records the hash of what is sent.
func openImportFile(p, want string) (*openedFile, error) {
	f, err := openRegularFile(p)
	if err != nil {
		return nil, err
	}
	if want != "" {
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, unreadableError(p, err)
		}
		return &openedFile{f: f, size: fi.Size(), wantSum: want}, nil
	}
	sum, n, err := hashReader(f)
	if err != nil {
		f.Close()
		return nil, readError(p, err)
	}
	return &openedFile{f: f, size: n, wantSum: sum}, nil
}

func (o *openedFile) Close() error { return o.f.Close() }

// Open returns a fresh reader of the file's bytes for one attempt.
func (o *openedFile) Open() (io.ReadCloser, error) {
	return &verifyingReader{r: io.NewSectionReader(o.f, 0, o.size), size: o.size, h: sha256.New(), want: o.wantSum, name: o.f.Name()}, nil
}

// verifyingReader hashes what it reads. The read that would hand over the
// last bytes first compares the digest: on a mismatch (or a file that
// ended early) it returns an *etl.UploadAbortedError instead of those
// bytes, so the request body is never complete and is not retried.
type verifyingReader struct {
	r    io.Reader
	size int64 // bytes expected
	off  int64 // bytes read so far
	h    hash.Hash
	want string
	name string
	err  error // sticky
}

func (v *verifyingReader) Read(p []byte) (int, error) {
	if v.err != nil {
		return 0, v.err
	}
	if v.off >= v.size {
		v.err = v.check()
		if v.err == nil {
			v.err = io.EOF
		}
		return 0, v.err
	}
	n, err := v.r.Read(p)
	v.h.Write(p[:n])
	v.off += int64(n)
	switch {
	case v.off >= v.size:
		// Every byte is read: these are the last ones. Hand them over only
		// when the whole file checks out.
		if v.err = v.check(); v.err != nil {
			return 0, v.err
		}
		v.err = io.EOF
		return n, nil
	case errors.Is(err, io.EOF):
		v.err = &etl.UploadAbortedError{Err: fmt.Errorf("the file %s shrank to %d bytes while it was being sent (it had %d): the upload was aborted", v.name, v.off, v.size)}
		return 0, v.err
	}
	return n, err
}

func (v *verifyingReader) check() error {
	if got := hex.EncodeToString(v.h.Sum(nil)); got != v.want {
		return &etl.UploadAbortedError{Err: &changedError{name: v.name, got: got, want: v.want}}
	}
	return nil
}

func (v *verifyingReader) Close() error { return nil }

// changedError: the bytes of the file are not the planned ones.
type changedError struct{ name, got, want string }

func (e *changedError) Error() string {
	return fmt.Sprintf("the file %s changed after plan or while it was being sent (SHA-256 %s, expected %s): the upload was aborted before its end", e.name, e.got, e.want)
}

// bytesOpener serves inline content.
func bytesOpener(b []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
}
