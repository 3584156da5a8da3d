package provider

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
)

// sharedProviderFile is the provider block the configurations under
// testdata share: its settings are variables (configVariables), filled
// with the URL and credentials of each test's emulator, and hash_cache
// where a test sets it (null otherwise: the setting left out).
const sharedProviderFile = "testdata/provider.tf"

// withProvider returns the configuration directory dir with the shared
// provider block beside its files, copied into a temporary directory, so
// that each directory under testdata holds its resources alone (as an
// example holds them beside its versions.tf).
func withProvider(t *testing.T, dir config.TestStepConfigFunc) config.TestStepConfigFunc {
	return func(req config.TestStepConfigRequest) string {
		src := dir.Exec(req)
		dst := t.TempDir()
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatalf("reading the configuration directory %s: %v", src, err)
		}
		for _, e := range entries {
			if !e.IsDir() {
				copyFile(t, filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()))
			}
		}
		copyFile(t, sharedProviderFile, filepath.Join(dst, "provider.tf"))
		return dst
	}
}

// copyFile copies the file src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
