package emulator

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// The fileEncodings the service knows, as the metadata spells them.
const (
	// encodingUTF8 is UTF-8, with or without a byte order mark.
	encodingUTF8 = "UTF-8"
	// encodingUTF16 is UTF-16 in the byte order of its byte order mark,
	// big-endian without one.
	encodingUTF16 = "UTF-16"
	// encodingLatin1 is Windows Latin-1, that is Windows-1252.
	encodingLatin1 = "Windows Latin-1"
)

// knownEncoding reports whether name is a fileEncoding.
func knownEncoding(name string) bool {
	switch name {
	case encodingUTF8, encodingUTF16, encodingLatin1:
		return true
	}
	return false
}

// decodeError is a file that does not decode in its declared encoding.
type decodeError struct {
	off int64 // offset in the raw file
	msg string
}

func (e *decodeError) Error() string { return fmt.Sprintf("%s at byte offset %d", e.msg, e.off) }

// newTextReader returns the UTF-8 text of raw, a file in fileEncoding enc
// (which must be known); reading it fails with a *decodeError where raw
// does not decode.
func newTextReader(raw io.Reader, enc string) io.Reader {
	return transform.NewReader(raw, &strictDecoder{enc: enc})
}

// decoding is how a file, past its byte order mark, becomes UTF-8.
type decoding struct {
	dec transform.Transformer // to UTF-8
	// enc encodes back, to find the bytes dec replaced; nil when dec
	// reports bytes that do not decode itself.
	enc transform.Transformer
	// unit is the size of the encoding's code unit: bytes that do not
	// decode start at a multiple of it.
	unit int
	// why says why bad, the bytes from the first that does not decode to
	// the end of what was seen, does not decode.
	why func(bad []byte, atEOF bool) string
}

// The byte order marks pickDecoding and sniff look for.
var (
	// bomUTF8 is the UTF-8 byte order mark.
	bomUTF8 = []byte{0xEF, 0xBB, 0xBF}
	// bomUTF16BE is the big-endian UTF-16 byte order mark.
	bomUTF16BE = []byte{0xFE, 0xFF}
	// bomUTF16LE is the little-endian UTF-16 byte order mark.
	bomUTF16LE = []byte{0xFF, 0xFE}
)

// pickDecoding returns the decoding of a file in enc that starts with
// head, and the length of the byte order mark to skip: UTF-8 may start
// with one; UTF-16's picks the byte order (big-endian without one).
func pickDecoding(enc string, head []byte) (decoding, int) {
	switch enc {
	case encodingUTF16:
		switch {
		case bytes.HasPrefix(head, bomUTF16LE):
			return utf16Decoding(unicode.LittleEndian), len(bomUTF16LE)
		case bytes.HasPrefix(head, bomUTF16BE):
			return utf16Decoding(unicode.BigEndian), len(bomUTF16BE)
		}
		return utf16Decoding(unicode.BigEndian), 0
	case encodingLatin1:
		return decoding{dec: charmap.Windows1252.NewDecoder(), enc: charmap.Windows1252.NewEncoder(), unit: 1,
			why: func(bad []byte, _ bool) string {
				return fmt.Sprintf("invalid Windows Latin-1: byte 0x%02X is undefined", bad[0])
			}}, 0
	}
	skip := 0
	if bytes.HasPrefix(head, bomUTF8) {
		skip = len(bomUTF8)
	}
	return decoding{dec: encoding.UTF8Validator, unit: 1,
		why: func([]byte, bool) string { return "invalid UTF-8" }}, skip
}

// utf16Decoding returns the decoding of UTF-16 in byte order order, its
// byte order mark already skipped.
func utf16Decoding(order unicode.Endianness) decoding {
	e := unicode.UTF16(order, unicode.IgnoreBOM)
	return decoding{dec: e.NewDecoder(), enc: e.NewEncoder(), unit: 2,
		why: func(bad []byte, atEOF bool) string {
			if atEOF && len(bad) == 1 {
				return "invalid UTF-16: odd number of bytes"
			}
			return "invalid UTF-16: unpaired surrogate"
		}}
}

// strictDecoder is a transform.Transformer that decodes a file in a
// fileEncoding to UTF-8 and fails with a *decodeError at the first bytes
// that do not decode. It decodes with golang.org/x/text: UTF-8 through
// encoding.UTF8Validator, UTF-16 and Windows Latin-1 (Windows-1252)
// through their decoders. Those decoders put U+FFFD where bytes do not
// decode; the emulator refuses such a file instead, found by encoding the
// text back with the same encoding (replaced): bytes that do not come back
// unchanged did not decode.
type strictDecoder struct {
	enc     string
	d       *decoding // picked from the file's first bytes
	off     int64     // raw bytes consumed so far
	scratch []byte    // the text encoded back
}

// Reset implements transform.Transformer: the next Transform starts a new
// file, whose first bytes pick the decoding again.
func (s *strictDecoder) Reset() { s.d, s.off = nil, 0 }

// Transform implements transform.Transformer. Its first call waits for
// three bytes (unless atEOF), picks the decoding from them and skips the
// byte order mark; every call then decodes, and fails with a *decodeError
// at the first bytes that do not decode.
func (s *strictDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	skip := 0
	if s.d == nil {
		if len(src) < len(bomUTF8) && !atEOF {
			return 0, 0, transform.ErrShortSrc // a byte order mark may follow
		}
		var d decoding
		d, skip = pickDecoding(s.enc, src)
		s.d, s.off, src = &d, int64(skip), src[skip:]
	}
	nDst, nSrc, err = s.d.dec.Transform(dst, src, atEOF)
	if err != nil && !errors.Is(err, transform.ErrShortDst) && !errors.Is(err, transform.ErrShortSrc) {
		return nDst, skip + nSrc, s.fail(src[nSrc:], nSrc, atEOF)
	}
	if bad := s.replaced(dst[:nDst], src[:nSrc]); bad >= 0 {
		return nDst, skip + nSrc, s.fail(src[bad:], bad, atEOF)
	}
	s.off += int64(nSrc)
	return nDst, skip + nSrc, err
}

// replaced returns the index in raw of the first code unit that the text
// decoded from it does not encode back to, or -1 when all do.
func (s *strictDecoder) replaced(text, raw []byte) int {
	if s.d.enc == nil {
		return -1
	}
	if need := 2 * len(text); len(s.scratch) < need {
		s.scratch = make([]byte, max(need, 4096))
	}
	n, _, _ := s.d.enc.Transform(s.scratch, text, true) // stops at a rune it cannot encode
	back := s.scratch[:n]
	if bytes.Equal(back, raw) {
		return -1
	}
	i := 0
	for i < len(back) && i < len(raw) && back[i] == raw[i] {
		i++
	}
	return min(i-i%s.d.unit, len(raw)-1)
}

// fail returns the error for bytes bad, which start i bytes into what this
// call decodes.
func (s *strictDecoder) fail(bad []byte, i int, atEOF bool) error {
	return &decodeError{off: s.off + int64(i), msg: s.d.why(bad, atEOF)}
}
