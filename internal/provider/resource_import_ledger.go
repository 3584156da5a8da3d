package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// jobLedger holds the jobs that exist on the service but are in no
// Terraform state yet, for the next Create of the same definition to
// settle instead of starting another:
//
//   - a tainted job that a replacement's Delete hands over to the Create
//     that follows it (handOver);
//   - a job a Create started or resumed, from the moment it exists until
//     Create returns to Terraform (hold, release): a Terraform killed in
//     between records nothing, and the next apply finds the job here.
//
// With a journal (a directory under Terraform's data directory, per
// workspace: journalDir) the ledger outlives the process; without one
// (the data directory cannot be found) it lives in memory and covers the
// hand-over within one apply only. Keys are jobKey's: the service and the
// job's definition.
type jobLedger struct {
	journal *localfile.Journal // nil: in memory only

	mu     sync.Mutex
	mem    map[string][]string // key -> job ids, oldest first
	active map[string]string   // the jobs a Create of this process holds now, with their keys
}

// newJobLedger opens the journal in dir, or keeps the ledger in memory
// when dir is "" or cannot be opened.
func newJobLedger(ctx context.Context, dir string) *jobLedger {
	l := &jobLedger{mem: map[string][]string{}, active: map[string]string{}}
	if dir == "" {
		return l
	}
	j, err := localfile.OpenJournal(dir)
	if err != nil {
		tflog.Warn(ctx, "cannot open the journal of started jobs; a killed apply's job will not be found", map[string]any{"dir": dir, "error": err.Error()})
		return l
	}
	l.journal = j
	return l
}

// jobRef names a job on one service: job ids are unique per service only.
type jobRef struct{ service, id string }

// String is the ref as the ledger keeps it: a hash of the service, then
// the id (a name fit for a file).
func (j jobRef) String() string {
	sum := sha256.Sum256([]byte(j.service))
	return hex.EncodeToString(sum[:6]) + "-" + j.id
}

// idOf is the job id of a ref that String made.
func idOf(ref string) string { return ref[strings.LastIndexByte(ref, '-')+1:] }

// jobKey is the ledger key of a job of definition key on the service at
// baseURL.
func jobKey(baseURL, definitionKey string) string {
	return baseURL + "\x00" + definitionKey
}

// handOver keeps job id, which is in no state from now on, for the next
// Create of key.
func (l *jobLedger) handOver(ctx context.Context, key string, job jobRef) {
	l.forget(ctx, job)
	l.add(ctx, key, job.String(), 0)
}

// hold records job id, which exists and is in no state yet, while a
// Create of this process works on it: no other Create claims it until
// release.
func (l *jobLedger) hold(ctx context.Context, key string, job jobRef) {
	ref := job.String()
	l.mu.Lock()
	l.active[ref] = key
	l.mu.Unlock()
	l.add(ctx, key, ref, os.Getpid())
}

// add records job ref for key, held by process holder (0: none).
func (l *jobLedger) add(ctx context.Context, key, ref string, holder int) {
	if l.journal == nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.mem[key] = append(l.mem[key], ref)
		return
	}
	if err := l.journal.Add(localfile.JournalEntry{Key: key, JobID: ref, Holder: holder}); err != nil {
		tflog.Warn(ctx, "cannot record a started job in the journal", map[string]any{"job_id": idOf(ref), "error": err.Error()})
	}
}

// release ends the hold on job ref once Create returns it to Terraform,
// and forgets the job, unless the request was cancelled (Terraform
// stopped, or gone): then the job may never reach a state, and it stays
// in the ledger, held by nobody, for the next apply to claim (whether or
// not this process lives on).
func (l *jobLedger) release(ctx context.Context, job jobRef) {
	ref := job.String()
	l.mu.Lock()
	key := l.active[ref]
	delete(l.active, ref)
	l.mu.Unlock()
	if ctx.Err() == nil {
		l.forget(ctx, job)
		return
	}
	tflog.Info(ctx, "request cancelled: the job stays in the ledger for the next apply", map[string]any{"job_id": job.id})
	if l.journal != nil {
		l.forget(ctx, job)
		l.add(ctx, key, ref, 0)
	}
}

// forget removes every record of job id: a state holds it.
func (l *jobLedger) forget(ctx context.Context, job jobRef) {
	ref := job.String()
	if l.journal == nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		for k, refs := range l.mem {
			l.mem[k] = slices.DeleteFunc(refs, func(x string) bool { return x == ref })
		}
		return
	}
	if err := l.journal.Forget(ref); err != nil {
		tflog.Warn(ctx, "cannot remove a job from the journal", map[string]any{"job_id": job.id, "error": err.Error()})
	}
}

// claim takes the oldest job recorded for key that no running Create
// holds; false when there is none.
func (l *jobLedger) claim(ctx context.Context, key string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.journal == nil {
		refs := l.mem[key]
		for i, ref := range refs {
			if _, held := l.active[ref]; !held {
				l.mem[key] = slices.Delete(slices.Clone(refs), i, i+1)
				return idOf(ref), true
			}
		}
		return "", false
	}
	e, ok, err := l.journal.Claim(key, l.held)
	if err != nil {
		tflog.Warn(ctx, "cannot read the journal of started jobs", map[string]any{"error": err.Error()})
	}
	return idOf(e.JobID), ok
}

// held reports whether a running Create holds the job of e: one of this
// process (l.mu held), or of another process still alive.
func (l *jobLedger) held(e localfile.JournalEntry) bool {
	switch e.Holder {
	case 0:
		return false
	case os.Getpid():
		_, ok := l.active[e.JobID]
		return ok
	}
	return localfile.ProcessAlive(e.Holder)
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
