package provider

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

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

// resourceData is what Configure hands the resource, with client (nil:
// not configured yet).
func (p *etlProvider) resourceData(ctx context.Context, client *etl.Client, hashCache bool) *importResourceData {
	rd := &importResourceData{runnerData: runnerData{client: client, tuning: p.server.tuning}, hashCache: hashCache,
		journal: p.server.openJournal(ctx), gate: p.server.gate, refreshed: &p.refreshed}
	return rd
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
	schema     schema.Schema
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
