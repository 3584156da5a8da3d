package emulator

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// hashCounter hashes and counts the bytes read through it.
type hashCounter struct {
	r io.Reader
	h hash.Hash
	n int64
}

func newHashCounter(r io.Reader) *hashCounter { return &hashCounter{r: r, h: sha256.New()} }

func (hc *hashCounter) Read(p []byte) (int, error) {
	n, err := hc.r.Read(p)
	if n > 0 {
		hc.h.Write(p[:n])
		hc.n += int64(n)
	}
	return n, err
}

func (hc *hashCounter) sum() string { return hex.EncodeToString(hc.h.Sum(nil)) }

// table accumulates the rows of an upload and applies the column rules.
type table struct {
	required   []string
	maxKept    int
	haveHeader bool
	header     []string
	rows       [][]string
	count      int
	errMsg     string // first reason the job will end in ERROR
}

func (t *table) fail(format string, args ...any) {
	if t.errMsg == "" {
		t.errMsg = fmt.Sprintf(format, args...)
	}
}

// add takes one record; rec may be reused by the caller. line is for
// messages (0 = unknown).
func (t *table) add(rec []string, line int) {
	if t.haveHeader && len(t.rows) >= t.maxKept {
		t.addCount(len(rec), line)
		return
	}
	if !t.haveHeader {
		t.haveHeader = true
		t.header = slices.Clone(rec)
		var missing []string
		for _, c := range t.required {
			if !slices.Contains(t.header, c) {
				missing = append(missing, fmt.Sprintf("%q", c))
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			t.fail("missing required column %s", missing[0])
		default:
			t.fail("missing required columns %s", strings.Join(missing, ", "))
		}
		return
	}
	t.addCount(len(rec), line)
	t.rows = append(t.rows, slices.Clone(rec))
}

// addCount counts a data row of n fields that is not kept.
func (t *table) addCount(n, line int) {
	t.count++
	if n != len(t.header) && t.errMsg == "" {
		where := ""
		if line > 0 {
			where = fmt.Sprintf(" (line %d)", line)
		}
		t.fail("data row %d%s has %d fields, the header has %d", t.count, where, n, len(t.header))
	}
}

// finish returns the job outcome and message.
func (t *table) finish(emptyMsg string) (string, string) {
	if !t.haveHeader {
		t.fail("%s", emptyMsg)
	}
	if t.errMsg != "" {
		return StatusError, t.errMsg
	}
	return StatusCompleted, ""
}

// bodyError maps an error met while reading an upload to an answer.
func bodyError(err error) *apiError {
	var de *decodeError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &de):
		return errorf(http.StatusBadRequest, "file does not decode in its declared encoding: %v", de)
	case errors.As(err, &mbe):
		return errorf(http.StatusRequestEntityTooLarge, "request body exceeds the limit of %d bytes", mbe.Limit)
	}
	return errorf(http.StatusBadRequest, "reading request body: %v", err)
}

// multipartError maps an error met while reading a multipart upload.
func multipartError(err error) *apiError {
	var de *decodeError
	if errors.As(err, &de) {
		return bodyError(err)
	}
	return errorf(http.StatusBadRequest, "malformed multipart body: %v", err)
}

// fileMeta is the metadata part's "input".
type fileMeta struct {
	PartName     string `json:"partName"`
	FileFormat   string `json:"fileFormat"`
	FileEncoding string `json:"fileEncoding"`
	FileName     string `json:"fileName"`
}

func delimiter(format string) rune {
	switch format {
	case "CSV":
		return ','
	case "PSV":
		return '|'
	case "TDF":
		return '\t'
	}
	return 0
}

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
	if m.Input == nil {
		return nil, errorf(http.StatusUnprocessableEntity, `metadata lacks "input"`)
	}
	if m.Input.PartName == "" {
		return nil, errorf(http.StatusUnprocessableEntity, `metadata lacks "input.partName"`)
	}
	if m.Input.PartName == "metadata" {
		return nil, errorf(http.StatusUnprocessableEntity, `metadata "input.partName" cannot be "metadata"`)
	}
	if delimiter(m.Input.FileFormat) == 0 {
		return nil, errorf(http.StatusBadRequest, "unknown fileFormat %q: use CSV, PSV or TDF", m.Input.FileFormat)
	}
	if newConverter(m.Input.FileEncoding) == nil {
		return nil, errorf(http.StatusBadRequest, `unknown fileEncoding %q: use "UTF-8", "UTF-16" or "Windows Latin-1"`, m.Input.FileEncoding)
	}
	return m.Input, nil
}

