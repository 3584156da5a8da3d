package localfile

import (
	"os"
	"path/filepath"
	"testing"
)

// The journal's directory: none without a data directory, else one per
// workspace, the selected one or TF_WORKSPACE, under TF_DATA_DIR when set.
func TestTerraformJournalDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := TerraformJournalDir(getenv); got != "" {
		t.Fatalf("no data directory: %q, want none", got)
	}
	if err := os.Mkdir(".terraform", 0o700); err != nil {
		t.Fatal(err)
	}
	want := func(parts ...string) string { return filepath.Join(append([]string{dir}, parts...)...) }
	if got := TerraformJournalDir(getenv); got != want(".terraform", JournalDirName, "default") {
		t.Fatalf("TerraformJournalDir = %q", got)
	}
	if err := os.WriteFile(filepath.Join(".terraform", "environment"), []byte("staging\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := TerraformJournalDir(getenv); got != want(".terraform", JournalDirName, "staging") {
		t.Fatalf("TerraformJournalDir with a selected workspace = %q", got)
	}
	env["TF_WORKSPACE"] = "a/b"
	if got := TerraformJournalDir(getenv); got != want(".terraform", JournalDirName, "a%2Fb") {
		t.Fatalf("TerraformJournalDir with TF_WORKSPACE = %q", got)
	}
	if err := os.Mkdir("data", 0o700); err != nil {
		t.Fatal(err)
	}
	env["TF_DATA_DIR"] = "data"
	if got := TerraformJournalDir(getenv); got != want("data", JournalDirName, "a%2Fb") {
		t.Fatalf("TerraformJournalDir with TF_DATA_DIR = %q", got)
	}
}
