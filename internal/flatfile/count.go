package flatfile

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// Counts is what a RowCounter found in a flat file: what a plan shows of
// the data it sends, and what a record of the file's hash keeps.
type Counts struct {
	// Key names what the bytes were counted for (FileTarget.Key, such as
	// "CSV/UTF-8"): counts for another key are not these.
	Key string `json:"key"`
	// Columns is the header row's cells (the file's first record that is
	// not a blank line), decoded, without the byte order mark; empty when
	// the file holds no record; nil when NoColumns says why they are
	// unavailable (NoColumnsTooLong, NoColumnsEncoding, NoColumnsQuote).
	Columns   []string `json:"columns"`
	NoColumns string   `json:"no_columns,omitempty"`
	// Rows is the data records after the header row, as the service
	// imports them: blank lines are skipped, a line break inside a quoted
	// cell is not a record, CR LF and LF both end one, the last needs no
	// line break. 0 for an empty file or a header alone.
	Rows int64 `json:"rows"`
	// Size is how many bytes were written: the file's size, byte order
	// mark included.
	Size int64 `json:"size_bytes"`
	// Malformed reports quoting that encoding/csv refuses (a bare quote,
	// something after a closing quote, a quoted cell left open): the
	// service would refuse the file, and Rows is only a best effort (read
	// as LazyQuotes would).
	Malformed bool `json:"malformed,omitempty"`
}

// RowCounter counts the data rows of a delimited flat file and reads its
// header row's cells, streaming: it is written the file's bytes in order,
// in chunks of any size (the read that hashes the file feeds it), and
// Result then says what it found. Memory stays small: the header row is
// kept up to HeaderMaxBytes, nothing per row. It does not check the file
// (CheckFile does): bytes that do not decode are counted as characters.
// Not safe for concurrent use.
type RowCounter struct {
	key  string
	enc  Encoding
	scan *recordScanner
	head headerCapture

	written int64 // bytes written
	body    int64 // bytes past the byte order mark
	started bool  // the byte order mark has been looked for
	pending []byte
	little  bool // UTF-16 little-endian
	odd     []byte
	mapped  []byte
	done    bool
	res     Counts
}

// NewRowCounter returns a counter of a file in format (its delimiter) and
// encoding enc: UTF-8 with or without a byte order mark, UTF-16 in the
// order of its byte order mark (big-endian without one), Windows Latin-1
// (where a UTF-8 byte order mark is three characters, as the service
// decodes it).
func NewRowCounter(format Format, enc Encoding) (*RowCounter, error) {
	if why := unknownTarget(format, enc); why != "" {
		return nil, errors.New(why)
	}
	//nolint:gosec // every format's delimiter is ASCII
	return &RowCounter{key: FileTarget{format, enc}.Key(), enc: enc, scan: newRecordScanner(byte(format.Delimiter()))}, nil
}

// Write takes the next bytes of the file. It never fails; after Result it
// takes nothing.
func (c *RowCounter) Write(p []byte) (int, error) {
	n := len(p)
	if c.done {
		return n, nil
	}
	c.written += int64(n)
	if !c.started {
		take := min(len(p), bomWait(c.enc)-len(c.pending))
		c.pending = append(c.pending, p[:take]...)
		p = p[take:]
		if len(c.pending) < bomWait(c.enc) {
			return n, nil
		}
		c.start()
	}
	c.feed(p)
	return n, nil
}

// start looks for the byte order mark in the bytes held, skips it and
// feeds the rest.
func (c *RowCounter) start() {
	c.started = true
	n, little := bomOf(c.pending, c.enc)
	c.little = little
	c.feed(c.pending[n:])
	c.pending = nil
}

// feed takes bytes past the byte order mark: it keeps them while the
// header row is read and scans them (UTF-16: one unit per code unit, a
// code unit split between writes held until it is whole).
func (c *RowCounter) feed(b []byte) {
	if len(b) == 0 {
		return
	}
	c.body += int64(len(b))
	c.head.take(b)
	if c.enc != EncodingUTF16 {
		c.scan.feed(b)
		c.headerEnded(1)
		return
	}
	units := c.mapped[:0]
	if len(c.odd) == 1 {
		units = mapUTF16(units, []byte{c.odd[0], b[0]}, c.little)
		c.odd, b = c.odd[:0], b[1:]
	}
	even := len(b) &^ 1
	units = mapUTF16(units, b[:even], c.little)
	c.odd = append(c.odd, b[even:]...)
	c.scan.feed(units)
	c.mapped = units[:0]
	c.headerEnded(2)
}

