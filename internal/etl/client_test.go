package etl

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	testTokenID = "1112140681100620800.1"
	testSecret  = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
)

// newTestClient builds a client for base with fast retries and a log that
// records every line.
func newTestClient(t *testing.T, base string, mod func(*Config)) (*Client, *logRecorder) {
	t.Helper()
	rec := &logRecorder{}
	cfg := Config{
		BaseURL: base, TokenID: testTokenID, TokenSecret: testSecret,
		UserAgent: "terraform-provider-etl/test", MaxRetries: 3,
		RetryWaitMin: time.Millisecond, RetryWaitMax: 20 * time.Millisecond, Log: rec.log,
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c, rec
}

type logRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *logRecorder) log(_ context.Context, level, msg string, fields map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, fmt.Sprintf("%s %s %v", level, msg, fields))
}

func (r *logRecorder) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

func TestNewValidatesConfig(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want string // substring of the error, "" for success
		base string
	}{
		{"hub default URL", Config{Hub: "us2", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "", "https://us2.vena.io"},
		{"no hub no url", Config{TokenID: "a", TokenSecret: "s3cr3tvalue"}, "hub is empty", ""},
		{"upper-case hub", Config{Hub: "US2", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "is not valid", ""},
		{"hub with dot", Config{Hub: "us2.evil.com", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "is not valid", ""},
		{"loopback http", Config{BaseURL: "http://127.0.0.1:8080/", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "", "http://127.0.0.1:8080"},
		{"localhost http", Config{BaseURL: "http://localhost:1", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "", "http://localhost:1"},
		{"ipv6 loopback", Config{BaseURL: "http://[::1]:9", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "", "http://[::1]:9"},
		{"remote http", Config{BaseURL: "http://example.com", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "not loopback", ""},
		{"not a url", Config{BaseURL: "us2.vena.io", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "not an absolute http(s) URL", ""},
		{"ftp", Config{BaseURL: "ftp://x.example", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "not an absolute http(s) URL", ""},
		{"credentials in url", Config{BaseURL: "https://u:p@x.example", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "must not carry credentials", ""},
		{"query", Config{BaseURL: "https://x.example/?a=b", TokenID: "a", TokenSecret: "s3cr3tvalue"}, "query", ""},
		{"no token id", Config{Hub: "us1", TokenSecret: "s3cr3tvalue"}, "token id is empty", ""},
		{"no secret", Config{Hub: "us1", TokenID: "a"}, "token secret is empty", ""},
		{"id without dot is fine", Config{Hub: "eu1", TokenID: "12345", TokenSecret: "s3cr3tvalue"}, "", "https://eu1.vena.io"},
		{"bad CA", Config{Hub: "eu1", TokenID: "a", TokenSecret: "s3cr3tvalue", CACertPEM: []byte("nope")}, "no PEM certificate", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(tc.cfg)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if c.BaseURL() != tc.base {
					t.Fatalf("BaseURL = %q, want %q", c.BaseURL(), tc.base)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3cr3tvalue") {
				t.Fatalf("error leaks the secret: %v", err)
			}
		})
	}
}

func TestValidJobID(t *testing.T) {
	for id, want := range map[string]bool{
		"123456789012345678":   true,
		"1234567890123456789":  true,
		"12345678901234567":    false,
		"12345678901234567890": false,
		"12345678901234567a":   false,
		"":                     false,
		" 123456789012345678":  false,
	} {
		if got := ValidJobID(id); got != want {
			t.Errorf("ValidJobID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestStatusClassification(t *testing.T) {
	final := map[JobStatus]bool{StatusCompleted: true, StatusError: true, StatusCancelled: true, StatusExpired: true}
	failed := map[JobStatus]bool{StatusError: true, StatusCancelled: true, StatusExpired: true}
	if len(AllStatuses) != 10 {
		t.Fatalf("AllStatuses has %d entries, want 10", len(AllStatuses))
	}
	for _, s := range AllStatuses {
		if s.Final() != final[s] || s.Failed() != failed[s] {
			t.Errorf("%s: Final=%v Failed=%v", s, s.Final(), s.Failed())
		}
	}
	if JobStatus("FAILED").Final() {
		t.Error("an unknown status must not count as final")
	}
}

func TestFormatFromExtension(t *testing.T) {
	for name, want := range map[string]FileFormat{
		"a.csv": FormatCSV, "A.CSV": FormatCSV, "x.psv": FormatPSV, "x.tsv": FormatTDF,
		"x.tdf": FormatTDF, "dir.v1/x.tab": FormatTDF, "x.txt": "", "noext": "",
	} {
		got, ok := FormatFromExtension(name)
		if got != want || ok != (want != "") {
			t.Errorf("FormatFromExtension(%q) = %q, %v", name, got, ok)
		}
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

func TestMultipartBodyLayout(t *testing.T) {
	content := "Account,Amount\n4000,100\n"
	f := FileUpload{
		Input: FileInput{PartName: "up\tload \"x\"", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: "gl \"q\"\t\\d\\.csv"},
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
		{PartName: "", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: "a"},
		{PartName: "f", FileFormat: "XLS", FileEncoding: EncodingUTF8, FileName: "a"},
		{PartName: "f", FileFormat: FormatCSV, FileEncoding: "latin1", FileName: "a"},
		{PartName: "f", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: ""},
		{PartName: "f", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: "a.csv\r\n"},
		{PartName: "f\n", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: "a.csv"},
		{PartName: "f", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: "a\x00.csv"},
	} {
		if _, err := newMultipartBody(FileUpload{Input: bad, Open: f.Open}); err == nil {
			t.Errorf("%+v: want a validation error", bad)
		}
	}
}

func TestBackoff(t *testing.T) {
	minW, maxW := 100*time.Millisecond, 2*time.Second
	for attempt := 0; attempt < 8; attempt++ {
		step := minW << attempt
		if step > maxW {
			step = maxW
		}
		for i := 0; i < 50; i++ {
			d := backoff(minW, maxW, attempt, nil)
			if d < step/2 || d > step {
				t.Fatalf("attempt %d: %v outside [%v, %v]", attempt, d, step/2, step)
			}
		}
	}
	resp := &http.Response{Header: http.Header{"Retry-After": {"1"}}}
	if d := backoff(minW, maxW, 0, resp); d != time.Second {
		t.Fatalf("Retry-After 1: got %v", d)
	}
	resp.Header.Set("Retry-After", "120")
	if d := backoff(minW, maxW, 0, resp); d != maxW {
		t.Fatalf("Retry-After over the cap: got %v, want %v", d, maxW)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if d, ok := retryAfter(now.Add(3*time.Second).Format(http.TimeFormat), now); !ok || d != 3*time.Second {
		t.Fatalf("HTTP-date Retry-After: %v %v", d, ok)
	}
	if _, ok := retryAfter("soon", now); ok {
		t.Fatal("garbage Retry-After must be ignored")
	}
}

func TestServiceMessage(t *testing.T) {
	for raw, want := range map[string]string{
		`{"code":404,"message":"Template 1 not found"}`: "Template 1 not found",
		`{"error":{"message":"nested"}}`:                "nested",
		`{"errors":[{"message":"a"},{"message":"b"}]}`:  "a; b",
		`"bare string"`:                    "bare string",
		"<html>\n  Bad   Gateway\n</html>": "<html> Bad Gateway </html>",
		"":                                 "",
		`{"error":"invalid_token","error_description":"x"}`: "x",
	} {
		if got := serviceMessage([]byte(raw)); got != want {
			t.Errorf("serviceMessage(%q) = %q, want %q", raw, got, want)
		}
	}
	long := strings.Repeat("é", 1000)
	if got := cut(long, maxErrorMessage); len(got) > maxErrorMessage+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("cut: len %d", len(got))
	}
}

// scripted is a test server that answers each request with the next
// scripted status (then 200 with body), counting requests.
type scripted struct {
	mu       sync.Mutex
	statuses []int
	header   http.Header
	body     string
	requests atomic.Int32
	lastAuth string
	lastUA   string
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	_, _ = io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	s.lastAuth = r.Header.Get("Authorization")
	s.lastUA = r.Header.Get("User-Agent")
	var status int
	if len(s.statuses) > 0 {
		status, s.statuses = s.statuses[0], s.statuses[1:]
	}
	s.mu.Unlock()
	if status != 0 {
		for k, v := range s.header {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = fmt.Fprintf(w, `{"code":%d,"message":"scripted %d"}`, status, status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, s.body)
}

const jobJSON = `{"id":"1234567890123456789","name":"GL","status":"RUNNING","modelId":"1","modelName":"M","createdDate":1700000000000,"updatedDate":null,"userName":"U"}`

func TestRetryPolicyByStatus(t *testing.T) {
	type call func(c *Client) error
	read := func(c *Client) error { _, err := c.GetJob(context.Background(), "1234567890123456789"); return err }
	create := func(c *Client) error {
		_, err := c.StartWithData(context.Background(), "1", DataUpload{Rows: [][]string{{"A"}, {"1"}}})
		return err
	}
	cases := []struct {
		name         string
		fn           call
		statuses     []int
		wantRequests int32
		wantOK       bool
		maybeCreated bool
	}{
		{"read 429 then ok", read, []int{429}, 2, true, false},
		{"read 502 503 504 then ok", read, []int{502, 503, 504}, 4, true, false},
		{"read 500 not retried", read, []int{500}, 1, false, false},
		{"read 404 not retried", read, []int{404}, 1, false, false},
		{"read exhausts retries", read, []int{503, 503, 503, 503, 503}, 4, false, false},
		{"create 429 then ok", create, []int{429}, 2, true, false},
		{"create 503 then ok", create, []int{503, 503}, 3, true, false},
		{"create 502 not retried", create, []int{502}, 1, false, true},
		{"create 504 not retried", create, []int{504}, 1, false, true},
		{"create 500 not retried", create, []int{500}, 1, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := &scripted{statuses: tc.statuses, body: jobJSON}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			c, _ := newTestClient(t, ts.URL, nil)
			err := tc.fn(c)
			if got := srv.requests.Load(); got != tc.wantRequests {
				t.Fatalf("requests = %d, want %d (err %v)", got, tc.wantRequests, err)
			}
			if tc.wantOK != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, tc.wantOK)
			}
			var maybe *JobMaybeCreatedError
			if errors.As(err, &maybe) != tc.maybeCreated {
				t.Fatalf("err = %v, maybeCreated want %v", err, tc.maybeCreated)
			}
			var apiErr *APIError
			if err != nil && !errors.As(err, &apiErr) {
				t.Fatalf("err %T does not carry an APIError", err)
			}
			if apiErr != nil && apiErr.Attempts != int(tc.wantRequests) {
				t.Fatalf("Attempts = %d, want %d", apiErr.Attempts, tc.wantRequests)
			}
			if apiErr != nil && !strings.Contains(err.Error(), "scripted") {
				t.Fatalf("the error does not carry the service's message: %v", err)
			}
		})
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	srv := &scripted{statuses: []int{429}, header: http.Header{"Retry-After": {"1"}}, body: `[]`}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) { cfg.RetryWaitMax = 5 * time.Second })
	start := time.Now()
	if _, err := c.ListTemplates(context.Background()); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < time.Second {
		t.Fatalf("retried after %v, before the 1 s Retry-After", waited)
	}
}

func TestAuthAndHeaders(t *testing.T) {
	srv := &scripted{body: `[]`}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, rec := newTestClient(t, ts.URL, nil)
	if _, err := c.ListTemplates(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(testTokenID+":"+testSecret))
	if srv.lastAuth != want {
		t.Fatalf("Authorization = %q", srv.lastAuth)
	}
	if srv.lastUA != "terraform-provider-etl/test" {
		t.Fatalf("User-Agent = %q", srv.lastUA)
	}
	assertNoSecret(t, rec.text())
	if !strings.Contains(rec.text(), "/api/public/v1/etl/templates") || !strings.Contains(rec.text(), "status:200") {
		t.Fatalf("log lacks method/path/status: %s", rec.text())
	}
}

func assertNoSecret(t *testing.T, s string) {
	t.Helper()
	basic := base64.StdEncoding.EncodeToString([]byte(testTokenID + ":" + testSecret))
	if strings.Contains(s, testSecret) || strings.Contains(s, basic) {
		t.Fatalf("secret leaked in: %s", s)
	}
}

func TestErrorsRedactAnEchoedSecret(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, p, _ := r.BasicAuth()
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = fmt.Fprintf(w, `{"message":"bad secret %s"}`, p)
	}))
	defer ts.Close()
	c, rec := newTestClient(t, ts.URL, nil)
	_, err := c.ListTemplates(context.Background())
	if !IsUnauthorized(err) {
		t.Fatalf("err = %v, want 401", err)
	}
	var apiErr *APIError
	errors.As(err, &apiErr)
	assertNoSecret(t, err.Error()+apiErr.Body+rec.text())
	if !strings.Contains(apiErr.Hint(), "hub") {
		t.Fatalf("401 hint must mention the hub: %q", apiErr.Hint())
	}
}

// flakyDialer fails the first n dials: the connection fails before anything
// is written.
type flakyDialer struct {
	fail  atomic.Int32
	dials atomic.Int32
}

func (d *flakyDialer) transport() *http.Transport {
	return &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		d.dials.Add(1)
		if d.fail.Add(-1) >= 0 {
			return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("connection refused")}
		}
		var nd net.Dialer
		return nd.DialContext(ctx, network, addr)
	}}
}

func TestCreateRetriedWhenConnectionFailsBeforeWrite(t *testing.T) {
	srv := &scripted{body: jobJSON}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	d := &flakyDialer{}
	d.fail.Store(2)
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) { cfg.Transport = d.transport() })
	job, err := c.StartWithData(context.Background(), "1", DataUpload{Rows: [][]string{{"A"}, {"1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if job.ID != "1234567890123456789" || srv.requests.Load() != 1 || d.dials.Load() != 3 {
		t.Fatalf("job %v, requests %d, dials %d", job, srv.requests.Load(), d.dials.Load())
	}
}

func TestCreateNotRetriedWhenAnswerIsLost(t *testing.T) {
	var requests atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}))
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, nil)
	_, err := c.StartWithData(context.Background(), "42", DataUpload{Rows: [][]string{{"A"}, {"1"}}})
	var maybe *JobMaybeCreatedError
	if !errors.As(err, &maybe) || maybe.TemplateID != "42" {
		t.Fatalf("err = %v, want JobMaybeCreatedError for template 42", err)
	}
	if requests.Load() != 1 {
		t.Fatalf("requests = %d: a start whose answer was lost must not be retried", requests.Load())
	}
	if !strings.Contains(err.Error(), "may have been created") || !strings.Contains(err.Error(), "not retried") {
		t.Fatalf("message does not explain: %v", err)
	}
	// The same fault on a read is retried until the retries run out.
	requests.Store(0)
	_, err = c.GetJob(context.Background(), "1234567890123456789")
	var reqErr *RequestError
	if !errors.As(err, &reqErr) || requests.Load() != 4 || reqErr.Attempts != 4 {
		t.Fatalf("read: err = %v, requests = %d", err, requests.Load())
	}
}

func TestCreateNotRetriedOnResponseTimeout(t *testing.T) {
	var requests atomic.Int32
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer ts.Close()
	defer close(release)
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) {
		tr := &http.Transport{ResponseHeaderTimeout: 100 * time.Millisecond}
		cfg.Transport = tr
	})
	_, err := c.StartWithData(context.Background(), "7", DataUpload{Rows: [][]string{{"A"}}})
	var maybe *JobMaybeCreatedError
	if !errors.As(err, &maybe) || requests.Load() != 1 {
		t.Fatalf("err = %v, requests %d", err, requests.Load())
	}
}

func TestContextCancelStopsRetries(t *testing.T) {
	srv := &scripted{statuses: []int{503, 503, 503, 503}, header: http.Header{"Retry-After": {"10"}}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) { cfg.RetryWaitMax = time.Minute })
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.ListTemplates(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || srv.requests.Load() != 1 {
		t.Fatalf("err = %v, requests = %d", err, srv.requests.Load())
	}
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer other.Close()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, nil)
	_, err := c.ListTemplates(context.Background())
	if StatusCode(err) != http.StatusFound || hits.Load() != 0 {
		t.Fatalf("err = %v, hits on the other host = %d", err, hits.Load())
	}
}

func TestFileHashHelperAgreesWithSHA256(t *testing.T) {
	// Guards the assumption the provider relies on: the bytes of a file part
	// are the file's bytes, untouched.
	content := []byte("a,b\n1,2\n")
	f := FileUpload{
		Input: FileInput{PartName: "file", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: "x.csv"},
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
