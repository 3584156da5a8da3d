package provider

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The resource's inputs (a job created from a template with several input
// steps: each input is loaded into its own input of the job, then the job
// is submitted): their schema and submit default, their plan (keys
// resolved, each input hashed as the top-level file is, the one
// content_sha256 over them all), each input's data facts, and the steps
// kept in private state. Their model, plan-time checks and loading, which
// the action shares, are in common_inputs.go; Create's and Update's use of
// them in resource_import_inputs_load.go.

// inputsHashDescription documents content_sha256 for inputs: the one
// construction inputsHash implements.
const inputsHashDescription = " With `inputs`, one hash over every input ([how](../guides/several-inputs.md#what-content_sha256-covers))."

// inputsAttribute is etl_import.inputs.
func inputsAttribute() schema.Attribute {
	// The data facts of one input, as the top-level ones (the resource's
	// Schema) are of the file or rows: planned as those are, an input's
	// file counted in the read that hashes it (planInputEntry), its rows as
	// the CSV file they are sent as. The action's inputs have none
	// (actionInputsAttribute).
	attrs := factsAttributes("This input's header row's cells; null for write-only data."+inputFactsNote,
		"How many data rows, after the header, the service imports into this input."+inputFactsNote,
		"How many bytes this input sends."+inputFactsNote)
	attrs["file"] = inputFileAttribute()
	attrs["rows"] = schema.ListAttribute{
		MarkdownDescription: "Rows to load into this input, header row first, sent as a CSV file (`" + etl.CSVFileName + "`).",
		ElementType:         types.ListType{ElemType: types.StringType},
		Optional:            true,
		Validators:          []validator.List{rowsValidator{}},
	}
	return schema.MapNestedAttribute{
		MarkdownDescription: "One input per input step of the template, keyed by step name or input id (`data.etl_template` lists them in `steps`), " +
			"each with exactly one of `file` and `rows`. " + exactlyOneData,
		Optional:     true,
		Validators:   []validator.Map{mapvalidator.KeysAre(stringvalidator.LengthAtLeast(1))},
		NestedObject: schema.NestedAttributeObject{Attributes: attrs},
	}
}

// inputFileAttribute is the file block of one input: the top-level file
// block (fileAttribute: the same attributes, defaults, validators and
// descriptions) with exactly one of file and rows required beside it, and
// without the per-attribute replacement rule: what replaces a job with
// inputs is content_sha256, which covers each input's bytes, format and
// encoding, so moving a file or renaming it updates in place.
func inputFileAttribute() schema.Attribute {
	a, ok := fileAttribute().(schema.SingleNestedAttribute)
	if !ok {
		panic("fileAttribute is not a single nested attribute")
	}
	a.MarkdownDescription = "A file to load into this input, as the top-level `file`."
	a.Attributes = maps.Clone(a.Attributes)
	for name, at := range a.Attributes {
		if s, ok := at.(schema.StringAttribute); ok {
			s.PlanModifiers = slices.DeleteFunc(slices.Clone(s.PlanModifiers), func(m planmodifier.String) bool {
				_, isDefault := m.(fileDefault)
				return !isDefault
			})
			a.Attributes[name] = s
		}
	}
	a.Validators = append(slices.Clone(a.Validators), exactlyOneOfSiblings{"rows"})
	return a
}

// submitDefault plans submit when the configuration leaves it out: true
// with inputs (a created job runs only once submitted; one never
// submitted expires), false with file or rows.
type submitDefault struct{}

const submitDefaultDescription = "Defaults to true with inputs, false with file or rows."

func (submitDefault) Description(context.Context) string         { return submitDefaultDescription }
func (submitDefault) MarkdownDescription(context.Context) string { return submitDefaultDescription }

func (submitDefault) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if !req.ConfigValue.IsNull() {
		return
	}
	var inputs types.Map
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("inputs"), &inputs)...)
	resp.PlanValue = types.BoolValue(!inputs.IsNull())
}

// checkInputsConfig runs the file block's configuration check
// (checkFileConfig) on the file of every input whose values are known
// (checkInputFiles).
func checkInputsConfig(ctx context.Context, config tfsdk.Config) diag.Diagnostics {
	var m types.Map
	diags := config.GetAttribute(ctx, path.Root("inputs"), &m)
	if diags.HasError() {
		return diags
	}
	diags.Append(checkInputFiles(ctx, m)...)
	return diags
}

