package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// Creating a job with inputs: create the job (EDITING), record it in
// state, load each input into it, and leave submitting and waiting to
// Create. A load that fails cancels the job, best effort, and the error
// returns with the job in state (tainted): no job is left untracked. The
// steps the action shares are in common_inputs.go. An update in place
// fills what its plan left unknown (fillInputs).

// createWithInputs creates the job and loads every input; it returns the
// job, or nil after an error (with the job in state if it was created).
func (r *importResource) createWithInputs(ctx context.Context, plan *importModel, wo writeOnlyData, cs *importjob.Settled, resp *resource.CreateResponse) *etl.Job {
	loads, entries, ok := r.prepareInputs(ctx, plan, wo, &resp.Diagnostics)
	defer closeLoads(loads)
	if !ok {
		return nil
	}
	templateID := plan.TemplateID.ValueString()
	tflog.Debug(ctx, "creating import job for inputs", map[string]any{"template_id": templateID, "inputs": len(loads), "sha256": plan.ContentSHA256.ValueString()})
	job := r.createJob(ctx, templateID, &resp.Diagnostics)
	if job == nil {
		return nil
	}
	if !r.keepJob(ctx, cs, plan, job, resp) {
		return nil
	}
	if cancelled, ok := r.loadInputs(ctx, templateID, job, loads, nil, &resp.Diagnostics); !ok {
		// Its status after the cancel (nil when the cancel failed) in
		// state, without content_sha256, so that no later apply resumes
		// it (importjob.HandsOver).
		if cancelled != nil {
			plan.setJob(cancelled)
		}
		plan.ContentSHA256 = types.StringNull()
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
		return nil
	}
	saveInputSteps(ctx, entries, resp.Private, &resp.Diagnostics)
	return job
}

// prepareInputs resolves the inputs against the template, fills their
// defaults into plan, opens (and hashes) every file and checks the hash
// over them all against the plan's, before anything is created. wo holds
// the inputs' write-only content.
func (r *importResource) prepareInputs(ctx context.Context, plan *importModel, wo writeOnlyData, diags *diag.Diagnostics) ([]inputLoad, []inputEntry, bool) {
	ins, isKnown, d := inputsFrom(ctx, plan.Inputs)
	diags.Append(d...)
	if !isKnown || diags.HasError() {
		addStillUnknown(diags, path.Root("inputs"), atApply)
		return nil, nil, false
	}
	t, steps, d := r.resolveInputs(ctx, plan.TemplateID.ValueString(), ins)
	diags.Append(d...)
	if diags.HasError() {
		return nil, nil, false
	}
	// A file whose hash the disk cache holds for it as it is now is not
	// read first: that hash is the one its bytes are checked against as
	// they are sent (the plan took it, or trusted it, in the same way).
	planned := make(map[string]types.String, len(ins))
	for _, in := range ins {
		planned[in.key] = cachedFileSHA256(ctx, in.File, r.hashCache)
	}
	loads, entries, ok := prepareInputLoads(ctx, t, steps, ins, wo, planned, diags)
	if !ok {
		return loads, nil, false
	}
	m, d := inputsValue(ctx, ins)
	diags.Append(d...)
	plan.Inputs = m
	sum := inputsHash(entries)
	if known(plan.ContentSHA256) && plan.ContentSHA256.ValueString() != sum {
		diags.AddAttributeError(path.Root("inputs"), summaryDataChanged,
			fmt.Sprintf("The data to import changed between plan and apply: the SHA-256 over the inputs is now %s, the plan has %s "+
				"(an input's bytes, format or encoding changed, or the template's input ids). Nothing was sent and no job was created, "+
				"so that data other than the planned data is never imported. Run terraform plan again.", sum, plan.ContentSHA256.ValueString()))
		return loads, nil, false
	}
	plan.ContentSHA256 = types.StringValue(sum)
	return loads, entries, !diags.HasError()
}

// fillInputs fills, for an update in place, what the plan left unknown:
// the defaults of the inputs' files (by the top-level file's rule,
// resolveFile) and content_sha256. wo holds the write-only data.
func (r *importResource) fillInputs(ctx context.Context, plan *importModel, wo writeOnlyData) diag.Diagnostics {
	ins, isKnown, diags := inputsFrom(ctx, plan.Inputs)
	if !isKnown || diags.HasError() {
		return diags
	}
	for i := range ins {
		if ins[i].File.IsNull() {
			continue
		}
		s := importSpec{File: ins[i].File}
		_, d := resolveFile(ctx, &s)
		diags.Append(inInput(ins[i].key, d)...)
		ins[i].File = s.File
	}
	if diags.HasError() {
		return diags
	}
	v, d := inputsValue(ctx, ins)
	diags.Append(d...)
	plan.Inputs = v
	if plan.ContentSHA256.IsUnknown() {
		sum, _, d := r.planInputsHash(ctx, *plan, true, wo, nil)
		diags.Append(d...)
		plan.ContentSHA256 = sum
	}
	return diags
}
