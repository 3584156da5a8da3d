package etl

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// TestBytesFile: bytes in memory upload with their size, and each attempt
// reads them whole from the start.
func TestBytesFile(t *testing.T) {
	in := FileInput{PartName: "file", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "data.csv"}
	f := BytesFile(in, []byte("A,B\n1,2\n"))
	if f.Input != in || f.Size != 8 {
		t.Fatalf("BytesFile = %+v", f)
	}
	for attempt := range 2 {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(r); err != nil || string(b) != "A,B\n1,2\n" {
			t.Errorf("attempt %d read %q, %v", attempt, b, err)
		}
		_ = r.Close()
	}
}

func TestCheckPartHeaderValue(t *testing.T) {
	for v, want := range map[string]string{
		"gl.csv":                 "",
		"tab\there.csv":          "",
		`q"uote\back.csv`:        "",
		"Montréal €.csv":         "",
		"gl.csv\r\n":             "carriage return (U+000D) at byte 6",
		"gl\n.csv":               "line feed (U+000A) at byte 2",
		"\x00":                   "NUL (U+0000) at byte 0",
		"a\x01b":                 "control character (U+0001) at byte 1",
		"a\x1bb":                 "escape (U+001B) at byte 1",
		"del\x7f":                "delete (U+007F) at byte 3",
		"é\r":                    "carriage return (U+000D) at byte 2",
		"x\r\nContent-Type: a/b": "carriage return (U+000D) at byte 1",
	} {
		err := CheckPartHeaderValue(v)
		if want == "" {
			if err != nil {
				t.Errorf("%q: unexpected error %v", v, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to contain %q", v, err, want)
		}
	}
}

// TestControlCharacterNamesAreRefusedBeforeSending: the encoder itself
// refuses a name with a line break, so nothing reaches the service.
func TestControlCharacterNamesAreRefusedBeforeSending(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{})
	content := []byte("Account,Amount\n4000,1\n")
	for _, tc := range []struct{ part, file, want string }{
		{"file", "gl.csv\r\n", `file name "gl.csv\r\n" contains a carriage return (U+000D) at byte 6`},
		{"file\r\nX-Injected: 1", "gl.csv", `file part name "file\r\nX-Injected: 1" contains a carriage return (U+000D) at byte 4`},
	} {
		f := fileOf(content, flatfile.FormatCSV, flatfile.EncodingUTF8, tc.file)
		f.Input.PartName = tc.part
		_, err := c.StartWithFile(context.Background(), emulator.GLActualsTemplateID, f)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("start: err = %v, want it to contain %q", err, tc.want)
		}
		job, jerr := c.CreateJob(context.Background(), emulator.GLActualsTemplateID)
		if jerr != nil {
			t.Fatal(jerr)
		}
		if err := c.UploadJobFile(context.Background(), job.ID, emulator.GLActualsInputID, f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("upload: err = %v, want it to contain %q", err, tc.want)
		}
	}
	if n := srv.Requests(emulator.EndpointStartWithFile) + srv.Requests(emulator.EndpointUploadJobFile); n != 0 {
		t.Fatalf("%d uploads reached the service", n)
	}
	for _, j := range srv.Jobs() {
		if j.Upload != nil {
			t.Fatalf("job %s holds an upload %+v", j.ID, j.Upload)
		}
	}
}

// TestQuotedNamesArriveAsWritten: a part name and file name with a tab,
// quotes and a backslash reach the service intact. The emulator matches the
// file part by the name in its Content-Disposition header against the
// metadata's partName, so a job holding the bytes shows the header carried
// the name as written.
func TestQuotedNamesArriveAsWritten(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
	content := []byte("Account,Amount\n4000,1\n")
	const part, file = "my \"part\"\t\\x", "Q4 \"final\"\tC:\\data\\gl.csv"
	f := fileOf(content, flatfile.FormatCSV, flatfile.EncodingUTF8, file)
	f.Input.PartName = part
	job, err := c.StartWithFile(context.Background(), emulator.GLActualsTemplateID, f)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := srv.Job(job.ID)
	if !ok || got.Upload == nil {
		t.Fatalf("no upload recorded for %s", job.ID)
	}
	if u := got.Upload; u.PartName != part || u.FileName != file || u.SHA256 != sha(content) || u.RowCount != 1 {
		t.Fatalf("upload = %+v, want part %q file %q and the bytes sent", u, part, file)
	}

	created, err := c.CreateJob(context.Background(), emulator.GLActualsTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.UploadJobFile(context.Background(), created.ID, emulator.GLActualsInputID, f); err != nil {
		t.Fatal(err)
	}
	if j, _ := srv.Job(created.ID); j.Upload == nil || j.Upload.PartName != part || j.Upload.FileName != file || j.Upload.SHA256 != sha(content) {
		t.Fatalf("input upload = %+v", j.Upload)
	}
}

func TestMultipartBodyLayout(t *testing.T) {
	content := "Account,Amount\n4000,100\n"
	f := FileUpload{
		Input: FileInput{PartName: "up\tload \"x\"", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "gl \"q\"\t\\d\\.csv"},
		Open:  func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(content)), nil },
		Size:  int64(len(content)),
	}
	b, err := newMultipartBody(f)
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := b.open()
	raw, _ := io.ReadAll(rc)
	if int64(len(raw)) != b.size {
		t.Fatalf("declared size %d, actual %d", b.size, len(raw))
	}
	_, params, err := mime.ParseMediaType(b.contentType)
	if err != nil {
		t.Fatal(err)
	}
	mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
	p1, err := mr.NextPart()
	if err != nil || p1.FormName() != "metadata" {
		t.Fatalf("first part %v, %v", p1, err)
	}
	var meta FileMetadata
	if err := json.NewDecoder(p1).Decode(&meta); err != nil || meta.Input != f.Input {
		t.Fatalf("metadata %+v, %v", meta, err)
	}
	p2, err := mr.NextPart()
	if err != nil || p2.FormName() != f.Input.PartName || p2.FileName() != f.Input.FileName {
		t.Fatalf("file part %q %q, %v", p2.FormName(), p2.FileName(), err)
	}
	got, _ := io.ReadAll(p2)
	if string(got) != content {
		t.Fatalf("file content %q", got)
	}
	if _, err := mr.NextPart(); err != io.EOF {
		t.Fatalf("want exactly two parts, got %v", err)
	}

	f.Size = -1
	b, _ = newMultipartBody(f)
	if b.size != -1 {
		t.Fatalf("unknown size must stay unknown, got %d", b.size)
	}
	for _, bad := range []FileInput{
		{PartName: "", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "a"},
		{PartName: "f", FileFormat: "XLS", FileEncoding: flatfile.EncodingUTF8, FileName: "a"},
		{PartName: "f", FileFormat: flatfile.FormatCSV, FileEncoding: "latin1", FileName: "a"},
		{PartName: "f", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: ""},
		{PartName: "f", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "a.csv\r\n"},
		{PartName: "f\n", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "a.csv"},
		{PartName: "f", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "a\x00.csv"},
	} {
		if _, err := newMultipartBody(FileUpload{Input: bad, Open: f.Open}); err == nil {
			t.Errorf("%+v: want a validation error", bad)
		}
	}
}

