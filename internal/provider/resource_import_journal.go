package provider

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// Where the provider keeps its journal of started jobs (importjob.Journal,
// whose rules and protocol are the core's): in files in the data
// directory of the configuration Terraform runs, one directory per
// workspace (journalDir), or, without one, in memory, where it covers a
// hand-over, and a create cut short, within one process only.

var _ importjob.Files = (*localfile.JournalDir)(nil)

// openJournal opens the journal in dir, or keeps it in memory when dir is
// "" or cannot be opened. The journal tells a process gone from one that
// runs by the system's answer (localfile.ProcessRunning).
func openJournal(ctx context.Context, dir string) *importjob.Journal {
	ppid, start := localfile.ParentProcess()
	self := importjob.Self{PID: os.Getpid(), Run: importjob.Run{PID: ppid, Start: start}}
	if dir != "" {
		d, err := localfile.OpenJournalDir(dir)
		if err == nil {
			return importjob.NewJournal(importjob.NewFileStore(d), self, localfile.ProcessRunning)
		}
		tflog.Warn(ctx, "cannot open the journal of started jobs; a killed apply's job will not be found", map[string]any{"dir": dir, "error": err.Error()})
	}
	return importjob.NewMemoryJournal(self)
}

// logJournal logs what the journal could not do (err nil: nothing): the
// journal's rules decided, and a file could not be written or removed.
func logJournal(ctx context.Context, err error) {
	if err != nil {
		tflog.Warn(ctx, "the journal of started jobs: "+err.Error())
	}
}

// journalDirName is the journal's directory inside Terraform's data
// directory, before the workspace.
const journalDirName = "etl-provider-jobs"

// journalDir is where the journal keeps its files: in the data directory
// of the configuration Terraform runs (TF_DATA_DIR, else .terraform, in
// the working directory the CLI gives its providers), one directory per
// workspace (TF_WORKSPACE, else the one the data directory names, else
// default). "" when there is no such data directory (the provider does
// not run under a CLI in an initialised working directory).
func journalDir(getenv func(string) string) string {
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
	abs, err := filepath.Abs(filepath.Join(data, journalDirName, url.PathEscape(ws)))
	if err != nil {
		return ""
	}
	return abs
}
