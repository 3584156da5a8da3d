package provider

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

var (
	_ provider.ProviderWithActions   = (*etlProvider)(nil)
	_ provider.ProviderWithFunctions = (*etlProvider)(nil)
)

// etlProvider is the etl provider: it reports its server's version, and
// its Configure builds the client the resource, action and data sources
// share, and hands the resource its server's journal.
type etlProvider struct {
	server *Server
	// refreshed: the files of the objects this provider's refreshes read.
	refreshed importjob.Refreshed
}

// providerModel holds the provider block as written, before environment
// variables and defaults fill it in (resolveConfig).
type providerModel struct {
	Hub         types.String `tfsdk:"hub"`
	TokenID     types.String `tfsdk:"token_id"`
	TokenSecret types.String `tfsdk:"token_secret"`
	BaseURL     types.String `tfsdk:"base_url"`
	MaxRetries  types.Int64  `tfsdk:"max_retries"`

	RetryWaitMin   types.String `tfsdk:"retry_wait_min"`
	RetryWaitMax   types.String `tfsdk:"retry_wait_max"`
	RequestTimeout types.String `tfsdk:"request_timeout"`
	CACertPEM      types.String `tfsdk:"ca_cert_pem"`
	CACertFile     types.String `tfsdk:"ca_cert_file"`
	HashCache      types.Bool   `tfsdk:"hash_cache"`
}

// Metadata names the provider etl and reports its version.
func (p *etlProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "etl"
	resp.Version = p.server.version
}

// Schema describes the provider's settings; each description names its
// environment variable and its default.
func (p *etlProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	setting := func(desc, env string, vs ...validator.String) schema.StringAttribute {
		if env != "" {
			desc += " Can also be set with the `" + env + "` environment variable."
		}
		return schema.StringAttribute{MarkdownDescription: desc, Optional: true, Validators: vs}
	}
	duration := func(desc string, def time.Duration) schema.StringAttribute {
		return setting(fmt.Sprintf("%s Defaults to `%q`.", desc, def.String()), "", durationValidator)
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The etl provider starts import (ETL) jobs through Vena's public ETL API: " +
			"it looks templates up and imports flat files or rows into a model.",
		Attributes: map[string]schema.Attribute{
			"hub": setting("The hub (region) the token was issued on, such as `us2`: the service address is `https://{hub}.vena.io`. "+
				"Required unless `base_url` is set.", EnvHub, hubValidator),
			"token_id": setting("The application token's id, such as `1112140681100620800.1`, sent as the HTTP Basic user name.", EnvTokenID),
			"token_secret": schema.StringAttribute{
				MarkdownDescription: "The application token's secret, sent as the HTTP Basic password; never stored in state nor logged. " +
					"Can also be set with the `" + EnvTokenSecret + "` environment variable.",
				Optional:  true,
				Sensitive: true,
			},
			"base_url": setting("The service address instead of `https://{hub}.vena.io`: an `https` URL, or `http` to a loopback host "+
				"(the emulator).", EnvBaseURL, baseURLValidator),
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times a request is retried after a 429, a gateway error or a connection failure; "+
					"a request that may have started a job never is. Defaults to `%d`.", etl.DefaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"retry_wait_min":  duration("The first wait before a retry, doubled after each retry up to `retry_wait_max`.", etl.DefaultRetryWaitMin),
			"retry_wait_max":  duration("The longest wait before a retry, and the cap on the service's `Retry-After`.", etl.DefaultRetryWaitMax),
			"request_timeout": duration("How long to wait for the answer once a request is sent (an upload may take longer to send).", etl.DefaultRequestTimeout),
			"ca_cert_pem": setting("PEM certificates of authorities to trust besides the system's, for a private deployment or a proxy that inspects TLS. "+
				"Conflicts with `ca_cert_file`.", "", pemValidator, stringvalidator.ConflictsWith(path.MatchRoot("ca_cert_file"))),
			"ca_cert_file": setting("Path of a PEM file of authorities to trust, as `ca_cert_pem`.", EnvCACertFile, stringvalidator.LengthAtLeast(1)),
			"hash_cache":   schema.BoolAttribute{MarkdownDescription: hashCacheDescription, Optional: true},
		},
	}
}

