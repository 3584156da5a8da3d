package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The tests of the flags of the rules no public source shows: each runs
// the command (run, as main does) with the flag's choices and shows over
// HTTP what changes.

// serveWith runs the command with args and returns its base URL.
func serveWith(t *testing.T, args ...string) (string, *running) {
	t.Helper()
	urlFile := filepath.Join(t.TempDir(), "url")
	r := startRun(t, append([]string{"-url-file", urlFile}, args...)...)
	waitFor(t, "stdout closed", r.out.isClosed)
	t.Cleanup(func() {
		r.cancel()
		_ = r.wait(t)
	})
	return readTrimmed(urlFile), r
}

// call sends a request with the default token and returns the status and
// the body.
func call(t *testing.T, method, url, contentType string, body io.Reader) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(emulator.DefaultTokenID, emulator.DefaultTokenSecret)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, b
}

// jobOf decodes an ETLJob body: its id and status.
func jobOf(t *testing.T, status int, body []byte) (id, jobStatus string) {
	t.Helper()
	var j struct{ ID, Status string }
	if status != http.StatusOK || json.Unmarshal(body, &j) != nil || j.ID == "" {
		t.Fatalf("want 200 and a job, got %d %s", status, body)
	}
	return j.ID, j.Status
}

const api = "/api/public/v1/etl"

// startData starts a job of template tmpl with rows (JSON) and returns its
// id and status.
func startData(t *testing.T, base, tmpl, rows string) (string, string) {
	t.Helper()
	st, b := call(t, http.MethodPost, base+api+"/templates/"+tmpl+"/startWithData", "application/json",
		strings.NewReader(`{"input":{"data":`+rows+`}}`))
	return jobOf(t, st, b)
}

// multipartFile is a multipart body: the metadata part (unless meta is
// ""), then the file part "file" named gl.csv.
func multipartFile(t *testing.T, meta, csv string) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if meta != "" {
		if err := mw.WriteField("metadata", meta); err != nil {
			t.Fatal(err)
		}
	}
	w, err := mw.CreateFormFile("file", "gl.csv")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, csv)
	mw.Close()
	return &buf, mw.FormDataContentType()
}

const (
	glMeta = `{"input":{"partName":"file","fileFormat":"CSV","fileEncoding":"UTF-8","fileName":"gl.csv"}}`
	glCSV  = "Account,Amount\n4000,1\n"
	glRows = `[["Account","Amount"],["4000","1"]]`
)

// TestFlagConflictStatus: a submit or cancel of a COMPLETED job answers
// 409 by default, 400 with -conflict-status=400, and 200 with the job
// unchanged (COMPLETED) with -conflict-status=200.
func TestFlagConflictStatus(t *testing.T) {
	for _, c := range []struct {
		flag string
		want int
	}{{"", http.StatusConflict}, {"409", http.StatusConflict}, {"400", http.StatusBadRequest}, {"200", http.StatusOK}} {
		t.Run("conflict-status="+c.flag, func(t *testing.T) {
			args := []string{"-instant"}
			if c.flag != "" {
				args = append(args, "-conflict-status="+c.flag)
			}
			base, _ := serveWith(t, args...)
			id, st := startData(t, base, emulator.GLActualsTemplateID, glRows)
			if st != emulator.StatusCompleted {
				t.Fatalf("job %s", st)
			}
			for _, op := range []string{"submit", "cancel"} {
				status, body := call(t, http.MethodPost, base+api+"/jobs/"+id+"/"+op, "application/json", nil)
				if status != c.want {
					t.Fatalf("%s of a COMPLETED job: %d %s, want %d", op, status, body, c.want)
				}
				if c.want == http.StatusOK {
					if gotID, gotStatus := jobOf(t, status, body); gotID != id || gotStatus != emulator.StatusCompleted {
						t.Errorf("%s answered job %s %s, want %s COMPLETED", op, gotID, gotStatus, id)
					}
				} else if !strings.Contains(string(body), "its status is COMPLETED") {
					t.Errorf("%s: body %s", op, body)
				}
			}
		})
	}
}

// TestFlagSubmitMissingInputs: a two-step job submitted with one input
// loaded ends in ERROR by default and with =error, COMPLETED with =accept.
func TestFlagSubmitMissingInputs(t *testing.T) {
	for _, c := range []struct{ flag, want string }{
		{"", emulator.StatusError}, {"error", emulator.StatusError}, {"accept", emulator.StatusCompleted},
	} {
		t.Run("submit-missing-inputs="+c.flag, func(t *testing.T) {
			args := []string{"-instant"}
			if c.flag != "" {
				args = append(args, "-submit-missing-inputs="+c.flag)
			}
			base, _ := serveWith(t, args...)
			st, b := call(t, http.MethodPost, base+api+"/templates/"+emulator.TwoStepTemplateID+"/jobs", "", nil)
			id, _ := jobOf(t, st, b)
			body, ct := multipartFile(t, glMeta, glCSV)
			if st, b := call(t, http.MethodPut, base+api+"/jobs/"+id+"/inputs/"+emulator.TwoStepActualsInputID+"/file", ct, body); st != http.StatusNoContent {
				t.Fatalf("PUT: %d %s", st, b)
			}
			st, b = call(t, http.MethodPost, base+api+"/jobs/"+id+"/submit", "application/json", nil)
			if _, js := jobOf(t, st, b); js != c.want {
				t.Errorf("submitted with the rates never loaded: %s, want %s", js, c.want)
			}
		})
	}
}

