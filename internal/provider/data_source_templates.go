package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// The data sources of templates: etl_templates lists the templates the
// token may use, filtered by model and name; etl_template looks one up by
// id, or by name narrowed by model, and reads it whole.

// templateItem holds one element of etl_templates.templates, and what
// etl_template says of its template but its steps.
type templateItem struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	LastRunTime types.Int64  `tfsdk:"last_run_time"`
	ModelID     types.String `tfsdk:"model_id"`
	ModelName   types.String `tfsdk:"model_name"`
}

// templateItemOf is t as the data sources say it; last_run_time is null
// when it never ran.
func templateItemOf(t etl.Template) templateItem {
	m := templateItem{ID: types.StringValue(t.ID), Name: types.StringValue(t.Name), LastRunTime: types.Int64Null(),
		ModelID: types.StringValue(t.ModelID), ModelName: types.StringValue(t.ModelName)}
	if t.LastRunTime != nil {
		m.LastRunTime = types.Int64Value(*t.LastRunTime)
	}
	return m
}

// lastRunTimeDescription describes last_run_time in both data sources.
const lastRunTimeDescription = "When a job of the template last ran, in milliseconds since the Unix epoch; null when it never ran."

// templatesModel holds the etl_templates data source's filters (model_id,
// model_name, name_regex) and the templates that match them.
type templatesModel struct {
	ModelID   types.String   `tfsdk:"model_id"`
	ModelName types.String   `tfsdk:"model_name"`
	NameRegex types.String   `tfsdk:"name_regex"`
	Templates []templateItem `tfsdk:"templates"`
}

// regexpValidator checks etl_templates' name_regex (regexpProblem).
var regexpValidator = stringRule{summary: summaryInvalidRegexp, description: "must be a valid regular expression (RE2 syntax)", rule: regexpProblem}

// regexpProblem says what is wrong with s, a filter of template names
// given as the attribute name, when it is not a Go (RE2) regular
// expression, or "".
func regexpProblem(name, s string) string {
	if _, err := regexp.Compile(s); err != nil {
		return fmt.Sprintf("%s is not a valid regular expression (RE2 syntax, https://github.com/google/re2/wiki/Syntax): %s.", name, err)
	}
	return ""
}

func newTemplatesDataSource() datasource.DataSource {
	filter := func(desc string, v validator.String) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Optional: true, Validators: []validator.String{v}}
	}
	return &dataSource[templatesModel]{name: "templates", read: readTemplates, schema: schema.Schema{
		MarkdownDescription: "Lists the import (ETL) templates the token may use, in the service's order, optionally filtered by model and name.",
		Attributes: map[string]schema.Attribute{
			"model_id":   filter("Only templates of the model with this id.", stringvalidator.LengthAtLeast(1)),
			"model_name": filter("Only templates of the model with this name (exact match).", stringvalidator.LengthAtLeast(1)),
			"name_regex": filter("Only templates whose name matches this regular expression ([RE2 syntax](https://github.com/google/re2/wiki/Syntax); "+
				"unanchored: use `^...$` for a whole-name match).", regexpValidator),
			"templates": schema.ListNestedAttribute{
				MarkdownDescription: "The matching templates, in the service's order.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id":            schema.StringAttribute{MarkdownDescription: "The template id.", Computed: true},
						"name":          schema.StringAttribute{MarkdownDescription: "The template name. Names are not unique.", Computed: true},
						"last_run_time": schema.Int64Attribute{MarkdownDescription: lastRunTimeDescription, Computed: true},
						"model_id":      schema.StringAttribute{MarkdownDescription: "The id of the template's model.", Computed: true},
						"model_name":    schema.StringAttribute{MarkdownDescription: "The name of the template's model.", Computed: true},
					},
				},
			},
		},
	}}
}

// readTemplates lists the templates the token may use and keeps those the
// filters match, in the service's order. name_regex is checked again
// here: its validator skips a value that was unknown at plan.
func readTemplates(ctx context.Context, c *etl.Client, m *templatesModel, diags *diag.Diagnostics) {
	f := etl.TemplateFilter{ModelID: m.ModelID.ValueString(), ModelName: m.ModelName.ValueString()}
	if re := m.NameRegex.ValueString(); re != "" {
		if problem := regexpProblem("name_regex", re); problem != "" {
			diags.AddAttributeError(path.Root("name_regex"), summaryInvalidRegexp, problem)
			return
		}
		f.NameRegex = regexp.MustCompile(re)
	}
	all, err := c.ListTemplates(ctx)
	if err != nil {
		diags.AddError(summaryListingTemplates, explain(err))
		return
	}
	m.Templates = []templateItem{}
	for _, t := range etl.FilterTemplates(all, f) {
		m.Templates = append(m.Templates, templateItemOf(t))
	}
}

// stepItem holds one element of etl_template.steps.
type stepItem struct {
	StepName types.String `tfsdk:"step_name"`
	DataType types.String `tfsdk:"data_type"`
	InputID  types.String `tfsdk:"input_id"`
}

