package etl

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

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
