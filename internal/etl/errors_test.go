package etl

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

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

func TestEmulatorErrorsReachTheCaller(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{MaxDataBytes: 1024})
	ctx := context.Background()

	bad, err := New(Config{BaseURL: c.BaseURL(), TokenID: emulator.DefaultTokenID, TokenSecret: "00000000000000000000000000000000", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.ListTemplates(ctx); StatusCode(err) != http.StatusUnauthorized {
		t.Fatalf("bad secret: %v", err)
	}

	// 413 from the service when its limit is lower than the client's.
	rows := [][]string{{"Product", "Units"}}
	for i := 0; i < 100; i++ {
		rows = append(rows, []string{"product-with-a-long-name", "1"})
	}
	_, err = c.StartWithData(ctx, emulator.SalesVolumesTemplateID, DataUpload{Rows: rows})
	if StatusCode(err) != http.StatusRequestEntityTooLarge {
		t.Fatalf("over the limit: %v", err)
	}

	// 400: bytes that are not UTF-8 declared as UTF-8.
	_, err = c.StartWithFile(ctx, emulator.GLActualsTemplateID, fileOf([]byte("Account,Amount\nMontr\xe9al,1\n"), flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv"))
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest || apiErr.Message == "" {
		t.Fatalf("undecodable file: %v", err)
	}
	if n, _ := srv.Stats(); n != 0 {
		t.Fatalf("refused requests created %d jobs", n)
	}
}

// TestAttempts: how many requests a failed call made, and whether its
// failure is one a read is retried for.
func TestAttempts(t *testing.T) {
	for _, c := range []struct {
		err       error
		n         int
		retryable bool
	}{
		{&APIError{StatusCode: http.StatusServiceUnavailable, Attempts: 3}, 3, true},
		{&APIError{StatusCode: http.StatusTooManyRequests, Attempts: 1}, 1, true},
		{&APIError{StatusCode: http.StatusBadGateway, Attempts: 2}, 2, true},
		{&APIError{StatusCode: http.StatusGatewayTimeout, Attempts: 1}, 1, true},
		{&APIError{StatusCode: http.StatusInternalServerError, Attempts: 1}, 1, false},
		{&APIError{StatusCode: http.StatusConflict, Attempts: 1}, 1, false},
		{&JobMaybeCreatedError{Err: &RequestError{Attempts: 1, Err: errors.New("reset")}}, 1, true},
		{errors.New("plain"), 0, false},
	} {
		if n, retryable := Attempts(c.err); n != c.n || retryable != c.retryable {
			t.Errorf("Attempts(%v) = %d, %v; want %d, %v", c.err, n, retryable, c.n, c.retryable)
		}
	}
}

// leakForms are the forms of the emulator's secret a body could echo.
func leakForms(id, secret string) map[string]string {
	pair := id + ":" + secret
	return map[string]string{
		"raw":           secret,
		"id:secret":     pair,
		"base64":        base64.StdEncoding.EncodeToString([]byte(pair)),
		"base64 raw":    base64.RawStdEncoding.EncodeToString([]byte(pair)),
		"base64 url":    base64.URLEncoding.EncodeToString([]byte(pair)),
		"basic":         "Basic " + base64.StdEncoding.EncodeToString([]byte(pair)),
		"query-escaped": url.QueryEscape(secret),
		"path-escaped":  url.PathEscape(secret),
	}
}

func TestSecretForms(t *testing.T) {
	const id, secret = "1112140681100620800.1", "a+b/c d=e&f\"g"
	forms := SecretForms(id, secret)
	for name, f := range leakForms(id, secret) {
		if !slices.Contains(forms, f) {
			t.Errorf("SecretForms lacks the %s form %q", name, f)
		}
	}
	if slices.Contains(forms, "") {
		t.Error("SecretForms holds an empty string")
	}
	for i := 1; i < len(forms); i++ {
		if len(forms[i]) > len(forms[i-1]) || forms[i] == forms[i-1] {
			t.Fatalf("forms not longest first without duplicates: %q", forms)
		}
	}
	if got := SecretForms(id, ""); len(got) != 0 {
		t.Fatalf("no secret, forms %q", got)
	}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(id+":"+secret))
	in := "auth " + basic + " and " + secret + " and " + url.QueryEscape(secret)
	if got := Redact(in, forms); got != "auth [redacted] and [redacted] and [redacted]" {
		t.Fatalf("Redact = %q", got)
	}
	// Unsorted forms: the longest still wins.
	if got := Redact("x "+id+":"+secret, []string{secret, id + ":" + secret}); got != "x [redacted]" {
		t.Fatalf("Redact with unsorted forms = %q", got)
	}
}

// TestAnEchoingErrorBodyLeaksNoSecret: a service error body that echoes
// the credentials in every form leaves none of them in the error, its hint,
// its body or any log line.
func TestAnEchoingErrorBodyLeaksNoSecret(t *testing.T) {
	// A secret whose URL-encoded, base64 and JSON forms all differ from it.
	id, secret := emulator.DefaultTokenID, `5f4d+cc3b/5aa7 65d6&1d=83"27deb`
	forms := leakForms(id, secret)
	var echo, jsonEcho []string
	for name, f := range forms {
		echo = append(echo, name+"="+f)
		jsonEcho = append(jsonEcho, name+"="+strings.ReplaceAll(f, `"`, `\"`))
	}
	for _, tc := range []struct{ name, body string }{
		{"text", "bad credentials " + strings.Join(echo, " ")},
		{"json", `{"message":"bad credentials ` + strings.Join(jsonEcho, " ") + `"}`},
		{"json escaped", `{"message":"bad ` + strings.ReplaceAll(base64.StdEncoding.EncodeToString([]byte(id+":"+secret)), "/", `\/`) + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := emulator.New(emulator.Options{TokenSecret: secret})
			ts := httptest.NewServer(srv)
			defer ts.Close()
			logs := &logRecorder{}
			c, err := New(Config{BaseURL: ts.URL, TokenID: id, TokenSecret: secret,
				MaxRetries: 1, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond, Log: logs.log})
			if err != nil {
				t.Fatal(err)
			}
			srv.InjectFault(emulator.Fault{Endpoint: emulator.EndpointListTemplates, Status: 401, Body: tc.body})
			_, err = c.ListTemplates(context.Background())
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusUnauthorized {
				t.Fatalf("err = %v, want a 401", err)
			}
			if !strings.Contains(err.Error(), "[redacted]") || !strings.Contains(err.Error(), "bad") {
				t.Fatalf("the message lost the service's words or was not redacted: %v", err)
			}
			all := err.Error() + "\n" + apiErr.Body + "\n" + apiErr.Message + "\n" + logs.text()
			for name, f := range forms {
				for _, v := range []string{f, strings.ReplaceAll(f, "/", `\/`), strings.ReplaceAll(f, `"`, `\"`)} {
					if strings.Contains(all, v) {
						t.Errorf("the %s form %q leaked in:\n%s", name, v, all)
					}
				}
			}
			if logs.text() == "" {
				t.Fatal("no log lines were written")
			}
		})
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
	if StatusCode(err) != http.StatusUnauthorized {
		t.Fatalf("err = %v, want 401", err)
	}
	var apiErr *APIError
	errors.As(err, &apiErr)
	assertNoSecret(t, err.Error()+apiErr.Body+rec.text())
}

// No test here resolves a name: the transport's dial answers every host
// itself, with an injected *net.DNSError or a connection to loopback.

// dnsErr is the error net.Dialer returns when the lookup of host fails
// with d (d.Name is set to host).
func dnsErr(host string, d net.DNSError) error {
	d.Name = host
	if d.Err == "" {
		d.Err = "no such host"
		if d.IsTemporary {
			d.Err = "server misbehaving"
		}
		if d.IsTimeout {
			d.Err = "i/o timeout"
		}
	}
	return &net.OpError{Op: "dial", Net: "tcp", Err: &d}
}

var (
	notFound  = net.DNSError{IsNotFound: true}
	temporary = net.DNSError{IsTemporary: true}
	timedOut  = net.DNSError{IsTimeout: true}
)

// fakeDNS is a transport that resolves no name: the n-th dial (from 1)
// fails with answer(n) when it returns a non-nil error, else connects to
// 127.0.0.1 on the dialled port. It counts dials.
type fakeDNS struct {
	answer func(n int) *net.DNSError
	dials  atomic.Int32
}

func (f *fakeDNS) transport() *http.Transport {
	return &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			n := int(f.dials.Add(1))
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			if d := f.answer(n); d != nil {
				return nil, dnsErr(host, *d)
			}
			var dialer net.Dialer
			return dialer.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
		},
	}
}

