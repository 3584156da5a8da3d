package emulator

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
)

// readDataUpload reads a start-with-data body, {"input":{"data":[[header
// ...],[row...]...]}}, as it streams, and returns what was received and the
// outcome it leads to. The body may hold at most Options.MaxDataBytes.
func (s *Server) readDataUpload(w http.ResponseWriter, r *http.Request, required []string) (*load, *apiError) {
	if mt, _, ok := mediaType(r); !ok || mt != "application/json" {
		return nil, errorf(http.StatusUnsupportedMediaType, "unsupported Content-Type %q: send application/json", r.Header.Get("Content-Type"))
	}
	limit := s.opts.MaxDataBytes
	if r.ContentLength > limit {
		return nil, errorf(http.StatusRequestEntityTooLarge, "request body of %d bytes exceeds the limit of %d bytes", r.ContentLength, limit)
	}
	hc := newHashCounter(http.MaxBytesReader(w, r.Body, limit))
	t := &table{required: required, maxKept: s.maxKept}
	if e := readData(hc, t); e != nil {
		return nil, e
	}
	if err := drain(hc); err != nil {
		return nil, bodyError(err)
	}
	return t.load(&Upload{Kind: "data", Bytes: hc.n, SHA256: hc.sum()}, "no header row"), nil
}

// bodyError maps an error met while reading a data body to an answer.
func bodyError(err error) *apiError {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return errorf(http.StatusRequestEntityTooLarge, "request body exceeds the limit of %d bytes", mbe.Limit)
	}
	return errorf(http.StatusBadRequest, "reading request body: %v", err)
}

// hashCounter hashes and counts the bytes read through it.
type hashCounter struct {
	r io.Reader
	h hash.Hash
	n int64
}

// newHashCounter returns a hashCounter (SHA-256) reading through r.
func newHashCounter(r io.Reader) *hashCounter { return &hashCounter{r: r, h: sha256.New()} }

func (hc *hashCounter) Read(p []byte) (int, error) {
	n, err := hc.r.Read(p)
	if n > 0 {
		hc.h.Write(p[:n])
		hc.n += int64(n)
	}
	return n, err
}

// sum returns the SHA-256 of the bytes read so far, in lower-case hex.
func (hc *hashCounter) sum() string { return hex.EncodeToString(hc.h.Sum(nil)) }

// dataShape is the shape a data body must have, quoted in the messages of
// a body that does not.
const dataShape = `the body must be {"input":{"data":[[header...],[row...]...]}}`

// dataReader reads a data body token by token, row by row, into a table.
type dataReader struct {
	dec     *json.Decoder
	t       *table
	sawData bool
	rec     []string
}

// readData parses {"input":{"data":[[...],...]}} row by row into t; other
// members are skipped, and anything after the object is refused.
func readData(r io.Reader, t *table) *apiError {
	d := &dataReader{dec: json.NewDecoder(bufio.NewReaderSize(r, 64<<10)), t: t}
	d.dec.UseNumber()
	if e := d.object("the body", d.bodyMember); e != nil {
		return e
	}
	if !d.sawData {
		return errorf(http.StatusBadRequest, "malformed JSON body: missing input.data; %s", dataShape)
	}
	if _, err := d.dec.Token(); err != io.EOF {
		if err == nil {
			return errorf(http.StatusBadRequest, "malformed JSON body: unexpected data after the JSON object")
		}
		return d.bad(err)
	}
	return nil
}

// bodyMember reads the body's member key: input is read as an object,
// anything else skipped.
func (d *dataReader) bodyMember(key string) *apiError {
	if key != "input" {
		return d.skip()
	}
	return d.object("input", d.inputMember)
}

// inputMember reads input's member key: data is read as the rows (and may
// appear only once), anything else skipped.
func (d *dataReader) inputMember(key string) *apiError {
	if key != "data" {
		return d.skip()
	}
	if d.sawData {
		return errorf(http.StatusBadRequest, "malformed JSON body: input.data appears twice")
	}
	d.sawData = true
	return d.rows()
}

// rows reads input.data: an array of at least one row.
func (d *dataReader) rows() *apiError {
	if e := d.expectDelim('[', "input.data"); e != nil {
		return e
	}
	n := 0
	for d.dec.More() {
		n++
		if e := d.row(n); e != nil {
			return e
		}
	}
	if _, err := d.dec.Token(); err != nil { // ']'
		return d.bad(err)
	}
	if n == 0 {
		return errorf(http.StatusBadRequest, "input.data is empty: it needs at least a header row")
	}
	return nil
}

// row reads row n: an array of strings, numbers, booleans and nulls.
func (d *dataReader) row(n int) *apiError {
	var row any
	if err := d.dec.Decode(&row); err != nil {
		return d.bad(err)
	}
	cells, ok := row.([]any)
	if !ok {
		return errorf(http.StatusBadRequest, "input.data row %d is not an array of cells", n)
	}
	d.rec = d.rec[:0]
	for i, c := range cells {
		text, ok := cellText(c)
		if !ok {
			return errorf(http.StatusBadRequest, "input.data row %d cell %d is not a string, number, boolean or null", n, i+1)
		}
		d.rec = append(d.rec, text)
	}
	d.t.add(d.rec, 0)
	return nil
}

// cellText returns a cell as text: a number as written, null as "".
func cellText(c any) (string, bool) {
	switch v := c.(type) {
	case string:
		return v, true
	case json.Number:
		return v.String(), true
	case bool:
		return fmt.Sprint(v), true
	case nil:
		return "", true
	}
	return "", false
}

// object reads a JSON object (what names it in messages), calling member
// for each key with the decoder at its value.
func (d *dataReader) object(what string, member func(key string) *apiError) *apiError {
	if e := d.expectDelim('{', what); e != nil {
		return e
	}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return d.bad(err)
		}
		key, _ := tok.(string)
		if e := member(key); e != nil {
			return e
		}
	}
	if _, err := d.dec.Token(); err != nil { // '}'
		return d.bad(err)
	}
	return nil
}

// expectDelim reads the next token and answers 400 unless it is want, the
// opening '{' or '[' of what.
func (d *dataReader) expectDelim(want json.Delim, what string) *apiError {
	tok, err := d.dec.Token()
	if err != nil {
		return d.bad(err)
	}
	if got, ok := tok.(json.Delim); !ok || got != want {
		kind := map[json.Delim]string{'{': "object", '[': "array"}[want]
		return errorf(http.StatusBadRequest, "malformed JSON body: %s must be a JSON %s; %s", what, kind, dataShape)
	}
	return nil
}

// skip reads a value and drops it.
func (d *dataReader) skip() *apiError {
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		return d.bad(err)
	}
	return nil
}

// bad maps a read or syntax error: 413 past the size limit, else 400.
func (d *dataReader) bad(err error) *apiError {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return bodyError(err)
	}
	return errorf(http.StatusBadRequest, "malformed JSON body: %v", err)
}
