package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// jobLedger holds the jobs that exist on the service but that no
// Terraform state is known to hold yet (importjob.Entry), for a later
// Create of the same change to settle instead of starting another:
//
//   - a job a Create started or resumed, from the moment its id is known
//     (hold) until a state is known to hold it (forget: a refresh, a plan
//     or an update finds it) or Terraform closed the provider after its
//     Create returned as usual, not cut short (Closed);
//   - a tainted job that a replacement's Delete hands over to the Create
//     that follows it (handOver).
//
// Which entry a Create settles, and which it drops, is importjob's rule
// (Settle, Destroy). With a journal (a directory under Terraform's data
// directory, per workspace: journalDir) the ledger outlives the process;
// without one (the data directory cannot be found) it lives in memory and
// covers the hand-over, and a Create cut short, within one process only.
// Keys are jobKey's: the service and the job's definition.
type jobLedger struct {
	journal *localfile.Journal // nil: in memory only
	run     localfile.Run      // the CLI run this process serves

	mu       sync.Mutex
	mem      []localfile.JournalEntry          // in memory only: the entries
	own      map[string]localfile.JournalEntry // with a journal: the entries this process wrote, as written
	active   map[string]bool                   // the jobs a Create of this process holds now
	returned map[string]bool                   // the jobs this process's Creates returned (journal)
	replaced []replacedJob                     // jobs replacements replace, for their Creates
	taken    map[string]bool                   // the jobs whose replacement's Create took its note
}

// replacedJob is what a replacement tells its Create, in the process
// that applies it: the job it replaces, for a Create of key ("" when the
// plan did not know it), and whether that job's object is tainted. The
// framework gives a Create no private state: the Delete of a replacement
// that destroys first says it, and the plan made again at apply of one
// that creates first.
type replacedJob struct {
	key, job string
	tainted  bool
}

// noteReplaced records that job is replaced (its object tainted or not),
// for the next Create of key; nothing when a Create has already taken a
// note of job (the Delete of a replacement that created first).
func (l *jobLedger) noteReplaced(key string, job jobRef, tainted bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.taken[job.String()] {
		l.replaced = append(l.replaced, replacedJob{key, job.String(), tainted})
	}
}

// replacedFor takes what a replacement's Delete destroyed for the Create
// of key (Create.Replaces and Tainted): one noted for key, else one noted
// without a key; no job when none (a new object, or a replacement created
// before its destroy).
func (l *jobLedger) replacedFor(key string) importjob.Create {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range []string{key, ""} {
		if i := slices.IndexFunc(l.replaced, func(r replacedJob) bool { return r.key == k }); i >= 0 {
			r := l.replaced[i]
			l.replaced = slices.Delete(l.replaced, i, i+1)
			l.taken[r.job] = true
			return importjob.Create{Key: key, Replaces: r.job, Tainted: r.tainted}
		}
	}
	return importjob.Create{Key: key}
}

