package etl_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

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
		err := etl.CheckPartHeaderValue(v)
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
		f := fileOf(content, etl.FormatCSV, etl.EncodingUTF8, tc.file)
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
	f := fileOf(content, etl.FormatCSV, etl.EncodingUTF8, file)
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
