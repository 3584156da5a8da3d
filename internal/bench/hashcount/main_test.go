package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeGL writes a CSV file of the header Account,Amount and n times row,
// in a directory of the test's, and returns its path.
func writeGL(t *testing.T, row string, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gl.csv")
	if err := os.WriteFile(p, []byte("Account,Amount\n"+strings.Repeat(row, n)), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRun: every mode reads the same file to the same hash and counts.
func TestRun(t *testing.T) {
	p := writeGL(t, "4000,\"1\n2\"\n", 300_000) // > 2 MiB: read ahead
	counts := `rows 300000 columns ["Account" "Amount"] size 3300015`
	want := map[string][]string{
		"sha256": {"sha256 "},
		"hash":   {"sha256 ", "check <nil>"},
		"plan":   {"sha256 ", "check <nil>", counts},
		"count":  {counts},
		"split":  {"blocks 4 ", counts},
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
		if mode != "count" && mode != "split" {
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
