package emulator

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// decodeError is a file that does not decode in its declared encoding.
type decodeError struct {
	off int64 // offset in the raw file
	msg string
}

func (e *decodeError) Error() string { return fmt.Sprintf("%s at byte offset %d", e.msg, e.off) }

// converter turns raw bytes into UTF-8. It converts as much of src as fits
// in dst; an incomplete sequence at the end of src is left unconsumed unless
// atEOF. Error offsets are relative to src.
type converter interface {
	convert(dst, src []byte, atEOF bool) (nDst, nSrc int, err error)
}

const decodeBufSize = 256 << 10

// decodeReader reads UTF-8 text decoded from src by conv, in large chunks.
type decodeReader struct {
	src    io.Reader
	conv   converter
	in     []byte
	ip, iq int // unconsumed input in[ip:iq]
	out    []byte
	op, oq int // undelivered output out[op:oq]
	eof    bool
	err    error
	off    int64 // raw bytes consumed so far
}

func newDecodeReader(src io.Reader, conv converter) *decodeReader {
	return &decodeReader{src: src, conv: conv, in: make([]byte, decodeBufSize)}
}

func (d *decodeReader) Read(p []byte) (int, error) {
	for {
		if d.op < d.oq {
			n := copy(p, d.out[d.op:d.oq])
			d.op += n
			return n, nil
		}
		if d.err != nil {
			return 0, d.err
		}
		if !d.eof && d.iq-d.ip < len(d.in)/4 {
			if d.ip > 0 {
				d.iq = copy(d.in, d.in[d.ip:d.iq])
				d.ip = 0
			}
			n, err := d.src.Read(d.in[d.iq:])
			d.iq += n
			if err == io.EOF {
				d.eof = true
			} else if err != nil {
				d.err = err
				return 0, err
			}
		}
		// Decode straight into p when it is big enough, else via d.out.
		dst, direct := p, len(p) >= 64
		if !direct {
			if d.out == nil {
				d.out = make([]byte, 64)
			}
			dst = d.out
		}
		nd, ns, err := d.conv.convert(dst, d.in[d.ip:d.iq], d.eof)
		if err != nil {
			var de *decodeError
			if errors.As(err, &de) {
				de.off += d.off
			}
			d.err = err
		}
		d.ip += ns
		d.off += int64(ns)
		if nd == 0 && d.err == nil && d.eof && d.ip == d.iq {
			d.err = io.EOF
		}
		if direct {
			if nd > 0 {
				return nd, nil
			}
			continue
		}
		d.op, d.oq = 0, nd
	}
}