func TestFileHashHelperAgreesWithSHA256(t *testing.T) {
	// Guards the assumption the provider relies on: the bytes of a file part
	// are the file's bytes, untouched.
	content := []byte("a,b\n1,2\n")
	f := FileUpload{
		Input: FileInput{PartName: "file", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "x.csv"},
		Open:  func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(content)), nil },
		Size:  int64(len(content)),
	}
	b, _ := newMultipartBody(f)
	rc, _ := b.open()
	raw, _ := io.ReadAll(rc)
	_, params, _ := mime.ParseMediaType(b.contentType)
	mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
	_, _ = mr.NextPart()
	p, _ := mr.NextPart()
	got, _ := io.ReadAll(p)
	h1, h2 := sha256.Sum256(got), sha256.Sum256(content)
	if hex.EncodeToString(h1[:]) != hex.EncodeToString(h2[:]) {
		t.Fatal("file part bytes differ from the file")
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

func TestEncodeText(t *testing.T) {
	const text = "City\nMontréal\n"
	cases := []struct {
		enc  flatfile.Encoding
		want []byte
	}{
		{flatfile.EncodingUTF8, []byte("City\nMontr\xc3\xa9al\n")},
		{flatfile.EncodingLatin1, []byte("City\nMontr\xe9al\n")},
		{flatfile.EncodingUTF16, []byte("\xff\xfeC\x00i\x00t\x00y\x00\n\x00M\x00o\x00n\x00t\x00r\x00\xe9\x00a\x00l\x00\n\x00")},
	}
	for _, tc := range cases {
		got, err := EncodeText(text, tc.enc)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s: got % x, %v; want % x", tc.enc, got, err, tc.want)
		}
	}
	// Windows-1252 has the euro sign (0x80), not the Greek omega.
	if got, err := EncodeText("€", flatfile.EncodingLatin1); err != nil || !bytes.Equal(got, []byte{0x80}) {
		t.Errorf("euro: % x, %v", got, err)
	}
	_, err := EncodeText("A,B\n1,Ω\n", flatfile.EncodingLatin1)
	var ue *UnencodableError
	if !errors.As(err, &ue) || ue.Rune != 'Ω' || ue.Line != 2 || ue.Column != 3 ||
		!strings.Contains(err.Error(), "U+03A9") || !strings.Contains(err.Error(), "line 2, column 3") {
		t.Errorf("omega in Latin-1: %v, want an error naming U+03A9 at line 2, column 3", err)
	}
	// A write-only value's error says where, and never the character.
	if wo := ue.WriteOnly(); !strings.Contains(wo, "line 2, column 3") || !strings.Contains(wo, "the value is write-only") ||
		!strings.HasSuffix(wo, "or remove the character") || strings.Contains(wo, "Ω") || strings.Contains(wo, "03A9") {
		t.Errorf("write-only: %q", wo)
	}
	// Characters outside the BMP become surrogate pairs in UTF-16.
	if got, _ := EncodeText("😀", flatfile.EncodingUTF16); !bytes.Equal(got, []byte{0xff, 0xfe, 0x3d, 0xd8, 0x00, 0xde}) {
		t.Errorf("emoji in UTF-16: % x", got)
	}
	if _, err := EncodeText("x", "UTF-32"); err == nil {
		t.Error("UTF-32 must be refused")
	}
	for _, e := range flatfile.Encodings {
		if !e.Known() {
			t.Errorf("%s is not known", e)
		}
	}
	if flatfile.Encoding("UTF-32").Known() || flatfile.Encoding("utf-8").Known() {
		t.Error("an encoding the service does not accept is known")
	}
}