// headerEnded ends the header capture once the scanner has found the
// header row's end; size is the bytes of a unit.
func (c *RowCounter) headerEnded(size int64) {
	if !c.head.done && c.scan.headerEnd >= 0 {
		c.head.end(c.scan.headerEnd * size)
	}
}

// Result ends the file and returns what was found. Later calls return
// the same.
func (c *RowCounter) Result() Counts {
	if c.done {
		return c.res
	}
	if !c.started {
		c.start()
	}
	if len(c.odd) == 1 {
		c.scan.feed([]byte{0x80}) // a lone last byte: a character that does not decode
	}
	c.scan.finish()
	if !c.head.done && c.scan.headerEnd >= 0 {
		c.head.end(c.body) // the header row runs to the end of the file
	}
	c.done = true
	c.res = Counts{Key: c.key, Rows: max(c.scan.records-1, 0), Size: c.written, Malformed: c.scan.malformed}
	if c.scan.records == 0 {
		c.res.Columns = []string{}
	} else {
		c.res.Columns, c.res.NoColumns = c.head.columns(c.enc, c.little, c.scan.delim)
	}
	c.head = headerCapture{done: true}
	c.mapped = nil
	return c.res
}

// HeaderMaxBytes bounds the header row a RowCounter reads the columns of:
// when the bytes up to the header row's end (blank lines before it
// included, the byte order mark not) are more, the columns are reported
// unavailable (Counts.NoColumns).
const HeaderMaxBytes = 64 << 10

// Why Counts.Columns is unavailable (Counts.NoColumns).
const (
	// NoColumnsTooLong: the header row is longer than HeaderMaxBytes.
	NoColumnsTooLong = "the header row is longer than 64 KiB"
	// NoColumnsEncoding: the header row's bytes do not decode.
	NoColumnsEncoding = "the header row does not decode in the file's encoding"
	// NoColumnsQuote: the header row breaks RFC 4180 quoting.
	NoColumnsQuote = "the header row's quoting is broken"
)

// headerCapture keeps the raw bytes of a file (past its byte order mark)
// while its header row is read, up to one byte past HeaderMaxBytes.
type headerCapture struct {
	buf     []byte
	done    bool // the header row has ended (or the capture gave up)
	tooLong bool
}

// take keeps the next raw bytes b, as long as the header has not ended.
func (h *headerCapture) take(b []byte) {
	if h.done {
		return
	}
	if room := HeaderMaxBytes + 1 - len(h.buf); room > 0 {
		h.buf = append(h.buf, b[:min(len(b), room)]...)
	}
}

// end marks the header row's end, n raw bytes in.
func (h *headerCapture) end(n int64) {
	h.done = true
	if n > HeaderMaxBytes || n > int64(len(h.buf)) {
		h.tooLong, h.buf = true, nil
		return
	}
	h.buf = h.buf[:n]
}

// columns returns the cells of the header row held, decoded from enc
// (UTF-16 in the byte order little tells), as encoding/csv reads the
// file's first record (delimiter delim, LazyQuotes off); or why they are
// unavailable.
func (h *headerCapture) columns(enc Encoding, little bool, delim byte) ([]string, string) {
	if h.tooLong {
		return nil, NoColumnsTooLong
	}
	text, ok := decodeText(h.buf, enc, little)
	if !ok {
		return nil, NoColumnsEncoding
	}
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = rune(delim)
	r.FieldsPerRecord = -1
	rec, err := r.Read()
	switch {
	case errors.Is(err, io.EOF):
		return []string{}, ""
	case err != nil:
		return nil, NoColumnsQuote
	}
	return rec, ""
}

// decodeText decodes raw (past any byte order mark) from enc to UTF-8;
// false when it does not decode (invalid UTF-8, a byte Windows-1252 leaves
// undefined, an unpaired surrogate or an odd length in UTF-16).
func decodeText(raw []byte, enc Encoding, little bool) (string, bool) {
	switch enc {
	case EncodingUTF8:
		return string(raw), utf8.Valid(raw)
	case EncodingLatin1:
		if firstUndefined1252(raw) >= 0 {
			return "", false
		}
		b, err := charmap.Windows1252.NewDecoder().Bytes(raw)
		return string(b), err == nil
	}
	if _, bad := validUTF16(raw, little, true); bad != "" {
		return "", false
	}
	order := unicode.BigEndian
	if little {
		order = unicode.LittleEndian
	}
	b, err := unicode.UTF16(order, unicode.IgnoreBOM).NewDecoder().Bytes(raw)
	return string(b), err == nil
}
