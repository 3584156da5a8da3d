package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// Planning inputs, as the resource's plan and the action's plan (and its
// invocation, which checks again) both do: keys resolved to the
// template's steps, each input hashed and its file checked as the
// top-level file is, and the rules of submit with inputs.

// resolveInputs reads the template (through the client's cache) and resolves the keys
// of ins to its steps (importjob.Template.ResolveKeys); errors are on the
// template_id or on the key, and lie outside the configuration
// (outsideError): the template is the service's.
func (r *jobRunner) resolveInputs(ctx context.Context, templateID string, ins []keyedInput) (importjob.Template, map[string]importjob.Step, diag.Diagnostics) {
	var diags diag.Diagnostics
	et, err := r.client.CachedTemplate(ctx, templateID)
	if err != nil {
		addOutsideError(&diags, path.Root("template_id"), fmt.Sprintf("Reading template %s failed", templateID),
			"The keys of inputs are resolved against the template's steps, read from the service: "+explain(err))
		return importjob.Template{}, nil, diags
	}
	keys := make([]string, len(ins))
	for i, in := range ins {
		keys[i] = in.key
	}
	t := templateOf(et)
	steps, problems := t.ResolveKeys(keys)
	for _, p := range problems {
		addOutsideError(&diags, inputPath(p.Key), keyProblemSummaries[p.Kind], p.Detail)
	}
	return t, steps, diags
}

// keyProblemSummaries titles each problem of a key of inputs.
var keyProblemSummaries = map[importjob.KeyProblemKind]string{
	importjob.KeyUnknown:   "Unknown input step",
	importjob.KeyNotUnique: "Step name not unique",
	importjob.KeyTwice:     "Input given twice",
}

// warnStepsNotLoaded warns about the template's steps that no input loads
// (importjob.Template.NotLoaded).
func warnStepsNotLoaded(t importjob.Template, steps map[string]importjob.Step, diags *diag.Diagnostics) {
	if detail := t.NotLoaded(steps); detail != "" {
		diags.AddAttributeWarning(path.Root("inputs"), "Template steps without input", detail)
	}
}

// planInputEntries hashes each input of ins (whose keys resolveInputs
// resolved to steps of t), checking a file in the same read as the
// top-level file is checked; each problem is on the input's attribute.
// entries[i] is ins[i]'s, with the step it loads; nil when a value it
// needs is unknown or an input has a problem. wo holds the inputs'
// write-only content (the resource's); hc the hash cache (nil: every file
// is read).
func planInputEntries(ctx context.Context, t importjob.Template, steps map[string]importjob.Step, ins []keyedInput, wo writeOnlyData, hc *hashCache) ([]inputEntry, diag.Diagnostics) {
	var diags diag.Diagnostics
	entries := make([]inputEntry, 0, len(ins))
	for _, in := range ins {
		e, d := planInputEntry(ctx, in, steps[in.key], wo.forInput(in.key), hc)
		diags.Append(inInput(in.key, d)...)
		if e != nil {
			e.StepName, e.Position = steps[in.key].Name, t.Position(e.InputID)
			entries = append(entries, *e)
		}
	}
	if diags.HasError() || len(entries) < len(ins) {
		return nil, diags
	}
	return entries, diags
}

// checkSubmitWithInputs: a job with inputs runs only once submitted. An
// explicit submit = false (submit as configured) is a warning; waiting on
// a job that is never submitted could only time out, so that is an error.
func checkSubmitWithInputs(submit, wait types.Bool) diag.Diagnostics {
	var diags diag.Diagnostics
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
