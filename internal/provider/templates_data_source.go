package provider

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

var (
	_ datasource.DataSourceWithConfigure        = (*templatesDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*templateDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*templateDataSource)(nil)
)

// templateItem is one element of etl_templates.templates.
type templateItem struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	LastRunTime types.Int64  `tfsdk:"last_run_time"`
	ModelID     types.String `tfsdk:"model_id"`
	ModelName   types.String `tfsdk:"model_name"`
}

func lastRunTime(t etl.Template) types.Int64 {
	if t.LastRunTime == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*t.LastRunTime)
}

// templateFilter narrows templates by model and name.
type templateFilter struct {
	ModelID, ModelName, Name string
	NameRegex                *regexp.Regexp
}

func (f templateFilter) match(t etl.Template) bool {
	return (f.ModelID == "" || t.ModelID == f.ModelID) &&
		(f.ModelName == "" || t.ModelName == f.ModelName) &&
		(f.Name == "" || t.Name == f.Name) &&
		(f.NameRegex == nil || f.NameRegex.MatchString(t.Name))
}

func filterTemplates(ts []etl.Template, f templateFilter) []etl.Template {
	var out []etl.Template
	for _, t := range ts {
		if f.match(t) {
			out = append(out, t)
		}
	}
	return out
}

// describeTemplates lists templates as `name (id, model)`, one a line.
func describeTemplates(ts []etl.Template) string {
	lines := make([]string, 0, len(ts))
	for _, t := range ts {
		lines = append(lines, fmt.Sprintf("  - %s (%s, %s)", t.Name, t.ID, t.ModelName))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func optString(v types.String) string {
	if v.IsNull() || v.IsUnknown() {
		return ""
	}
	return v.ValueString()
}

// ---- etl_templates ----

func newTemplatesDataSource() datasource.DataSource { return &templatesDataSource{} }

type templatesDataSource struct{ client *etl.Client }

type templatesModel struct {
	ModelID   types.String   `tfsdk:"model_id"`
	ModelName types.String   `tfsdk:"model_name"`
	NameRegex types.String   `tfsdk:"name_regex"`
	Templates []templateItem `tfsdk:"templates"`
}

func (d *templatesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_templates"
}

func (d *templatesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the import (ETL) templates the token may use, in the service's order, optionally filtered by model and name.",
		Attributes: map[string]schema.Attribute{
			"model_id": schema.StringAttribute{
				MarkdownDescription: "Only templates of the model with this id.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"model_name": schema.StringAttribute{
				MarkdownDescription: "Only templates of the model with this name (exact match).",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"name_regex": schema.StringAttribute{
				MarkdownDescription: "Only templates whose name matches this regular expression ([RE2 syntax](https://github.com/google/re2/wiki/Syntax); unanchored: use `^...$` for a whole-name match).",
				Optional:            true,
				Validators:          []validator.String{regexpValidator{}},
			},
			"templates": schema.ListNestedAttribute{
				MarkdownDescription: "The matching templates, in the service's order.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id":            schema.StringAttribute{MarkdownDescription: "The template id.", Computed: true},
						"name":          schema.StringAttribute{MarkdownDescription: "The template name. Names are not unique.", Computed: true},
						"last_run_time": schema.Int64Attribute{MarkdownDescription: "When a job of the template last ran, in milliseconds since the Unix epoch; null when it never ran.", Computed: true},
						"model_id":      schema.StringAttribute{MarkdownDescription: "The id of the template's model.", Computed: true},
						"model_name":    schema.StringAttribute{MarkdownDescription: "The name of the template's model.", Computed: true},
					},
				},
			},
		},
	}
}

