package etl

import (
	"strings"
	"testing"
)

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
