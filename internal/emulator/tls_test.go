package emulator

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"strings"
	"testing"
)

func TestNewTLSServer(t *testing.T) {
	ts, srv, certPEM, err := NewTLSServer(Options{Instant: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	if !strings.HasPrefix(ts.URL, "https://127.0.0.1:") {
		t.Fatalf("URL %s", ts.URL)
	}
	req := func(c *http.Client) (*http.Response, error) {
		r, _ := http.NewRequest(http.MethodGet, ts.URL+BasePath+"/templates", nil)
		r.SetBasicAuth(DefaultTokenID, DefaultTokenSecret)
		return c.Do(r)
	}
	if _, err := req(&http.Client{}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("a client that does not trust the certificate: err = %v", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(certPEM) {
		t.Fatal("certPEM holds no certificate")
	}
	res, err := req(&http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	if _, n := srv.Stats(); n != 1 {
		t.Errorf("%d requests reached the handler, want 1", n)
	}
}

func TestFaultBody(t *testing.T) {
	srv := New(Options{})
	srv.InjectFault(Fault{Endpoint: EndpointListTemplates, Count: 1, Status: http.StatusForbidden, Body: `{"message":"needs Read Model on Finance Plan"}`})
	srv.InjectFault(Fault{Endpoint: EndpointListTemplates, Count: 1, Status: http.StatusRequestEntityTooLarge, Body: "too big"})
	for _, want := range []struct {
		status int
		ct     string
		body   string
	}{{403, "application/json", `{"message":"needs Read Model on Finance Plan"}`}, {413, "text/plain; charset=utf-8", "too big"}} {
		rec := &recorder{h: http.Header{}}
		r, _ := http.NewRequest(http.MethodGet, BasePath+"/templates", nil)
		srv.ServeHTTP(rec, r)
		if rec.code != want.status || rec.h.Get("Content-Type") != want.ct || rec.body.String() != want.body {
			t.Errorf("got %d %q %q, want %d %q %q", rec.code, rec.h.Get("Content-Type"), rec.body.String(), want.status, want.ct, want.body)
		}
	}
}

type recorder struct {
	h    http.Header
	code int
	body strings.Builder
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) WriteHeader(c int)           { r.code = c }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