// Configure resolves the settings (attribute, else environment variable,
// else default), builds the client, and hands it to the data sources and
// the action, and with the hash_cache setting to the resource. While a
// setting is still unknown it hands over no client, only hash_cache. The
// client's log lines, and those written here, mask the token secret.
func (p *etlProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	hashCache, diags := resolveHashCache(m.HashCache, os.Getenv)
	resp.Diagnostics.Append(diags...)
	rd := &importResourceData{runnerData: runnerData{tuning: p.server.tuning}, hashCache: hashCache,
		journal: p.server.openJournal(ctx), gate: p.server.gate, refreshed: &p.refreshed}
	resp.ResourceData = rd
	// A setting that comes from another resource is unknown until apply:
	// leave the provider unconfigured for now. Data sources and applies
	// then say so; plans that need no client go on.
	if !req.Config.Raw.IsFullyKnown() {
		tflog.Debug(ctx, "provider configuration has unknown values; leaving the client unconfigured until apply")
		return
	}
	cfg, diags := resolveConfig(m, os.Getenv)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx = maskSecret(ctx, etl.SecretForms(cfg.TokenID, cfg.TokenSecret))
	cfg.UserAgent = fmt.Sprintf("terraform-provider-etl/%s (terraform %s)", p.server.version, req.TerraformVersion)
	cfg.Log = tflogFunc(cfg.TokenID, cfg.TokenSecret)
	client, err := etl.New(cfg)
	if err != nil {
		resp.Diagnostics.AddError("Invalid provider configuration", err.Error())
		return
	}
	tflog.Debug(ctx, "configured the ETL client", map[string]any{
		"base_url": client.BaseURL(), "max_retries": cfg.MaxRetries, "retry_wait_min": cfg.RetryWaitMin.String(),
		"retry_wait_max": cfg.RetryWaitMax.String(), "request_timeout": cfg.RequestTimeout.String(), "extra_ca_certs": len(cfg.CACertPEM) > 0,
	})
	rd.client = client
	resp.DataSourceData, resp.ActionData = client, rd.runnerData
}

// Resources returns the etl_import resource.
func (p *etlProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newImportResource}
}

// Actions returns the etl_import action (Terraform 1.14 and later).
func (p *etlProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{newImportAction}
}

// DataSources returns the etl_templates, etl_template and etl_job data
// sources.
func (p *etlProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newTemplatesDataSource, newTemplateDataSource, newJobDataSource}
}

// Functions returns the provider-defined functions: csv_encode (Terraform
// 1.8 and later, OpenTofu 1.7 and later).
func (p *etlProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{newCSVEncodeFunction}
}

// runnerData is what Configure hands the etl_import action (and the
// resource): what a jobRunner needs.
type runnerData struct {
	client *etl.Client // nil until the provider's settings are known
	tuning tuning      // how often a job is polled and progress reported
}

// importResourceData is what Configure hands the etl_import resource.
type importResourceData struct {
	runnerData
	hashCache bool                 // the file hash cache is on (hash_cache)
	journal   *importjob.Journal   // the jobs in no state yet: the server's
	gate      *responseGate        // spaces the responses: the server's
	refreshed *importjob.Refreshed // the files the provider's refreshes read
}

// importDataFrom returns what Configure handed the import resource. Before
// Configure (data nil), the resource has no client, and the caches follow
// the environment variable.
func importDataFrom(data any, diags *diag.Diagnostics) importResourceData {
	if data == nil {
		on, _ := resolveHashCache(types.BoolNull(), os.Getenv)
		return importResourceData{hashCache: on}
	}
	if d := providerData[*importResourceData](data, diags); d != nil {
		return *d
	}
	return importResourceData{}
}

// providerData returns what Configure handed over (ProviderData) as a T:
// the zero T before Configure has run (data nil) or while the provider's
// settings are unknown, when a client is nil; for another type, a bug, an
// error that names both types as this package does.
func providerData[T any](data any, diags *diag.Diagnostics) T {
	d, ok := data.(T)
	if !ok && data != nil {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected %s, got %T. This is a bug in the provider; please report it.",
			strings.Replace(fmt.Sprintf("%T", d), "provider.", "", 1), data))
	}
	return d
}

// dataSource is a data source etl_<name>: its schema and validators, and
// read, which fills in m, its configuration, once the client Configure
// handed over is there; while the provider's settings are unknown Read
// reports the provider as not configured.
type dataSource[M any] struct {
	name       string
	schema     dsschema.Schema
	validators []datasource.ConfigValidator
	read       func(ctx context.Context, c *etl.Client, m *M, diags *diag.Diagnostics)
	client     *etl.Client
}

func (d *dataSource[M]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.name
}

func (d *dataSource[M]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = d.schema
}

func (d *dataSource[M]) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return d.validators
}

func (d *dataSource[M]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = providerData[*etl.Client](req.ProviderData, &resp.Diagnostics)
}

func (d *dataSource[M]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m M
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if d.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	if d.read(ctx, d.client, &m, &resp.Diagnostics); !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}

// maskSecret masks each form of the token secret (etl.SecretForms: raw,
// the HTTP Basic credentials in each base64 alphabet, URL-encoded, inside
// JSON) in the messages and field values of every log line written with
// the returned context.
func maskSecret(ctx context.Context, forms []string) context.Context {
	return tflog.MaskMessageStrings(tflog.MaskAllFieldValuesStrings(ctx, forms...), forms...)
}

// tflogFunc adapts the client's log lines to tflog, masking the secret on
// every call (the client logs with the context of the current request).
func tflogFunc(tokenID, secret string) etl.LogFunc {
	forms := etl.SecretForms(tokenID, secret)
	return func(ctx context.Context, level, msg string, fields map[string]any) {
		ctx = maskSecret(ctx, forms)
		switch level {
		case "trace":
			tflog.Trace(ctx, msg, fields)
		case "warn":
			tflog.Warn(ctx, msg, fields)
		default:
			tflog.Debug(ctx, msg, fields)
		}
	}
}
