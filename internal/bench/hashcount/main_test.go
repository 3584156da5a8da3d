package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun: every mode reads the same file to the same hash and counts.
func TestRun(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gl.csv")
	content := "Account,Amount\n" + strings.Repeat("4000,\"1\n2\"\n", 300_000) // > 2 MiB: read ahead
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"sha256": {"sha256 "},
		"hash":   {"sha256 ", "check <nil>"},
		"plan":   {"sha256 ", "check <nil>", `rows 300000 columns ["Account" "Amount"] size 3300015`},
		"count":  {`rows 300000 columns ["Account" "Amount"] size 3300015`},
	}
	var sum string
	for mode, parts := range want {
		out, err := run(mode, p, "CSV", "UTF-8")
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		for _, part := range parts {
			if !strings.Contains(out, part) {
				t.Errorf("%s: %q lacks %q", mode, out, part)
			}
		}
		if mode != "count" {
			if s := strings.Fields(out)[1]; sum == "" {
				sum = s
			} else if s != sum {
				t.Errorf("%s: sha256 %s, another mode %s", mode, s, sum)
			}
		}
	}
	if _, err := run("other", p, "CSV", "UTF-8"); err == nil {
		t.Error("mode other: no error")
	}
}
