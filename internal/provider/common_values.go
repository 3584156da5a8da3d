package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// What every kind of object does with the framework's values: helpers,
// the validators of attributes, the timeouts read, and a template read
// from the service as importjob's rules read it.

// known reports whether v holds a value: neither null nor unknown.
func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }

// stringList is ss as a list of strings.
func stringList(ss []string) types.List {
	vs := make([]attr.Value, len(ss))
	for i, s := range ss {
		vs[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, vs)
}

// columnsType is the type of a row: a list of strings.
var columnsType = types.ListType{ElemType: types.StringType}

// stringsOf is vs as strings.
func stringsOf[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// stringRule is a validator made of a rule: null and unknown values pass
// (checked again once known); a value the rule rejects is an error on the
// attribute, titled summary, or "Invalid <attribute>".
//
// A rule returns "" for a good value, else the diagnostic's detail: what
// is wrong, where the value came from and what to do. The rules of the
// provider's settings (hubProblem, baseURLProblem, parseDuration,
// pemProblem) are resolveConfig's too, which checks a value again with its
// environment variable.
type stringRule struct {
	summary     string
	description string
	rule        func(name, value string) string
}

// partHeaderValidator checks file.name and file.part_name
// (etl.PartHeaderProblem, the upload's rule).
var partHeaderValidator = stringRule{summary: "Character a multipart header cannot carry",
	description: "must not contain control characters other than tab (such as CR or LF)", rule: etl.PartHeaderProblem}

// Description returns what the rule requires, such as "must be a
// positive duration".
func (v stringRule) Description(context.Context) string { return v.description }

// MarkdownDescription returns Description.
func (v stringRule) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateString applies the rule to a known value and reports its detail
// as an error on the attribute.
func (v stringRule) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	name := req.Path.String()
	if detail := v.rule(name, req.ConfigValue.ValueString()); detail != "" {
		summary := v.summary
		if summary == "" {
			summary = "Invalid " + name
		}
		resp.Diagnostics.AddAttributeError(req.Path, summary, detail)
	}
}

// maxRowDiagnostics bounds how many ragged rows are reported one by one.
const maxRowDiagnostics = 10

// rowsValidator checks rows at plan time: at least a header row, a header
// with at least one column, and every row as wide as the header. Unknown
// rows or cells are skipped (checked again once known).
type rowsValidator struct{}

// Description returns what the validator requires of rows.
func (rowsValidator) Description(context.Context) string {
	return "must hold a header row of column names first, and every row must have as many cells as the header"
}

// MarkdownDescription returns Description.
func (v rowsValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateList reports a null row and the first null cell, then the
// problems etl.CheckRows finds in the rows as far as they are known (at
// most maxRowDiagnostics ragged rows one by one), each on the row or cell
// to fix.
func (rowsValidator) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	rows, _, nulls := rowsOf(req.ConfigValue)
	for _, n := range nulls {
		if n[1] < 0 {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(n[0]), "Null row",
				fmt.Sprintf("%s[%d] is null: every row must be a list of cells, like the header row.", req.Path.String(), n[0]))
		} else {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(n[0]).AtListIndex(n[1]), "Null cell",
				fmt.Sprintf("%s[%d][%d] is null: use \"\" for an empty cell.", req.Path.String(), n[0], n[1]))
		}
	}
	for _, p := range etl.CheckRows(req.Path.String(), rows, maxRowDiagnostics) {
		at := req.Path
		if p.Row >= 0 {
			at = at.AtListIndex(p.Row)
			if p.Cell >= 0 {
				at = at.AtListIndex(p.Cell)
			}
		}
		resp.Diagnostics.AddAttributeError(at, rowsProblemSummaries[p.Kind], p.Message+".")
	}
}

// rowsOf reads rows, a list of rows of cells, as far as it is known: an
// unknown or null row is nil, an unknown cell "(unknown)" and a null one
// "(null)" (each counts, and is not a blank name); known is false when the
// list, a row or a cell is unknown. nulls are where each null row is
// ({row, -1}) and the first null cell ({row, cell}), in order.
func rowsOf(l types.List) (rows [][]string, known bool, nulls [][2]int) {
	known, rows = !l.IsUnknown(), make([][]string, len(l.Elements()))
	nullCell := false
	for i, e := range l.Elements() {
		row, _ := e.(types.List)
		switch {
		case row.IsUnknown():
			known = false
			continue
		case row.IsNull():
			nulls = append(nulls, [2]int{i, -1})
			continue
		}
		rows[i] = make([]string, len(row.Elements()))
		for j, c := range row.Elements() {
			switch s, _ := c.(types.String); {
			case s.IsUnknown():
				known, rows[i][j] = false, "(unknown)"
			case s.IsNull():
				rows[i][j] = "(null)"
				if !nullCell {
					nullCell, nulls = true, append(nulls, [2]int{i, j})
				}
			default:
				rows[i][j] = s.ValueString()
			}
		}
	}
	return rows, known, nulls
}

