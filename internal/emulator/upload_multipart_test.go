package emulator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestUnprocessable(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		name  string
		parts []part
		want  string
	}{
		{"no metadata", []part{filePart(glCSV)}, "metadata"},
		{"no file part", []part{metaPart(metaGL)}, `"file"`},
		{"file part misnamed", []part{{name: "upload", filename: "gl.csv", content: glCSV}, metaPart(metaGL)}, `"file"`},
		{"file part misnamed after", []part{metaPart(metaGL), {name: "upload", filename: "gl.csv", content: glCSV}}, `"file"`},
		{"two file parts", []part{filePart(glCSV), metaPart(metaGL), filePart(glCSV)}, "more than one"},
		{"two file parts after", []part{metaPart(metaGL), filePart(glCSV), filePart(glCSV)}, "more than one"},
		{"two file parts before", []part{filePart(glCSV), filePart(glCSV), metaPart(metaGL)}, "more than one"},
		{"two metadata", []part{metaPart(metaGL), metaPart(metaGL), filePart(glCSV)}, "more than one metadata"},
		{"bad metadata JSON", []part{filePart(glCSV), metaPart(`{"input":`)}, "JSON"},
		{"metadata not an object", []part{filePart(glCSV), metaPart(`"x"`)}, "JSON"},
		{"no input", []part{filePart(glCSV), metaPart(`{}`)}, "input"},
		{"no partName", []part{filePart(glCSV), metaPart(`{"input":{"fileFormat":"CSV","fileEncoding":"UTF-8"}}`)}, "partName"},
		{"empty body", nil, "metadata"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.startFile(GLActualsTemplateID, c.parts...), http.StatusUnprocessableEntity, c.want)
		})
	}
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs created by rejected uploads", n)
	}
	// Other parts with other names are ignored.
	r := e.startFile(GLActualsTemplateID, part{name: "comment", content: "hi"}, filePart(glCSV), metaPart(metaGL), part{name: "x", content: "y"})
	checkJob(t, r, StatusRunning)
}

func TestBadRequestFile(t *testing.T) {
	e := newEnv(t, Options{})
	fileCases := []struct {
		name, meta, content, want string
	}{
		{"format", metaFor("XLSX", "UTF-8"), glCSV, `"XLSX"`},
		{"format lower case", metaFor("csv", "UTF-8"), glCSV, "fileFormat"},
		{"format missing", `{"input":{"partName":"file","fileEncoding":"UTF-8"}}`, glCSV, "fileFormat"},
		{"encoding", metaFor("CSV", "ASCII"), glCSV, `"ASCII"`},
		{"encoding spelled differently", metaFor("CSV", "utf8"), glCSV, "fileEncoding"},
		{"utf-8 invalid", metaFor("CSV", "UTF-8"), "Account,Amount\n4000,\xff\n", "UTF-8"},
	}
	for _, c := range fileCases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.startFile(GLActualsTemplateID, metaPart(c.meta), filePart(c.content)), http.StatusBadRequest, c.want)
			wantError(t, e.startFile(GLActualsTemplateID, filePart(c.content), metaPart(c.meta)), http.StatusBadRequest, c.want)
		})
	}
	// Malformed multipart framing.
	r := e.request(http.MethodPost, base+"/templates/"+GLActualsTemplateID+"/startWithFile", strings.NewReader("--b\r\nContent-Disposition: form-data; name=\"metadata\"\r\n\r\n"+metaGL),
		"Content-Type", "multipart/form-data; boundary=b")
	wantError(t, r, http.StatusBadRequest, "multipart")
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs created by rejected uploads", n)
	}
}

// rowChunk returns about size bytes of complete CSV data rows (CRLF), and
// how many rows it holds.
func rowChunk(size int) ([]byte, int) {
	var b bytes.Buffer
	rows := 0
	for b.Len() < size {
		fmt.Fprintf(&b, "%d,%d.%02d,\"Entity %d, Montréal\",Some descriptive text for the row\r\n", 4000+rows%977, rows, rows%100, rows%13)
		rows++
	}
	return b.Bytes(), rows
}

