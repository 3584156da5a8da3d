package provider

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// A file problem is reported on the attribute to fix.
func TestAddCheckDiagnostic(t *testing.T) {
	cases := []struct {
		err     error
		at      string
		summary string
	}{
		{&flatfile.FileError{Problem: flatfile.ProblemEncoding, Detail: "line 2: byte 0xE9", Fix: "set encoding"}, "encoding", "File not in its declared encoding"},
		{&flatfile.FileError{Problem: flatfile.ProblemDelimiter, Detail: "looks like PSV"}, "format", "Delimiter does not match the format"},
		{&flatfile.FileError{Problem: flatfile.ProblemWidth, Detail: "line 3 has 3 fields"}, "path", "Row of unequal width"},
		{&flatfile.FileError{Problem: "new kind", Detail: "x"}, "path", "Invalid file"},
		{errors.New("read failed"), "path", summaryUnreadable},
	}
	for _, tc := range cases {
		var d diag.Diagnostics
		addCheckDiagnostic(&d, "path", `The file "gl.csv"`, tc.err)
		assertAttrError(t, d, filePath(tc.at), `The file "gl.csv"`)
		if got := d.Errors()[0].Summary(); got != tc.summary {
			t.Errorf("%v: summary %q, want %q", tc.err, got, tc.summary)
		}
	}
	var d diag.Diagnostics
	addCheckDiagnostic(&d, "content", "file.content", &flatfile.FileError{Problem: flatfile.ProblemQuote, Detail: "line 2", Fix: "double the quote"})
	assertAttrError(t, d, filePath("content"), "file.content (file.content): line 2.", "Fix: double the quote.")
	d = nil
	addCheckDiagnostic(&d, "path", "x", nil)
	if d.HasError() {
		t.Errorf("no problem, but %v", d)
	}
}

func TestAddFileAndStartErrors(t *testing.T) {
	var d diag.Diagnostics
	addFileError(&d, &localfile.PathError{Op: localfile.OpStat, Kind: localfile.IsDir, Path: "x"})
	assertAttrError(t, d, filePath("path"), `file.path: "x" is a directory: file.path must name a file.`)
	d = nil
	addFileError(&d, errors.New("odd"))
	assertAttrError(t, d, filePath("path"), "file.path: odd")

	d = nil
	addStartError(&d, "640101874288689152", &etl.JobMaybeCreatedError{TemplateID: "640101874288689152", Err: errors.New("EOF")}, adoptAdvice)
	if d.ErrorsCount() != 1 || d.Errors()[0].Summary() != "Import job may have been created" || !strings.Contains(d.Errors()[0].Detail(), "terraform import etl_import.<name> <job id>") {
		t.Errorf("answer lost: %v", d)
	}
	d = nil
	addStartError(&d, "640101874288689152", &etl.APIError{StatusCode: http.StatusForbidden, Attempts: 1}, adoptAdvice)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), "No job was created") || !strings.Contains(d.Errors()[0].Detail(), "Hint: the token or its user lacks a permission") {
		t.Errorf("refused: %v", d)
	}
}

// A value still unknown when it must be known is an error on it that says
// when, and that it is the provider's bug.
func TestAddStillUnknown(t *testing.T) {
	var d diag.Diagnostics
	addStillUnknown(&d, path.Root("inputs"), whenInvoked)
	assertAttrError(t, d, path.Root("inputs"), "inputs still has unknown values when the action is invoked", "bug in the provider")
}

// TestAddContentError: inline content the encoding cannot write is an
// error on its attribute; content_wo's names where, never the character.
func TestAddContentError(t *testing.T) {
	_, err := etl.EncodeText("A,B\n1,Ω\n", flatfile.EncodingLatin1)
	var d diag.Diagnostics
	addContentError(&d, "content", flatfile.EncodingLatin1, err)
	addContentError(&d, "content_wo", flatfile.EncodingLatin1, err)
	if d.ErrorsCount() != 2 {
		t.Fatalf("want two errors, got %v", d)
	}
	assertAttrError(t, d[:1], filePath("content"), "file.content cannot be encoded as Windows Latin-1", "U+03A9", "line 2, column 3")
	assertAttrError(t, d[1:], filePath("content_wo"), "file.content_wo cannot be encoded", "line 2, column 3", "the value is write-only")
	if d[0].Summary() != summaryNotEncodable || d[1].Summary() != summaryNotEncodable {
		t.Errorf("summaries %q, %q", d[0].Summary(), d[1].Summary())
	}
	if detail := d[1].Detail(); strings.Contains(detail, "Ω") || strings.Contains(detail, "03A9") {
		t.Errorf("content_wo's error shows the character: %q", detail)
	}
}

