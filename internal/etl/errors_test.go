package etl

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

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
