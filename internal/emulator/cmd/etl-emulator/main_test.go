package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCheckLoopback(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:0", "[::1]:8080", "localhost:9", "127.5.5.5:1"} {
		if err := checkLoopback(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{":8080", "0.0.0.0:1", "10.0.0.1:80", "example.com:80", "nonsense"} {
		if err := checkLoopback(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestRunRefusesRemote(t *testing.T) {
	err := run(context.Background(), []string{"-addr", "0.0.0.0:0"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-allow-remote") {
		t.Fatalf("err = %v", err)
	}
	if err := run(context.Background(), []string{"-fault-rate", "2"}, io.Discard); err == nil {
		t.Error("fault rate 2 accepted")
	}
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunServesAndShutsDown(t *testing.T) {
	urlFile := filepath.Join(t.TempDir(), "url")
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuf{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-url-file", urlFile, "-token-id", "tid", "-token-secret", "0123456789abcdef0123456789abcdef", "-instant"}, out)
	}()
	var base string
	for i := 0; i < 200 && base == ""; i++ {
		b, _ := os.ReadFile(urlFile)
		base = strings.TrimSpace(string(b))
		time.Sleep(10 * time.Millisecond)
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+$`).MatchString(base) {
		t.Fatalf("url file holds %q", base)
	}
	for i := 0; i < 100 && strings.Count(out.String(), "\n") < 3; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	want := "ETL_BASE_URL=" + base + "\nETL_TOKEN_ID=tid\nETL_TOKEN_SECRET=0123456789abcdef0123456789abcdef\n"
	if out.String() != want {
		t.Errorf("stdout = %q, want %q", out.String(), want)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/api/public/v1/etl/templates", nil)
	req.SetBasicAuth("tid", "0123456789abcdef0123456789abcdef")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("status %d", res.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no shutdown")
	}
	if _, err := http.Get(base + "/api/public/v1/etl/templates"); err == nil {
		t.Error("still serving after shutdown")
	}
}

func TestRunServesTLS(t *testing.T) {
	dir := t.TempDir()
	urlFile, caFile := filepath.Join(dir, "url"), filepath.Join(dir, "ca.pem")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuf{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-tls", "-ca-file", caFile, "-url-file", urlFile, "-instant"}, out) }()
	var base string
	for i := 0; i < 200 && base == ""; i++ {
		b, _ := os.ReadFile(urlFile)
		base = strings.TrimSpace(string(b))
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.HasPrefix(base, "https://127.0.0.1:") {
		t.Fatalf("url file holds %q", base)
	}
	for i := 0; i < 100 && !strings.Contains(out.String(), "ETL_CA_CERT_FILE="); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "ETL_CA_CERT_FILE="+caFile+"\n") {
		t.Fatalf("stdout %q does not name the CA file", out.String())
	}
	pemBytes, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemBytes) {
		t.Fatal("the CA file holds no certificate")
	}
	if _, err := http.Get(base + "/api/public/v1/etl/templates"); err == nil {
		t.Fatal("an untrusting client connected")
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	res, err := c.Get(base + "/api/public/v1/etl/templates")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("status %d, want 401 (no credentials)", res.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}