// rowsProblemSummaries maps each problem etl.CheckRows finds to the
// summary of its diagnostic.
var rowsProblemSummaries = map[etl.RowsProblemKind]string{
	etl.RowsEmpty:           "Empty rows",
	etl.RowsEmptyHeader:     "Empty header row",
	etl.RowsEmptyColumnName: "Empty column name",
	etl.RowsWidth:           summaryRowWidth,
	etl.RowsMore:            "More rows of unequal width",
}

// exactlyOneOfSiblings requires exactly one of an attribute and its
// sibling attributes (by name) to be set, relative to where the attribute
// is (the top-level file, or the file of one of inputs). It stands in for
// the framework validators' ExactlyOneOf with a relative path, whose
// message prints the unresolved expressions (such as
// [file.path.<.content]); this one names the attributes as a user writes
// them ([file.path,file.content]), so it serves every sibling rule.
type exactlyOneOfSiblings []string

// Description names the attribute's siblings of which exactly one, with
// it, must be set.
func (v exactlyOneOfSiblings) Description(context.Context) string {
	return fmt.Sprintf("exactly one of this attribute and %v must be set", []string(v))
}

// MarkdownDescription returns Description.
func (v exactlyOneOfSiblings) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

// ValidateString applies the rule to a string attribute, such as
// file.path beside file.content.
func (v exactlyOneOfSiblings) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v.validate(ctx, req.Path, req.ConfigValue, req.Config, &resp.Diagnostics)
}

// ValidateObject applies the rule to an object attribute, such as an
// input's file beside its rows.
func (v exactlyOneOfSiblings) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	v.validate(ctx, req.Path, req.ConfigValue, req.Config, &resp.Diagnostics)
}

// validate counts the attribute at at (whose value is val) and its
// siblings that are set, once all of them are known.
func (v exactlyOneOfSiblings) validate(ctx context.Context, at path.Path, val attr.Value, cfg tfsdk.Config, diags *diag.Diagnostics) {
	if val.IsUnknown() {
		return
	}
	names := []string{at.String()}
	set := 0
	if !val.IsNull() {
		set++
	}
	for _, name := range v {
		p := at.ParentPath().AtName(name)
		var sib attr.Value
		if d := cfg.GetAttribute(ctx, p, &sib); d.HasError() {
			diags.Append(d...)
			return
		}
		if sib.IsUnknown() {
			return
		}
		if !sib.IsNull() {
			set++
		}
		names = append(names, p.String())
	}
	all := "[" + strings.Join(names, ",") + "]"
	switch {
	case set == 0:
		diags.AddAttributeError(at, "Invalid Attribute Combination",
			fmt.Sprintf("No attribute specified when one (and only one) of %s is required", all))
	case set > 1:
		diags.AddAttributeError(at, "Invalid Attribute Combination",
			fmt.Sprintf("%d attributes specified when one (and only one) of %s is required", set, all))
	}
}

// configuredTimeout returns what get reads when the timeouts object sets
// name, else def without calling get: the timeouts library logs an INFO
// line ("... timeout configuration not found") for every default it
// falls back to, which would stand in every create's log.
func configuredTimeout(ctx context.Context, timeouts types.Object, name string, def time.Duration,
	get func(context.Context, time.Duration) (time.Duration, diag.Diagnostics),
) (time.Duration, diag.Diagnostics) {
	if timeouts.IsNull() || timeouts.IsUnknown() {
		return def, nil
	}
	if v, ok := timeouts.Attributes()[name]; !ok || v.IsNull() || v.IsUnknown() {
		return def, nil
	}
	return get(ctx, def)
}

// templateOf is t, read from the service (through the client's cache,
// etl.Client.CachedTemplate), as importjob's rules read it.
func templateOf(t *etl.Template) importjob.Template {
	out := importjob.Template{ID: t.ID, Name: t.Name, ModelID: t.ModelID, ModelName: t.ModelName, Steps: make([]importjob.Step, len(t.Steps))}
	for i, s := range t.Steps {
		out.Steps[i] = importjob.Step{Name: s.StepName, InputID: s.InputID, DataType: s.DataType}
	}
	return out
}
