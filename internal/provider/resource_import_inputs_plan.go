package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// Planning inputs: keys resolved to the template's input ids, each input
// hashed (and its file checked) as the top-level file is, and the one
// content_sha256 over them all.

// planData returns the plan's content_sha256 and the plan-time checks of
// the data: the top-level file or rows (with a warning when the template
// has several input steps), or the inputs.
func (r *importResource) planData(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, hc *hashCache) (types.String, []inputEntry, diag.Diagnostics) {
	wo, diags := readWriteOnly(ctx, req.Config)
	if diags.HasError() {
		return types.StringUnknown(), nil, diags
	}
	if plan.Inputs.IsNull() {
		sum, d := planContentHash(ctx, plan, wo, hc)
		diags.Append(d...)
		if !diags.HasError() && r.createsJob(ctx, req, plan) {
			r.warnSeveralSteps(ctx, plan, &diags)
		}
		return sum, nil, diags
	}
	diags.Append(checkSubmitWithInputs(ctx, req)...)
	sum, entries, d := r.planInputs(ctx, plan, !req.State.Raw.IsNull(), wo, hc.diskOnly())
	diags.Append(d...)
	return sum, entries, diags
}

// createsJob reports whether the plan creates the job, or replaces it for
// another template.
func (r *importResource) createsJob(ctx context.Context, req resource.ModifyPlanRequest, plan importModel) bool {
	if req.State.Raw.IsNull() {
		return true
	}
	var prior types.String
	req.State.GetAttribute(ctx, path.Root("template_id"), &prior)
	return !prior.Equal(plan.TemplateID)
}

// planInputsHash resolves the keys of inputs against the template, hashes
// each input and returns content_sha256; unknown when a value it needs is.
// hasState: the job exists, so an unknown hash would plan a replacement.
// wo holds the inputs' write-only content; a file's hash comes from hc
// when it can (nil: every file is read).
func (r *importResource) planInputsHash(ctx context.Context, plan importModel, hasState bool, wo writeOnlyData, hc *hashCache) (types.String, diag.Diagnostics) {
	sum, _, diags := r.planInputs(ctx, plan, hasState, wo, hc)
	return sum, diags
}

// planInputs is planInputsHash, with the entry of each input it hashed
// (nil when the hash is unknown).
func (r *importResource) planInputs(ctx context.Context, plan importModel, hasState bool, wo writeOnlyData, hc *hashCache) (types.String, []inputEntry, diag.Diagnostics) {
	ins, isKnown, diags := inputsFrom(ctx, plan.Inputs)
	if !isKnown || diags.HasError() || !known(plan.TemplateID) {
		return types.StringUnknown(), nil, diags
	}
	if r.client == nil {
		if hasState {
			diags.AddAttributeError(path.Root("inputs"), "Inputs cannot be resolved",
				"The keys of inputs are resolved against the template's steps at plan time, but the etl provider is not configured during this plan "+
					"(its settings are unknown until apply). Without them this plan could not tell whether the job's data changed, and would start a second job. "+
					"Apply the resources the provider's settings come from first (terraform apply -target=...), or set them from values known at plan time.")
		}
		return types.StringUnknown(), nil, diags
	}
	t, steps, d := r.resolveInputs(ctx, plan.TemplateID.ValueString(), ins)
	diags.Append(d...)
	if diags.HasError() {
		return types.StringUnknown(), nil, diags
	}
	warnStepsNotLoaded(t, steps, &diags)
	entries := make([]inputEntry, 0, len(ins))
	for _, in := range ins {
		e, d := planInputEntry(ctx, in, steps[in.key], wo.forInput(in.key), hc)
		diags.Append(inInput(in.key, d)...)
		if e != nil {
			e.StepName, e.Position = steps[in.key].StepName, slices.IndexFunc(t.Steps, func(s etl.Step) bool { return s.InputID == e.InputID })
			entries = append(entries, *e)
		}
	}
	if diags.HasError() || len(entries) < len(ins) {
		return types.StringUnknown(), nil, diags
	}
	return types.StringValue(inputsHash(entries)), entries, diags
}

// resolveInputs reads the template and resolves the keys of ins to its
// steps; errors are on the template_id or on the key.
func (r *importResource) resolveInputs(ctx context.Context, templateID string, ins []keyedInput) (*etl.Template, map[string]etl.Step, diag.Diagnostics) {
	var diags diag.Diagnostics
	t, err := r.template(ctx, templateID)
	if err != nil {
		diags.AddAttributeError(path.Root("template_id"), fmt.Sprintf("Reading template %s failed", templateID),
			fmt.Sprintf("The keys of inputs are resolved against the template's steps, read from the service: %s.%s", err, hintOf(err)))
		return nil, nil, diags
	}
	keys := make([]string, len(ins))
	for i, in := range ins {
		keys[i] = in.key
	}
	steps, d := resolveInputKeys(t, keys)
	return t, steps, d
}

