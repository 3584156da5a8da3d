// Package provider implements the etl Terraform provider: its configuration,
// the etl_templates and etl_template data sources and the etl_import resource.
package provider

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// Environment variables read when the matching provider attribute is not set.
const (
	EnvHub         = "ETL_HUB"
	EnvTokenID     = "ETL_TOKEN_ID"     //nolint:gosec // an environment variable name, not a credential
	EnvTokenSecret = "ETL_TOKEN_SECRET" //nolint:gosec // an environment variable name, not a credential
	EnvBaseURL     = "ETL_BASE_URL"
	EnvCACertFile  = "ETL_CA_CERT_FILE"
)

// defaultMaxRetries is used when max_retries is not set.
const defaultMaxRetries = 4

// Defaults of the retry and timeout settings (the client's).
var (
	defaultRetryWaitMin   = etl.DefaultRetryWaitMin
	defaultRetryWaitMax   = etl.DefaultRetryWaitMax
	defaultRequestTimeout = etl.DefaultRequestTimeout
)

var hubRegexp = regexp.MustCompile(`^[a-z0-9]+$`)

var _ provider.Provider = (*etlProvider)(nil)

// New returns a constructor of the provider for the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &etlProvider{version: version} }
}

type etlProvider struct{ version string }

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
}

func (p *etlProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "etl"
	resp.Version = p.version
}

