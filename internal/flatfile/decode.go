package flatfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

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

// step is the decoding half of CheckFile: it looks for a byte order mark at
// the start of the file, checks that b (final: nothing follows) is valid in
// the declared encoding, hands what decodes to the parser
// (parse.go) as ASCII-compatible bytes, and returns how many bytes
// it consumed; the rest (an incomplete character, a CR whose LF may follow)
// is offered again with more bytes.
func (c *checker) step(b []byte, final bool) (int, error) {
	start := 0
	if !c.started {
		var wait bool
		var err error
		if start, wait, err = c.readBOM(b, final); wait || err != nil {
			return 0, err
		}
	}
	if start < len(b) {
		c.any = true
	}
	if c.enc == EncodingUTF16 {
		used, err := c.stepUTF16(b[start:], final, c.off+int64(start))
		return start + used, err
	}
	used, err := c.step8Bit(b[start:], final, c.off+int64(start))
	if err != nil {
		return 0, err
	}
	return start + used, nil
}

// readBOM looks at the start of the file for a byte order mark and returns
// its length; wait: too few bytes yet to tell.
func (c *checker) readBOM(b []byte, final bool) (start int, wait bool, err error) {
	if c.enc == EncodingUTF16 {
		if len(b) < 2 && !final {
			return 0, true, nil
		}
		c.started = true
		if len(b) >= 2 {
			switch {
			case b[0] == 0xFE && b[1] == 0xFF:
				c.sum.BOM, start = true, 2
			case b[0] == 0xFF && b[1] == 0xFE:
				c.sum.BOM, c.sum.BigEndian, c.little, start = true, false, true, 2
			}
		}
		return start, false, nil
	}
	if len(b) < 3 && !final {
		return 0, true, nil
	}
	c.started = true
	c.utf16BOM = len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF)
	switch {
	case c.enc == EncodingUTF8 && bytes.HasPrefix(b, utf8BOMBytes):
		c.sum.BOM = true
		return 3, false, nil
	case c.enc == EncodingLatin1 && bytes.HasPrefix(b, utf8BOMBytes):
		return 0, false, c.encodingError(0, 0, "the file starts with a UTF-8 byte order mark but is declared Windows Latin-1",
			`the file is UTF-8: set the encoding to "UTF-8"`)
	}
	return 0, false, nil
}

// step8Bit validates UTF-8 or Windows Latin-1 bytes and feeds them to the
// parser as they are (both are ASCII-compatible). base is the file offset
// of body[0]. It returns how many bytes it consumed.
func (c *checker) step8Bit(body []byte, final bool, base int64) (int, error) {
	end := len(body)
	if !final && c.enc == EncodingUTF8 {
		end -= incompleteUTF8Tail(body)
	}
	chunk := body[:end]
	bad := -1
	if c.enc == EncodingUTF8 {
		if !utf8.Valid(chunk) {
			bad = firstInvalidUTF8(chunk)
		}
	} else {
		bad = firstUndefined1252(chunk)
	}
	if bad >= 0 {
		if err := c.p.feed(chunk[:bad], false); err != nil {
			return 0, err
		}
		if c.enc == EncodingUTF8 {
			fix := `the file is probably Windows Latin-1: set the encoding to "Windows Latin-1", or save the file as UTF-8`
			if c.utf16BOM && base+int64(bad) == 0 {
				fix = `the file starts with a UTF-16 byte order mark: set the encoding to "UTF-16"`
			}
			return 0, c.encodingError(base+int64(bad), chunk[bad], "invalid UTF-8", fix)
		}
		return 0, c.encodingError(base+int64(bad), chunk[bad],
			"undefined in Windows Latin-1 (Windows-1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined)",
			`the file is probably in another encoding: declare it ("UTF-8" or "UTF-16"), or save the file as Windows Latin-1`)
	}
	if err := c.p.feed(chunk, final && end == len(body)); err != nil {
		return 0, err
	}
	return end, nil
}