// always answers every dial with d.
func always(d net.DNSError) func(int) *net.DNSError {
	return func(int) *net.DNSError { return &d }
}

func TestCheckRetryDNSErrors(t *testing.T) {
	wrap := func(d net.DNSError) error {
		return &url.Error{Op: "Get", URL: "https://us9.vena.io" + APIPath + "/templates", Err: dnsErr("us9.vena.io", d)}
	}
	cases := []struct {
		name  string
		err   error
		retry bool
	}{
		{"not found", wrap(notFound), false},
		{"not found, bare", &net.DNSError{Name: "us9.vena.io", Err: "no such host", IsNotFound: true}, false},
		{"temporary", wrap(temporary), true},
		{"timeout", wrap(timedOut), true},
		{"not found but temporary", wrap(net.DNSError{IsNotFound: true, IsTemporary: true}), true},
		{"other DNS failure", wrap(net.DNSError{Err: "cannot unmarshal DNS message"}), true},
	}
	for _, tc := range cases {
		for _, kind := range []requestKind{kindRead, kindIdempotent, kindCreate} {
			ctx := context.WithValue(context.Background(), attemptKey{}, &attempt{kind: kind})
			retry, err := checkRetry(ctx, nil, tc.err)
			if retry != tc.retry || err != nil {
				t.Errorf("%s, kind %d: checkRetry = %v, %v; want %v, nil", tc.name, kind, retry, err, tc.retry)
			}
		}
	}
}

