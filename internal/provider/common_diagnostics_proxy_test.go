package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// TestProxyErrorDiagnostic: a malformed HTTPS_PROXY reaches the user as
// the usual diagnostic of a failed request: the variable and its value
// (user and password masked), then the hint that says how to fix it, with
// no retry advice and no host blamed.
func TestProxyErrorDiagnostic(t *testing.T) {
	for _, name := range []string{"https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "REQUEST_METHOD"} {
		t.Setenv(name, "")
	}
	t.Setenv("HTTPS_PROXY", "http://proxyuser:Pr0xyPass@[::1")
	client, err := etl.New(etl.Config{Hub: "us2", TokenID: "1.1", TokenSecret: "s3cr3t-s3cr3t", MaxRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = client.ListTemplates(ctx)
	var diags diag.Diagnostics
	addRequestError(&diags, summaryListingTemplates, err)
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	detail := diags[0].Detail()
	for _, want := range []string{`HTTPS_PROXY="http://REDACTED@[::1" is not a proxy URL (missing ']' in host)`,
		"so the request was not sent. Hint: set HTTPS_PROXY to a proxy URL such as http://proxy.example.com:3128", "unset it to connect directly"} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail %q lacks %q", detail, want)
		}
	}
	for _, not := range []string{"Pr0xyPass", "proxyuser", "does not exist", "max_retries", "made"} {
		if strings.Contains(detail, not) {
			t.Errorf("detail %q holds %q", detail, not)
		}
	}
}
