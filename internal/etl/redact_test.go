package etl

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

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