// runHostNotFound makes one read and one job creation through a client
// whose every dial fails with a host that does not exist, and returns
// their errors, checking that each was tried once and not waited on.
func runHostNotFound(t *testing.T, mod func(*Config, *fakeDNS)) []*HostNotFoundError {
	t.Helper()
	f := &fakeDNS{answer: always(notFound)}
	c, _ := newTestClient(t, "", func(cfg *Config) {
		cfg.BaseURL = ""
		cfg.Hub = "us9"
		cfg.Transport = f.transport()
		cfg.MaxRetries = 4
		cfg.RetryWaitMin, cfg.RetryWaitMax = 10*time.Second, 10*time.Second
		mod(cfg, f)
	})
	calls := map[string]func() error{
		"read": func() error { _, err := c.ListTemplates(context.Background()); return err },
		"create": func() error {
			_, err := c.StartWithData(context.Background(), "1", DataUpload{Rows: [][]string{{"A"}, {"1"}}})
			return err
		},
	}
	var out []*HostNotFoundError
	for name, call := range calls {
		before := f.dials.Load()
		start := time.Now()
		err := call()
		if d := f.dials.Load() - before; d != 1 {
			t.Fatalf("%s: %d attempts, want 1 (err %v)", name, d, err)
		}
		if waited := time.Since(start); waited > 5*time.Second {
			t.Fatalf("%s: took %v: it waited for a retry", name, waited)
		}
		var hn *HostNotFoundError
		if !errors.As(err, &hn) {
			t.Fatalf("%s: err %T %v, want a *HostNotFoundError", name, err, err)
		}
		var re *RequestError
		var maybe *JobMaybeCreatedError
		if errors.As(err, &re) || errors.As(err, &maybe) {
			t.Fatalf("%s: err %v must be neither a RequestError nor a JobMaybeCreatedError", name, err)
		}
		var d *net.DNSError
		if !errors.As(err, &d) || !d.IsNotFound {
			t.Fatalf("%s: errors.As finds no *net.DNSError in %v", name, err)
		}
		if hn.Attempts != 1 || hn.Method == "" || !strings.HasPrefix(hn.Path, APIPath) {
			t.Fatalf("%s: %+v", name, hn)
		}
		assertNoSecret(t, hn.Error()+hn.Host+hn.ServiceHost+hn.Hub)
		out = append(out, hn)
	}
	return out
}

