package etl

import (
	"context"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// proxyEnv sets the proxy variables to env's values, and every other one
// (and REQUEST_METHOD) to empty, for the test.
func proxyEnv(t *testing.T, env map[string]string) {
	t.Helper()
	for _, name := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "REQUEST_METHOD"} {
		t.Setenv(name, env[name])
	}
}

// TestProxyMalformed: a proxy variable that is not a proxy URL fails the
// request with a *ProxyError that names the variable and its value, user
// and password masked, and a hint; nothing is retried, and no host is
// blamed. The values are the ones that failed with "the host http does
// not exist" ("http://[::1") or were ignored (":bad").
func TestProxyMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        []string
	}{
		{"HTTPS_PROXY", "http://[::1", []string{`the environment variable HTTPS_PROXY="http://[::1" is not a proxy URL (missing ']' in host)`}},
		{"HTTPS_PROXY", ":bad", []string{`HTTPS_PROXY=":bad" is not a proxy URL (invalid port ":bad" after host)`}},
		{"https_proxy", "proxy.example.com:bad", []string{`https_proxy="proxy.example.com:bad"`, `invalid port ":bad"`}},
		{"HTTPS_PROXY", "http://proxyuser:Pr0xyPass@[::1", []string{`HTTPS_PROXY="http://REDACTED@[::1"`, "missing ']' in host"}},
		{"HTTPS_PROXY", "ftp://proxy.example.com", []string{`HTTPS_PROXY="ftp://proxy.example.com"`, `the scheme "ftp" is none of http, https, socks5 or socks5h`}},
		{"HTTPS_PROXY", "http://", []string{`HTTPS_PROXY="http://" is not a proxy URL (no host after the scheme)`}},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			proxyEnv(t, map[string]string{tc.name: tc.value})
			c, _ := newTestClient(t, "", func(cfg *Config) { cfg.BaseURL, cfg.Hub = "", "us2" })
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := c.ListTemplates(ctx)
			var pe *ProxyError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want a *ProxyError", err, err)
			}
			msg := err.Error()
			want := append([]string{"GET /api/public/v1/etl/templates: ", "so the request was not sent"}, tc.want...)
			for _, w := range want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			for _, leak := range []string{"does not exist", "us2.vena.io", "Pr0xyPass", "proxyuser"} {
				if strings.Contains(msg, leak) || strings.Contains(pe.Hint(), leak) {
					t.Errorf("error %q or hint %q holds %q", msg, pe.Hint(), leak)
				}
			}
			if h := pe.Hint(); !strings.HasPrefix(h, "set "+tc.name+" to a proxy URL such as http://proxy.example.com:3128") || !strings.Contains(h, "unset it") {
				t.Errorf("hint = %q", h)
			}
		})
	}
}

