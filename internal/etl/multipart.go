package etl

import (
	"fmt"
	"strings"
)

// controlNames names the control characters people meet in names.
var controlNames = map[byte]string{
	0x00: "NUL",
	0x08: "backspace",
	0x0a: "line feed",
	0x0b: "vertical tab",
	0x0c: "form feed",
	0x0d: "carriage return",
	0x1b: "escape",
	0x7f: "delete",
}

// CheckPartHeaderValue is the one rule for what a multipart header value
// (a file name, a part name) can carry: every character but the C0 controls
// other than tab (CR, LF, NUL and the rest) and DEL. A refused value would
// break the part's header: a line break ends the header inside the data,
// and a crafted name could add parts. The error names the first refused
// character and its byte offset. Quotes and backslashes are allowed: the
// encoder escapes them, and they arrive as written.
func CheckPartHeaderValue(v string) error {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if (c >= 0x20 && c != 0x7f) || c == '\t' {
			continue
		}
		name, ok := controlNames[c]
		if !ok {
			name = "control character"
		}
		return fmt.Errorf("contains a %s (U+%04X) at byte %d: a multipart header cannot carry control characters other than tab (remove it, e.g. a trailing line break from a file read with file())", name, c, i)
	}
	return nil
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"")

// quoteEscape escapes a header value for a quoted-string, as
// mime/multipart does for its own form fields: a backslash before each
// backslash and quote, which a MIME parser removes again.
func quoteEscape(s string) string { return quoteEscaper.Replace(s) }
