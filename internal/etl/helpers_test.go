package etl

// Test helpers shared by the package's tests: clients against scripted
// servers and the emulator, a transport that fails on cue, log capture,
// generated rows and CSV bytes. Each exists once.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

const (
	testTokenID = "1112140681100620800.1"
	testSecret  = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
)

// newTestClient builds a client for base with fast retries and a log that
// records every line.
func newTestClient(t testing.TB, base string, mod func(*Config)) (*Client, *logRecorder) {
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

// startEmulator serves an emulator on loopback and returns it with a
// client that retries quickly and waits at most 2 s for an answer.
func startEmulator(t *testing.T, opts emulator.Options) (*emulator.Server, *Client) {
	t.Helper()
	srv := emulator.New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) {
		cfg.TokenID, cfg.TokenSecret = emulator.DefaultTokenID, emulator.DefaultTokenSecret
		cfg.RetryWaitMax, cfg.RequestTimeout = 50*time.Millisecond, 2*time.Second
	})
	return srv, c
}

// logRecorder is a LogFunc that keeps every line.
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

// assertNoSecret fails when s holds testSecret raw or in Basic form.
func assertNoSecret(t *testing.T, s string) {
	t.Helper()
	basic := base64.StdEncoding.EncodeToString([]byte(testTokenID + ":" + testSecret))
	if strings.Contains(s, testSecret) || strings.Contains(s, basic) {
		t.Fatalf("secret leaked in: %s", s)
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

// faultyNet fails the next dials (connection refused) or the first write of
// the next connections (connection reset before the request is written),
// and counts dials.
type faultyNet struct {
	refuse atomic.Int32
	reset  atomic.Int32
	dials  atomic.Int32
}

type resetConn struct {
	net.Conn
	armed atomic.Bool
}

func (c *resetConn) Write(p []byte) (int, error) {
	if c.armed.Swap(false) {
		_ = c.Conn.Close()
		return 0, &net.OpError{Op: "write", Net: "tcp", Err: syscall.ECONNRESET}
	}
	return c.Conn.Write(p)
}

// transport dials through f; responseTimeout 0 waits for ever.
func (f *faultyNet) transport(responseTimeout time.Duration) *http.Transport {
	return &http.Transport{
		ResponseHeaderTimeout: responseTimeout,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			f.dials.Add(1)
			if f.refuse.Add(-1) >= 0 {
				return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
			}
			var d net.Dialer
			conn, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			rc := &resetConn{Conn: conn}
			if f.reset.Add(-1) >= 0 {
				rc.armed.Store(true)
			}
			return rc, nil
		},
	}
}

// fileOf is a file upload of content (part "file").
func fileOf(content []byte, format flatfile.Format, enc flatfile.Encoding, name string) FileUpload {
	return FileUpload{
		Input: FileInput{PartName: "file", FileFormat: format, FileEncoding: enc, FileName: name},
		Open:  func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(content)), nil },
		Size:  int64(len(content)),
	}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// testHeader and testRow are the generated rows: account, entity, amount
// and memo; the memo quoted with a comma, non-ASCII with a line break and
// HTML characters, or empty, in turn.
var testHeader = []string{"Account", "Entity", "Amount", "Memo"}

func testRow(i int) []string {
	memo := "memo " + strconv.Itoa(i)
	switch i % 5 {
	case 1:
		memo = `say "hi", twice`
	case 2:
		memo = "Montréal <&>\n" + strconv.Itoa(i)
	case 3:
		memo = ""
	}
	return []string{strconv.Itoa(4000 + i%1000), "Entity " + strconv.Itoa(i%97), strconv.Itoa(i*7%100003) + ".25", memo}
}

// testRows is the header and n generated rows.
func testRows(n int) [][]string {
	rows := make([][]string, 0, n+1)
	rows = append(rows, testHeader)
	for i := range n {
		rows = append(rows, testRow(i))
	}
	return rows
}

// csvGenerator streams a deterministic CSV of exactly size bytes (the last
// record may be cut), allocating nothing per row: a header line, then rows
// of account, department, period, amount and comment, every tenth comment
// quoted with a comma in it.
type csvGenerator struct {
	size, off int64
	row       int
	line      []byte
	pos       int
}

const genHeader = "Account,Department,Period,Amount,Comment\n"

