package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The data facts of each input (columns, row_count, size_bytes inside each
// entry of inputs), planned as the top-level ones are
// (resource_import_data_facts.go, common_data_facts.go): an input's file
// is counted in the read that hashes it (planInputEntry), its rows as the
// CSV file they are sent as. The action's inputs have none
// (actionInputsAttribute).

// inputFactsNote ends each input's description: when a value is known.
const inputFactsNote = " Known at plan when the data is."

// inputFactsAttributes are the facts of one input, as the top-level ones
// (dataFactsAttributes) are of the file or rows.
func inputFactsAttributes() map[string]schema.Attribute {
	return factsAttributes("This input's header row's cells; null for write-only data."+inputFactsNote,
		"How many data rows, after the header, the service imports into this input."+inputFactsNote,
		"How many bytes this input sends."+inputFactsNote)
}

// writeOnlyInput reports whether in's file holds write-only content (wo:
// the input's write-only data).
func writeOnlyInput(ctx context.Context, in keyedInput, wo writeOnlyData) bool {
	f, _ := fileFrom(ctx, in.File)
	if f == nil {
		return false
	}
	_, name := wo.withContent(*f).inline()
	return name == "content_wo"
}

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
		f := unknownFacts(writeOnlyInput(ctx, in, wo.forInput(in.key)))
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
	if req.State.Raw.IsNull() {
		return nil
	}
	var state importModel
	if d := req.State.Get(ctx, &state); d.HasError() || !known(state.ContentSHA256) || !state.ContentSHA256.Equal(plan.ContentSHA256) {
		return nil
	}
	ins, isKnown, _ := inputsFrom(ctx, state.Inputs)
	if !isKnown {
		return nil
	}
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
