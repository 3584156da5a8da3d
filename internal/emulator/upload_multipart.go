package emulator

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"os"
)

// emptyFileMsg is why a file with no record fails.
const emptyFileMsg = "file is empty: it has no header row"

// fileMeta is the metadata part's "input".
type fileMeta struct {
	PartName     string `json:"partName"`
	FileFormat   string `json:"fileFormat"`
	FileEncoding string `json:"fileEncoding"`
	FileName     string `json:"fileName"`
}

// fileUpload is a multipart upload (start with file, or the PUT of a job's
// input) being read. Its parts may come in any order: a part before the
// metadata is spooled to a temporary file (see spoolPart); the file part
// after it is parsed as it streams.
type fileUpload struct {
	s        *Server
	required []string
	meta     *fileMeta
	spools   []*spooled // the parts that came before the metadata
	matches  int        // parts named as the metadata's partName
	streamed *parsed    // the file part, when it came after the metadata
}

// parsed is a file part read and parsed.
type parsed struct {
	t   *table
	n   int64  // its bytes
	sum string // their SHA-256, lower-case hex
}

// readFileUpload reads a multipart upload as it streams and returns what
// was received and the outcome it leads to.
func (s *Server) readFileUpload(r *http.Request, required []string) (*load, *apiError) {
	mr, e := multipartReader(r)
	if e != nil {
		return nil, e
	}
	fu := &fileUpload{s: s, required: required}
	defer fu.removeSpools()
	if e := fu.readParts(mr); e != nil {
		return nil, e
	}
	p, e := fu.filePart()
	if e != nil {
		return nil, e
	}
	m := fu.meta
	u := &Upload{Kind: "file", PartName: m.PartName, FileName: m.FileName, Format: m.FileFormat, Encoding: m.FileEncoding,
		Bytes: p.n, SHA256: p.sum}
	return p.t.load(u, emptyFileMsg), nil
}

// multipartReader checks the Content-Type and returns the streaming reader
// r.MultipartReader would, over a larger read buffer.
func multipartReader(r *http.Request) (*multipart.Reader, *apiError) {
	mt, params, ok := mediaType(r)
	if !ok || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, errorf(http.StatusUnsupportedMediaType,
			"unsupported Content-Type %q: send multipart/form-data with a boundary", r.Header.Get("Content-Type"))
	}
	return multipart.NewReader(bufio.NewReaderSize(r.Body, parseBufSize), params["boundary"]), nil
}

// readParts hands every part of mr to part, in order, until the body ends;
// a malformed body is answered 400.
func (fu *fileUpload) readParts(mr *multipart.Reader) *apiError {
	for {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errorf(http.StatusBadRequest, "malformed multipart body: %v", err)
		}
		if e := fu.part(p); e != nil {
			return e
		}
	}
}

// part reads one part: the metadata, a part to spool (before the
// metadata), a part to skip, or the file part.
func (fu *fileUpload) part(p *multipart.Part) *apiError {
	name := p.FormName()
	switch {
	case name == "metadata":
		if fu.meta != nil {
			return errorf(http.StatusUnprocessableEntity, "more than one metadata part")
		}
		m, e := readMeta(p)
		fu.meta = m
		return e
	case fu.meta == nil:
		sp, err := fu.s.spoolPart(p, name, fu.required)
		if sp != nil {
			fu.spools = append(fu.spools, sp)
		}
		return multipartError(err)
	case name != fu.meta.PartName:
		_, err := io.Copy(io.Discard, p)
		return multipartError(err)
	}
	fu.matches++
	if fu.matches > 1 {
		return errorf(http.StatusUnprocessableEntity, "more than one part named %q", fu.meta.PartName)
	}
	streamed, err := fu.parse(p, true)
	fu.streamed = streamed
	return multipartError(err)
}

// parse reads a file part from src, hashing it when asked, and parses it
// as the metadata says.
func (fu *fileUpload) parse(src io.Reader, hash bool) (*parsed, error) {
	ar := newAheadReader(src, hash)
	t := &table{required: fu.required, maxKept: fu.s.maxKept}
	err := parseFile(ar, fu.meta.FileFormat, fu.meta.FileEncoding, t)
	ar.Close()
	return &parsed{t: t, n: ar.n, sum: ar.sum}, err
}

// defaultPartName is the file part's name when Options.MissingMetadata
// defaults the metadata.
const defaultPartName = "file"

