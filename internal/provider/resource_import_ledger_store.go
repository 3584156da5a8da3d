package provider

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// Where the ledger keeps its entries: the journal's files, or memory.

// entries lists the ledger's entries, oldest first (l.mu held). With a
// journal, the files of this process's own entries are not read: no other
// process changes them while this one runs (they are its run's), and an
// apply of many resources would read them all again for each.
func (l *jobLedger) entries(ctx context.Context) []localfile.JournalEntry {
	if l.journal == nil {
		return slices.Clone(l.mem)
	}
	es, err := l.journal.EntriesBut(func(id string) bool { _, mine := l.own[id]; return mine })
	if err != nil {
		tflog.Warn(ctx, "cannot read the journal of started jobs", map[string]any{"error": err.Error()})
	}
	for _, e := range l.own {
		es = append(es, e)
	}
	slices.SortStableFunc(es, func(a, b localfile.JournalEntry) int { return a.Written.Compare(b.Written) })
	return es
}

// entry is the ledger's entry of job ref.
func (l *jobLedger) entry(ref string) (localfile.JournalEntry, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.own[ref]; ok {
		return e, true
	}
	for _, e := range l.entries(context.Background()) {
		if e.JobID == ref {
			return e, true
		}
	}
	return localfile.JournalEntry{}, false
}

// take removes the entry of job ref from raw, as listed (l.mu held): false
// when another process took it first.
func (l *jobLedger) take(ctx context.Context, raw []localfile.JournalEntry, ref string) bool {
	i := slices.IndexFunc(raw, func(e localfile.JournalEntry) bool { return e.JobID == ref })
	if i < 0 {
		return false
	}
	if l.journal == nil {
		l.mem = slices.DeleteFunc(l.mem, func(e localfile.JournalEntry) bool { return e.JobID == ref })
		return true
	}
	delete(l.own, ref)
	ok, err := l.journal.Take(raw[i])
	if err != nil {
		tflog.Warn(ctx, "cannot take a job from the journal", map[string]any{"job_id": idOf(ref), "error": err.Error()})
	}
	return ok
}

// put writes e as the entry of its job.
func (l *jobLedger) put(ctx context.Context, e localfile.JournalEntry) {
	if l.journal == nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.mem = slices.DeleteFunc(l.mem, func(x localfile.JournalEntry) bool { return x.JobID == e.JobID })
		l.mem = append(l.mem, e)
		return
	}
	written, err := l.journal.Put(e)
	if err != nil {
		tflog.Warn(ctx, "cannot record a started job in the journal", map[string]any{"job_id": idOf(e.JobID), "error": err.Error()})
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.own[e.JobID] = written
}

// closeReturned applies importjob.AtClose: Terraform closed the provider
// at the end of its operation, and writes the state that holds the jobs
// this process's Creates returned as usual itself.
func (l *jobLedger) closeReturned(ctx context.Context) {
	l.mu.Lock()
	gone := importjob.AtClose(l.facts(l.entries(ctx)))
	l.mu.Unlock()
	for _, e := range gone {
		l.remove(ctx, e.Job)
	}
}

// processLedgers are the ledgers of this process, for Closed.
var processLedgers ledgerList

type ledgerList struct {
	mu   sync.Mutex
	list []*jobLedger
}

func (ll *ledgerList) add(l *jobLedger) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	ll.list = append(ll.list, l)
}

// Closed is called once the provider server has stopped because Terraform
// closed the provider at the end of its operation (not when the process
// is killed): the jobs Create returned as usual are the CLI's to record
// in the state it writes now, and leave the journal.
func Closed() {
	processLedgers.mu.Lock()
	list := slices.Clone(processLedgers.list)
	processLedgers.mu.Unlock()
	for _, l := range list {
		l.closeReturned(context.Background())
	}
}

// journalDirName is the journal's directory inside Terraform's data
// directory, before the workspace.
const journalDirName = "etl-provider-jobs"

// journalDir is where the ledger keeps its journal: in the data directory
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
