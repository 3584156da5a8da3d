package etl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
)

// csvGenerator produces a deterministic CSV of exactly size bytes without
// allocating per row: a header line, then rows padded to fixed width.
type csvGenerator struct {
	size, off int64
	row       []byte
}

const genHeader = "Account,Amount,Memo\n"

func newCSVGenerator(size int64) *csvGenerator {
	return &csvGenerator{size: size, row: make([]byte, 0, 64)}
}

func (g *csvGenerator) Read(p []byte) (int, error) {
	if g.off >= g.size {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && g.off < g.size {
		var line []byte
		if g.off < int64(len(genHeader)) {
			line = []byte(genHeader)[g.off:]
		} else {
			i := (g.off - int64(len(genHeader))) / 40
			within := (g.off - int64(len(genHeader))) % 40
			g.row = g.row[:0]
			g.row = strconv.AppendInt(g.row, 4000+i%1000, 10)
			g.row = append(g.row, ',')
			g.row = strconv.AppendInt(g.row, i%99991, 10)
			g.row = append(g.row, ",memo"...)
			for len(g.row) < 39 {
				g.row = append(g.row, 'x')
			}
			g.row = append(g.row, '\n')
			line = g.row[within:]
		}
		if rem := g.size - g.off; int64(len(line)) > rem {
			line = line[:rem]
		}
		c := copy(p[n:], line)
		n += c
		g.off += int64(c)
	}
	return n, nil
}

func (g *csvGenerator) Close() error { return nil }

// hashingServer reads the multipart upload as a stream and records the
// SHA-256 and size of the file part.
type hashingServer struct {
	sum  string
	size int64
}

func (h *hashingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			break
		}
		if p.FileName() != "" {
			sh := sha256.New()
			n, _ := io.Copy(sh, p)
			h.sum, h.size = hex.EncodeToString(sh.Sum(nil)), n
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, jobJSON)
}

func uploadOf(size int64) FileUpload {
	return FileUpload{
		Input: FileInput{PartName: "file", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: "big.csv"},
		Open:  func() (io.ReadCloser, error) { return newCSVGenerator(size), nil },
		Size:  size,
	}
}

// TestStartWithFileStreamsInFlatMemory uploads 256 MiB and asserts that
// the process allocated a small fraction of it: the file is never held.
func TestStartWithFileStreamsInFlatMemory(t *testing.T) {
	const size = 256 << 20
	srv := &hashingServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, nil)

	// The expected hash, computed the same streaming way.
	want := sha256.New()
	if _, err := io.Copy(want, newCSVGenerator(size)); err != nil {
		t.Fatal(err)
	}

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := c.StartWithFile(context.Background(), "1", uploadOf(size)); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)

	if srv.size != size || srv.sum != hex.EncodeToString(want.Sum(nil)) {
		t.Fatalf("server received %d bytes with sha %s", srv.size, srv.sum)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	// Client and the in-process server together: a few MiB of buffers,
	// never the 256 MiB file.
	const bound = 16 << 20
	if allocated > bound {
		t.Fatalf("uploading %d MiB allocated %d MiB (bound %d MiB): the upload is buffered", size>>20, allocated>>20, bound>>20)
	}
	t.Logf("uploaded %d MiB, allocated %.1f MiB in total", size>>20, float64(allocated)/(1<<20))
}

func BenchmarkStartWithFile(b *testing.B) {
	for _, size := range []int64{1 << 20, 64 << 20} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			ts := httptest.NewServer(&hashingServer{})
			defer ts.Close()
			c, err := New(Config{BaseURL: ts.URL, TokenID: testTokenID, TokenSecret: testSecret})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := c.StartWithFile(context.Background(), "1", uploadOf(size)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDataUploadEncode(b *testing.B) {
	rows := [][]string{{"Account", "Entity", "Amount", "Memo"}}
	for i := 0; i < 100000; i++ {
		rows = append(rows, []string{strconv.Itoa(4000 + i%1000), "Montréal", strconv.Itoa(i), "memo \"quoted\""})
	}
	d := DataUpload{Rows: rows}
	b.SetBytes(d.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := newJSONBody(d); err != nil {
			b.Fatal(err)
		}
	}
}