// spooled is a part that arrived before the metadata, saved to a temp file.
// While it is saved, it is also parsed speculatively with a format and
// encoding sniffed from its start; when the metadata agrees, that result is
// used and the file is not read back.
type spooled struct {
	name string
	f    *os.File
	n    int64
	sum  string
	spec *speculation
}

// speculation is a parse run while a part is spooled.
type speculation struct {
	format, encoding string
	t                *table
	err              error
	done             chan struct{}
}

// sniff guesses the format and encoding of a file from its first bytes.
func sniff(b []byte) (format, encoding string) {
	head := b[:min(len(b), 64<<10)]
	encoding = "UTF-8"
	switch {
	case len(head) >= 2 && (head[0] == 0xFE && head[1] == 0xFF || head[0] == 0xFF && head[1] == 0xFE):
		encoding = "UTF-16"
	case bytes.HasPrefix(head, utf8BOM):
	case bytes.IndexByte(head, 0) >= 0:
		encoding = "UTF-16"
	case !utf8.Valid(head[:len(head)-incompleteTail(head)]):
		encoding = "Windows Latin-1"
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	format = "CSV"
	best := bytes.Count(head, []byte{','})
	if n := bytes.Count(head, []byte{'|'}); n > best {
		format, best = "PSV", n
	}
	if n := bytes.Count(head, []byte{'\t'}); n > best {
		format = "TDF"
	}
	return format, encoding
}

func (s *Server) spoolPart(p *multipart.Part, name string, required []string) (sp *spooled, err error) {
	f, err := os.CreateTemp("", "etl-emulator-upload-*")
	if err != nil {
		return nil, err
	}
	sp = &spooled{name: name, f: f}
	ar := newAheadReader(p, true)
	defer ar.Close()
	var pw *io.PipeWriter
	defer func() {
		if pw != nil {
			pw.CloseWithError(err)
		}
		if sp.spec != nil {
			<-sp.spec.done
		}
	}()
	for {
		chunk, err := ar.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sp, err
		}
		if sp.spec == nil {
			format, encoding := sniff(chunk)
			spec := &speculation{format: format, encoding: encoding, done: make(chan struct{}),
				t: &table{required: required, maxKept: s.maxKept}}
			var pr *io.PipeReader
			pr, pw = io.Pipe()
			go func() {
				defer close(spec.done)
				spec.err = parseDelimited(pr, newConverter(encoding), delimiter(format), spec.t)
				pr.CloseWithError(errors.New("speculative parse ended"))
			}()
			sp.spec = spec
		}
		if _, err := f.Write(chunk); err != nil {
			return sp, err
		}
		if pw != nil {
			if _, err := pw.Write(chunk); err != nil {
				pw = nil // the speculative parse gave up; the spool stays
			}
		}
	}
	sp.n, sp.sum = ar.n, ar.sum
	return sp, nil
}

// readFileUpload reads a multipart upload (startWithFile and the job file
// PUT) as it streams and returns what was received and the job outcome.
func (s *Server) readFileUpload(r *http.Request, required []string) (*load, *apiError) {
	u, outcome, msg, e := s.readFileParts(r, required)
	if e != nil {
		return nil, e
	}
	return &load{upload: u, outcome: outcome, message: msg}, nil
}

