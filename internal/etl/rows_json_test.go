package etl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// goldenJSON pins the JSON body of start with data for goldenRowSets:
// content_sha256 in users' state is a hash of these bytes, so a changed
// byte would replace their imports. These values must never change.
var goldenJSON = map[string]golden{
	"plain":          {73, "6f297745475d48c3b80fd3f21ec3b71b66e9f7e932f5c3a53b34175c410a1975"},
	"tricky":         {333, "32e582f1873aad640c34278bd225d57ff1b64413d8112fa261aa10ec4fe307e4"},
	"one empty cell": {40, "4f357eaa0053ceb5c2971390ddc1de969a270925f831c396d95a42eee2df2b34"},
	"header only":    {41, "8e9a2e6693a42f2ba8ebbe7294e2213aee4113aa38a4f8d638a78ddf4a1ae3d8"},
	"many rows":      {271982, "34937333625a6b68925855be0d11fa582a4c86a0d84faa9504a2b4bf2e48872a"},
}

func TestJSONRowsEncodingIsGolden(t *testing.T) {
	for name, rows := range goldenRowSets {
		var j bytes.Buffer
		if _, err := (DataUpload{Rows: rows}).WriteTo(&j); err != nil {
			t.Fatal(err)
		}
		if got, want := goldenOf(j.Bytes()), goldenJSON[name]; got != want {
			t.Errorf("%s: JSON rows encoding is %d bytes, sha256 %s; pinned %d bytes, %s", name, got.size, got.sha, want.size, want.sha)
		}
	}
	var j bytes.Buffer
	_, _ = DataUpload{Rows: goldenRowSets["plain"]}.WriteTo(&j)
	if want := `{"input":{"data":[["Account","Amount"],["4000","100.5"],["4010","-20"]]}}`; j.String() != want {
		t.Errorf("JSON %s, want %s", j.String(), want)
	}
}

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	inputs := []string{"", "plain", `q"uote`, `back\slash`, "new\nline\r\t", "\x00\x01\x1f", "Montréal €", "<tag>&amp;", "\u2028", "bad\xffutf8", "日本語"}
	for _, in := range inputs {
		raw := appendJSONString(nil, in)
		var back string
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatalf("%q encodes to invalid JSON %s: %v", in, raw, err)
		}
		var want string
		std, _ := json.Marshal(in)
		_ = json.Unmarshal(std, &want)
		if back != want {
			t.Errorf("%q round-trips to %q, encoding/json gives %q", in, back, want)
		}
	}
}

func TestDataUploadWriteToMatchesSentBody(t *testing.T) {
	d := DataUpload{Rows: [][]string{{"Account", "Amount"}, {"4000", "100.5"}, {"Montréal \"HQ\"", "-3"}}}
	var w bytes.Buffer
	n, err := d.WriteTo(&w)
	if err != nil || n != int64(w.Len()) || n != d.Size() {
		t.Fatalf("WriteTo = %d, %v; buffer %d; Size %d", n, err, w.Len(), d.Size())
	}
	var parsed struct {
		Input struct {
			Data [][]string `json:"data"`
		} `json:"input"`
	}
	if err := json.Unmarshal(w.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(parsed.Input.Data) != fmt.Sprint(d.Rows) {
		t.Fatalf("decoded %v, want %v", parsed.Input.Data, d.Rows)
	}
	b, err := newJSONBody(d)
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := b.open()
	sent, _ := io.ReadAll(rc)
	if !bytes.Equal(sent, w.Bytes()) || b.size != int64(len(sent)) {
		t.Fatalf("the body sent differs from WriteTo's bytes")
	}
}

func TestDataUploadTooLarge(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	rows := [][]string{{"A"}}
	for i := 0; i < 26; i++ {
		rows = append(rows, []string{big})
	}
	_, err := newJSONBody(DataUpload{Rows: rows})
	var tooLarge *DataTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Size <= MaxDataBodyBytes {
		t.Fatalf("err = %v, want DataTooLargeError over the limit", err)
	}
	if _, err := newJSONBody(DataUpload{}); err == nil || !strings.Contains(err.Error(), "header") {
		t.Fatalf("empty rows: err = %v", err)
	}
}

// failingWriter accepts limit bytes, then fails.
type failingWriter struct {
	limit, n int
	writes   int
}

var errWriteFailed = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.n+len(p) > w.limit {
		m := w.limit - w.n
		w.n = w.limit
		return m, errWriteFailed
	}
	w.n += len(p)
	return len(p), nil
}

// Both rows encoders stop at the first write error, return it, and count
// exactly the bytes the writer took.
func TestRowsEncodersStopAtWriteError(t *testing.T) {
	d := DataUpload{Rows: testRows(20000)}
	for name, write := range map[string]func(io.Writer) (int64, error){"json": d.WriteTo, "csv": d.WriteCSV} {
		w := &failingWriter{limit: 100 << 10}
		n, err := write(w)
		if !errors.Is(err, errWriteFailed) || n != int64(w.limit) {
			t.Fatalf("%s: n = %d, err = %v; want %d and the write error", name, n, err, w.limit)
		}
		if w.writes != 2 {
			t.Fatalf("%s: %d writes after the first failure; want none", name, w.writes-2)
		}
	}
}

func BenchmarkDataUploadEncode(b *testing.B) {
	d := DataUpload{Rows: testRows(100000)}
	b.SetBytes(d.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := newJSONBody(d); err != nil {
			b.Fatal(err)
		}
	}
}

// rows25MB returns generated rows whose JSON body is about 25 MB (just
// under the limit of start with data).
func rows25MB() [][]string {
	rows := [][]string{testHeader}
	size := 40
	for i := 0; size < MaxDataBodyBytes-200; i++ {
		row := testRow(i)
		rows = append(rows, row)
		size += len(appendRow(nil, row)) + 1
	}
	return rows
}

// BenchmarkRowsEncode25MB compares encoding a 25 MB rows body with the
// client (the JSON body of start with data, and the CSV file that rows over
// the limit are sent as) against encoding/json.Marshal of the same
// [][]string. peak-B is the bytes allocated by one encoding (an upper bound
// of its peak memory), body-B the size of the body.
func BenchmarkRowsEncode25MB(b *testing.B) {
	rows := rows25MB()
	d := DataUpload{Rows: rows}
	bodySize := d.Size()
	run := func(b *testing.B, encode func() any) {
		b.SetBytes(bodySize)
		b.ReportAllocs()
		peak := peakHeap(encode)
		b.ResetTimer()
		for b.Loop() {
			_ = encode()
		}
		b.ReportMetric(float64(peak), "peak-B")
		b.ReportMetric(float64(bodySize), "body-B")
	}
	b.Run("json.Marshal", func(b *testing.B) {
		run(b, func() any {
			out, err := json.Marshal(map[string]any{"input": map[string]any{"data": rows}})
			if err != nil {
				b.Fatal(err)
			}
			return out
		})
	})
	b.Run("body", func(b *testing.B) {
		// What StartWithData sends: the whole body, encoded once.
		run(b, func() any {
			body, err := newJSONBody(d)
			if err != nil {
				b.Fatal(err)
			}
			rc, _ := body.open()
			return rc
		})
	})
	b.Run("csv size", func(b *testing.B) {
		// What a plan pays to learn the CSV file's length (CSVFile's Size).
		run(b, func() any { return d.CSVSize() })
	})
	b.Run("csv", func(b *testing.B) {
		// What rows over the limit are sent as, streamed to the wire.
		f := d.CSVFile()
		run(b, func() any {
			rc, _ := f.Open()
			n, _ := io.Copy(io.Discard, rc)
			return n
		})
	})
}