// incompleteTail returns how many bytes at the end of b form the start of a
// UTF-8 sequence that continues past b.
func incompleteTail(b []byte) int {
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

// utf8Conv validates UTF-8 and strips a leading byte order mark.
type utf8Conv struct{ started bool }

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

func (c *utf8Conv) convert(dst, src []byte, atEOF bool) (int, int, error) {
	skip := 0
	if !c.started {
		if len(src) < 3 && !atEOF && string(src) == string(utf8BOM[:len(src)]) {
			return 0, 0, nil
		}
		c.started = true
		if len(src) >= 3 && string(src[:3]) == string(utf8BOM) {
			skip = 3
			src = src[3:]
		}
	}
	n := min(len(dst), len(src))
	chunk := src[:n]
	if !atEOF || n < len(src) {
		chunk = chunk[:n-incompleteTail(chunk)]
	}
	if !utf8.Valid(chunk) {
		i := 0
		for i < len(chunk) {
			r, size := utf8.DecodeRune(chunk[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		copy(dst, chunk[:i])
		return i, skip + i, &decodeError{off: int64(skip + i), msg: "invalid UTF-8"}
	}
	copy(dst, chunk)
	return len(chunk), skip + len(chunk), nil
}

// utf16Conv decodes UTF-16: the byte order mark picks the byte order (and
// is dropped); without one, big-endian.
type utf16Conv struct {
	started bool
	little  bool
}

func (c *utf16Conv) convert(dst, src []byte, atEOF bool) (int, int, error) {
	i, j := 0, 0
	if !c.started {
		if len(src) < 2 {
			if len(src) == 1 && atEOF {
				return 0, 0, &decodeError{off: 0, msg: "invalid UTF-16: odd number of bytes"}
			}
			return 0, 0, nil
		}
		c.started = true
		switch {
		case src[0] == 0xFE && src[1] == 0xFF:
			i = 2
		case src[0] == 0xFF && src[1] == 0xFE:
			c.little = true
			i = 2
		}
	}
	unit := func(k int) uint16 {
		if c.little {
			return uint16(src[k]) | uint16(src[k+1])<<8
		}
		return uint16(src[k])<<8 | uint16(src[k+1])
	}
loop:
	for i+1 < len(src) {
		u := unit(i)
		if u < 0x80 {
			if j >= len(dst) {
				break
			}
			dst[j] = byte(u)
			j++
			i += 2
			continue
		}
		if j+4 > len(dst) {
			break
		}
		switch {
		case u >= 0xD800 && u < 0xDC00:
			if i+3 >= len(src) {
				if atEOF {
					return j, i, &decodeError{off: int64(i), msg: "invalid UTF-16: unpaired high surrogate"}
				}
				break loop
			}
			u2 := unit(i + 2)
			if u2 < 0xDC00 || u2 > 0xDFFF {
				return j, i, &decodeError{off: int64(i), msg: "invalid UTF-16: unpaired high surrogate"}
			}
			r := (rune(u)-0xD800)<<10 | (rune(u2) - 0xDC00) + 0x10000
			j += utf8.EncodeRune(dst[j:], r)
			i += 4
		case u >= 0xDC00 && u <= 0xDFFF:
			return j, i, &decodeError{off: int64(i), msg: "invalid UTF-16: unpaired low surrogate"}
		default:
			j += utf8.EncodeRune(dst[j:], rune(u))
			i += 2
		}
	}
	if atEOF && i == len(src)-1 {
		return j, i, &decodeError{off: int64(i), msg: "invalid UTF-16: odd number of bytes"}
	}
	return j, i, nil
}

// win1252 maps each Windows-1252 byte to UTF-8; n == 0 marks the bytes the
// code page leaves undefined.
var win1252 = func() (t [256]struct {
	b [3]byte
	n uint8
}) {
	for c := 0; c < 256; c++ {
		r := charmap.Windows1252.DecodeByte(byte(c))
		if r == utf8.RuneError {
			continue
		}
		var buf [4]byte
		n := utf8.EncodeRune(buf[:], r)
		copy(t[c].b[:], buf[:n])
		t[c].n = uint8(n)
	}
	return t
}()

// latin1Conv decodes Windows Latin-1 (Windows-1252).
type latin1Conv struct{}

func (latin1Conv) convert(dst, src []byte, atEOF bool) (int, int, error) {
	i, j := 0, 0
	for i < len(src) && j < len(dst) {
		c := src[i]
		if c < 0x80 {
			dst[j] = c
			i++
			j++
			continue
		}
		e := &win1252[c]
		if e.n == 0 {
			return j, i, &decodeError{off: int64(i), msg: fmt.Sprintf("invalid Windows Latin-1: byte 0x%02X is undefined", c)}
		}
		if j+int(e.n) > len(dst) {
			break
		}
		copy(dst[j:], e.b[:e.n])
		j += int(e.n)
		i++
	}
	return j, i, nil
}

// newConverter returns the converter for a fileEncoding, or nil if unknown.
func newConverter(encoding string) converter {
	switch encoding {
	case "UTF-8":
		return &utf8Conv{}
	case "UTF-16":
		return &utf16Conv{}
	case "Windows Latin-1":
		return latin1Conv{}
	}
	return nil
}