func (s *Server) readFileParts(r *http.Request, required []string) (*Upload, string, string, *apiError) {
	mt, params, ok := mediaType(r)
	if !ok || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, "", "", errorf(http.StatusUnsupportedMediaType,
			"unsupported Content-Type %q: send multipart/form-data with a boundary", r.Header.Get("Content-Type"))
	}
	// The same streaming reader r.MultipartReader returns, over a larger
	// read buffer.
	mr := multipart.NewReader(bufio.NewReaderSize(r.Body, decodeBufSize), params["boundary"])
	var (
		meta    *fileMeta
		spools  []*spooled
		matches int
		u       *Upload
		t       = &table{required: required, maxKept: s.maxKept}
	)
	defer func() {
		for _, sp := range spools {
			_ = sp.f.Close()
			_ = os.Remove(sp.f.Name()) //nolint:gosec // our own os.CreateTemp file, not a request-supplied path
		}
	}()
	newUpload := func(n int64, sum string) *Upload {
		return &Upload{Kind: "file", PartName: meta.PartName, FileName: meta.FileName, Format: meta.FileFormat,
			Encoding: meta.FileEncoding, Bytes: n, SHA256: sum}
	}
	for {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", "", errorf(http.StatusBadRequest, "malformed multipart body: %v", err)
		}
		name := p.FormName()
		switch {
		case name == "metadata":
			if meta != nil {
				return nil, "", "", errorf(http.StatusUnprocessableEntity, "more than one metadata part")
			}
			m, e := readMeta(p)
			if e != nil {
				return nil, "", "", e
			}
			meta = m
		case meta == nil:
			sp, err := s.spoolPart(p, name, required)
			if sp != nil {
				spools = append(spools, sp)
			}
			if err != nil {
				return nil, "", "", multipartError(err)
			}
		case name != meta.PartName:
			if _, err := io.Copy(io.Discard, p); err != nil {
				return nil, "", "", multipartError(err)
			}
		default:
			matches++
			if matches > 1 {
				return nil, "", "", errorf(http.StatusUnprocessableEntity, "more than one part named %q", meta.PartName)
			}
			ar := newAheadReader(p, true)
			err := parseDelimited(ar, newConverter(meta.FileEncoding), delimiter(meta.FileFormat), t)
			ar.Close()
			if err != nil {
				return nil, "", "", multipartError(err)
			}
			u = newUpload(ar.n, ar.sum)
		}
	}
	if meta == nil {
		return nil, "", "", errorf(http.StatusUnprocessableEntity, "multipart body has no metadata part")
	}
	var chosen *spooled
	for _, sp := range spools {
		if sp.name == meta.PartName {
			matches++
			chosen = sp
		}
	}
	switch {
	case matches == 0:
		return nil, "", "", errorf(http.StatusUnprocessableEntity, "multipart body has no file part named %q (metadata input.partName)", meta.PartName)
	case matches > 1:
		return nil, "", "", errorf(http.StatusUnprocessableEntity, "more than one part named %q", meta.PartName)
	}
	if chosen != nil {
		if spec := chosen.spec; spec != nil && spec.format == meta.FileFormat && spec.encoding == meta.FileEncoding {
			if spec.err != nil {
				return nil, "", "", multipartError(spec.err)
			}
			t = spec.t
		} else {
			if _, err := chosen.f.Seek(0, io.SeekStart); err != nil {
				return nil, "", "", errorf(http.StatusInternalServerError, "reading spooled upload: %v", err)
			}
			ar := newAheadReader(chosen.f, false)
			err := parseDelimited(ar, newConverter(meta.FileEncoding), delimiter(meta.FileFormat), t)
			ar.Close()
			if err != nil {
				return nil, "", "", multipartError(err)
			}
		}
		u = newUpload(chosen.n, chosen.sum)
	}
	outcome, msg := t.finish("file is empty: it has no header row")
	u.Header, u.Rows, u.RowCount = t.header, t.rows, t.count
	return u, outcome, msg, nil
}

func (s *Server) startWithFile(w http.ResponseWriter, r *http.Request, tmplID string) *apiError {
	tmpl, e := s.lookupTemplate(tmplID)
	if e != nil {
		return e
	}
	l, e := s.readFileUpload(r, tmpl.requiredFor(tmpl.firstInput()))
	if e != nil {
		return e
	}
	return s.startJob(w, tmplID, l)
}