func TestHostNotFoundFromHub(t *testing.T) {
	for _, hn := range runHostNotFound(t, func(*Config, *fakeDNS) {}) {
		if hn.Host != "us9.vena.io" || hn.Hub != "us9" {
			t.Fatalf("Host %q Hub %q", hn.Host, hn.Hub)
		}
		msg := hn.Error()
		for _, want := range []string{hn.Method + " " + hn.Path + ": ", "the host us9.vena.io", `hub "us9"`, "does not exist", "no such host", "check the hub"} {
			if !strings.Contains(msg, want) {
				t.Errorf("message lacks %q: %s", want, msg)
			}
		}
		if strings.Contains(msg, "attempt") {
			t.Errorf("one attempt needs no count: %s", msg)
		}
	}
}

func TestHostNotFoundFromBaseURL(t *testing.T) {
	for _, hub := range []string{"", "us2"} { // a hub beside a base URL names no host
		hns := runHostNotFound(t, func(cfg *Config, _ *fakeDNS) {
			cfg.Hub, cfg.BaseURL = hub, "https://etl.example.invalid:8443/"
		})
		for _, hn := range hns {
			if hn.Host != "etl.example.invalid" || hn.Hub != "" {
				t.Fatalf("hub %q: Host %q Hub %q", hub, hn.Host, hn.Hub)
			}
			msg := hn.Error()
			if !strings.Contains(msg, "the host etl.example.invalid does not exist") || !strings.Contains(msg, "check the base URL") || strings.Contains(msg, "hub") {
				t.Errorf("hub %q: message %s", hub, msg)
			}
			if hn.ViaProxy() {
				t.Errorf("hub %q: the base URL's host is taken for a proxy's", hub)
			}
		}
	}
}

// The name that does not exist is a proxy's: the error says so, names no
// hub, and keeps the proxy's credentials out.
func TestHostNotFoundOfAProxy(t *testing.T) {
	const proxyPass = "pr0xy-pa55word"
	hns := runHostNotFound(t, func(cfg *Config, f *fakeDNS) {
		tr := f.transport()
		tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", User: url.UserPassword("proxyuser", proxyPass), Host: "proxy.corp.invalid:3128"})
		cfg.Transport = tr
	})
	for _, hn := range hns {
		if hn.Host != "proxy.corp.invalid" || hn.Hub != "" {
			t.Fatalf("Host %q Hub %q", hn.Host, hn.Hub)
		}
		if !hn.ViaProxy() || hn.ServiceHost != "us9.vena.io" {
			t.Errorf("ViaProxy %v, ServiceHost %q", hn.ViaProxy(), hn.ServiceHost)
		}
		text := hn.Error()
		for _, want := range []string{"the host proxy.corp.invalid does not exist", "us9.vena.io", "proxy"} {
			if !strings.Contains(text, want) {
				t.Errorf("lacks %q: %s", want, text)
			}
		}
		if strings.Contains(text, proxyPass) || strings.Contains(text, "proxyuser") {
			t.Fatalf("proxy credentials leaked: %s", text)
		}
	}
}

// A resolver's message is quoted through the one redaction path.
func TestHostNotFoundRedactsTheSecret(t *testing.T) {
	hns := runHostNotFound(t, func(cfg *Config, f *fakeDNS) {
		f.answer = always(net.DNSError{IsNotFound: true, Err: "no such host (query " + testSecret + ")"})
	})
	for _, hn := range hns {
		if !strings.Contains(hn.Error(), "[redacted]") {
			t.Fatalf("message %s", hn.Error())
		}
	}
}

