package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sourceAddress matches a required_providers entry naming the provider's
// source address.
var sourceAddress = regexp.MustCompile(`source\s*=\s*"(registry\.terraform\.io/)?etl-provider/etl"`)

// Every guide that shows HCL names the provider's source address: its
// example copied into an empty directory must find etl-provider/etl, not
// hashicorp/etl.
func TestGuidesNameTheProviderSource(t *testing.T) {
	guides, err := filepath.Glob(filepath.Join("docs", "guides", "*.md"))
	if err != nil || len(guides) == 0 {
		t.Fatalf("no guides: %v", err)
	}
	for _, g := range guides {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if strings.Contains(text, "```terraform") && !sourceAddress.MatchString(text) {
			t.Errorf("%s shows HCL but never names the provider's source address (source = \"etl-provider/etl\")", g)
		}
	}
}
