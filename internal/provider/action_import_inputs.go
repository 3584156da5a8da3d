package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// The action's inputs: the resource's inputs (the same keys, rules,
// plan-time checks and loading, shared in common_inputs*.go), with one new
// job per invocation and nothing kept.

// actionInputsDescription describes the action's inputs in its own words:
// invocations, not the resource's changes.
const actionInputsDescription = "One input per input step of the template, keyed by step name or input id (`data.etl_template` lists them in `steps`), " +
	"each with exactly one of `file` and `rows`: each invocation creates a job, loads the inputs in step order, then submits it. " +
	"Exactly one of `file`, `rows` and `inputs` is set."

// actionInputsAttribute returns the action's inputs: the resource's
// (inputsAttribute: the same validators, its rows, and its file block as
// actionFileAttributes makes it), described for invocations.
func actionInputsAttribute() schema.Attribute {
	res, _ := inputsAttribute().(rschema.MapNestedAttribute)
	file, _ := res.NestedObject.Attributes["file"].(rschema.SingleNestedAttribute)
	rows, _ := res.NestedObject.Attributes["rows"].(rschema.ListAttribute)
	return schema.MapNestedAttribute{
		MarkdownDescription: actionInputsDescription,
		Optional:            true,
		Validators:          res.Validators,
		NestedObject: schema.NestedAttributeObject{
			Attributes: map[string]schema.Attribute{
				"file": schema.SingleNestedAttribute{
					MarkdownDescription: invocationDescription(file.MarkdownDescription),
					Optional:            true,
					Attributes:          actionFileAttributes(file),
					Validators:          file.Validators,
				},
				"rows": schema.ListAttribute{
					MarkdownDescription: invocationDescription(rows.MarkdownDescription),
					ElementType:         rows.ElementType,
					Optional:            true,
					Validators:          rows.Validators,
				},
			},
		},
	}
}

// specInputs returns the action's inputs as the spec's (the resource's
// inputs type, inputAttrTypes): each file with content_wo null and its
// defaults filled in (withDefaults), values unknown kept unknown.
func (a importActionModel) specInputs(ctx context.Context) (types.Map, diag.Diagnostics) {
	typ := types.ObjectType{AttrTypes: inputAttrTypes}
	switch {
	case a.Inputs.IsNull():
		return types.MapNull(typ), nil
	case a.Inputs.IsUnknown():
		return types.MapUnknown(typ), nil
	}
	var diags diag.Diagnostics
	out := make(map[string]attr.Value, len(a.Inputs.Elements()))
	for k, e := range a.Inputs.Elements() {
		obj, _ := e.(types.Object)
		switch {
		case obj.IsUnknown():
			out[k] = types.ObjectUnknown(inputAttrTypes)
			continue
		case obj.IsNull():
			out[k] = types.ObjectNull(inputAttrTypes)
			continue
		}
		attrs := obj.Attributes()
		file, _ := attrs["file"].(types.Object)
		rows, _ := attrs["rows"].(types.List)
		f, d := specFile(ctx, file)
		diags.Append(d...)
		none := nullFacts()
		v, d := types.ObjectValue(inputAttrTypes, map[string]attr.Value{"file": f, "rows": rows,
			"columns": none.Columns, "row_count": none.RowCount, "size_bytes": none.SizeBytes})
		diags.Append(d...)
		out[k] = v
	}
	if diags.HasError() {
		return types.MapUnknown(typ), diags
	}
	m, d := types.MapValue(typ, out)
	diags.Append(d...)
	return m, diags
}

// planInputs checks the inputs at plan as the resource's plan does: the
// keys resolved against the template (errors on the key, and a warning for
// the steps no input loads) and each input hashed and checked as a file
// (its format and encoding, the widths of its rows). Without a client (the
// provider's settings unknown during this plan) or a known template_id,
// the keys cannot be resolved, but the inputs' data is still checked; the
// invocation checks everything again.
func (a *importAction) planInputs(ctx context.Context, s importSpec) diag.Diagnostics {
	ins, isKnown, diags := inputsFrom(ctx, s.Inputs)
	if !isKnown || diags.HasError() {
		return diags
	}
	t, steps := importjob.Template{}, map[string]importjob.Step{}
	if a.client != nil && known(s.TemplateID) {
		var d diag.Diagnostics
		t, steps, d = a.runner(nil).resolveInputs(ctx, s.TemplateID.ValueString(), ins)
		diags.Append(d...)
		if diags.HasError() {
			return diags
		}
		warnStepsNotLoaded(t, steps, &diags)
	}
	_, d := planInputEntries(ctx, t, steps, ins, writeOnlyData{}, nil)
	diags.Append(d...)
	return diags
}

// runInputs runs one invocation with inputs: the inputs checked again (as
// planInputs does: the files may have changed since the plan, and the hash
// each file has now is the one its bytes are checked against as they are
// sent), one job created, each input loaded in the template's step order
// with its progress, then the job submitted and waited for as configured
// (finish). A failed load cancels the job and fails the invocation.
func (a *importAction) runInputs(ctx context.Context, s importSpec, timeout time.Duration, p *actionProgress, diags *diag.Diagnostics) {
	ins, isKnown, d := inputsFrom(ctx, s.Inputs)
	diags.Append(d...)
	if !isKnown || diags.HasError() {
		addStillUnknown(diags, path.Root("inputs"), whenInvoked)
		return
	}
	r := a.runner(p)
	templateID := s.TemplateID.ValueString()
	t, steps, d := r.resolveInputs(ctx, templateID, ins)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	// hc off: each file is read, and counted in that read (entries' Facts).
	entries, d := planInputEntries(ctx, t, steps, ins, writeOnlyData{}, &hashCache{})
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	if entries == nil {
		addStillUnknown(diags, path.Root("inputs"), whenInvoked)
		return
	}
	planned := make(map[string]types.String, len(ins))
	p.inputFacts = make(map[string]dataFacts, len(ins))
	for i, in := range ins {
		planned[in.key] = types.StringValue(entries[i].SHA256)
		if entries[i].facts != nil {
			p.inputFacts[entries[i].InputID] = *entries[i].facts
		}
	}
	loads, _, ok := prepareInputLoads(ctx, t, steps, ins, writeOnlyData{}, planned, diags)
	defer closeLoads(loads)
	if !ok {
		return
	}

	p.send(fmt.Sprintf("Creating an import job from template %s to load %s", templateID, importjob.CountInputs(len(loads))))
	job := r.createJob(ctx, templateID, diags)
	if job == nil {
		return
	}
	p.send(fmt.Sprintf("Import job %s created: %s", job.ID, job.Status))
	if _, ok := r.loadInputs(ctx, templateID, job, loads, p.reportLoad, diags); !ok {
		return
	}
	p.send(fmt.Sprintf("Import job %s: %s loaded", job.ID, importjob.CountInputs(len(loads))))
	a.finish(ctx, r, s, job, timeout, p, diags)
}
