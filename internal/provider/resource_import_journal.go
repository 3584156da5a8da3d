package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The journal of started jobs (importjob.Journal, whose rules and protocol
// are the core's) as etl_import keeps it: where it lives (openJournal);
// what a Delete and a Create tell it, read from their state and plan, and
// what it decides, written back (settleDelete, settleCreate, keepJob,
// releaseCreate); the job a Create resumes (resume); what the plan of a
// new object records for its Delete and Create (recordPlannedCreate); and
// the warnings and errors each of them gives.
//
// The journal lives in files in the data directory of the configuration
// Terraform runs, one directory per workspace (journalDir), or, without
// one, in memory, where it covers a hand-over, and a create cut short,
// within one process only.

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

// journalKey is the key of the job m describes; "" when its definition is
// not known or there is no client.
func (r *importResource) journalKey(ctx context.Context, m importModel) importjob.Key {
	def, d := m.spec().definition(ctx)
	if r.client == nil || d.HasError() || !known(m.ContentSHA256) {
		return ""
	}
	return def.KeyOn(r.client.BaseURL())
}

// ref names job id on the service of the resource's client.
func (r *importResource) ref(id string) importjob.JobRef {
	return importjob.NewJobRef(r.client.BaseURL(), id)
}

// settleDelete tells the journal of the Delete of state, whose
// replacement's plan is pc (nil for a destroy), and warns of each entry it
// drops. It reports whether the job was handed over to the Create that
// follows (a tainted job of the planned definition), which settles it.
func (r *importResource) settleDelete(ctx context.Context, state importModel, pc *plannedCreate, resp *resource.DeleteResponse) bool {
	if r.journal == nil || r.client == nil {
		return false
	}
	d := importjob.Deleted{Job: r.ref(state.ID.ValueString())}
	if pc != nil {
		d.Replaced = &importjob.Replaced{Asked: pc.Replaces != "", Key: r.journalKey(ctx, state), Status: jobstatus.JobStatus(state.Status.ValueString()),
			Gone: isGone(state.Status), Planned: importjob.NewKey(r.client.BaseURL(), pc.Definition)}
	}
	handed, drops, err := r.journal.Delete(d)
	logJournal(ctx, err)
	warnDropped(drops, &resp.Diagnostics)
	if handed {
		tflog.Info(ctx, "tainted import job passed to its replacement, which resumes it", map[string]any{"job_id": d.Job.ID(), "status": state.Status.ValueString()})
	}
	return handed
}

// settleCreate settles the journal for the plan's Create: the job of the
// same change it settles instead of starting one, kept in state at once
// (keepJob), and a warning for each entry its change makes impossible.
// false: the journal cannot say whether it holds a job of this data, and
// the Create fails without starting one (an error says what to run).
func (r *importResource) settleCreate(ctx context.Context, plan *importModel, resp *resource.CreateResponse) (*importjob.Settled, bool) {
	if r.journal == nil || r.client == nil {
		return &importjob.Settled{}, true
	}
	s, err := r.journal.SettleCreate(r.journalKey(ctx, *plan))
	if unsure := (*importjob.UnsureError)(nil); errors.As(err, &unsure) {
		// It started none: it says why and what to run.
		resp.Diagnostics.AddError("No import job started: the journal of started jobs cannot say whether it holds this data's job",
			fmt.Sprintf("Checking this create against the provider's journal of started jobs failed: %s. "+
				"An earlier apply may have started a job with this data that the journal holds, so no new job was started: a second one would import the data twice. "+
				"Run terraform apply again; it decides again. If this persists, check that the journal's directory (%s under the configuration's data directory, .terraform) can be read and written.", unsure, journalDirName))
		return s, false
	}
	logJournal(ctx, err)
	warnDropped(s.Drops, &resp.Diagnostics)
	if !s.Claim.IsZero() {
		r.keepJob(ctx, s, plan, &etl.Job{ID: s.Claim.ID()}, resp)
	}
	return s, true
}

// keepJob keeps job, which exists, in the journal, then in state, before
// anything else can fail: a later failure leaves it in state (tainted)
// rather than forgotten, and a killed apply in the journal. A job the
// Create settled is in the journal already (SettleCreate holds it); a job
// it started is noted in the entries it may be the resource of. false:
// the state could not be set.
func (r *importResource) keepJob(ctx context.Context, s *importjob.Settled, plan *importModel, job *etl.Job, resp *resource.CreateResponse) bool {
	if r.journal != nil && r.ref(job.ID) != s.Claim {
		logJournal(ctx, r.journal.Started(s, r.ref(job.ID)))
	}
	plan.setJob(job)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	return !resp.Diagnostics.HasError()
}

// releaseCreate ends the Create's hold on its job, as it returns: cut
// short when its request was cancelled (Ctrl-C, or Terraform gone).
func (r *importResource) releaseCreate(ctx context.Context, s *importjob.Settled) {
	if r.journal == nil {
		return
	}
	cutShort := ctx.Err() != nil
	if cutShort {
		tflog.Info(ctx, "request cancelled: the job stays in the journal until a state is known to hold it")
	}
	logJournal(ctx, r.journal.Release(s, cutShort))
}

// resume settles the claimed job id in place of a new job, as
// importjob.Resume decides from the job as read now: it records the job
// in state, submits it when it was never submitted, and waits for it as
// configured. It returns false when the job ended without importing or is
// gone (then a new job imports the data, and a warning says why).
func (r *importResource) resume(ctx context.Context, plan *importModel, id string, timeout time.Duration, resp *resource.CreateResponse) bool {
	job, err := r.client.GetJob(ctx, id)
	if err != nil && !etl.IsNotFound(err) {
		// Keep the job in state (its details come with the next refresh),
		// so that the next apply resumes it again rather than forget it.
		resp.Diagnostics.AddError(fmt.Sprintf("Reading import job %s to resume it failed", id), explain(err))
		return true
	}
	facts := importjob.Resumed{Gone: err != nil, Submit: plan.Submit.ValueBool(), KeepFailed: plan.KeepFailed.ValueBool()}
	if job != nil {
		facts.Status = job.Status
	}
	d := importjob.Resume(facts)
	if d.StartNew {
		if facts.Gone {
			resp.Diagnostics.AddWarning(fmt.Sprintf("Import job %s no longer found; starting a new job", id),
				fmt.Sprintf("An earlier apply started job %s and was cut short before Terraform recorded it; this apply would have resumed it, but the service no longer knows it. A new job imports the data.", id))
		} else {
			resp.Diagnostics.AddWarning(fmt.Sprintf("Import job %s ended %s; starting a new job", id, facts.Status),
				fmt.Sprintf("An earlier apply started job %s and was cut short before Terraform recorded it; the job has since ended with status %s without importing its data, so a new job imports the data.", id, facts.Status))
		}
		return false
	}
	tflog.Info(ctx, "resuming import job an earlier apply left unrecorded", map[string]any{"job_id": id, "status": string(job.Status)})
	plan.setJob(job)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.AddAttributeWarning(path.Root("id"), fmt.Sprintf("Resumed import job %s", id),
		fmt.Sprintf("An earlier apply started job %s with this data and was cut short (a timeout, an interruption, a failed request, or a killed process). "+
			"This apply resumed that job (status %s) instead of starting a new one, so the data is imported once. "+
			"To import the data again on purpose, run: %s.", id, job.Status, replaceCommand))
	r.submitAndWait(ctx, plan, job, !d.Submit, timeout, resp)
	return true
}

// When the provider may settle an old job instead of starting one.
//
// Terraform plans the replacement of an object in one of two ways
// (internal/terraform/node_resource_abstract_instance.go, plan(), and
// OpenTofu's internal/tofu file of the same name):
//
//   - a tainted object (a create cut short, or terraform taint): one plan
//     with a null prior state and no prior private state;
//   - a live object replaced on request (-replace, replace_triggered_by)
//     or because an attribute requires it: a first plan of the live
//     object, then a second with a null prior state whose prior private
//     state is what the first planned.
//
// So every plan of a live object marks its planned private state with its
// job id (privateLiveKey, planJobChange), and the plan of a new object records what it imports
// (plannedCreate) and whether it replaces a live object. The Delete half
// of the replacement receives that private state: only the Delete of a
// tainted object whose job has the same definition hands the job over to
// the Create that follows (the Create's own plan at apply carries no
// private state, so the Delete decides). A replacement that was asked for
// imports again, every time.

// plannedCreate is what the plan of a new object records in its planned
// private state.
type plannedCreate struct {
	// Definition is the key of what the new job imports
	// (importSpec.definition).
	Definition string `json:"definition"`
	// Replaces is the job of the live object this plan replaces (a
	// replacement asked for, by the user or a change); "" for a tainted
	// object or a new one.
	Replaces string `json:"replaces,omitempty"`
}

// recordPlannedCreate stores in the planned private state what a new
// object's plan imports, when all of it is known, and which live job it
// replaces (from prior, the plan's prior private state). A replacement
// planned again at apply, right before its Create (one created before
// its destroy), tells that Create which job it replaces (NoteReplacement):
// the framework gives a Create no private state.
func (r *importResource) recordPlannedCreate(ctx context.Context, plan importModel, prior, p privateStore, diags *diag.Diagnostics) {
	pc := plannedCreate{}
	if id, ok := privateJSON[string](ctx, prior, privateLiveKey); ok {
		pc.Replaces = *id
		if r.journal != nil && r.client != nil {
			r.journal.NoteReplacement(r.journalKey(ctx, plan), r.ref(pc.Replaces), false)
		}
	}
	diags.Append(p.SetKey(ctx, privateLiveKey, nil)...)
	def, d := plan.spec().definition(ctx)
	diags.Append(d...)
	if def.Known() && known(plan.TemplateID) && known(plan.ContentSHA256) {
		pc.Definition = def.String()
		r.previewResume(ctx, pc, diags)
	} else if pc.Replaces == "" {
		// Unknown data cannot be matched: a tainted job is not resumed,
		// but a replacement asked for is still told apart.
		return
	}
	setPrivateJSON(ctx, p, privatePlannedCreateKey, pc, diags)
}

// previewResume says, in the plan of a new object, which job an apply cut
// short left that the apply will settle instead of starting one
// (importjob.Preview): a reviewer sees that this create imports nothing
// new. Terraform shows no warning of the second plan of a replacement.
func (r *importResource) previewResume(ctx context.Context, pc plannedCreate, diags *diag.Diagnostics) {
	if r.journal == nil || r.client == nil {
		return
	}
	c := importjob.Create{Key: importjob.NewKey(r.client.BaseURL(), pc.Definition)}
	if pc.Replaces != "" {
		c.Replaces = r.ref(pc.Replaces)
	}
	e, err := r.journal.Preview(c)
	logJournal(ctx, err)
	if e == nil {
		return
	}
	id := e.Job.ID()
	diags.AddAttributeWarning(path.Root("id"), fmt.Sprintf("Import job %s will be resumed", id),
		fmt.Sprintf("An earlier apply started job %s with this data for this change and was cut short (the provider's journal of started jobs holds the job). "+
			"The apply resumes job %s instead of starting a new one (it submits and waits for it as configured), unless the job has ended without importing by then. "+
			"To import the data again instead, apply, then run: %s.", id, id, replaceCommand))
}

// notSettledWhy says, by reason, why a job an apply cut short left is
// dropped from the journal without being settled (importjob.Reason).
var notSettledWhy = map[importjob.Reason]string{
	importjob.PriorReplaced:  "An earlier apply was cut short while it replaced job %[2]s with job %[1]s. This apply replaces job %[2]s with other data, the data the configuration holds now, so job %[1]s is not resumed.",
	importjob.PriorDestroyed: "An earlier apply was cut short while it replaced job %[2]s with job %[1]s. Job %[2]s is destroyed now, so job %[1]s is not resumed.",
	importjob.MovedOn: "An earlier apply started job %[1]s and was cut short before Terraform recorded it. This etl_import may be the resource it was for: it imported other data since, " +
		"and is now replaced or destroyed, so job %[1]s is not resumed (Terraform never tells a provider which resource an operation is for).",
}

// warnDropped warns of each job dropped from the journal without being
// settled, naming it, why, and the command that adopts it instead.
func warnDropped(drops []importjob.Drop, diags *diag.Diagnostics) {
	for _, d := range drops {
		id, prior := d.Entry.Job.ID(), d.Entry.Prior.ID()
		diags.AddWarning(fmt.Sprintf("Import job %s not resumed: its data stays in the model", id),
			fmt.Sprintf(notSettledWhy[d.Reason], id, prior)+" "+
				fmt.Sprintf("Job %[1]s is removed from the provider's journal of started jobs; nothing is sent to the service, and the data job %[1]s imported, if any, stays in the model. "+
					"To keep job %[1]s in the state instead, adopt it: terraform state rm '<address>' if the resource holds another job, then terraform import '<address>' %[1]s, where <address> is this etl_import's.", id))
	}
}
