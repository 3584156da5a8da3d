package emulator

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
)

const (
	glCSV       = "Account,Amount\n4000,100.50\n5000,-20\n"
	metaGL      = `{"input":{"partName":"file","fileFormat":"CSV","fileEncoding":"UTF-8","fileName":"gl.csv"}}`
	jsonMIME    = "application/json"
	tokenID     = DefaultTokenID
	tokenSecret = DefaultTokenSecret
	base        = BasePath
)

// clock is a settable fake clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.UnixMilli(1750000000000)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type env struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
}

func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	srv := New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &env{t: t, srv: srv, ts: ts}
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("body %q is not JSON: %v", r.body, err)
	}
}

// obj decodes the body as a JSON object.
func (r resp) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	r.json(t, &m)
	return m
}

// request sends a request; headers are name, value pairs. Basic auth with
// the default token unless the pair "Authorization", "" removes it.
func (e *env) request(method, path string, body io.Reader, headers ...string) resp {
	e.t.Helper()
	req, err := http.NewRequest(method, e.ts.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	req.SetBasicAuth(tokenID, tokenSecret)
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Authorization" && headers[i+1] == "" {
			req.Header.Del("Authorization")
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp{status: res.StatusCode, header: res.Header, body: b}
}

func (e *env) get(path string, headers ...string) resp {
	e.t.Helper()
	return e.request(http.MethodGet, base+path, nil, headers...)
}

func (e *env) post(path string, headers ...string) resp {
	e.t.Helper()
	return e.request(http.MethodPost, base+path, nil, headers...)
}

// part is one multipart part.
type part struct {
	name, filename, content string
}

func filePart(content string) part { return part{name: "file", filename: "gl.csv", content: content} }
func metaPart(meta string) part    { return part{name: "metadata", content: meta} }
func metaFor(format, enc string) string {
	return `{"input":{"partName":"file","fileFormat":"` + format + `","fileEncoding":"` + enc + `","fileName":"f"}}`
}

// multipartBody builds a body like curl -F does.
func multipartBody(t *testing.T, parts ...part) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.filename != "" {
			h := textproto.MIMEHeader{}
			h.Set("Content-Disposition", `form-data; name="`+p.name+`"; filename="`+p.filename+`"`)
			h.Set("Content-Type", "application/octet-stream")
			w, err = mw.CreatePart(h)
		} else {
			w, err = mw.CreateFormField(p.name)
		}
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.content)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func (e *env) startFile(tmpl string, parts ...part) resp {
	e.t.Helper()
	body, ct := multipartBody(e.t, parts...)
	return e.request(http.MethodPost, base+"/templates/"+tmpl+"/startWithFile", body, "Content-Type", ct)
}

func (e *env) startData(tmpl, body string) resp {
	e.t.Helper()
	return e.request(http.MethodPost, base+"/templates/"+tmpl+"/startWithData", strings.NewReader(body), "Content-Type", jsonMIME)
}

// jobID starts a GL job with a good file and returns its id.
func (e *env) mustStart(tmpl string, csv string) string {
	e.t.Helper()
	r := e.startFile(tmpl, filePart(csv), metaPart(metaGL))
	if r.status != 200 {
		e.t.Fatalf("start: %d %s", r.status, r.body)
	}
	return r.obj(e.t)["id"].(string)
}

func (e *env) status(id string) string {
	e.t.Helper()
	r := e.get("/jobs/" + id + "/status")
	if r.status != 200 {
		e.t.Fatalf("status: %d %s", r.status, r.body)
	}
	var s string
	r.json(e.t, &s)
	return s
}

func (e *env) create(tmpl string) string {
	e.t.Helper()
	return checkJob(e.t, e.post("/templates/"+tmpl+"/jobs"), StatusEditing)["id"].(string)
}

// put loads content into input inputID of job id (metadata first).
func (e *env) put(id, inputID, meta, content string) resp {
	e.t.Helper()
	body, ct := multipartBody(e.t, metaPart(meta), filePart(content))
	return e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+inputID+"/file", body, "Content-Type", ct)
}

func (e *env) mustPut(id, inputID, content string) {
	e.t.Helper()
	if r := e.put(id, inputID, metaGL, content); r.status != http.StatusNoContent {
		e.t.Fatalf("PUT %s: %d %s", inputID, r.status, r.body)
	}
}

// wantError checks an error answer: status, JSON {code, message}, and that
// the message contains each of substrs.
func wantError(t *testing.T, r resp, status int, substrs ...string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != jsonMIME {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var b struct {
		Code    *int    `json:"code"`
		Message *string `json:"message"`
	}
	r.json(t, &b)
	if b.Code == nil || *b.Code != status {
		t.Errorf("body code = %v, want %d (%s)", b.Code, status, r.body)
	}
	if b.Message == nil || *b.Message == "" {
		t.Fatalf("body has no message: %s", r.body)
	}
	for _, s := range substrs {
		if !strings.Contains(*b.Message, s) {
			t.Errorf("message %q does not mention %q", *b.Message, s)
		}
	}
}

// keys returns m's keys, sorted.
func keys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

var jobKeys = []string{"createdDate", "id", "modelId", "modelName", "name", "status", "updatedDate", "userName"}

var idRE = regexp.MustCompile(`^[0-9]{18,19}$`)

// checkJob checks the ETLJob shape and returns it.
func checkJob(t *testing.T, r resp, wantStatus string) map[string]any {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != jsonMIME {
		t.Errorf("Content-Type %q", ct)
	}
	m := r.obj(t)
	if got := keys(m); !reflect.DeepEqual(got, jobKeys) {
		t.Errorf("job keys = %v, want %v", got, jobKeys)
	}
	id, ok := m["id"].(string)
	if !ok || !idRE.MatchString(id) || len(id) != 19 {
		t.Errorf("id = %#v, want a 19-digit string", m["id"])
	}
	if _, ok := m["createdDate"].(float64); !ok {
		t.Errorf("createdDate = %#v, want a number", m["createdDate"])
	}
	if u := m["updatedDate"]; u != nil {
		if _, ok := u.(float64); !ok {
			t.Errorf("updatedDate = %#v, want a number or null", u)
		}
	}
	for _, k := range []string{"name", "status", "modelId", "modelName", "userName"} {
		if _, ok := m[k].(string); !ok {
			t.Errorf("%s = %#v, want a string", k, m[k])
		}
	}
	if wantStatus != "" && m["status"] != wantStatus {
		t.Errorf("status = %v, want %s", m["status"], wantStatus)
	}
	return m
}

func b64(s string) string {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil)
	u, p, _ := strings.Cut(s, ":")
	req.SetBasicAuth(u, p)
	return strings.TrimPrefix(req.Header.Get("Authorization"), "Basic ")
}

func utf16Bytes(s string, little, bom bool) []byte {
	var buf bytes.Buffer
	order := binary.ByteOrder(binary.BigEndian)
	if little {
		order = binary.LittleEndian
	}
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		var b [2]byte
		order.PutUint16(b[:], u)
		buf.Write(b[:])
	}
	return buf.Bytes()
}
