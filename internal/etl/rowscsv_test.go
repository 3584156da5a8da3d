package etl

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

var csvTestRows = [][]string{
	{"Account", "Amount", "Memo"},
	{"4000", "100.5", "plain"},
	{"4010", "-20", `say "hi", twice`},
	{"4020", "", "line one\nline two"},
	{"4030", " lead", "trail\t"},
	{"4040", "Montréal", "<&>"},
	{"4050", `""`, ","},
}

// The CSV reads back, with encoding/csv, as exactly the rows; its size is
// exact, and streaming it gives the same bytes as WriteCSV.
func TestRowsCSVRoundTrip(t *testing.T) {
	for _, rows := range [][][]string{csvTestRows, {{"Only"}, {""}, {"x"}}} {
		d := DataUpload{Rows: rows}
		var buf bytes.Buffer
		n, err := d.WriteCSV(&buf)
		if err != nil || n != int64(buf.Len()) || d.CSVSize() != n {
			t.Fatalf("WriteCSV %d (%v), buffer %d, CSVSize %d", n, err, buf.Len(), d.CSVSize())
		}
		r := csv.NewReader(bytes.NewReader(buf.Bytes()))
		r.FieldsPerRecord = -1
		got, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%v in %q", err, buf.String())
		}
		if !slices.EqualFunc(got, rows, slices.Equal) {
			t.Fatalf("read back %q, want %q", got, rows)
		}
		f := d.CSVFile()
		rc, _ := f.Open()
		streamed, err := io.ReadAll(io.LimitReader(rc, 1<<30))
		if err != nil || !bytes.Equal(streamed, buf.Bytes()) || f.Size != n {
			t.Fatalf("streamed %q (%v), size %d; want %q", streamed, err, f.Size, buf.String())
		}
	}
}

// Many rows stream through the chunked reader, read in small pieces.
func TestRowsCSVStreamsInChunks(t *testing.T) {
	rows := [][]string{{"Account", "Memo"}}
	for range 20000 {
		rows = append(rows, []string{"4000", strings.Repeat("m", 17)})
	}
	d := DataUpload{Rows: rows}
	var want bytes.Buffer
	_, _ = d.WriteCSV(&want)
	rc, _ := d.CSVFile().Open()
	var got bytes.Buffer
	if _, err := io.CopyBuffer(&got, struct{ io.Reader }{rc}, make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("streamed %d bytes, want %d", got.Len(), want.Len())
	}
}

// abortingReader serves its bytes, then fails with an UploadAbortedError
// instead of handing over the last one.
type abortingReader struct{ r io.Reader }

func (a *abortingReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if errors.Is(err, io.EOF) || n == 0 {
		return 0, &UploadAbortedError{Err: errors.New("bytes changed")}
	}
	return n, err
}
func (a *abortingReader) Close() error { return nil }

// An upload its reader aborts is not retried, and the server never
// receives a complete body.
func TestUploadAbortedIsNotRetried(t *testing.T) {
	var mu sync.Mutex
	var requests, complete int
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		mu.Lock()
		requests++
		if err == nil && int64(len(b)) == r.ContentLength && bytes.HasSuffix(b, []byte("--\r\n")) {
			complete++
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, jobJSON)
	}))
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, nil)
	content := strings.Repeat("4000,1\n", 200000)
	_, err := c.StartWithFile(context.Background(), "1", FileUpload{
		Input: FileInput{PartName: "file", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: "gl.csv"},
		Open: func() (io.ReadCloser, error) {
			return &abortingReader{r: strings.NewReader(content[:len(content)-1])}, nil
		},
		Size: int64(len(content)),
	})
	var aborted *UploadAbortedError
	if !errors.As(err, &aborted) {
		t.Fatalf("error %v, want one wrapping an UploadAbortedError", err)
	}
	var maybe *JobMaybeCreatedError
	if errors.As(err, &maybe) {
		t.Fatalf("an aborted upload is not a job that may have been created: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if requests > 1 || complete != 0 {
		t.Fatalf("%d requests, %d complete bodies; want at most 1 and none complete", requests, complete)
	}
}
