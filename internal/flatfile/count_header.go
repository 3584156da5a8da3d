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