const streamHeader = "Account,Amount,Entity,Note\r\n"

// heapPeak samples HeapInuse until stop is closed and returns the peak.
func heapPeak(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		var peak uint64
		var ms runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// streamUpload sends a generated CSV of about total bytes through an
// io.Pipe (chunked, never whole in memory) and returns the sha256 and size
// of the file part, the number of data rows, and the response.
func streamUpload(t *testing.T, e *env, total int64, metaFirst bool) (string, int64, int, resp) {
	t.Helper()
	chunk, perChunk := rowChunk(1 << 20)
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	h := sha256.New()
	var size int64
	var rows int
	go func() {
		writeMeta := func() error { return mw.WriteField("metadata", metaGL) }
		err := func() error {
			if metaFirst {
				if err := writeMeta(); err != nil {
					return err
				}
			}
			ph := textproto.MIMEHeader{}
			ph.Set("Content-Disposition", `form-data; name="file"; filename="big.csv"`)
			ph.Set("Content-Type", "text/csv")
			fw, err := mw.CreatePart(ph)
			if err != nil {
				return err
			}
			w := io.MultiWriter(fw, h)
			if _, err := io.WriteString(w, streamHeader); err != nil {
				return err
			}
			size = int64(len(streamHeader))
			for size < total {
				if _, err := w.Write(chunk); err != nil {
					return err
				}
				size += int64(len(chunk))
				rows += perChunk
			}
			if !metaFirst {
				if err := writeMeta(); err != nil {
					return err
				}
			}
			return mw.Close()
		}()
		pw.CloseWithError(err)
	}()
	r := e.request(http.MethodPost, base+"/templates/"+GLActualsTemplateID+"/startWithFile", pr, "Content-Type", mw.FormDataContentType())
	return hex.EncodeToString(h.Sum(nil)), size, rows, r
}

func TestStreamingUploadBoundedMemory(t *testing.T) {
	for _, c := range []struct {
		name      string
		metaFirst bool
		size      int64
	}{
		{"metadata first", true, streamBytes},
		{"file first (spooled)", false, streamBytes / 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			e := newEnv(t, Options{Instant: true})
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			stop := make(chan struct{})
			peakc := heapPeak(stop)
			sum, size, rows, r := streamUpload(t, e, c.size, c.metaFirst)
			close(stop)
			peak := <-peakc
			var after runtime.MemStats
			runtime.ReadMemStats(&after)

			m := checkJob(t, r, StatusCompleted)
			j, _ := e.srv.Job(m["id"].(string))
			u := j.Upload
			if u.Bytes != size || u.SHA256 != sum || u.RowCount != rows || len(u.Rows) != 1000 {
				t.Errorf("upload: bytes %d/%d rows %d/%d kept %d sha ok %v", u.Bytes, size, u.RowCount, rows, len(u.Rows), u.SHA256 == sum)
			}
			if u.Rows[0][2] != "Entity 0, Montréal" {
				t.Errorf("row 0 = %q", u.Rows[0])
			}
			growth := int64(peak) - int64(before.HeapInuse)
			t.Logf("%d MiB uploaded; HeapInuse %d MiB before, peak %d MiB; TotalAlloc +%d MiB (%.2f bytes per byte)",
				size>>20, before.HeapInuse>>20, peak>>20, (after.TotalAlloc-before.TotalAlloc)>>20,
				float64(after.TotalAlloc-before.TotalAlloc)/float64(size))
			if growth > 32<<20 {
				t.Errorf("HeapInuse grew by %d MiB while streaming %d MiB; want < 32 MiB", growth>>20, size>>20)
			}
			if per := float64(after.TotalAlloc-before.TotalAlloc) / float64(size); per > 4 {
				t.Errorf("allocated %.1f bytes per uploaded byte", per)
			}
			left, _ := filepath.Glob(filepath.Join(tmp, "etl-emulator-*"))
			if len(left) != 0 {
				t.Errorf("temp files left behind: %v", left)
			}
		})
	}
}