func (s *Server) startWithData(w http.ResponseWriter, r *http.Request, tmplID string) *apiError {
	tmpl, e := s.lookupTemplate(tmplID)
	if e != nil {
		return e
	}
	if mt, _, ok := mediaType(r); !ok || mt != "application/json" {
		return errorf(http.StatusUnsupportedMediaType, "unsupported Content-Type %q: send application/json", r.Header.Get("Content-Type"))
	}
	limit := s.opts.MaxDataBytes
	if r.ContentLength > limit {
		return errorf(http.StatusRequestEntityTooLarge, "request body of %d bytes exceeds the limit of %d bytes", r.ContentLength, limit)
	}
	hc := newHashCounter(http.MaxBytesReader(w, r.Body, limit))
	t := &table{required: tmpl.requiredFor(tmpl.firstInput()), maxKept: s.maxKept}
	if e := readData(hc, t); e != nil {
		return e
	}
	if _, err := io.Copy(io.Discard, hc); err != nil {
		return bodyError(err)
	}
	outcome, msg := t.finish("no header row")
	u := &Upload{Kind: "data", Header: t.header, RowCount: t.count, Rows: t.rows, Bytes: hc.n, SHA256: hc.sum()}
	return s.startJob(w, tmplID, &load{upload: u, outcome: outcome, message: msg})
}

const dataShape = `the body must be {"input":{"data":[[header...],[row...]...]}}`

// readData parses {"input":{"data":[[...],...]}} row by row into t.
func readData(r io.Reader, t *table) *apiError {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.UseNumber()
	bad := func(err error) *apiError {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return bodyError(err)
		}
		return errorf(http.StatusBadRequest, "malformed JSON body: %v", err)
	}
	expectDelim := func(want json.Delim, what string) *apiError {
		tok, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		if d, ok := tok.(json.Delim); !ok || d != want {
			return errorf(http.StatusBadRequest, "malformed JSON body: %s must be a JSON %s; %s", what, map[json.Delim]string{'{': "object", '[': "array"}[want], dataShape)
		}
		return nil
	}
	// object walks an object's members, calling member for each key.
	object := func(what string, member func(key string) *apiError) *apiError {
		if e := expectDelim('{', what); e != nil {
			return e
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return bad(err)
			}
			key, _ := tok.(string)
			if e := member(key); e != nil {
				return e
			}
		}
		_, err := dec.Token() // '}'
		if err != nil {
			return bad(err)
		}
		return nil
	}
	skip := func() *apiError {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return bad(err)
		}
		return nil
	}
	sawData := false
	rec := []string{}
	e := object("the body", func(key string) *apiError {
		if key != "input" {
			return skip()
		}
		return object("input", func(key string) *apiError {
			if key != "data" {
				return skip()
			}
			if sawData {
				return errorf(http.StatusBadRequest, "malformed JSON body: input.data appears twice")
			}
			sawData = true
			if e := expectDelim('[', "input.data"); e != nil {
				return e
			}
			n := 0
			for dec.More() {
				n++
				var row any
				if err := dec.Decode(&row); err != nil {
					return bad(err)
				}
				cells, ok := row.([]any)
				if !ok {
					return errorf(http.StatusBadRequest, "input.data row %d is not an array of cells", n)
				}
				rec = rec[:0]
				for i, c := range cells {
					switch v := c.(type) {
					case string:
						rec = append(rec, v)
					case json.Number:
						rec = append(rec, v.String())
					case bool:
						rec = append(rec, fmt.Sprint(v))
					case nil:
						rec = append(rec, "")
					default:
						return errorf(http.StatusBadRequest, "input.data row %d cell %d is not a string, number, boolean or null", n, i+1)
					}
				}
				t.add(rec, 0)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return bad(err)
			}
			if n == 0 {
				return errorf(http.StatusBadRequest, "input.data is empty: it needs at least a header row")
			}
			return nil
		})
	})
	if e != nil {
		return e
	}
	if !sawData {
		return errorf(http.StatusBadRequest, "malformed JSON body: missing input.data; %s", dataShape)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return errorf(http.StatusBadRequest, "malformed JSON body: unexpected data after the JSON object")
		}
		return bad(err)
	}
	return nil
}