func (d *templatesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *templatesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m templatesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	f := templateFilter{ModelID: optString(m.ModelID), ModelName: optString(m.ModelName)}
	if re := optString(m.NameRegex); re != "" {
		var err error
		if f.NameRegex, err = regexp.Compile(re); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("name_regex"), "Invalid regular expression", err.Error())
			return
		}
	}
	all, err := d.client.ListTemplates(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Listing templates failed", err.Error()+"."+hintOf(err))
		return
	}
	m.Templates = []templateItem{}
	for _, t := range filterTemplates(all, f) {
		m.Templates = append(m.Templates, templateItem{
			ID: types.StringValue(t.ID), Name: types.StringValue(t.Name), LastRunTime: lastRunTime(t),
			ModelID: types.StringValue(t.ModelID), ModelName: types.StringValue(t.ModelName),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// ---- etl_template ----

func newTemplateDataSource() datasource.DataSource { return &templateDataSource{} }

type templateDataSource struct{ client *etl.Client }

type stepItem struct {
	StepName types.String `tfsdk:"step_name"`
	DataType types.String `tfsdk:"data_type"`
	InputID  types.String `tfsdk:"input_id"`
}

type templateModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	ModelID     types.String `tfsdk:"model_id"`
	ModelName   types.String `tfsdk:"model_name"`
	LastRunTime types.Int64  `tfsdk:"last_run_time"`
	Steps       []stepItem   `tfsdk:"steps"`
}

func (d *templateDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (d *templateDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks one import (ETL) template up by `id`, or by `name` optionally narrowed by `model_id` or `model_name`, " +
			"and exposes its fields and steps. No match, or several, is an error that lists the candidates.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The template id. Exactly one of `id` and `name` must be set.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The template name (exact match). Names are not unique across models: narrow with `model_id` or `model_name` when several templates share it.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"model_id": schema.StringAttribute{
				MarkdownDescription: "With `name`: only a template of the model with this id. Otherwise, the id of the template's model.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"model_name": schema.StringAttribute{
				MarkdownDescription: "With `name`: only a template of the model with this name. Otherwise, the name of the template's model.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"last_run_time": schema.Int64Attribute{
				MarkdownDescription: "When a job of the template last ran, in milliseconds since the Unix epoch; null when it never ran.",
				Computed:            true,
			},
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
	}
}

func (d *templateDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
		datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot("model_id")),
		datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot("model_name")),
	}
}

func (d *templateDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *templateDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m templateModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	id := optString(m.ID)
	if id == "" {
		all, err := d.client.ListTemplates(ctx)
		if err != nil {
			resp.Diagnostics.AddError("Listing templates failed", err.Error()+"."+hintOf(err))
			return
		}
		f := templateFilter{Name: optString(m.Name), ModelID: optString(m.ModelID), ModelName: optString(m.ModelName)}
		found := filterTemplates(all, f)
		switch {
		case len(found) == 1:
			id = found[0].ID
		case len(found) == 0:
			candidates := filterTemplates(all, templateFilter{Name: f.Name})
			what := "templates with that name in other models"
			if len(candidates) == 0 {
				candidates, what = all, "templates this token may use"
			}
			detail := fmt.Sprintf("No template matches %s.", f.describe())
			if len(candidates) > 0 {
				detail += fmt.Sprintf(" The %s are:\n%s", what, describeTemplates(candidates))
			} else {
				detail += " The token may use no template at all: check its permissions (Read Model)."
			}
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Template not found", detail)
			return
		default:
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Several templates match",
				fmt.Sprintf("%d templates match %s; narrow the lookup with model_id or model_name, or use id. The candidates are:\n%s",
					len(found), f.describe(), describeTemplates(found)))
			return
		}
	}
	t, err := d.client.GetTemplate(ctx, id)
	if err != nil {
		at := path.Root("name")
		if !m.ID.IsNull() {
			at = path.Root("id")
		}
		resp.Diagnostics.AddAttributeError(at, fmt.Sprintf("Reading template %s failed", id), err.Error()+"."+hintOf(err))
		return
	}
	m.ID = types.StringValue(t.ID)
	m.Name = types.StringValue(t.Name)
	m.ModelID = types.StringValue(t.ModelID)
	m.ModelName = types.StringValue(t.ModelName)
	m.LastRunTime = lastRunTime(*t)
	m.Steps = []stepItem{}
	for _, s := range t.Steps {
		m.Steps = append(m.Steps, stepItem{StepName: types.StringValue(s.StepName), DataType: types.StringValue(s.DataType), InputID: types.StringValue(s.InputID)})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (f templateFilter) describe() string {
	s := fmt.Sprintf("name %q", f.Name)
	if f.ModelID != "" {
		s += fmt.Sprintf(", model_id %q", f.ModelID)
	}
	if f.ModelName != "" {
		s += fmt.Sprintf(", model_name %q", f.ModelName)
	}
	return s
}