// planData returns the plan's content_sha256 and the plan-time checks of
// the data: the top-level file or rows (with a warning when the template
// has several input steps), or the inputs.
func (r *importResource) planData(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, hc *hashCache) (types.String, []inputEntry, diag.Diagnostics) {
	wo, diags := readWriteOnly(ctx, req.Config)
	if diags.HasError() {
		return types.StringUnknown(), nil, diags
	}
	if plan.Inputs.IsNull() {
		sum, d := planContentHash(ctx, plan.spec(), wo, hc, r.tuning.bodyLimit())
		diags.Append(d...)
		var prior types.String // the template of the job in state; null: none
		req.State.GetAttribute(ctx, path.Root("template_id"), &prior)
		if !diags.HasError() && !prior.Equal(plan.TemplateID) { // a new job
			r.warnSeveralSteps(ctx, plan, &diags)
		}
		return sum, nil, diags
	}
	var submit, wait types.Bool
	diags.Append(req.Config.GetAttribute(ctx, path.Root("submit"), &submit)...)
	diags.Append(req.Config.GetAttribute(ctx, path.Root("wait_for_completion"), &wait)...)
	diags.Append(checkSubmitWithInputs(submit, wait)...)
	sum, entries, d := r.planInputsHash(ctx, plan, !req.State.Raw.IsNull(), wo, hc)
	diags.Append(d...)
	return sum, entries, diags
}

// planInputsHash returns content_sha256 over the inputs (unknown when a
// value it needs is) and the entry of each input it hashed (nil when the
// hash is unknown): the inputs planned as the action's plan checks them
// (jobRunner.planInputs). hasState: the job exists, so an unknown hash
// would plan a replacement, and planning without a client fails. wo
// holds the inputs' write-only content; hc the hash cache (nil: every
// file is read).
func (r *importResource) planInputsHash(ctx context.Context, plan importModel, hasState bool, wo writeOnlyData, hc *hashCache) (types.String, []inputEntry, diag.Diagnostics) {
	ins, isKnown, diags := inputsFrom(ctx, plan.Inputs)
	if !isKnown || diags.HasError() {
		return types.StringUnknown(), nil, diags
	}
	if r.client == nil && hasState && known(plan.TemplateID) {
		diags.AddAttributeError(path.Root("inputs"), "Inputs cannot be resolved",
			"The keys of inputs are resolved against the template's steps at plan time, but the etl provider is not configured during this plan "+
				"(its settings are unknown until apply). Without them this plan could not tell whether the job's data changed, and would start a second job. "+
				"Apply the resources the provider's settings come from first (terraform apply -target=...), or set them from values known at plan time.")
	}
	entries, d := r.planInputs(ctx, plan.TemplateID, ins, wo, hc)
	diags.Append(d...)
	if entries == nil {
		return types.StringUnknown(), nil, diags
	}
	return types.StringValue(inputsHash(entries)), entries, diags
}

// warnSeveralSteps warns when the single file or rows go to a template
// with more than one input step (importjob.Template.SeveralSteps). The lookup is best effort: a template
// that cannot be read is reported by the start itself.
func (r *importResource) warnSeveralSteps(ctx context.Context, plan importModel, diags *diag.Diagnostics) {
	if r.client == nil || !known(plan.TemplateID) {
		return
	}
	t, err := r.client.CachedTemplate(ctx, plan.TemplateID.ValueString())
	if err != nil {
		return
	}
	at, how := "file", "`file` sends its data as one upload"
	if !plan.Rows.IsNull() {
		at, how = "rows", "`rows` are sent as one upload"
	}
	if detail := templateOf(t).SeveralSteps(how); detail != "" {
		diags.AddAttributeWarning(path.Root(at), "Template has several input steps", detail)
	}
}

// inputFactsNote ends each input's description: when a value is known.
const inputFactsNote = " Known at plan when the data is."