// What a message adds after a failed request's error: the hint for its
// kind, then what to do about an untrusted certificate or how many
// attempts were made, each only when it applies.
func TestExplain(t *testing.T) {
	dnsErr := &net.DNSError{Name: "us9.vena.io", IsNotFound: true}
	cases := []struct {
		name string
		err  error
		has  []string
		not  []string
	}{
		{"404: the service's hint", &etl.APIError{StatusCode: http.StatusNotFound, Attempts: 1},
			[]string{" Hint: check the template or job id"}, []string{"made once", "times"}},
		{"401: the token and the hub", &etl.APIError{StatusCode: http.StatusUnauthorized, Attempts: 1},
			[]string{" Hint: check the token id and secret, and the hub"}, nil},
		{"503 after retries", fmt.Errorf("listing: %w", &etl.APIError{StatusCode: http.StatusServiceUnavailable, Attempts: 3}),
			[]string{" The request was made 3 times (the first attempt and 2 retries)", "raise max_retries"}, []string{"Hint:"}},
		{"429 once: its hint, then the attempts", &etl.APIError{StatusCode: http.StatusTooManyRequests, Attempts: 1},
			[]string{" Hint: the service is rate limiting", "made once and not retried"}, nil},
		{"no answer after retries", &etl.RequestError{Attempts: 2, Err: errors.New("connection refused")},
			[]string{"made 2 times"}, nil},
		{"untrusted certificate", &etl.RequestError{Attempts: 3, Err: x509.UnknownAuthorityError{}},
			[]string{"TLS certificate is not trusted", "ca_cert_pem", EnvCACertFile}, []string{"made 3 times"}},
		{"a plain error", errors.New("boom"), nil, []string{"Hint", "made"}},
		{"a hub that does not resolve: no retry advice", &etl.HostNotFoundError{Method: "GET", Path: "/x", Host: "us9.vena.io", Hub: "us9", Attempts: 1, Err: dnsErr},
			[]string{" Hint: check hub or the " + EnvHub + " environment variable", "us9.vena.io", "us1, us2, eu1 or ca3"}, []string{"max_retries", "made"}},
		{"a base URL's host that does not exist", &etl.HostNotFoundError{Method: "GET", Path: "/x", Host: "etl.example.invalid", ServiceHost: "etl.example.invalid", Attempts: 1, Err: dnsErr},
			[]string{" Hint: check base_url or the ETL_BASE_URL environment variable"}, []string{"hub"}},
		{"a proxy's host that does not exist", &etl.HostNotFoundError{Method: "GET", Path: "/x", Host: "proxy.corp.invalid", ServiceHost: "us9.vena.io", Attempts: 1, Err: dnsErr},
			[]string{" Hint: the host proxy.corp.invalid is the proxy's", "HTTPS_PROXY"}, []string{"hub"}},
	}
	for _, tc := range cases {
		got, ok := strings.CutPrefix(explain(tc.err), tc.err.Error()+".")
		if !ok {
			t.Errorf("%s: %q does not start with the error and a period", tc.name, explain(tc.err))
		}
		for _, s := range tc.has {
			if !strings.Contains(got, s) {
				t.Errorf("%s: %q does not contain %q", tc.name, got, s)
			}
		}
		for _, s := range tc.not {
			if strings.Contains(got, s) {
				t.Errorf("%s: %q contains %q", tc.name, got, s)
			}
		}
		if len(tc.has) == 0 && got != "" {
			t.Errorf("%s: %q, want nothing", tc.name, got)
		}
	}
}