// encodingError returns the ProblemEncoding error for byte b at file offset
// off, on the line the parser has reached; what says why b is refused, fix
// what to do. Offset 0 with byte 0 stands for the file's start as a whole
// (its byte order mark): the detail then names no byte.
func (c *checker) encodingError(off int64, b byte, what, fix string) *FileError {
	line := c.p.line + 1
	detail := fmt.Sprintf("line %d: byte 0x%02X at offset %d is %s", line, b, off, what)
	if off == 0 && b == 0 {
		detail = fmt.Sprintf("line %d: %s", line, what)
	}
	return &FileError{Problem: ProblemEncoding, Line: line, Offset: off, Detail: detail, Fix: fix}
}

// stepUTF16 validates UTF-16 code units and feeds the parser one byte per
// unit: the unit itself when it is ASCII, else 0x80 (never a delimiter,
// quote or line break). base is the file offset of b[0].
func (c *checker) stepUTF16(b []byte, final bool, base int64) (int, error) {
	out := c.mapped[:0]
	i := 0
	little := c.little
	unit := func(k int) uint16 {
		if little {
			return uint16(b[k]) | uint16(b[k+1])<<8
		}
		return binary.BigEndian.Uint16(b[k:])
	}
	fail := func(at int, what string) (int, error) {
		if err := c.p.feed(out, false); err != nil {
			return 0, err
		}
		line := c.p.line + 1
		fix := `save the file as UTF-16, or declare the encoding it is in ("UTF-8" or "Windows Latin-1")`
		if !c.sum.BOM {
			fix = `the file has no UTF-16 byte order mark (so big-endian is assumed) and may be UTF-8 or Windows Latin-1: declare that encoding, or save the file as UTF-16 with a byte order mark`
		}
		off := base + int64(at)
		return 0, &FileError{Problem: ProblemEncoding, Line: line, Offset: off,
			Detail: fmt.Sprintf("line %d: the bytes at offset %d are %s", line, off, what), Fix: fix}
	}
loop:
	for i+1 < len(b) {
		u := unit(i)
		switch {
		case u < 0x80:
			out = append(out, byte(u))
			i += 2
		case u >= 0xD800 && u < 0xDC00:
			if i+3 >= len(b) {
				if final {
					return fail(i, "a high surrogate with no low surrogate after it (invalid UTF-16)")
				}
				break loop
			}
			if u2 := unit(i + 2); u2 < 0xDC00 || u2 > 0xDFFF {
				return fail(i, "a high surrogate with no low surrogate after it (invalid UTF-16)")
			}
			out = append(out, 0x80)
			i += 4
		case u >= 0xDC00 && u <= 0xDFFF:
			return fail(i, "a low surrogate with no high surrogate before it (invalid UTF-16)")
		default:
			out = append(out, 0x80)
			i += 2
		}
	}
	if final && i < len(b) {
		return fail(i, "a lone last byte: the file has an odd number of bytes (invalid UTF-16)")
	}
	if err := c.p.feed(out, final); err != nil {
		return 0, err
	}
	return i, nil
}

// utf8BOMBytes is the UTF-8 byte order mark.
var utf8BOMBytes = []byte{0xEF, 0xBB, 0xBF}

// incompleteUTF8Tail returns how many bytes at the end of b start a UTF-8
// sequence that continues past b.
func incompleteUTF8Tail(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		c := b[i]
		if c < 0x80 {
			return 0
		}
		if c >= 0xC0 {
			need := 2
			if c >= 0xF0 {
				need = 4
			} else if c >= 0xE0 {
				need = 3
			}
			if len(b)-i < need {
				return len(b) - i
			}
			return 0
		}
	}
	return 0
}

// firstInvalidUTF8 returns the offset of the first invalid byte of b, which
// utf8.Valid has rejected.
func firstInvalidUTF8(b []byte) int {
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

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
