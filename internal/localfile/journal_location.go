package localfile

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Where the journal's directory is, for a provider that Terraform or
// OpenTofu runs: inside the data directory of the configuration.

// JournalDirName is the journal's directory inside Terraform's data
// directory, before the workspace.
const JournalDirName = "etl-provider-jobs"

// TerraformJournalDir is where the provider keeps its journal's files: in the data directory
// of the configuration Terraform runs (TF_DATA_DIR, else .terraform, in
// the working directory the CLI gives its providers), one directory per
// workspace (TF_WORKSPACE, else the one the data directory names, else
// default). "" when there is no such data directory (the provider does
// not run under a CLI in an initialised working directory).
func TerraformJournalDir(getenv func(string) string) string {
	data := getenv("TF_DATA_DIR")
	if data == "" {
		data = ".terraform"
	}
	if st, err := os.Stat(data); err != nil || !st.IsDir() {
		return ""
	}
	ws := getenv("TF_WORKSPACE")
	if ws == "" {
		b, _ := os.ReadFile(filepath.Join(data, "environment")) //nolint:gosec // Terraform's own file
		ws = strings.TrimSpace(string(b))
	}
	if ws == "" || ws == "." || ws == ".." {
		ws = "default"
	}
	abs, err := filepath.Abs(filepath.Join(data, JournalDirName, url.PathEscape(ws)))
	if err != nil {
		return ""
	}
	return abs
}
