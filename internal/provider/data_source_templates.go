package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

var (
	_ datasource.DataSourceWithConfigure = (*templatesDataSource)(nil)
)

// templateItem holds one element of etl_templates.templates.
type templateItem struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	LastRunTime types.Int64  `tfsdk:"last_run_time"`
	ModelID     types.String `tfsdk:"model_id"`
	ModelName   types.String `tfsdk:"model_name"`
}

// newTemplatesDataSource returns an unconfigured etl_templates data
// source; the provider's DataSources lists it.
func newTemplatesDataSource() datasource.DataSource { return &templatesDataSource{} }

// templatesDataSource is the etl_templates data source: it lists the
// templates the token may use, filtered by model and name.
type templatesDataSource struct{ dataSourceClient }

// templatesModel holds the etl_templates data source's filters (model_id,
// model_name, name_regex) and the templates that match them.
type templatesModel struct {
	ModelID   types.String   `tfsdk:"model_id"`
	ModelName types.String   `tfsdk:"model_name"`
	NameRegex types.String   `tfsdk:"name_regex"`
	Templates []templateItem `tfsdk:"templates"`
}

// Metadata names the data source etl_templates.
func (d *templatesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_templates"
}

// Schema describes the data source: the optional filters and the
// computed list of matching templates.
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
				Validators:          []validator.String{regexpValidator},
			},
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
	}
}

// Read lists the templates the token may use and keeps those the filters
// match, in the service's order. name_regex is compiled again here: its
// validator skips a value that was unknown at plan.
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
	f := etl.TemplateFilter{ModelID: m.ModelID.ValueString(), ModelName: m.ModelName.ValueString()}
	if re := m.NameRegex.ValueString(); re != "" {
		var problem string
		if f.NameRegex, problem = etl.CompileNameRegexp("name_regex", re); problem != "" {
			resp.Diagnostics.AddAttributeError(path.Root("name_regex"), summaryInvalidRegexp, problem)
			return
		}
	}
	all, err := d.client.ListTemplates(ctx)
	if err != nil {
		addRequestError(&resp.Diagnostics, summaryListingTemplates, err)
		return
	}
	m.Templates = []templateItem{}
	for _, t := range etl.FilterTemplates(all, f) {
		m.Templates = append(m.Templates, templateItem{
			ID: types.StringValue(t.ID), Name: types.StringValue(t.Name), LastRunTime: lastRunTime(t),
			ModelID: types.StringValue(t.ModelID), ModelName: types.StringValue(t.ModelName),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