// newJobLedger opens the journal in dir, or keeps the ledger in memory
// when dir is "" or cannot be opened.
func newJobLedger(ctx context.Context, dir string) *jobLedger {
	l := &jobLedger{run: localfile.ThisRun(), own: map[string]localfile.JournalEntry{}, active: map[string]bool{}, returned: map[string]bool{}, taken: map[string]bool{}}
	if dir != "" {
		j, err := localfile.OpenJournal(dir)
		if err != nil {
			tflog.Warn(ctx, "cannot open the journal of started jobs; a killed apply's job will not be found", map[string]any{"dir": dir, "error": err.Error()})
		}
		l.journal = j
	}
	processLedgers.add(l)
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

// hold records job, which exists and no state holds yet, for key and the
// change that replaces prior ("": a new object), while a Create of this
// process works on it: no other Create takes it until release.
func (l *jobLedger) hold(ctx context.Context, key string, job jobRef, prior string) {
	ref := job.String()
	l.mu.Lock()
	l.active[ref] = true
	l.mu.Unlock()
	l.put(ctx, localfile.JournalEntry{Key: key, JobID: ref, Holder: os.Getpid(), Prior: prior, Run: l.run})
}

// release ends this process's hold on job once Create returns: the job
// stays in the ledger, held by nobody, for the run it was returned to
// (another run takes it only once that run is gone) and until a state is
// known to hold it or Terraform closes the provider (Closed). In memory,
// a job returned to a Create whose request went on is forgotten, and one
// whose request was cancelled (Terraform stopped, or gone) stays for the
// next Create of its key.
func (l *jobLedger) release(ctx context.Context, job jobRef) {
	ref := job.String()
	l.mu.Lock()
	delete(l.active, ref)
	if l.journal != nil && ctx.Err() == nil {
		// Returned as usual: the CLI records it (Closed). A Create cut
		// short (Ctrl-C: StopProvider cancels it) keeps its job here
		// until a state is known to hold it: a second Ctrl-C exits the
		// CLI without writing the state, yet closes the provider.
		l.returned[ref] = true
	}
	l.mu.Unlock()
	e, ok := l.entry(ref)
	switch {
	case !ok:
	case l.journal != nil:
		e.Holder, e.Returned = 0, true
		l.put(ctx, e)
	case ctx.Err() == nil:
		l.remove(ctx, ref)
	default:
		tflog.Info(ctx, "request cancelled: the job stays in the ledger for the next apply", map[string]any{"job_id": job.id})
		e.Holder, e.Returned = 0, true
		l.put(ctx, e)
	}
}

// handOver keeps job, which is in no state from now on, for the next
// Create of key (its entry replaces any other of the job).
func (l *jobLedger) handOver(ctx context.Context, key string, job jobRef) {
	l.put(ctx, localfile.JournalEntry{Key: key, JobID: job.String(), HandedOver: true, Run: l.run})
}

// found applies importjob.Found: a state holds job, which leaves the
// ledger.
func (l *jobLedger) found(ctx context.Context, job jobRef) {
	l.mu.Lock()
	gone := importjob.Found(l.facts(l.entries(ctx)), job.String())
	l.mu.Unlock()
	for _, e := range gone {
		l.remove(ctx, e.Job)
	}
}

// remove removes every entry of job ref.
func (l *jobLedger) remove(ctx context.Context, ref string) {
	l.mu.Lock()
	delete(l.returned, ref)
	delete(l.own, ref)
	if l.journal == nil {
		l.mem = slices.DeleteFunc(l.mem, func(e localfile.JournalEntry) bool { return e.JobID == ref })
		l.mu.Unlock()
		return
	}
	l.mu.Unlock()
	if err := l.journal.Forget(ref); err != nil {
		tflog.Warn(ctx, "cannot remove a job from the journal", map[string]any{"job_id": idOf(ref), "error": err.Error()})
	}
}

// settle applies importjob.Settle for create c: it takes the entry to
// settle, if any, from the ledger (another process may take it first:
// then it decides again), drops the entries to drop, and returns the
// settlement.
func (l *jobLedger) settle(ctx context.Context, c importjob.Create) importjob.Settlement {
	for range 8 {
		l.mu.Lock()
		raw := l.entries(ctx)
		s := importjob.Settle(l.facts(raw), c)
		taken := s.Claim == nil || l.take(ctx, raw, s.Claim.Job)
		l.mu.Unlock()
		if taken {
			l.drop(ctx, s.Drops)
			return s
		}
	}
	return importjob.Settlement{}
}

// preview applies importjob.Preview: the job create c would settle; nil
// when none. The ledger is left as it is.
func (l *jobLedger) preview(ctx context.Context, c importjob.Create) *importjob.Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return importjob.Preview(l.facts(l.entries(ctx)), c)
}

// destroyed applies importjob.Destroy for the object that held job and
// was destroyed; it returns what it dropped.
func (l *jobLedger) destroyed(ctx context.Context, job jobRef) []importjob.Drop {
	l.mu.Lock()
	drops := importjob.Destroy(l.facts(l.entries(ctx)), job.String())
	l.mu.Unlock()
	l.drop(ctx, drops)
	return drops
}

// mayBe notes job, which a new object just started, in the entries of
// refs: that object may be their resource (importjob.Settlement.MayBe).
func (l *jobLedger) mayBe(ctx context.Context, refs []string, job jobRef) {
	for _, ref := range refs {
		if e, ok := l.entry(ref); ok && !slices.Contains(e.MayBe, job.String()) {
			e.MayBe = append(e.MayBe, job.String())
			l.put(ctx, e)
		}
	}
}

// drop removes the entries of drops.
func (l *jobLedger) drop(ctx context.Context, drops []importjob.Drop) {
	for _, d := range drops {
		tflog.Info(ctx, "job of an apply cut short dropped, not resumed", map[string]any{"job_id": idOf(d.Entry.Job), "reason": int(d.Reason)})
		l.remove(ctx, d.Entry.Job)
	}
}

// facts are the entries as importjob sees them, with who may still hold
// each (l.mu held): a Create of this process, another process that still
// runs, or the run the job was returned to.
func (l *jobLedger) facts(raw []localfile.JournalEntry) []importjob.Entry {
	out := make([]importjob.Entry, len(raw))
	for i, e := range raw {
		held := l.active[e.JobID] || e.Holder != 0 && e.Holder != os.Getpid() && localfile.ProcessAlive(e.Holder)
		runAlive := l.journal != nil && e.Run.Alive() || l.journal == nil && !e.Returned
		out[i] = importjob.Entry{Job: e.JobID, Key: e.Key, Prior: e.Prior,
			HandedOver: e.HandedOver, MayBe: e.MayBe, Held: held, RunAlive: runAlive, ReturnedHere: l.returned[e.JobID]}
	}
	return out
}
