package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// Planning inputs, as the resource's plan and the action's plan (and its
// invocation, which checks again) both do: keys resolved to the
// template's steps, each input hashed and its file checked as the
// top-level file is, and the rules of submit with inputs.

// resolveInputs reads the template (r.templates) and resolves the keys
// of ins to its steps; errors are on the template_id or on the key, and
// lie outside the configuration (outsideError): the template is the
// service's.
func (r *jobRunner) resolveInputs(ctx context.Context, templateID string, ins []keyedInput) (*etl.Template, map[string]etl.Step, diag.Diagnostics) {
	var diags diag.Diagnostics
	t, err := r.templates.get(ctx, r.client, templateID)
	if err != nil {
		addOutsideError(&diags, path.Root("template_id"), fmt.Sprintf("Reading template %s failed", templateID),
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
			addOutsideError(&diags, inputPath(k), "Step name not unique",
				fmt.Sprintf("Template %s (%q) has %d steps named %q, so that name cannot say which input to load: key each of them by its input id instead. %s",
					t.ID, t.Name, len(named), k, describeSteps(t)))
			continue
		default:
			addOutsideError(&diags, inputPath(k), "Unknown input step",
				fmt.Sprintf("The inputs key %q is neither a step name nor an input id of template %s (%q). %s", k, t.ID, t.Name, describeSteps(t)))
			continue
		}
		if other, dup := claimed[s.InputID]; dup {
			addOutsideError(&diags, inputPath(k), "Input given twice",
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

// stepPosition is the position of the step with inputID in t's steps.
func stepPosition(t *etl.Template, inputID string) int {
	return slices.IndexFunc(t.Steps, func(s etl.Step) bool { return s.InputID == inputID })
}

// planInputEntries hashes each input of ins (whose keys resolveInputs
// resolved to steps of t), checking a file in the same read as the
// top-level file is checked; each problem is on the input's attribute.
// entries[i] is ins[i]'s, with the step it loads; nil when a value it
// needs is unknown or an input has a problem. wo holds the inputs'
// write-only content (the resource's); hc the caches of file hashes (nil:
// every file is read).
func planInputEntries(ctx context.Context, t *etl.Template, steps map[string]etl.Step, ins []keyedInput, wo writeOnlyData, hc *hashCache) ([]inputEntry, diag.Diagnostics) {
	var diags diag.Diagnostics
	entries := make([]inputEntry, 0, len(ins))
	for _, in := range ins {
		e, d := planInputEntry(ctx, in, steps[in.key], wo.forInput(in.key), hc)
		diags.Append(inInput(in.key, d)...)
		if e != nil {
			e.StepName, e.Position = steps[in.key].StepName, stepPosition(t, e.InputID)
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
