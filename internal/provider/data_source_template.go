package provider

import (
	"context"
	"errors"
	"fmt"

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

var (
	_ datasource.DataSourceWithConfigure        = (*templateDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*templateDataSource)(nil)
)

// newTemplateDataSource returns an unconfigured etl_template data source;
// the provider's DataSources lists it.
func newTemplateDataSource() datasource.DataSource { return &templateDataSource{} }

// templateDataSource is the etl_template data source: it looks one
// template up by id, or by name narrowed by model, and reads it whole.
type templateDataSource struct{ dataSourceClient }

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
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	ModelID     types.String `tfsdk:"model_id"`
	ModelName   types.String `tfsdk:"model_name"`
	LastRunTime types.Int64  `tfsdk:"last_run_time"`
	Steps       []stepItem   `tfsdk:"steps"`
}

// Metadata names the data source etl_template.
func (d *templateDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

// Schema describes the data source: id, name, model_id and model_name,
// each either part of the lookup or computed from the template found, and
// the computed last_run_time and steps.
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
				MarkdownDescription: lastRunTimeDescription,
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

// ConfigValidators requires exactly one of id and name, and refuses
// model_id and model_name beside id: they only narrow a lookup by name.
func (d *templateDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
		datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot("model_id")),
		datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot("model_name")),
	}
}

// Read looks the template up by id, or by name (then its id), and reads
// it whole.
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
	id := m.ID.ValueString()
	if id == "" {
		f := etl.TemplateFilter{Name: m.Name.ValueString(), ModelID: m.ModelID.ValueString(), ModelName: m.ModelName.ValueString()}
		if id = d.findByName(ctx, f, &resp.Diagnostics); id == "" {
			return
		}
	}
	t, err := d.client.GetTemplate(ctx, id)
	if err != nil {
		at := path.Root("name")
		if !m.ID.IsNull() {
			at = path.Root("id")
		}
		resp.Diagnostics.AddAttributeError(at, fmt.Sprintf("Reading template %s failed", id), explain(err))
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

// findByName returns the id of the one template f matches
// (etl.FindTemplate), or "" after a diagnostic on name that lists the
// candidates.
func (d *templateDataSource) findByName(ctx context.Context, f etl.TemplateFilter, diags *diag.Diagnostics) string {
	all, err := d.client.ListTemplates(ctx)
	if err != nil {
		addRequestError(diags, summaryListingTemplates, err)
		return ""
	}
	t, err := etl.FindTemplate(all, f)
	var several *etl.SeveralTemplatesError
	switch {
	case err == nil:
		return t.ID
	case errors.As(err, &several):
		diags.AddAttributeError(path.Root("name"), "Several templates match", err.Error())
	default:
		diags.AddAttributeError(path.Root("name"), "Template not found", err.Error())
	}
	return ""
}