func newCSVGenerator(size int64) *csvGenerator {
	return &csvGenerator{size: size, line: make([]byte, 0, 96)}
}

func (g *csvGenerator) next() {
	g.line, g.pos = g.line[:0], 0
	if g.row == 0 {
		g.line = append(g.line, genHeader...)
		g.row++
		return
	}
	i := g.row - 1
	g.row++
	b := strconv.AppendInt(g.line, int64(4000+i%500), 10)
	b = strconv.AppendInt(append(b, ",Dept "...), int64(i%37), 10)
	month := 1 + i%12
	b = append(b, ",2024-"...)
	b = append(b, byte('0'+month/10), byte('0'+month%10), ',')
	b = strconv.AppendInt(b, int64(i*7%100000), 10)
	b = append(b, '.', byte('0'+i%100/10), byte('0'+i%10), ',')
	if i%10 == 0 {
		b = append(b, "\"note, with comma\"\n"...)
	} else {
		b = append(b, "plain note\n"...)
	}
	g.line = b
}

func (g *csvGenerator) Read(p []byte) (int, error) {
	if g.off >= g.size {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && g.off < g.size {
		if g.pos == len(g.line) {
			g.next()
		}
		chunk := g.line[g.pos:]
		if rem := g.size - g.off; int64(len(chunk)) > rem {
			chunk = chunk[:rem]
		}
		c := copy(p[n:], chunk)
		n += c
		g.pos += c
		g.off += int64(c)
	}
	return n, nil
}

func (g *csvGenerator) Close() error { return nil }

// uploadOf is a streamed upload of size generated CSV bytes.
func uploadOf(size int64) FileUpload {
	return FileUpload{
		Input: FileInput{PartName: "file", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "big.csv"},
		Open:  func() (io.ReadCloser, error) { return newCSVGenerator(size), nil },
		Size:  size,
	}
}

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

// peakHeap runs f and returns the growth of the live heap it caused, with
// what it returned still alive, sampled after f returns and at every GC.
func peakHeap(f func() any) uint64 {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	keep := f()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	// TotalAlloc bounds the peak from above: everything allocated may have
	// been live at once.
	return after.TotalAlloc - before.TotalAlloc
}

// goldenRowSets are the row sets whose encodings are pinned in
// rows_json_test.go and rows_csv_test.go. "many rows" crosses the
// encoders' buffer size several times.
var goldenRowSets = map[string][][]string{
	"plain": {{"Account", "Amount"}, {"4000", "100.5"}, {"4010", "-20"}},
	"tricky": {
		{"Account", "Amount", "Memo", "Entity"},
		{"4000", "", `say "hi", twice`, "Montréal"},
		{"4010", "1,5", "line one\nline two", "Zürich €"},
		{"4020", "-3", "crlf\r\nend", "日本語"},
		{"4030", " lead", "trail\t", `""`},
		{"4040", "<&>", "back\\slash", "\u2028sep"},
		{"4050", "ctl\x00\x01\x1f", "bad\xffutf8", "😀"},
		{"", "", "", ""},
	},
	"one empty cell": {{"Only"}, {""}, {"x"}},
	"header only":    {{"Account", "Amount"}},
	"many rows":      testRows(6000),
}

// golden is the size and SHA-256 of an encoding.
type golden struct {
	size int64
	sha  string
}

func goldenOf(b []byte) golden { return golden{int64(len(b)), sha(b)} }

// newCase is a Config that New accepts (want "") or refuses with an error
// containing want; base is the BaseURL it then reports.
type newCase struct {
	name string
	cfg  Config
	want string // substring of the error, "" for success
	base string
}

// runNewCases calls New with each case's Config; no error may carry the
// secret.
func runNewCases(t *testing.T, cases []newCase) {
	t.Helper()
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

// startGLJob starts a job of GL Actuals with rows on c.
func startGLJob(t *testing.T, c *Client, rows [][]string) string {
	t.Helper()
	job, err := c.StartWithData(context.Background(), emulator.GLActualsTemplateID, DataUpload{Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	return job.ID
}

// glRows are rows GL Actuals imports; badGLRows lack its required column
// Amount, and the job ends in ERROR.
var (
	glRows    = [][]string{{"Account", "Amount"}, {"4000", "1"}}
	badGLRows = [][]string{{"Account", "Value"}, {"4000", "1"}}
)