// genBody is a multipart upload generated on the fly: metadata, then a file
// part of repeated CSV rows. It is re-readable via reset.
type genBody struct {
	prefix, chunk, suffix []byte
	chunks                int
	pos                   int64
	total                 int64
}

func newGenBody(boundary string, fileBytes int64, metaFirst bool) (*genBody, int64) {
	chunk, _ := rowChunk(256 << 10)
	g := &genBody{chunk: chunk}
	g.chunks = int((fileBytes + int64(len(chunk)) - 1) / int64(len(chunk)))
	meta := fmt.Sprintf("--%s\r\nContent-Disposition: form-data; name=\"metadata\"\r\n\r\n%s\r\n", boundary, metaGL)
	pre := fmt.Sprintf("--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"gl.csv\"\r\nContent-Type: text/csv\r\n\r\n%s", boundary, streamHeader)
	if metaFirst {
		pre = meta + pre
		g.suffix = []byte("\r\n--" + boundary + "--\r\n")
	} else {
		g.suffix = []byte("\r\n" + meta + "--" + boundary + "--\r\n")
	}
	g.prefix = []byte(pre)
	g.total = int64(len(g.prefix)) + int64(g.chunks)*int64(len(chunk)) + int64(len(g.suffix))
	return g, int64(len(streamHeader)) + int64(g.chunks)*int64(len(chunk))
}

func (g *genBody) Read(p []byte) (int, error) {
	if g.pos >= g.total {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && g.pos < g.total {
		var src []byte
		off := g.pos
		switch body := int64(g.chunks) * int64(len(g.chunk)); {
		case off < int64(len(g.prefix)):
			src = g.prefix[off:]
		case off < int64(len(g.prefix))+body:
			src = g.chunk[(off-int64(len(g.prefix)))%int64(len(g.chunk)):]
		default:
			src = g.suffix[off-int64(len(g.prefix))-body:]
		}
		c := copy(p[n:], src)
		n += c
		g.pos += int64(c)
	}
	return n, nil
}

// BenchmarkUploadCSV measures start-with-file throughput over loopback
// HTTP for a 64 MiB CSV (file part bytes per second), with the metadata part
// first (parsed as it streams) and last, as curl -F file=@... -F metadata=...
// sends it (spooled to a temp file, parsed speculatively meanwhile).
func BenchmarkUploadCSV(b *testing.B) {
	for _, metaFirst := range []bool{true, false} {
		name := map[bool]string{true: "metadata-first", false: "file-first"}[metaFirst]
		b.Run(name, func(b *testing.B) {
			srv := New(Options{Instant: true, MaxKeptRows: 100})
			ts := newBenchServer(b, srv)
			const boundary = "benchboundary1234567890"
			_, fileBytes := newGenBody(boundary, 64<<20, metaFirst)
			b.SetBytes(fileBytes)
			b.ReportAllocs()
			for b.Loop() {
				g, _ := newGenBody(boundary, 64<<20, metaFirst)
				req, _ := http.NewRequest(http.MethodPost, ts+base+"/templates/"+GLActualsTemplateID+"/startWithFile", g)
				req.ContentLength = g.total
				req.SetBasicAuth(tokenID, tokenSecret)
				req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("status %d", res.StatusCode)
				}
			}
			jobs := srv.Jobs()
			if len(jobs) == 0 || jobs[len(jobs)-1].Upload.Bytes != fileBytes || jobs[len(jobs)-1].Status != StatusCompleted {
				b.Fatalf("last job = %+v", jobs[len(jobs)-1])
			}
		})
	}
}

func newBenchServer(b *testing.B, h http.Handler) string {
	ts := httptest.NewServer(h)
	b.Cleanup(ts.Close)
	return ts.URL
}
