package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

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
// So every plan of a live object marks its planned private state
// (privateLiveKey), and the plan of a new object records what it imports
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

// markLive records in the planned private state of a live object its job
// id: the second plan of its replacement, if any, sees it.
func markLive(ctx context.Context, id string, p privateSetter, diags *diag.Diagnostics) {
	setPrivateJSON(ctx, p, privateLiveKey, id, diags)
}

// recordPlannedCreate stores in the planned private state what a new
// object's plan imports, when all of it is known, and which live job it
// replaces (from prior, the plan's prior private state). A replacement
// planned again at apply, right before its Create (one created before
// its destroy), tells that Create which job it replaces (NoteReplacement):
// the framework gives a Create no private state.
func (r *importResource) recordPlannedCreate(ctx context.Context, plan importModel, prior privateGetter, p privateSetter, diags *diag.Diagnostics) {
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
	if !def.Known() || !known(plan.TemplateID) || !known(plan.ContentSHA256) {
		// Unknown data cannot be matched: a tainted job is not resumed,
		// but a replacement asked for is still told apart.
		if pc.Replaces == "" {
			return
		}
	} else {
		pc.Definition = def.String()
		r.previewResume(ctx, pc, diags)
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

// plannedCreateFrom reads what recordPlannedCreate stored; nil when none.
func plannedCreateFrom(ctx context.Context, p privateGetter) *plannedCreate {
	pc, _ := privateJSON[plannedCreate](ctx, p, privatePlannedCreateKey)
	return pc
}

// warnReplaced says, at apply, that the Delete of a replacement asked for
// leaves the job and its data: Terraform shows no warning of the plan of
// a replacement's new object, so the plan of a -replace cannot say it.
func warnReplaced(state importModel, diags *diag.Diagnostics) {
	jobID := state.ID.ValueString()
	diags.AddWarning(fmt.Sprintf("Import job %s replaced: its data stays in the model", jobID),
		fmt.Sprintf("This etl_import was replaced (terraform apply -replace, replace_triggered_by, or a change that defines the import), so a new job imports the data again. "+
			"Job %s (status %s) is only removed from the Terraform state: the data it imported stays in the model, and nothing is deleted from the service.", jobID, state.Status.ValueString()))
}