// planInputFacts sets in the plan the facts of each input: those of its
// entry (entries: the inputs hashed, in the key order of inputs; nil when
// the hash is unknown, and the facts then are too). For the same data as
// the state (content_sha256 unchanged), an input's state values are kept
// where the planned ones are unknown or the state's null (keepUnchanged):
// the plan of unchanged data, or after an upgrade, stays empty.
func planInputFacts(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, entries []inputEntry, resp *resource.ModifyPlanResponse) {
	ins, isKnown, d := inputsFrom(ctx, plan.Inputs)
	if !isKnown || d.HasError() {
		return
	}
	wo, _ := readWriteOnly(ctx, req.Config)
	prior := priorInputs(ctx, req, plan)
	for i, in := range ins {
		f := unknownFacts(false)
		if file, _ := fileFrom(ctx, in.File); file != nil {
			_, name := wo.forInput(in.key).withContent(*file).inline()
			f = unknownFacts(name == "content_wo")
		}
		if len(entries) == len(ins) && entries[i].facts != nil {
			f = *entries[i].facts
		}
		if s, ok := prior[in.key]; ok {
			f = keepUnchanged(f, s.dataFacts)
		}
		setPlannedFacts(ctx, resp, inputPath(in.key), f)
	}
}

// priorInputs returns the state's inputs by key when the state imports the
// same data as plan (the same known content_sha256); nil otherwise.
func priorInputs(ctx context.Context, req resource.ModifyPlanRequest, plan importModel) map[string]inputModel {
	var state importModel
	if req.State.Raw.IsNull() || req.State.Get(ctx, &state).HasError() || !known(state.ContentSHA256) || !state.ContentSHA256.Equal(plan.ContentSHA256) {
		return nil
	}
	ins, _, _ := inputsFrom(ctx, state.Inputs)
	out := make(map[string]inputModel, len(ins))
	for _, in := range ins {
		out[in.key] = in.inputModel
	}
	return out
}

// fillInputFacts, at apply, fills the facts of each input left unknown at
// plan from its data, now known (a file is read again to count it); a
// value still not known is null.
func fillInputFacts(ctx context.Context, m *importModel, wo writeOnlyData) {
	ins, isKnown, d := inputsFrom(ctx, m.Inputs)
	if !isKnown || d.HasError() {
		return
	}
	for i, in := range ins {
		if in.unknownAny() {
			ins[i].dataFacts = in.fill(inputFactsNow(ctx, in, wo.forInput(in.key)))
		}
	}
	if v, d := inputsValue(ctx, ins); !d.HasError() {
		m.Inputs = v
	}
}

// inputFactsNow counts the data of in (wo: its write-only data) as it is
// now.
func inputFactsNow(ctx context.Context, in keyedInput, wo writeOnlyData) dataFacts {
	if !in.Rows.IsNull() {
		rows, ok := rowsFrom(in.Rows)
		if !ok {
			return unknownFacts(false)
		}
		return factsOfInputRows(rows)
	}
	f, _ := fileFrom(ctx, in.File)
	if f == nil {
		return nullFacts()
	}
	var diags diag.Diagnostics // shown at plan already
	var rec *localfile.Record
	if known(f.Path) {
		rec, _ = readFileRecord(withDefaults(*f), &diags)
	}
	return factsOfFile(wo.withContent(*f), rec, &diags)
}

// saveInputSteps keeps, in the planned private state (and so in the
// job's), the entries of a job with inputs: which step of the template
// each input loads, and the input id that step had. A later plan compares
// them with the template as it is then (importjob.SameStepsNewIDs).
func saveInputSteps(ctx context.Context, entries []inputEntry, p privateStore, diags *diag.Diagnostics) {
	if entries != nil {
		setPrivateJSON(ctx, p, privateInputStepsKey, entries, diags)
	}
}

// inputStepsFrom reads what saveInputSteps kept; nil when nothing.
func inputStepsFrom(ctx context.Context, p privateStore) []inputEntry {
	if e, ok := privateJSON[[]inputEntry](ctx, p, privateInputStepsKey); ok {
		return *e
	}
	return nil
}

// rehashed reports whether the plan recorded a new content_sha256 for the
// same data (importjob.ChangePlan.Rehash).
func rehashed(ctx context.Context, p privateStore) bool {
	v, _ := p.GetKey(ctx, privateRehashedKey)
	return len(v) > 0
}