// A temporary DNS failure, or a lookup that timed out, is retried as any
// network error: the request goes through once DNS answers, and gives up
// with a *RequestError after the retries.
func TestTemporaryDNSFailureIsRetried(t *testing.T) {
	srv := &scripted{body: jobJSON}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	base := "http://localhost:" + port // the fake dial takes it to 127.0.0.1
	for _, d := range []net.DNSError{temporary, timedOut} {
		// Fails twice, then answers.
		f := &fakeDNS{answer: func(n int) *net.DNSError {
			if n <= 2 {
				return &d
			}
			return nil
		}}
		c, _ := newTestClient(t, base, func(cfg *Config) { cfg.Transport = f.transport() })
		if _, err := c.GetJob(context.Background(), "1234567890123456789"); err != nil {
			t.Fatalf("%+v: %v", d, err)
		}
		if f.dials.Load() != 3 {
			t.Fatalf("%+v: %d dials, want 3", d, f.dials.Load())
		}

		// Fails every time: the first attempt and MaxRetries (3) retries.
		f = &fakeDNS{answer: always(d)}
		c, _ = newTestClient(t, base, func(cfg *Config) { cfg.Transport = f.transport() })
		_, err := c.ListTemplates(context.Background())
		var re *RequestError
		var hn *HostNotFoundError
		if !errors.As(err, &re) || errors.As(err, &hn) || re.Attempts != 4 || f.dials.Load() != 4 {
			t.Fatalf("%+v: err %T %v, dials %d; want a RequestError after 4 attempts", d, err, err, f.dials.Load())
		}
	}
}

// A temporary failure followed by "no such host" stops at once and says
// on which attempt.
func TestHostNotFoundAfterATemporaryFailure(t *testing.T) {
	f := &fakeDNS{answer: func(n int) *net.DNSError {
		if n == 1 {
			return &temporary
		}
		return &notFound
	}}
	c, _ := newTestClient(t, "", func(cfg *Config) {
		cfg.BaseURL, cfg.Hub, cfg.Transport = "", "us9", f.transport()
	})
	_, err := c.ListTemplates(context.Background())
	var hn *HostNotFoundError
	if !errors.As(err, &hn) || hn.Attempts != 2 || f.dials.Load() != 2 || !strings.Contains(err.Error(), "on attempt 2") {
		t.Fatalf("err %v, dials %d", err, f.dials.Load())
	}
}

// nxdomainServer is a DNS server on loopback UDP that answers every query
// NXDOMAIN; it returns its address.
func nxdomainServer(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			q := buf[:n]
			end := 12 // the end of the question: its name, type and class
			for end < len(q) && q[end] != 0 {
				end += int(q[end]) + 1
			}
			end += 5
			if len(q) < 12 || end > len(q) {
				continue
			}
			resp := append([]byte(nil), q[:end]...)
			resp[2] = 0x80 | q[2]&0x01 // a response, recursion desired as asked
			resp[3] = 0x80 | 3         // recursion available, NXDOMAIN
			for i := 6; i < 12; i++ {  // no answer, authority or additional records
				resp[i] = 0
			}
			_, _ = pc.WriteTo(resp, from)
		}
	}()
	return pc.LocalAddr().String()
}

// The real resolver and transport, asking a DNS server on loopback that
// answers NXDOMAIN, produce the error the policy stops on.
func TestHostNotFoundThroughTheResolver(t *testing.T) {
	server := nxdomainServer(t)
	var queries atomic.Int32
	resolver := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		queries.Add(1)
		var d net.Dialer
		return d.DialContext(ctx, "udp", server)
	}}
	var dials atomic.Int32
	dialer := &net.Dialer{Resolver: resolver}
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return dialer.DialContext(ctx, network, addr)
	}}
	c, _ := newTestClient(t, "", func(cfg *Config) {
		cfg.BaseURL, cfg.Hub, cfg.Transport, cfg.MaxRetries = "", "us9", tr, 4
	})
	_, err := c.ListTemplates(context.Background())
	var hn *HostNotFoundError
	if !errors.As(err, &hn) || hn.Host != "us9.vena.io" || hn.Hub != "us9" || dials.Load() != 1 {
		t.Fatalf("err %T %v, dials %d", err, err, dials.Load())
	}
	if queries.Load() == 0 {
		t.Fatal("the loopback DNS server was not asked")
	}
}
