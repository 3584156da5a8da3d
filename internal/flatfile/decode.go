package flatfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// utf8BOMBytes is the UTF-8 byte order mark.
var utf8BOMBytes = []byte{0xEF, 0xBB, 0xBF}

// bomWait is how many bytes the start of a file in enc needs before its
// byte order mark can be told (as the service does): UTF-16's, or a UTF-8
// one (refused in Windows Latin-1).
func bomWait(enc Encoding) int {
	if enc == EncodingUTF16 {
		return 2
	}
	return len(utf8BOMBytes)
}

// bomOf returns the length of the byte order mark of enc that b starts
// with (0: none), and whether it says UTF-16 little-endian.
func bomOf(b []byte, enc Encoding) (n int, little bool) {
	switch {
	case enc == EncodingUTF8 && bytes.HasPrefix(b, utf8BOMBytes):
		return len(utf8BOMBytes), false
	case enc == EncodingUTF16 && bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return 2, true
	case enc == EncodingUTF16 && bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return 2, false
	}
	return 0, false
}

// step is the decoding half of CheckFile: it looks for a byte order mark at
// the start of the file, checks that b (final: nothing follows) is valid in
// the declared encoding, hands what decodes to the scanner as units
// (UTF-16: mapUTF16), and returns how many bytes it consumed; the rest (an
// incomplete character) is offered again with more bytes.
func (c *checker) step(b []byte, final bool) (int, error) {
	start := 0
	if !c.started {
		if len(b) < bomWait(c.enc) && !final {
			return 0, nil
		}
		c.started = true
		start, c.little = bomOf(b, c.enc)
		c.bom = start > 0
		c.utf16BOM = bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF})
		if c.enc == EncodingLatin1 && bytes.HasPrefix(b, utf8BOMBytes) {
			return 0, c.encodingError(0, 0, "the file starts with a UTF-8 byte order mark but is declared Windows Latin-1",
				`the file is UTF-8: set the encoding to "UTF-8"`)
		}
	}
	body := b[start:]
	c.any = c.any || len(body) > 0
	n, what, fix := c.valid(body, final, c.off+int64(start) == 0)
	units := body[:n]
	if c.enc == EncodingUTF16 {
		units = mapUTF16(c.scratch[:0], units, c.little)
	}
	if c.s.feed(units); c.s.err != nil || what == "" {
		return start + n, c.s.err
	}
	return start + n, c.encodingError(c.off+int64(start+n), body[n], what, fix)
}

// valid returns how many bytes from the start of body are valid in the
// declared encoding (a character body cuts is not, unless final: more
// may follow), and, where a byte that follows is not, why and what to do;
// atStart: body starts the file.
func (c *checker) valid(body []byte, final, atStart bool) (n int, what, fix string) {
	switch c.enc {
	case EncodingUTF16:
		if n, what = validUTF16(body, c.little, final); !c.bom {
			return n, what, `the file has no UTF-16 byte order mark (so big-endian is assumed) and may be UTF-8 or Windows Latin-1: declare that encoding, or save the file as UTF-16 with a byte order mark`
		}
		return n, what, `save the file as UTF-16, or declare the encoding it is in ("UTF-8" or "Windows Latin-1")`
	case EncodingLatin1:
		if n = firstUndefined1252(body); n < 0 {
			return len(body), "", ""
		}
		return n, "undefined in Windows Latin-1 (Windows-1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined)",
			`the file is probably in another encoding: declare it ("UTF-8" or "UTF-16"), or save the file as Windows Latin-1`
	}
	if utf8.Valid(body) {
		return len(body), "", ""
	}
	n, _, err := encoding.UTF8Validator.Transform(c.scratch, body, final)
	switch {
	case !errors.Is(err, encoding.ErrInvalidUTF8):
		return n, "", "" // a character cut at the end
	case c.utf16BOM && atStart && n == 0:
		return n, "invalid UTF-8", `the file starts with a UTF-16 byte order mark: set the encoding to "UTF-16"`
	}
	return n, "invalid UTF-8", `the file is probably Windows Latin-1: set the encoding to "Windows Latin-1", or save the file as UTF-8`
}

// encodingError returns the ProblemEncoding error for byte b (UTF-16: the
// code unit) at file offset off, on the line the scanner has reached;
// what says why it is refused, fix what to do. Offset 0 with byte 0 stands
// for the file's start as a whole (its byte order mark): the detail then
// names no byte.
func (c *checker) encodingError(off int64, b byte, what, fix string) *FileError {
	line := c.s.line + 1
	detail := fmt.Sprintf("line %d: byte 0x%02X at offset %d is %s", line, b, off, what)
	switch {
	case c.enc == EncodingUTF16:
		detail = fmt.Sprintf("line %d: the bytes at offset %d are %s", line, off, what)
	case off == 0 && b == 0:
		detail = fmt.Sprintf("line %d: %s", line, what)
	}
	return &FileError{Problem: ProblemEncoding, Line: line, Offset: off, Detail: detail, Fix: fix}
}

// validUTF16 returns how many bytes from the start of b are valid UTF-16
// in the byte order little says, and, where a code unit that follows is
// not, what is wrong with it: a lone surrogate, or a lone last byte.
// Unless final, a lone byte or a high surrogate at b's end stops it with
// nothing wrong: what follows b may complete it.
func validUTF16(b []byte, little, final bool) (int, string) {
	const high = "a high surrogate with no low surrogate after it (invalid UTF-16)"
	h := 0 // where a code unit's high byte is
	if little {
		h = 1
	}
	i := 0
	for ; i+1 < len(b); i += 2 {
		if b[i+h]&0xF8 != 0xD8 {
			continue // not a surrogate
		}
		switch {
		case b[i+h] >= 0xDC:
			return i, "a low surrogate with no high surrogate before it (invalid UTF-16)"
		case i+3 >= len(b) && !final:
			return i, ""
		case i+3 >= len(b) || b[i+2+h]&0xFC != 0xDC:
			return i, high
		}
		i += 2
	}
	if final && i < len(b) {
		return i, "a lone last byte: the file has an odd number of bytes (invalid UTF-16)"
	}
	return i, ""
}

// win1252Undefined marks the five bytes Windows-1252 leaves undefined
// (0x81, 0x8D, 0x8F, 0x90, 0x9D).
var win1252Undefined = func() (t [256]bool) {
	for c := 0x80; c < 0x100; c++ {
		if charmap.Windows1252.DecodeByte(byte(c)) == utf8.RuneError {
			t[c] = true
		}
	}
	return t
}()

// firstUndefined1252 returns the offset of the first byte Windows-1252
// leaves undefined, or -1. Eight bytes at a time while they are ASCII.
func firstUndefined1252(b []byte) int {
	i := 0
	for i+8 <= len(b) {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			i += 8
			continue
		}
		for k := i; k < i+8; k++ {
			if win1252Undefined[b[k]] {
				return k
			}
		}
		i += 8
	}
	for ; i < len(b); i++ {
		if win1252Undefined[b[i]] {
			return i
		}
	}
	return -1
}
