package etl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestNewValidatesConfig(t *testing.T) {
	runNewCases(t, []newCase{
		{"no token id", Config{Hub: "us1", TokenSecret: "s3cr3tvalue"}, "token id is empty", ""},
		{"no secret", Config{Hub: "us1", TokenID: "a"}, "token secret is empty", ""},
		{"id without dot is fine", Config{Hub: "eu1", TokenID: "12345", TokenSecret: "s3cr3tvalue"}, "", "https://eu1.vena.io"},
		{"bad CA", Config{Hub: "eu1", TokenID: "a", TokenSecret: "s3cr3tvalue", CACertPEM: []byte("nope")}, "no PEM certificate", ""},
	})
}

func TestNewFillsDefaults(t *testing.T) {
	c, err := New(Config{Hub: "us2", TokenID: "a", TokenSecret: "s", MaxRetries: -1, RetryWaitMin: time.Second, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if c.http.RetryMax != DefaultMaxRetries || c.http.RetryWaitMin != time.Second || c.http.RetryWaitMax != time.Second || c.userAgent != "terraform-provider-etl" {
		t.Fatalf("retries %d, waits %v..%v, user agent %q", c.http.RetryMax, c.http.RetryWaitMin, c.http.RetryWaitMax, c.userAgent)
	}
	tr, ok := c.http.HTTPClient.Transport.(*http.Transport)
	if !ok || tr.ResponseHeaderTimeout != DefaultRequestTimeout {
		t.Fatalf("transport %T without the default request timeout", c.http.HTTPClient.Transport)
	}
	if c, _ = New(Config{Hub: "us2", TokenID: "a", TokenSecret: "s"}); c.http.RetryWaitMin != DefaultRetryWaitMin || c.http.RetryWaitMax != DefaultRetryWaitMax {
		t.Fatalf("default waits %v..%v", c.http.RetryWaitMin, c.http.RetryWaitMax)
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
