package provider

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// Where the provider keeps its journal of started jobs (importjob.Journal,
// whose rules and protocol are the core's): in files in the data
// directory of the configuration Terraform runs, one directory per
// workspace (localfile.TerraformJournalDir), or, without one, in memory, where it covers a
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
