package provider

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// plannedCreate is what the plan of a new job (a plan with no prior
// state) records in its private state: the template and the data it
// imports. A replacement planned with no prior state is the replacement
// of a tainted object, one whose create failed after its job started. The Delete that comes first
// in a replacement receives this private state (Terraform hands the
// replacement's planned private state to both halves), and so learns
// whether the job it removes is the one the Create that follows would
// start again.
type plannedCreate struct {
	TemplateID    string `json:"template_id"`
	Kind          string `json:"kind"`
	ContentSHA256 string `json:"content_sha256"`
}

// recordPlannedCreate stores in the planned private state what a new
// job's plan imports, when all of it is known.
func recordPlannedCreate(ctx context.Context, plan importModel, p privateSetter, diags *diag.Diagnostics) {
	if known(plan.TemplateID) && known(plan.ContentSHA256) {
		setPrivateJSON(ctx, p, privatePlannedCreateKey, plannedCreate{plan.TemplateID.ValueString(), dataKind(plan), plan.ContentSHA256.ValueString()}, diags)
	}
}

// plannedCreateFrom reads what recordPlannedCreate stored; nil when none.
func plannedCreateFrom(ctx context.Context, p privateGetter) *plannedCreate {
	pc, _ := privateJSON[plannedCreate](ctx, p, privatePlannedCreateKey)
	return pc
}

// resumeKey identifies the data a job imports, for one client.
type resumeKey struct {
	client                       *etl.Client
	templateID, kind, contentSum string
}

// resumable holds, for this provider process, the jobs that a replacement's
// Delete handed over to the Create that follows it in the same apply
// (Terraform runs both in one provider process, Delete first).
var resumable = struct {
	sync.Mutex
	m map[resumeKey][]string // job ids
}{m: map[resumeKey][]string{}}

// handOver keeps job id for the Create that imports the same data.
func handOver(k resumeKey, id string) {
	resumable.Lock()
	defer resumable.Unlock()
	resumable.m[k] = append(resumable.m[k], id)
}

// claim takes a job handed over for k; false when there is none.
func claim(k resumeKey) (string, bool) {
	resumable.Lock()
	defer resumable.Unlock()
	ids := resumable.m[k]
	if len(ids) == 0 {
		return "", false
	}
	resumable.m[k] = ids[1:]
	return ids[0], true
}

// handsOver reports whether the Delete of state, whose replacement's plan
// is pc, hands the job over to that replacement's Create: the replaced
// object was tainted (pc is set only by a plan with no prior state), the
// job imports the same data, and it did not end without importing.
func handsOver(state importModel, pc *plannedCreate) bool {
	if pc == nil || isGone(state.Status) {
		return false
	}
	if pc.TemplateID != state.TemplateID.ValueString() || pc.Kind != dataKind(state) || pc.ContentSHA256 != state.ContentSHA256.ValueString() {
		return false
	}
	return !etl.JobStatus(state.Status.ValueString()).Failed()
}

// resumeKeyOf is the key of the data plan imports.
func (r *importResource) resumeKeyOf(m importModel) resumeKey {
	return resumeKey{r.client, m.TemplateID.ValueString(), dataKind(m), m.ContentSHA256.ValueString()}
}

// resume settles, in place of a new job, a job of the same data handed
// over by the Delete of a tainted object in this apply: it records the
// job in state, submits it when it was never submitted, and waits for it
// as configured. It returns false when there is no such job, or when the
// job ended without importing (then a new job imports the data, and a
// warning says why).
func (r *importResource) resume(ctx context.Context, plan *importModel, timeout time.Duration, resp *resource.CreateResponse) bool {
	if !known(plan.ContentSHA256) {
		return false
	}
	id, ok := claim(r.resumeKeyOf(*plan))
	if !ok {
		return false
	}
	job, err := r.client.GetJob(ctx, id)
	switch {
	case etl.IsNotFound(err):
		resp.Diagnostics.AddWarning(fmt.Sprintf("Import job %s no longer found; starting a new job", id),
			fmt.Sprintf("An earlier apply left job %s unsettled, and this apply would have resumed it, but the service no longer knows it. A new job imports the data.", id))
		return false
	case err != nil:
		// Keep the job in state (its details come with the next refresh),
		// so that the next apply resumes it again rather than forget it.
		plan.setJob(&etl.Job{ID: id})
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
		addRequestError(&resp.Diagnostics, fmt.Sprintf("Reading import job %s to resume it failed", id), err)
		return true
	case job.Status.Failed():
		resp.Diagnostics.AddWarning(fmt.Sprintf("Import job %s ended %s; starting a new job", id, job.Status),
			fmt.Sprintf("An earlier apply left job %s unsettled; it has since ended with status %s without importing its data, so a new job imports the data.", id, job.Status))
		return false
	}
	tflog.Info(ctx, "resuming import job an earlier apply left unsettled", map[string]any{"job_id": id, "status": string(job.Status)})
	plan.setJob(job)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.AddAttributeWarning(path.Root("id"), fmt.Sprintf("Resumed import job %s", id),
		fmt.Sprintf("An earlier apply started job %s with this data and was cut short (a timeout, an interruption or a failed request). "+
			"This apply settled that job (status %s when resumed) instead of starting a new one, so the data is imported once. "+
			"The plan showed a replacement because Terraform had marked the job tainted.", id, job.Status))
	r.submitAndWait(ctx, plan, job, wasSubmitted(job.Status), timeout, resp)
	return true
}
