package etl

import (
	"fmt"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// EncodeText encodes UTF-8 text to the encoding enc: the bytes of a file
// in that encoding, as the service reads it. UTF-16 is little-endian with
// a byte order mark. A character Windows Latin-1 cannot write is an
// *UnencodableError.
func EncodeText(s string, enc flatfile.Encoding) ([]byte, error) {
	switch enc {
	case flatfile.EncodingUTF8:
		return []byte(s), nil
	case flatfile.EncodingUTF16:
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	case flatfile.EncodingLatin1:
		out := make([]byte, 0, len(s))
		line, col := 1, 0
		for _, r := range s {
			col++
			b, ok := charmap.Windows1252.EncodeRune(r)
			if !ok {
				return nil, &UnencodableError{Rune: r, Line: line, Column: col}
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

// UnencodableError is a character of text (Rune, on line Line at column
// Column, counted in characters) that the encoding, Windows Latin-1,
// cannot write.
type UnencodableError struct {
	Rune         rune
	Line, Column int
}

// unencodableFix says what to do about an UnencodableError.
const unencodableFix = "use encoding \"UTF-8\" or \"UTF-16\", or remove the character"

func (e *UnencodableError) Error() string {
	return fmt.Sprintf("the character %q (U+%04X) on line %d, column %d cannot be written in Windows Latin-1: "+unencodableFix,
		e.Rune, e.Rune, e.Line, e.Column)
}

// WriteOnly words the error without the character, in any form, for text
// that is a write-only value: where it is, and what to do.
func (e *UnencodableError) WriteOnly() string {
	return fmt.Sprintf("a character on line %d, column %d cannot be written in Windows Latin-1 (the value is write-only, so the character is not shown): "+unencodableFix,
		e.Line, e.Column)
}