// TestFlagMissingMetadata: a start with file whose body holds the file
// part alone answers 422 by default and with =reject; with =default it
// starts a job, read as CSV.
func TestFlagMissingMetadata(t *testing.T) {
	for _, c := range []struct {
		flag string
		want int
	}{{"", http.StatusUnprocessableEntity}, {"reject", http.StatusUnprocessableEntity}, {"default", http.StatusOK}} {
		t.Run("missing-metadata="+c.flag, func(t *testing.T) {
			args := []string{"-instant"}
			if c.flag != "" {
				args = append(args, "-missing-metadata="+c.flag)
			}
			base, _ := serveWith(t, args...)
			body, ct := multipartFile(t, "", glCSV)
			st, b := call(t, http.MethodPost, base+api+"/templates/"+emulator.GLActualsTemplateID+"/startWithFile", ct, body)
			if st != c.want {
				t.Fatalf("the file part alone: %d %s, want %d", st, b, c.want)
			}
			if st == http.StatusOK {
				if _, js := jobOf(t, st, b); js != emulator.StatusCompleted {
					t.Errorf("job %s, want COMPLETED", js)
				}
			} else if !strings.Contains(string(b), "no metadata part") {
				t.Errorf("body %s", b)
			}
		})
	}
}

// TestFlagRequiredColumns: data without the template's columns ends in
// ERROR by default and with =on, COMPLETED with =off; a short row is an
// ERROR either way.
func TestFlagRequiredColumns(t *testing.T) {
	for _, c := range []struct{ flag, want string }{
		{"", emulator.StatusError}, {"on", emulator.StatusError}, {"off", emulator.StatusCompleted},
	} {
		t.Run("required-columns="+c.flag, func(t *testing.T) {
			args := []string{"-instant"}
			if c.flag != "" {
				args = append(args, "-required-columns="+c.flag)
			}
			base, _ := serveWith(t, args...)
			if _, st := startData(t, base, emulator.GLActualsTemplateID, `[["Ledger","Value"],["4000","1"]]`); st != c.want {
				t.Errorf("data without Account and Amount: %s, want %s", st, c.want)
			}
			body, ct := multipartFile(t, glMeta, "Ledger,Value\n4000\n")
			st, b := call(t, http.MethodPost, base+api+"/templates/"+emulator.GLActualsTemplateID+"/startWithFile", ct, body)
			if _, js := jobOf(t, st, b); js != emulator.StatusError {
				t.Errorf("a short row: %s, want ERROR", js)
			}
		})
	}
}

// TestUsageGroupsInventedRules: -h lists the flags of facts and options
// first, then, under a heading saying no public source shows them, the
// flags of the invented rules, each with its default.
func TestUsageGroupsInventedRules(t *testing.T) {
	var out bytes.Buffer
	cmd := emulatorProcess(t, "-h")
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	usage := out.String()
	head := strings.Index(usage, "Rules no public source shows")
	if head < 0 {
		t.Fatalf("no heading for the invented rules:\n%s", usage)
	}
	for _, f := range []string{"-addr", "-background", "-instant", "-log-file", "-tls", "-version"} {
		if i := regexp.MustCompile(`\n  ` + f + `[ \n]`).FindStringIndex(usage); i == nil || i[0] > head {
			t.Errorf("%s is not listed before the heading", f)
		}
	}
	for flag, def := range map[string]string{
		"-conflict-status":       "(default 409)",
		"-submit-missing-inputs": `(default "error")`,
		"-missing-metadata":      `(default "reject")`,
		"-required-columns":      `(default "on")`,
	} {
		i := strings.Index(usage, "\n  "+flag+" ")
		if i < head || strings.Count(usage, "\n  "+flag+" ") != 1 {
			t.Errorf("%s is not listed once, after the heading", flag)
			continue
		}
		entry := usage[i+1:]
		if next := strings.Index(entry, "\n  -"); next >= 0 {
			entry = entry[:next]
		}
		if !strings.Contains(entry, def) {
			t.Errorf("%s lacks %s: %q", flag, def, entry)
		}
	}
	if strings.Contains(usage[head:], "-addr") {
		t.Error("a flag of facts is listed under the heading")
	}
}

// TestJobLogLine: a job that ends in ERROR is reported with one line on
// stderr, with or without -log: job id, template id and name, and why;
// also a job nobody looks at after it started (the real clock's timer).
func TestJobLogLine(t *testing.T) {
	for _, args := range [][]string{{"-instant"}, {"-instant", "-log"}, {"-run-time", "50ms"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			base, r := serveWith(t, args...)
			id, _ := startData(t, base, emulator.GLActualsTemplateID, `[["Account"],["4000"]]`)
			okID, _ := startData(t, base, emulator.GLActualsTemplateID, glRows)
			line := fmt.Sprintf(`etl-emulator: job %s (template %s "GL Actuals") ended in ERROR: missing required column "Amount"`, id, emulator.GLActualsTemplateID)
			waitFor(t, "the ERROR line", func() bool { return strings.Contains(r.err.String(), line) })
			time.Sleep(100 * time.Millisecond) // the other job has ended too
			stderr := r.err.String()
			if strings.Count(stderr, "ended in ERROR") != 1 || strings.Contains(stderr, okID) {
				t.Errorf("stderr reports other jobs or twice:\n%s", stderr)
			}
			want := `(?m)^` + regexp.QuoteMeta(line) + `$`
			if len(args) > 1 && args[1] == "-log" {
				want = `(?m)^[0-9/]+ [0-9:.]+ ` + regexp.QuoteMeta(line) + `$` // timed like the request log
			}
			if !regexp.MustCompile(want).MatchString(stderr) {
				t.Errorf("stderr does not match %s:\n%s", want, stderr)
			}
		})
	}
}