func (p *etlProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The etl provider starts import (ETL) jobs through Vena's public ETL API: " +
			"it looks templates up and imports flat files or rows into a model.",
		Attributes: map[string]schema.Attribute{
			"hub": schema.StringAttribute{
				MarkdownDescription: "The hub (region) the token was issued on, such as `us1`, `us2`, `us3`, `us5`, `ca3`, `eu1` or `eu2`: " +
					"lower-case letters and digits. The service address is then `https://{hub}.vena.io`. " +
					"Required unless `base_url` is set. Can also be set with the `" + EnvHub + "` environment variable.",
				Optional:   true,
				Validators: []validator.String{hubValidator{}},
			},
			"token_id": schema.StringAttribute{
				MarkdownDescription: "The application token's id, such as `1112140681100620800.1`, sent as the HTTP Basic user name. " +
					"Can also be set with the `" + EnvTokenID + "` environment variable.",
				Optional: true,
			},
			"token_secret": schema.StringAttribute{
				MarkdownDescription: "The application token's secret, sent as the HTTP Basic password. It is never stored in state or written to logs. " +
					"Can also be set with the `" + EnvTokenSecret + "` environment variable.",
				Optional:  true,
				Sensitive: true,
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "The service address, overriding `https://{hub}.vena.io`: an absolute `https` URL, or plain `http` to a loopback host " +
					"(the emulator, tests). Can also be set with the `" + EnvBaseURL + "` environment variable.",
				Optional:   true,
				Validators: []validator.String{baseURLValidator{}},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times a failed request is retried (rate limits, gateway errors, connection failures) before it fails. "+
					"A request that may have started a job is never retried. Defaults to `%d`.", defaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"retry_wait_min": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The first wait before a retry, doubled (with jitter) after each retry up to `retry_wait_max`: a duration such as `\"500ms\"` or `\"2s\"`. Defaults to `%q`.", defaultRetryWaitMin.String()),
				Optional:            true,
				Validators:          []validator.String{durationValidator{}},
			},
			"retry_wait_max": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The longest wait before a retry, and the cap on a `Retry-After` the service sends: a duration such as `\"30s\"` or `\"2m\"`, at least `retry_wait_min`. Defaults to `%q`.", defaultRetryWaitMax.String()),
				Optional:            true,
				Validators:          []validator.String{durationValidator{}},
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("How long to wait for the service's answer once a request has been sent (an upload may take longer to send): a duration such as `\"90s\"` or `\"5m\"`. "+
					"A request to start a job whose answer does not come in time is not retried. Defaults to `%q`.", defaultRequestTimeout.String()),
				Optional:   true,
				Validators: []validator.String{durationValidator{}},
			},
			"ca_cert_pem": schema.StringAttribute{
				MarkdownDescription: "PEM certificates of certificate authorities to trust besides the system's, for a private deployment with its own certificate authority. " +
					"Certificate verification is never turned off. Conflicts with `ca_cert_file`.",
				Optional:   true,
				Validators: []validator.String{pemValidator{}, stringvalidator.ConflictsWith(path.MatchRoot("ca_cert_file"))},
			},
			"ca_cert_file": schema.StringAttribute{
				MarkdownDescription: "Path of a PEM file of certificate authorities to trust besides the system's (as `ca_cert_pem`, from a file). " +
					"Can also be set with the `" + EnvCACertFile + "` environment variable.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

// resolvedConfig is the provider configuration after environment fallback.
type resolvedConfig struct {
	Hub, TokenID, TokenSecret, BaseURL string
	MaxRetries                         int
	RetryWaitMin, RetryWaitMax         time.Duration
	RequestTimeout                     time.Duration
	CACertPEM                          []byte
}

// resolveConfig merges attributes with their environment variables and
// checks the result. Every diagnostic names the attribute and its variable.
// getenv is os.Getenv outside tests.
func resolveConfig(m providerModel, getenv func(string) string) (resolvedConfig, diag.Diagnostics) {
	var diags diag.Diagnostics
	pick := func(v types.String, env string) string {
		if !v.IsNull() && !v.IsUnknown() {
			return v.ValueString()
		}
		return getenv(env)
	}
	c := resolvedConfig{
		Hub:         pick(m.Hub, EnvHub),
		TokenID:     pick(m.TokenID, EnvTokenID),
		TokenSecret: pick(m.TokenSecret, EnvTokenSecret),
		BaseURL:     pick(m.BaseURL, EnvBaseURL),
		MaxRetries:  defaultMaxRetries,

		RetryWaitMin:   defaultRetryWaitMin,
		RetryWaitMax:   defaultRetryWaitMax,
		RequestTimeout: defaultRequestTimeout,
	}
	duration := func(v types.String, name string, into *time.Duration) {
		if v.IsNull() || v.IsUnknown() {
			return
		}
		d, err := parseDuration(v.ValueString())
		if err != nil {
			diags.AddAttributeError(path.Root(name), "Invalid "+name, fmt.Sprintf("%s: %s.", name, err))
			return
		}
		*into = d
	}
	duration(m.RetryWaitMin, "retry_wait_min", &c.RetryWaitMin)
	duration(m.RetryWaitMax, "retry_wait_max", &c.RetryWaitMax)
	duration(m.RequestTimeout, "request_timeout", &c.RequestTimeout)
	if c.RetryWaitMax < c.RetryWaitMin {
		diags.AddAttributeError(path.Root("retry_wait_max"), "Invalid retry_wait_max",
			fmt.Sprintf("retry_wait_max (%s) is shorter than retry_wait_min (%s): set retry_wait_max to at least retry_wait_min.", c.RetryWaitMax, c.RetryWaitMin))
	}
	switch {
	case !m.CACertPEM.IsNull() && !m.CACertPEM.IsUnknown():
		c.CACertPEM = []byte(m.CACertPEM.ValueString())
		if !hasPEMCertificate(c.CACertPEM) {
			diags.AddAttributeError(path.Root("ca_cert_pem"), "Invalid ca_cert_pem",
				"ca_cert_pem holds no PEM certificate: give the certificate authority's certificate as PEM text, from \"-----BEGIN CERTIFICATE-----\" to \"-----END CERTIFICATE-----\" (for example file(\"ca.pem\")), or use ca_cert_file.")
		}
	default:
		if f := pick(m.CACertFile, EnvCACertFile); f != "" {
			b, err := os.ReadFile(f)
			switch {
			case err != nil:
				diags.AddAttributeError(path.Root("ca_cert_file"), "Invalid ca_cert_file",
					fmt.Sprintf("The CA certificate file %q (from the ca_cert_file attribute or the %s environment variable) cannot be read: %s.", f, EnvCACertFile, err))
			case !hasPEMCertificate(b):
				diags.AddAttributeError(path.Root("ca_cert_file"), "Invalid ca_cert_file",
					fmt.Sprintf("The CA certificate file %q (from the ca_cert_file attribute or the %s environment variable) holds no PEM certificate: it must hold the certificate authority's certificate as PEM text (\"-----BEGIN CERTIFICATE-----\" ...).", f, EnvCACertFile))
			default:
				c.CACertPEM = b
			}
		}
	}
	if !m.MaxRetries.IsNull() && !m.MaxRetries.IsUnknown() {
		c.MaxRetries = int(m.MaxRetries.ValueInt64())
		if c.MaxRetries < 0 {
			diags.AddAttributeError(path.Root("max_retries"), "Invalid max_retries", "max_retries must be 0 or more.")
		}
	}
	switch {
	case c.Hub == "" && c.BaseURL == "":
		diags.AddAttributeError(path.Root("hub"), "Missing hub",
			"The provider needs the hub (region) the token was issued on, such as us2: set the hub attribute or the "+EnvHub+
				" environment variable (or set base_url / "+EnvBaseURL+" to give the service address directly).")
	case c.Hub != "" && !hubRegexp.MatchString(c.Hub):
		diags.AddAttributeError(path.Root("hub"), "Invalid hub",
			fmt.Sprintf("The hub %q (from the hub attribute or the %s environment variable) is not valid: use the lower-case region name such as us1, us2, us3, us5, ca3, eu1 or eu2.", c.Hub, EnvHub))
	}
	if c.BaseURL != "" {
		if _, err := etl.ValidateBaseURL(c.BaseURL); err != nil {
			diags.AddAttributeError(path.Root("base_url"), "Invalid base_url",
				fmt.Sprintf("The base_url (from the base_url attribute or the %s environment variable) is not usable: %s.", EnvBaseURL, err))
		}
	}
	if c.TokenID == "" {
		diags.AddAttributeError(path.Root("token_id"), "Missing token_id",
			"The provider needs the application token's id: set the token_id attribute or the "+EnvTokenID+" environment variable.")
	}
	if c.TokenSecret == "" {
		diags.AddAttributeError(path.Root("token_secret"), "Missing token_secret",
			"The provider needs the application token's secret: set the token_secret attribute or the "+EnvTokenSecret+" environment variable.")
	}
	return c, diags
}

func (p *etlProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// A setting that comes from another resource is unknown until apply:
	// leave the provider unconfigured for now. Data sources and applies
	// then say so; plans that need no client go on.
	if m.Hub.IsUnknown() || m.TokenID.IsUnknown() || m.TokenSecret.IsUnknown() || m.BaseURL.IsUnknown() || m.MaxRetries.IsUnknown() ||
		m.RetryWaitMin.IsUnknown() || m.RetryWaitMax.IsUnknown() || m.RequestTimeout.IsUnknown() || m.CACertPEM.IsUnknown() || m.CACertFile.IsUnknown() {
		tflog.Debug(ctx, "provider configuration has unknown values; leaving the client unconfigured until apply")
		return
	}
	cfg, diags := resolveConfig(m, os.Getenv)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx = maskSecret(ctx, cfg.TokenID, cfg.TokenSecret)
	client, err := etl.New(etl.Config{
		Hub:         cfg.Hub,
		BaseURL:     cfg.BaseURL,
		TokenID:     cfg.TokenID,
		TokenSecret: cfg.TokenSecret,
		UserAgent:   fmt.Sprintf("terraform-provider-etl/%s (terraform %s)", p.version, req.TerraformVersion),
		MaxRetries:  cfg.MaxRetries,

		RetryWaitMin:   cfg.RetryWaitMin,
		RetryWaitMax:   cfg.RetryWaitMax,
		RequestTimeout: cfg.RequestTimeout,
		CACertPEM:      cfg.CACertPEM,
		Log:            tflogFunc(cfg.TokenID, cfg.TokenSecret),
	})
	if err != nil {
		resp.Diagnostics.AddError("Invalid provider configuration", err.Error())
		return
	}
	tflog.Debug(ctx, "configured the ETL client", map[string]any{
		"base_url": client.BaseURL(), "max_retries": cfg.MaxRetries, "retry_wait_min": cfg.RetryWaitMin.String(),
		"retry_wait_max": cfg.RetryWaitMax.String(), "request_timeout": cfg.RequestTimeout.String(), "extra_ca_certs": len(cfg.CACertPEM) > 0,
	})
	resp.DataSourceData = client
	resp.ResourceData = client
}

// maskSecret masks the token secret and the HTTP Basic credentials built
// from it in every log line written with the returned context.
func maskSecret(ctx context.Context, tokenID, secret string) context.Context {
	if secret == "" {
		return ctx
	}
	basic := base64.StdEncoding.EncodeToString([]byte(tokenID + ":" + secret))
	ctx = tflog.MaskAllFieldValuesStrings(ctx, secret, basic)
	ctx = tflog.MaskMessageStrings(ctx, secret, basic)
	return ctx
}

// tflogFunc adapts the client's log lines to tflog, masking the secret on
// every call (the client logs with the context of the current request).
func tflogFunc(tokenID, secret string) etl.LogFunc {
	return func(ctx context.Context, level, msg string, fields map[string]any) {
		ctx = maskSecret(ctx, tokenID, secret)
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

func (p *etlProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newImportResource}
}

func (p *etlProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newTemplatesDataSource, newTemplateDataSource}
}

// clientFrom extracts the client handed over by Configure. A nil client
// with no error means the provider is not configured yet (its settings are
// unknown until apply, or Configure has not run).
func clientFrom(data any, diags *diag.Diagnostics) *etl.Client {
	if data == nil {
		return nil
	}
	c, ok := data.(*etl.Client)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected *etl.Client, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	return c
}

func notConfigured(diags *diag.Diagnostics) {
	diags.AddError("Provider not configured",
		"The etl provider has no client: its settings (hub, token_id, token_secret, base_url) were unknown when this ran, "+
			"for example because they come from a resource that is not created yet. Apply that resource first, "+
			"or set the settings from values known at plan time or from the ETL_* environment variables.")
}

// hubValidator checks a known hub at plan time; unknown and null pass.
type hubValidator struct{}

func (hubValidator) Description(context.Context) string {
	return "must be lower-case letters and digits, such as us2"
}
func (v hubValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (hubValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if !hubRegexp.MatchString(req.ConfigValue.ValueString()) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid hub",
			fmt.Sprintf("The hub %q is not valid: use the lower-case region name the token was issued on, such as us1, us2, us3, us5, ca3, eu1 or eu2 (attribute hub, environment variable %s).", req.ConfigValue.ValueString(), EnvHub))
	}
}

// baseURLValidator checks a known base URL at plan time.
type baseURLValidator struct{}

func (baseURLValidator) Description(context.Context) string {
	return "must be an absolute https URL, or http to a loopback host"
}
func (v baseURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (baseURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := etl.ValidateBaseURL(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid base_url",
			fmt.Sprintf("%s (attribute base_url, environment variable %s).", err, EnvBaseURL))
	}
}

// parseDuration parses a positive Go duration such as "500ms" or "2m".
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: use a number with a unit, such as \"500ms\", \"30s\" or \"2m\" (units ms, s, m, h)", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q must be longer than zero", s)
	}
	return d, nil
}

// durationValidator checks a known duration setting at plan time.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return `must be a positive duration such as "500ms", "30s" or "2m"`
}
func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (durationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := parseDuration(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), fmt.Sprintf("%s: %s.", req.Path, err))
	}
}

// hasPEMCertificate reports whether b holds at least one PEM certificate
// that parses.
func hasPEMCertificate(b []byte) bool {
	return x509.NewCertPool().AppendCertsFromPEM(b)
}

// pemValidator checks known ca_cert_pem text at plan time.
type pemValidator struct{}

func (pemValidator) Description(context.Context) string {
	return "must hold at least one PEM certificate"
}
func (v pemValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (pemValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if !hasPEMCertificate([]byte(req.ConfigValue.ValueString())) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid ca_cert_pem",
			"ca_cert_pem holds no PEM certificate: give the certificate authority's certificate as PEM text, from \"-----BEGIN CERTIFICATE-----\" to \"-----END CERTIFICATE-----\" (for example file(\"ca.pem\")), or use ca_cert_file.")
	}
}
