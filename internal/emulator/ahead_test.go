package emulator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestAheadReader(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 3*aheadChunkSize/16+7) // 3 chunks and a bit
	sum := sha256.Sum256(data)
	for name, read := range map[string]func(*aheadReader) ([]byte, error){
		"Read": func(a *aheadReader) ([]byte, error) { return io.ReadAll(struct{ io.Reader }{a}) },
		"WriteTo": func(a *aheadReader) ([]byte, error) {
			var b bytes.Buffer
			_, err := a.WriteTo(&b)
			return b.Bytes(), err
		},
		"next": func(a *aheadReader) ([]byte, error) {
			var b bytes.Buffer
			for {
				c, err := a.next()
				if errors.Is(err, io.EOF) {
					return b.Bytes(), nil
				}
				if err != nil {
					return nil, err
				}
				b.Write(c)
			}
		},
	} {
		a := newAheadReader(iotest.HalfReader(bytes.NewReader(data)), true)
		got, err := read(a)
		a.Close()
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: %d bytes, %v", name, len(got), err)
		}
		if a.n != int64(len(data)) || a.sum != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: counted %d, sum %s", name, a.n, a.sum)
		}
	}
}

func TestAheadReaderErrorAndEarlyClose(t *testing.T) {
	boom := errors.New("boom")
	a := newAheadReader(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), false)
	got, err := io.ReadAll(struct{ io.Reader }{a})
	a.Close()
	if string(got) != "abc" || !errors.Is(err, boom) || a.sum != "" {
		t.Errorf("got %q, %v, sum %q", got, err, a.sum)
	}
	// Closing before the end stops the goroutine; Close twice is fine.
	a = newAheadReader(bytes.NewReader(make([]byte, 10*aheadChunkSize)), true)
	if _, err := a.next(); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a.Close()
}
