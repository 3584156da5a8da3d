package provider

import (
	"fmt"
	"slices"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// validEncodingName reports whether e is an encoding the service knows.
func validEncodingName(e etl.Encoding) bool { return slices.Contains(etl.Encodings, e) }

// encodeContent encodes inline (UTF-8) text to the declared encoding: the
// bytes that are sent. UTF-16 is little-endian with a byte order mark.
func encodeContent(s string, enc etl.Encoding) ([]byte, error) {
	switch enc {
	case etl.EncodingUTF8:
		return []byte(s), nil
	case etl.EncodingUTF16:
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	case etl.EncodingLatin1:
		out := make([]byte, 0, len(s))
		line, col := 1, 0
		for _, r := range s {
			col++
			b, ok := charmap.Windows1252.EncodeRune(r)
			if !ok {
				return nil, &unencodableError{r: r, line: line, col: col}
			}
			out = append(out, b)
			if r == '\n' {
				line, col = line+1, 0
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("encoding %q is not one of UTF-8, UTF-16, Windows Latin-1", enc)
}

// unencodableError is a character of inline content that the declared
// encoding (Windows Latin-1) cannot write.
type unencodableError struct {
	r         rune
	line, col int
}

func (e *unencodableError) Error() string {
	return fmt.Sprintf("the character %q (U+%04X) on line %d, column %d cannot be written in Windows Latin-1: "+
		"use encoding \"UTF-8\" or \"UTF-16\", or remove the character", e.r, e.r, e.line, e.col)
}

// withoutValue is the error without the character, in any form: what a
// diagnostic of a write-only value says.
func (e *unencodableError) withoutValue() string {
	return fmt.Sprintf("a character on line %d, column %d cannot be written in Windows Latin-1 (the value is write-only, so the character is not shown): "+
		"use encoding \"UTF-8\" or \"UTF-16\", or remove the character", e.line, e.col)
}