// filePart returns the one file part, once every part is read. Without a
// metadata part, it is 422, or with MissingMetadataDefault the part named
// "file" as CSV in UTF-8 (see defaultMeta).
func (fu *fileUpload) filePart() (*parsed, *apiError) {
	if fu.meta == nil && fu.s.opts.MissingMetadata == MissingMetadataDefault {
		fu.meta = fu.defaultMeta()
	}
	if fu.meta == nil {
		return nil, errorf(http.StatusUnprocessableEntity, "multipart body has no metadata part")
	}
	var spooled *spooled
	for _, sp := range fu.spools {
		if sp.name == fu.meta.PartName {
			fu.matches++
			spooled = sp
		}
	}
	switch {
	case fu.matches == 0:
		return nil, errorf(http.StatusUnprocessableEntity, "multipart body has no file part named %q (metadata input.partName)", fu.meta.PartName)
	case fu.matches > 1:
		return nil, errorf(http.StatusUnprocessableEntity, "more than one part named %q", fu.meta.PartName)
	case spooled == nil:
		return fu.streamed, nil
	}
	return fu.fromSpool(spooled)
}

// defaultMeta is the metadata of an upload that has none, with
// MissingMetadataDefault: part name "file", CSV, UTF-8, and the file name
// that part's filename parameter gives (the first such part's, when there
// are several: filePart refuses them anyway).
func (fu *fileUpload) defaultMeta() *fileMeta {
	m := &fileMeta{PartName: defaultPartName, FileFormat: "CSV", FileEncoding: encodingUTF8}
	for _, sp := range fu.spools {
		if sp.name == defaultPartName {
			m.FileName = sp.fileName
			break
		}
	}
	return m
}

// fromSpool returns a spooled file part parsed: by the speculative parse
// when the metadata confirms its format and encoding, else read back.
func (fu *fileUpload) fromSpool(sp *spooled) (*parsed, *apiError) {
	if spec := sp.spec; spec != nil && spec.format == fu.meta.FileFormat && spec.encoding == fu.meta.FileEncoding {
		if spec.err != nil {
			return nil, multipartError(spec.err)
		}
		return &parsed{t: spec.t, n: sp.n, sum: sp.sum}, nil
	}
	if _, err := sp.f.Seek(0, io.SeekStart); err != nil {
		return nil, errorf(http.StatusInternalServerError, "reading spooled upload: %v", err)
	}
	p, err := fu.parse(sp.f, false)
	if err != nil {
		return nil, multipartError(err)
	}
	p.n, p.sum = sp.n, sp.sum
	return p, nil
}

// removeSpools closes and removes the temporary files of the spooled parts.
func (fu *fileUpload) removeSpools() {
	for _, sp := range fu.spools {
		_ = sp.f.Close()
		_ = os.Remove(sp.f.Name()) //nolint:gosec // our own os.CreateTemp file, not a request-supplied path
	}
}

// readMeta reads the metadata part, at most 1 MiB of JSON
// {"input":{...}}, and returns its input once checkMeta accepts it; a part
// too large or not JSON is answered 422.
func readMeta(p *multipart.Part) (*fileMeta, *apiError) {
	const limit = 1 << 20
	b, err := io.ReadAll(io.LimitReader(p, limit+1))
	if err != nil {
		return nil, multipartError(err)
	}
	if len(b) > limit {
		return nil, errorf(http.StatusUnprocessableEntity, "metadata part is larger than %d bytes", limit)
	}
	var m struct {
		Input *fileMeta `json:"input"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, errorf(http.StatusUnprocessableEntity, "metadata part is not valid JSON: %v", err)
	}
	if e := checkMeta(m.Input); e != nil {
		return nil, e
	}
	return m.Input, nil
}

// checkMeta answers 422 when the metadata has no input or no partName, or
// names the file part "metadata", and 400 for an unknown fileFormat or
// fileEncoding.
func checkMeta(in *fileMeta) *apiError {
	switch {
	case in == nil:
		return errorf(http.StatusUnprocessableEntity, `metadata lacks "input"`)
	case in.PartName == "":
		return errorf(http.StatusUnprocessableEntity, `metadata lacks "input.partName"`)
	case in.PartName == "metadata":
		return errorf(http.StatusUnprocessableEntity, `metadata "input.partName" cannot be "metadata"`)
	case delimiter(in.FileFormat) == 0:
		return errorf(http.StatusBadRequest, "unknown fileFormat %q: use CSV, PSV or TDF", in.FileFormat)
	case !knownEncoding(in.FileEncoding):
		return errorf(http.StatusBadRequest, `unknown fileEncoding %q: use "UTF-8", "UTF-16" or "Windows Latin-1"`, in.FileEncoding)
	}
	return nil
}

// multipartError maps an error met while reading a multipart upload to an
// answer; nil for nil.
func multipartError(err error) *apiError {
	var de *decodeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &de):
		return errorf(http.StatusBadRequest, "file does not decode in its declared encoding: %v", de)
	}
	return errorf(http.StatusBadRequest, "malformed multipart body: %v", err)
}