// templateModel holds the etl_template data source's configuration and
// state: the lookup (id, or name with model_id or model_name), then the
// template's fields and steps.
type templateModel struct {
	templateItem
	Steps []stepItem `tfsdk:"steps"`
}

// newTemplateDataSource returns etl_template: id, name, model_id and
// model_name, each either part of the lookup or computed from the
// template found, and the computed last_run_time and steps. Exactly one of
// id and name is set; model_id and model_name only narrow a lookup by
// name.
func newTemplateDataSource() datasource.DataSource {
	lookup := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Optional: true, Computed: true, Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
	}
	return &dataSource[templateModel]{name: "template", read: readTemplate, schema: schema.Schema{
		MarkdownDescription: "Looks one import (ETL) template up by `id`, or by `name` optionally narrowed by `model_id` or `model_name`, " +
			"and exposes its fields and steps. No match, or several, is an error that lists the candidates.",
		Attributes: map[string]schema.Attribute{
			"id": lookup("The template id. Exactly one of `id` and `name` must be set."),
			"name": lookup("The template name (exact match). Names are not unique across models: " +
				"narrow with `model_id` or `model_name` when several templates share it."),
			"model_id":      lookup("With `name`: only a template of the model with this id. Otherwise, the id of the template's model."),
			"model_name":    lookup("With `name`: only a template of the model with this name. Otherwise, the name of the template's model."),
			"last_run_time": schema.Int64Attribute{MarkdownDescription: lastRunTimeDescription, Computed: true},
			"steps": schema.ListNestedAttribute{
				MarkdownDescription: "The template's steps, in order.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"step_name": schema.StringAttribute{MarkdownDescription: "The step's name.", Computed: true},
						"data_type": schema.StringAttribute{MarkdownDescription: "The kind of data the step handles.", Computed: true},
						"input_id":  schema.StringAttribute{MarkdownDescription: "The id of the job input the step reads.", Computed: true},
					},
				},
			},
		},
	}, validators: []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
		datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot("model_id")),
		datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot("model_name")),
	}}
}

// readTemplate looks the template up by id, or by name (findTemplate, then
// its id), and reads it whole.
func readTemplate(ctx context.Context, c *etl.Client, m *templateModel, diags *diag.Diagnostics) {
	id, at := m.ID.ValueString(), path.Root("id")
	if id == "" {
		at = path.Root("name")
		all, err := c.ListTemplates(ctx)
		if err != nil {
			diags.AddError(summaryListingTemplates, explain(err))
			return
		}
		f := etl.TemplateFilter{Name: m.Name.ValueString(), ModelID: m.ModelID.ValueString(), ModelName: m.ModelName.ValueString()}
		var summary, detail string
		if id, summary, detail = findTemplate(all, f); id == "" {
			diags.AddAttributeError(at, summary, detail)
			return
		}
	}
	t, err := c.GetTemplate(ctx, id)
	if err != nil {
		diags.AddAttributeError(at, fmt.Sprintf("Reading template %s failed", id), explain(err))
		return
	}
	m.templateItem, m.Steps = templateItemOf(*t), []stepItem{}
	for _, s := range t.Steps {
		m.Steps = append(m.Steps, stepItem{StepName: types.StringValue(s.StepName), DataType: types.StringValue(s.DataType), InputID: types.StringValue(s.InputID)})
	}
}

// findTemplate returns the id of the one template of all that f, a lookup
// by name, matches; else "", and the summary and detail of the error that
// lists the candidates: the templates f matches, or for none those of
// that name in other models, else every template the token may use.
func findTemplate(all []etl.Template, f etl.TemplateFilter) (id, summary, detail string) {
	lookup := fmt.Sprintf("name %q", f.Name)
	if f.ModelID != "" {
		lookup += fmt.Sprintf(", model_id %q", f.ModelID)
	}
	if f.ModelName != "" {
		lookup += fmt.Sprintf(", model_name %q", f.ModelName)
	}
	switch found := etl.FilterTemplates(all, f); {
	case len(found) == 1:
		return found[0].ID, "", ""
	case len(found) > 1:
		return "", "Several templates match", fmt.Sprintf("%d templates match %s; narrow the lookup with model_id or model_name, or use id. The candidates are:\n%s",
			len(found), lookup, describeTemplates(found))
	}
	detail = "No template matches " + lookup + "."
	if others := etl.FilterTemplates(all, etl.TemplateFilter{Name: f.Name}); len(others) > 0 {
		return "", "Template not found", detail + " The templates with that name in other models are:\n" + describeTemplates(others)
	}
	if len(all) == 0 {
		return "", "Template not found", detail + " The token may use no template at all: check its permissions (Read Model)."
	}
	return "", "Template not found", detail + " The templates this token may use are:\n" + describeTemplates(all)
}

// describeTemplates lists templates as `name (id, model)`, one a line.
func describeTemplates(ts []etl.Template) string {
	lines := make([]string, 0, len(ts))
	for _, t := range ts {
		lines = append(lines, fmt.Sprintf("  - %s (%s, %s)", t.Name, t.ID, t.ModelName))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