// An outsideError is an error on its attribute wherever it is added; a
// plan that holds a job turns it, and it alone, into a warning that ends
// with the note.
func TestOutsideAsWarnings(t *testing.T) {
	var diags diag.Diagnostics
	addFileError(&diags, &localfile.PathError{Path: "d.csv", Kind: localfile.NotFound, Err: errors.New("no such file")})
	diags.AddAttributeError(path.Root("rows"), "Row of unequal width", "in the configuration")
	diags.AddWarning("Other", "kept as it is")
	if !diags.HasError() || diags.ErrorsCount() != 2 {
		t.Fatalf("added: %v", diags)
	}
	if n := len(outsideErrors(diags)); n != 1 {
		t.Fatalf("%d outside errors, want 1 (the file's)", n)
	}
	out := outsideAsWarnings(diags, "The note.")
	if out.ErrorsCount() != 1 || out.WarningsCount() != 2 || out[1].Summary() != "Row of unequal width" {
		t.Fatalf("converted: %v", out)
	}
	w, ok := out[0].(diag.DiagnosticWithPath)
	if !ok || w.Severity() != diag.SeverityWarning || w.Summary() != "File not found" || !w.Path().Equal(filePath("path")) ||
		!strings.HasPrefix(w.Detail(), `file.path: The file "d.csv" does not exist`) || !strings.HasSuffix(w.Detail(), "\n\nThe note.") {
		t.Errorf("the file's warning: %#v", out[0])
	}
}

// Moved into an input, an outsideError stays one.
func TestInInput_keepsOutsideErrors(t *testing.T) {
	var diags diag.Diagnostics
	addOutsideError(&diags, filePath("path"), "File not found", "gone")
	diags.AddAttributeError(filePath("format"), "Missing file format", "set it")
	out := inInput("gl", diags)
	got := outsideErrors(out)
	if len(got) != 1 || !got[0].Path().Equal(inputPath("gl").AtName("file").AtName("path")) || got[0].Detail() != `In inputs["gl"]: gone` {
		t.Errorf("outside errors in the input: %+v", got)
	}
	if out.ErrorsCount() != 2 {
		t.Errorf("errors: %v", out)
	}
}

// Equal tells outside errors apart by summary, detail and attribute.
func TestOutsideError_Equal(t *testing.T) {
	a := outsideError{at: filePath("path"), summary: "S", detail: "D"}
	for _, tc := range []struct {
		b    diag.Diagnostic
		want bool
	}{
		{a, true},
		{outsideError{at: filePath("format"), summary: "S", detail: "D"}, false},
		{outsideError{at: filePath("path"), summary: "S", detail: "E"}, false},
		{diag.NewAttributeErrorDiagnostic(filePath("path"), "S", "D"), false},
	} {
		if got := a.Equal(tc.b); got != tc.want {
			t.Errorf("Equal(%#v) = %v, want %v", tc.b, got, tc.want)
		}
	}
}

// TestProxyErrorDiagnostic: a malformed HTTPS_PROXY reaches the user as
// the usual diagnostic of a failed request: the variable and its value
// (user and password masked), then the hint that says how to fix it, with
// no retry advice and no host blamed.
func TestProxyErrorDiagnostic(t *testing.T) {
	for _, name := range []string{"https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "REQUEST_METHOD"} {
		t.Setenv(name, "")
	}
	t.Setenv("HTTPS_PROXY", "http://proxyuser:Pr0xyPass@[::1")
	client, err := etl.New(etl.Config{Hub: "us2", TokenID: "1.1", TokenSecret: "s3cr3t-s3cr3t", MaxRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = client.ListTemplates(ctx)
	var diags diag.Diagnostics
	diags.AddError(summaryListingTemplates, explain(err))
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	detail := diags[0].Detail()
	for _, want := range []string{`HTTPS_PROXY="http://REDACTED@[::1" is not a proxy URL (missing ']' in host)`,
		"so the request was not sent. Hint: set HTTPS_PROXY to a proxy URL such as http://proxy.example.com:3128", "unset it to connect directly"} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail %q lacks %q", detail, want)
		}
	}
	for _, not := range []string{"Pr0xyPass", "proxyuser", "does not exist", "max_retries", "made"} {
		if strings.Contains(detail, not) {
			t.Errorf("detail %q holds %q", detail, not)
		}
	}
}

