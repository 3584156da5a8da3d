package flatfile

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
)

// utf16Bytes, a file in UTF-16, and the table of CheckFile's cases.

// utf16Bytes encodes s as UTF-16 in either byte order, with or without a
// byte order mark.
func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var out []byte
	put := func(u uint16) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	if bom {
		put(0xFEFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		put(u)
	}
	return out
}

// checkFileCase is one CheckFile input and the verdict it must get.
type checkFileCase struct {
	name    string
	in      []byte
	format  Format
	enc     Encoding
	problem FileProblem // "" = no problem
	line    int64
	has     []string // in the error text
}

// runCheckFileCases checks every case, reading the input whole and one
// byte at a time.
func runCheckFileCases(t *testing.T, cases []checkFileCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, rd := range []struct {
				name string
				r    func() io.Reader
			}{
				{"whole", func() io.Reader { return bytes.NewReader(c.in) }},
				{"one byte", func() io.Reader { return iotest.OneByteReader(bytes.NewReader(c.in)) }},
			} {
				sum, err := CheckFile(rd.r(), c.format, c.enc, 0)
				if c.problem == "" {
					if err != nil {
						t.Fatalf("%s: unexpected %v", rd.name, err)
					}
					if !sum.Complete || sum.Bytes != int64(len(c.in)) {
						t.Errorf("%s: summary %+v, want complete over %d bytes", rd.name, sum, len(c.in))
					}
					continue
				}
				var fe *FileError
				if !errors.As(err, &fe) {
					t.Fatalf("%s: want a *FileError (%s), got %v", rd.name, c.problem, err)
				}
				if fe.Problem != c.problem || fe.Line != c.line {
					t.Errorf("%s: got %s at line %d (%v), want %s at line %d", rd.name, fe.Problem, fe.Line, fe, c.problem, c.line)
				}
				for _, s := range c.has {
					if !strings.Contains(fe.Error(), s) {
						t.Errorf("%s: %q does not contain %q", rd.name, fe.Error(), s)
					}
				}
			}
		})
	}
}