// TestProxyFromEnvironmentChoosesLikeNetHTTP: a malformed variable fails
// only the requests it would serve: not those NO_PROXY or loopback exempt,
// nor those of the other scheme; a well-formed one is used as net/http
// uses it, HTTPS_PROXY before https_proxy.
func TestProxyFromEnvironmentChoosesLikeNetHTTP(t *testing.T) {
	for _, tc := range []struct {
		env      map[string]string
		url      string
		proxy    string // the proxy's host, "" for none
		variable string // the *ProxyError's, "" for none
	}{
		{map[string]string{"HTTPS_PROXY": ":bad"}, "https://us2.vena.io/x", "", "HTTPS_PROXY"},
		{map[string]string{"HTTPS_PROXY": ":bad", "NO_PROXY": "vena.io"}, "https://us2.vena.io/x", "", ""},
		{map[string]string{"HTTPS_PROXY": ":bad", "no_proxy": "*"}, "https://us2.vena.io/x", "", ""},
		{map[string]string{"HTTPS_PROXY": ":bad"}, "https://127.0.0.1:8443/x", "", ""},
		{map[string]string{"HTTP_PROXY": "http://[::1"}, "https://us2.vena.io/x", "", ""},
		{map[string]string{"HTTP_PROXY": "http://[::1"}, "http://etl.example.com/x", "", "HTTP_PROXY"},
		{map[string]string{"http_proxy": ":bad"}, "http://etl.example.com/x", "", "http_proxy"},
		{map[string]string{"HTTPS_PROXY": "proxy.corp:3128", "https_proxy": ":bad"}, "https://us2.vena.io/x", "proxy.corp:3128", ""},
		{map[string]string{"https_proxy": "https://proxy.corp"}, "https://us2.vena.io/x", "proxy.corp", ""},
		{map[string]string{"HTTPS_PROXY": "socks5://[::1]:1080", "HTTP_PROXY": ":bad"}, "https://us2.vena.io/x", "[::1]:1080", ""},
	} {
		req := httptest.NewRequest(http.MethodGet, tc.url, nil)
		u, err := proxyFromEnvironment(func(k string) string { return tc.env[k] }, nil)(req)
		var pe *ProxyError
		switch {
		case tc.variable != "":
			if !errors.As(err, &pe) || pe.Variable != tc.variable || u != nil {
				t.Errorf("%v, %s: %v, %v; want a *ProxyError naming %s", tc.env, tc.url, u, err, tc.variable)
			}
		case err != nil:
			t.Errorf("%v, %s: %v", tc.env, tc.url, err)
		case tc.proxy == "" && u != nil, tc.proxy != "" && (u == nil || u.Host != tc.proxy):
			t.Errorf("%v, %s: proxy %v, want %q", tc.env, tc.url, u, tc.proxy)
		}
	}
}

// tunnel is a loopback proxy that answers every CONNECT with a tunnel to
// target, recording what each CONNECT asked for and its
// Proxy-Authorization.
type tunnel struct {
	target string
	mu     sync.Mutex
	asked  []string
	auth   []string
}

func (p *tunnel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
		return
	}
	p.mu.Lock()
	p.asked, p.auth = append(p.asked, r.Host), append(p.auth, r.Header.Get("Proxy-Authorization"))
	p.mu.Unlock()
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	conn, rw, err := w.(http.Hijacker).Hijack()
	if err != nil {
		up.Close()
		return
	}
	_, _ = io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	go func() { _, _ = io.Copy(up, rw); up.Close() }()
	_, _ = io.Copy(conn, up)
	conn.Close()
}

// TestProxyValid: a well-formed HTTPS_PROXY, with credentials, is still
// used: the request to https://example.com goes through the loopback
// proxy's tunnel to the emulator (whose test certificate names
// example.com), with the proxy's credentials on the CONNECT only.
func TestProxyValid(t *testing.T) {
	ts := httptest.NewTLSServer(emulator.New(emulator.Options{}))
	t.Cleanup(ts.Close)
	p := &tunnel{target: ts.Listener.Addr().String()}
	ps := httptest.NewServer(p)
	t.Cleanup(ps.Close)
	proxyEnv(t, map[string]string{"HTTPS_PROXY": "http://proxyuser:Pr0xyPass@" + ps.Listener.Addr().String()})
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
	c, _ := newTestClient(t, "https://example.com", func(cfg *Config) {
		cfg.TokenID, cfg.TokenSecret, cfg.CACertPEM = emulator.DefaultTokenID, emulator.DefaultTokenSecret, caPEM
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := c.ListTemplates(ctx)
	if err != nil || len(list) != len(emulator.DefaultTemplates()) {
		t.Fatalf("through the proxy: %d templates, %v", len(list), err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.asked) != 1 || p.asked[0] != "example.com:443" || !strings.HasPrefix(p.auth[0], "Basic ") {
		t.Errorf("the proxy was asked %q with %q, want one CONNECT example.com:443 with Basic credentials", p.asked, p.auth)
	}
}
