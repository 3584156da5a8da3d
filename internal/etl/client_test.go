package etl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
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

func TestNewValidatesHubAndBaseURL(t *testing.T) {
	runNewCases(t, []newCase{
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
	})
}

func TestCheckHub(t *testing.T) {
	for hub, ok := range map[string]bool{"us2": true, "eu1": true, "ca3": true, "US2": false, "us-2": false, "": false, "us2.evil.com": false} {
		err := CheckHub(hub)
		if (err == nil) != ok {
			t.Errorf("CheckHub(%q) = %v, want ok %v", hub, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "lower-case region name such as us1") {
			t.Errorf("CheckHub(%q): %v does not say what to use", hub, err)
		}
	}
}

// TestValidateBaseURLHidesCredentials: no error about a base URL quotes
// credentials it carries, whether or not the URL parses.
func TestValidateBaseURLHidesCredentials(t *testing.T) {
	for _, raw := range []string{
		"https://alice:s3cr3t-pw@us2.vena.io:99999x",
		"https://alice:s3cr3t-pw@",
		"alice:s3cr3t-pw@us2.vena.io",
		"https://alice:s3cr3t/pw@us2.vena.io",
		"http://alice:s3cr3t-pw@example.com",
		"https://alice:s3cr3t-pw@us2.vena.io/?q=1",
		"ftp://alice:s3cr3t-pw@us2.vena.io",
	} {
		_, err := ValidateBaseURL(raw)
		if err == nil {
			t.Errorf("%q: accepted", raw)
			continue
		}
		for _, secret := range []string{"s3cr3t", "alice"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%q: the error quotes %q: %v", raw, secret, err)
			}
		}
	}
	if got := displayURL("https://us2.vena.io/x"); got != "https://us2.vena.io/x" {
		t.Errorf("a URL without credentials is shown as %q", got)
	}
}

// problemHas fails unless problem holds every one of want; no want means
// the value is good ("").
func problemHas(t *testing.T, what, problem string, want ...string) {
	t.Helper()
	if len(want) == 0 && problem != "" {
		t.Errorf("%s: unexpected %q", what, problem)
	}
	if len(want) > 0 && problem == "" {
		t.Errorf("%s: no problem, want one with %q", what, want)
	}
	for _, w := range want {
		if !strings.Contains(problem, w) {
			t.Errorf("%s: %q lacks %q", what, problem, w)
		}
	}
}

// A name the file part's header cannot carry is said with the setting's
// name, the value and the character's offset (CheckPartHeaderValue).
func TestPartHeaderProblem(t *testing.T) {
	for _, ok := range []string{"gl.csv", "my \"quoted\"\tname\\x.csv", "Montréal € 😀.csv"} {
		problemHas(t, ok, PartHeaderProblem("file.name", ok))
	}
	problemHas(t, "CR LF", PartHeaderProblem("file.name", "gl.csv\r\n"),
		`file.name "gl.csv\r\n" contains a carriage return (U+000D) at byte 6`, "header of the upload's file part")
}