// syncBuffer is a log sink written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// infoLines returns the messages and fields of the INFO lines logged.
func (s *syncBuffer) infoLines(t *testing.T) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if m["@level"] == "info" {
			out = append(out, m)
		}
	}
	return out
}

// TestReportUpload: while a file is sent, INFO lines say how far it is.
func TestReportUpload(t *testing.T) {
	var out syncBuffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	content := bytes.Repeat([]byte("Account,Amount\n"), 1000)
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	of, err := localfile.Open(p, localfile.HashBytes(content))
	if err != nil {
		t.Fatal(err)
	}
	defer of.Close()
	up := &preparedUpload{file: &etl.FileUpload{Open: of.Reader, Size: of.Size()}, opened: of}
	stop := reportUpload(ctx, up, testTuning.progressEvery)
	rc, _ := up.file.Open()
	buf := make([]byte, 4000)
	if _, err := rc.Read(buf); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * testTuning.progressEvery)
	stop()
	stop() // twice is fine
	lines := out.infoLines(t)
	if len(lines) == 0 {
		t.Fatal("no progress line")
	}
	last := lines[len(lines)-1]
	msg, _ := last["@message"].(string)
	if !strings.HasPrefix(msg, "uploading "+p+": 3.9 KiB of 14.6 KiB sent (26%)") || !strings.Contains(msg, "left") ||
		last["sent_bytes"] != float64(4000) || last["total_bytes"] != float64(len(content)) || last["path"] != p {
		t.Errorf("progress line %v", last)
	}
	// Nothing after stop.
	n := len(out.infoLines(t))
	time.Sleep(2 * testTuning.progressEvery)
	if len(out.infoLines(t)) != n {
		t.Error("progress lines after stop")
	}
	// Rows and inline content report nothing.
	reportUpload(ctx, &preparedUpload{}, testTuning.progressEvery)()
}

// TestWaitProgress: a wait longer than the interval logs the job's status
// and the time elapsed (logWaiting, which etl.Client.WaitForJob paces).
func TestWaitProgress(t *testing.T) {
	var out syncBuffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	e := newTestEmulator(t, emulator.Options{RunTime: 6 * testTuning.progressEvery})
	id := startJob(t, e, emulator.GLActualsTemplateID, glRows)
	var d diag.Diagnostics
	if job := testRunner(t, e).wait(ctx, &etl.Job{ID: id, Status: jobstatus.StatusRunning}, time.Minute, false, &d); d.HasError() || job.Status != jobstatus.StatusCompleted {
		t.Fatalf("wait = %+v, %v", job, d)
	}
	lines := out.infoLines(t)
	if len(lines) == 0 {
		t.Fatal("no progress line")
	}
	msg, _ := lines[0]["@message"].(string)
	if !strings.HasPrefix(msg, "import job "+id+" is ") || !strings.Contains(msg, " after ") || lines[0]["job_id"] != id || lines[0]["status"] == "" {
		t.Errorf("progress line %v", lines[0])
	}
}

// TestLogStarted: a job the service creates is logged at INFO with its id
// before anything else is sent (the runbook's TF_LOG_PROVIDER=INFO).
func TestLogStarted(t *testing.T) {
	var out syncBuffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	e := newTestEmulator(t, emulator.Options{})
	var d diag.Diagnostics
	job := testRunner(t, e).createJob(ctx, emulator.TwoStepTemplateID, &d)
	if d.HasError() || job == nil {
		t.Fatalf("createJob: %+v, %v", job, d)
	}
	lines := out.infoLines(t)
	if len(lines) != 1 || lines[0]["@message"] != "started import job" || lines[0]["job_id"] != job.ID || lines[0]["template_id"] != emulator.TwoStepTemplateID {
		t.Errorf("INFO lines %v, want one that names job %s", lines, job.ID)
	}
}
