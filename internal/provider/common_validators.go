package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

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

// The validators of string attributes, each a stringRule over one rule.
var (
	// hubValidator checks the provider's hub (hubProblem).
	hubValidator = stringRule{description: "must be lower-case letters and digits, such as us2",
		rule: func(_, v string) string { return hubProblem(v) }}
	// baseURLValidator checks the provider's base_url (baseURLProblem).
	baseURLValidator = stringRule{description: "must be an absolute https URL, or http to a loopback host",
		rule: func(_, v string) string { return baseURLProblem(v) }}
	// durationValidator checks the provider's retry_wait_min,
	// retry_wait_max and request_timeout (parseDuration).
	durationValidator = stringRule{description: `must be a positive duration such as "500ms", "30s" or "2m"`,
		rule: func(name, v string) string { _, p := parseDuration(name, v); return p }}
	// pemValidator checks the provider's ca_cert_pem (pemProblem).
	pemValidator = stringRule{description: "must hold at least one PEM certificate",
		rule: func(_, v string) string { return pemProblem([]byte(v)) }}
	// partHeaderValidator checks file.name and file.part_name
	// (etl.PartHeaderProblem, the upload's rule).
	partHeaderValidator = stringRule{summary: "Character a multipart header cannot carry",
		description: "must not contain control characters other than tab (such as CR or LF)", rule: etl.PartHeaderProblem}
)

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
	name := attrName(req.Path)
	if detail := v.rule(name, req.ConfigValue.ValueString()); detail != "" {
		summary := v.summary
		if summary == "" {
			summary = "Invalid " + name
		}
		resp.Diagnostics.AddAttributeError(req.Path, summary, detail)
	}
}

// attrName renders a path the way a user writes it, such as file.format.
func attrName(p path.Path) string { return p.String() }

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
	// The rows as far as they are known: an unknown row is nil (skipped),
	// an unknown cell a placeholder (it counts, and is not a blank name).
	elems := req.ConfigValue.Elements()
	rows := make([][]string, len(elems))
	nullCell := false
	for i, e := range elems {
		l, ok := e.(types.List)
		if !ok || l.IsUnknown() {
			continue
		}
		if l.IsNull() {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Null row",
				fmt.Sprintf("%s[%d] is null: every row must be a list of cells, like the header row.", attrName(req.Path), i))
			continue
		}
		cells := l.Elements()
		row := make([]string, len(cells))
		for j, c := range cells {
			s, ok := c.(types.String)
			switch {
			case !ok || s.IsUnknown():
				row[j] = "(unknown)"
			case s.IsNull():
				row[j] = "(null)"
				if !nullCell {
					nullCell = true
					resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i).AtListIndex(j), "Null cell",
						fmt.Sprintf("%s[%d][%d] is null: use \"\" for an empty cell.", attrName(req.Path), i, j))
				}
			default:
				row[j] = s.ValueString()
			}
		}
		rows[i] = row
	}
	for _, p := range etl.CheckRows(attrName(req.Path), rows, maxRowDiagnostics) {
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
