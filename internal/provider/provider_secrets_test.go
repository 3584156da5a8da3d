package provider

// No secret leaves the process: the unit tests. The client's log lines
// are masked (tflogFunc, provider_logging.go). The acceptance tests,
// through Terraform, are in provider_secrets_acc_test.go.

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// The client's log lines go through tflog with the secret and the Basic
// credentials masked, whatever field or message carries them.
func TestLogMasksSecret(t *testing.T) {
	const id, secret = "1112140681100620800.1", "5f4dcc3b5aa765d61d8327deb882cf99"
	basic := base64.StdEncoding.EncodeToString([]byte(id + ":" + secret))
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	logf := tflogFunc(id, secret)
	for _, level := range []string{"trace", "debug", "warn"} {
		logf(ctx, level, "request with "+secret+" and Basic "+basic, map[string]any{
			"authorization": "Basic " + basic,
			"secret":        secret,
			"url":           "https://us2.vena.io/x?token=" + secret,
		})
	}
	logs := out.String()
	if strings.Count(logs, "\n") != 3 {
		t.Fatalf("want 3 log lines, got %q", logs)
	}
	if strings.Contains(logs, secret) || strings.Contains(logs, basic) {
		t.Fatalf("secret in logs: %s", logs)
	}
	// Every form of a secret whose forms all differ (URL and JSON escapes,
	// each base64 alphabet) is masked, whichever field carries it.
	const special = "p@ss/w+rd&=1 \u00fc\"<x>~"
	out.Reset()
	forms := etl.SecretForms(id, special)
	logf = tflogFunc(id, special)
	for i, f := range forms {
		logf(ctx, "debug", "form "+f, map[string]any{"field": "x" + f + "x"})
		if got := out.String(); strings.Contains(got, f) {
			t.Errorf("form %d of the secret in the log line %q", i, got)
		}
		out.Reset()
	}
	if len(forms) < 10 {
		t.Errorf("only %d forms of the secret: %q", len(forms), forms)
	}
	if !strings.Contains(logs, "1112140681100620800.1") && !strings.Contains(logs, "***") {
		t.Fatalf("logs were not written with masks: %s", logs)
	}
}