// resolveInputKeys maps each key to the template's step it names: the
// step with that input id, else the one step with that name. A key that
// names no step, a name that several steps share, and two keys naming the
// same input are errors on the key.
func resolveInputKeys(t *etl.Template, keys []string) (map[string]etl.Step, diag.Diagnostics) {
	var diags diag.Diagnostics
	byName := map[string][]etl.Step{}
	for _, s := range t.Steps {
		byName[s.StepName] = append(byName[s.StepName], s)
	}
	out := make(map[string]etl.Step, len(keys))
	claimed := map[string]string{} // input id -> key
	for _, k := range keys {
		i := slices.IndexFunc(t.Steps, func(s etl.Step) bool { return s.InputID == k })
		var s etl.Step
		switch named := byName[k]; {
		case i >= 0:
			s = t.Steps[i]
		case len(named) == 1:
			s = named[0]
		case len(named) > 1:
			diags.AddAttributeError(inputPath(k), "Step name not unique",
				fmt.Sprintf("Template %s (%q) has %d steps named %q, so that name cannot say which input to load: key each of them by its input id instead. %s",
					t.ID, t.Name, len(named), k, describeSteps(t)))
			continue
		default:
			diags.AddAttributeError(inputPath(k), "Unknown input step",
				fmt.Sprintf("The inputs key %q is neither a step name nor an input id of template %s (%q). %s", k, t.ID, t.Name, describeSteps(t)))
			continue
		}
		if other, dup := claimed[s.InputID]; dup {
			diags.AddAttributeError(inputPath(k), "Input given twice",
				fmt.Sprintf("The inputs keys %q and %q both name the input %s (step %q) of template %s: keep one of them.", other, k, s.InputID, s.StepName, t.ID))
			continue
		}
		claimed[s.InputID] = k
		out[k] = s
	}
	return out, diags
}

// describeSteps lists a template's input steps with their input ids.
func describeSteps(t *etl.Template) string {
	if len(t.Steps) == 0 {
		return "The template has no input steps: run it with inputs = {} (the job is created, then submitted)."
	}
	var b strings.Builder
	b.WriteString("Its input steps are (key each input by step name or input id):")
	for _, s := range t.Steps {
		fmt.Fprintf(&b, "\n  - %q: input id %s (%s)", s.StepName, s.InputID, s.DataType)
	}
	return b.String()
}

// warnStepsNotLoaded warns about the template's steps that no input loads.
func warnStepsNotLoaded(t *etl.Template, steps map[string]etl.Step, diags *diag.Diagnostics) {
	loaded := map[string]bool{}
	for _, s := range steps {
		loaded[s.InputID] = true
	}
	var missing []string
	for _, s := range t.Steps {
		if !loaded[s.InputID] {
			missing = append(missing, fmt.Sprintf("%q (input id %s)", s.StepName, s.InputID))
		}
	}
	if len(missing) == 0 {
		return
	}
	diags.AddAttributeWarning(path.Root("inputs"), "Template steps without input",
		fmt.Sprintf("No input of inputs loads these steps of template %s (%q): %s. What the service does with a job submitted with an input missing is not documented "+
			"(it may fail, or import part of the data): add them to inputs.", t.ID, t.Name, strings.Join(missing, ", ")))
}

// warnSeveralSteps warns when the single file or rows go to a template
// with more than one input step. The lookup is best effort: a template
// that cannot be read is reported by the start itself.
func (r *importResource) warnSeveralSteps(ctx context.Context, plan importModel, diags *diag.Diagnostics) {
	if r.client == nil || !known(plan.TemplateID) {
		return
	}
	t, err := r.template(ctx, plan.TemplateID.ValueString())
	if err != nil || len(t.Steps) < 2 {
		return
	}
	at := "file"
	if !plan.Rows.IsNull() {
		at = "rows"
	}
	names := make([]string, len(t.Steps))
	for i, s := range t.Steps {
		names[i] = fmt.Sprintf("%q", s.StepName)
	}
	diags.AddAttributeWarning(path.Root(at), "Template has several input steps",
		fmt.Sprintf("Template %s (%q) has %d input steps: %s. %s sends one file with start with file, and which step the service loads it into is not documented. "+
			"To load each step, use inputs instead, keyed by step name, such as:\n\n  inputs = {\n    %s = { file = { path = \"...\" } }\n    %s = { rows = [[\"...\"]] }\n  }",
			t.ID, t.Name, len(t.Steps), strings.Join(names, ", "), at, names[0], names[1]))
}

// checkSubmitWithInputs: a job with inputs runs only once submitted. An
// explicit submit = false is a warning; waiting on a job that is never
// submitted could only time out, so that is an error.
func checkSubmitWithInputs(ctx context.Context, req resource.ModifyPlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	var submit, wait types.Bool
	diags.Append(req.Config.GetAttribute(ctx, path.Root("submit"), &submit)...)
	diags.Append(req.Config.GetAttribute(ctx, path.Root("wait_for_completion"), &wait)...)
	if submit.IsNull() || submit.IsUnknown() || submit.ValueBool() {
		return diags
	}
	if wait.ValueBool() {
		diags.AddAttributeError(path.Root("wait_for_completion"), "Waiting on a job that is not submitted",
			"With inputs and submit = false, the job is created and loaded but never submitted, so it never runs: waiting for it to finish could only time out. "+
				"Remove submit = false (with inputs, submit defaults to true), or set wait_for_completion = false.")
		return diags
	}
	diags.AddAttributeWarning(path.Root("submit"), "Job will not be submitted",
		"With submit = false, the job is created and its inputs are loaded, but it is not submitted: it stays EDITING, never runs, "+
			"and the service expires it after a while. Set submit = true (the default with inputs) to run it.")
	return diags
}
