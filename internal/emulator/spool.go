package emulator

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"os"

	"golang.org/x/text/encoding"
)

// spooled is a part that arrived before the metadata, saved to a temp file.
// While it is saved, it is also parsed speculatively with a format and
// encoding sniffed from its start; when the metadata agrees, that result is
// used and the file is not read back.
type spooled struct {
	name     string
	fileName string // the part's filename parameter
	f        *os.File
	n        int64
	sum      string
	spec     *speculation
}

// speculation is a parse run while a part is spooled.
type speculation struct {
	format, encoding string
	t                *table
	err              error
	done             chan struct{}
}

// spoolPart saves part p (named name) to a temporary file, hashing it and
// parsing it speculatively meanwhile. The spooled part is returned even
// with an error, so that its file is removed.
func (s *Server) spoolPart(p *multipart.Part, name string, required []string) (sp *spooled, err error) {
	f, err := os.CreateTemp("", "etl-emulator-upload-*")
	if err != nil {
		return nil, err
	}
	sp = &spooled{name: name, fileName: p.FileName(), f: f}
	ar := newAheadReader(p, true)
	defer ar.Close()
	var pw *io.PipeWriter
	defer func() {
		if pw != nil {
			pw.CloseWithError(err)
		}
		if sp.spec != nil {
			<-sp.spec.done
		}
	}()
	for {
		chunk, err := ar.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sp, err
		}
		if sp.spec == nil {
			sp.spec, pw = s.speculate(chunk, required)
		}
		if _, err := f.Write(chunk); err != nil {
			return sp, err
		}
		if pw != nil {
			if _, err := pw.Write(chunk); err != nil {
				pw = nil // the speculative parse gave up; the spool stays
			}
		}
	}
	sp.n, sp.sum = ar.n, ar.sum
	return sp, nil
}

// speculate starts parsing, in its own goroutine, a file that starts with
// first, in the format and encoding sniffed from it; the file's bytes are
// to be written to the pipe returned.
func (s *Server) speculate(first []byte, required []string) (*speculation, *io.PipeWriter) {
	format, encoding := sniff(first)
	spec := &speculation{format: format, encoding: encoding, done: make(chan struct{}),
		t: &table{required: required, maxKept: s.maxKept}}
	pr, pw := io.Pipe()
	go func() {
		defer close(spec.done)
		spec.err = parseFile(pr, format, encoding, spec.t)
		pr.CloseWithError(errors.New("speculative parse ended"))
	}()
	return spec, pw
}

// sniff guesses the format and encoding of a file from its first bytes.
func sniff(b []byte) (format, encoding string) {
	head := b[:min(len(b), 64<<10)]
	encoding = encodingUTF8
	switch {
	case bytes.HasPrefix(head, bomUTF16BE) || bytes.HasPrefix(head, bomUTF16LE):
		encoding = encodingUTF16
	case bytes.HasPrefix(head, bomUTF8):
	case bytes.IndexByte(head, 0) >= 0:
		encoding = encodingUTF16
	case !validUTF8Start(head):
		encoding = encodingLatin1
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	format = "CSV"
	best := bytes.Count(head, []byte{','})
	if n := bytes.Count(head, []byte{'|'}); n > best {
		format, best = "PSV", n
	}
	if n := bytes.Count(head, []byte{'\t'}); n > best {
		format = "TDF"
	}
	return format, encoding
}

// validUTF8Start reports whether b is the start of valid UTF-8: valid, but
// for a sequence the end of b may cut.
func validUTF8Start(b []byte) bool {
	_, _, err := encoding.UTF8Validator.Transform(make([]byte, len(b)), b, false)
	return !errors.Is(err, encoding.ErrInvalidUTF8)
}
