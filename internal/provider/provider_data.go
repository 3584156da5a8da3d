package provider

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
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
	d, ok := data.(*importResourceData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected *importResourceData, got %T. This is a bug in the provider; please report it.", data))
		return importResourceData{}
	}
	return *d
}

// runnerDataFrom returns what Configure handed the action. A nil client
// with no error means the provider is not configured yet (its settings are
// unknown until apply, or Configure has not run).
func runnerDataFrom(data any, diags *diag.Diagnostics) runnerData {
	if data == nil {
		return runnerData{}
	}
	d, ok := data.(runnerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected runnerData, got %T. This is a bug in the provider; please report it.", data))
		return runnerData{}
	}
	return d
}

// dataSourceClient is what a data source keeps: the client Configure
// handed over.
type dataSourceClient struct{ client *etl.Client }

// Configure takes the client the provider handed over (DataSourceData).
// The client stays nil while the provider's settings are unknown, and
// Read then reports the provider as not configured.
func (d *dataSourceClient) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

// clientFrom returns the client Configure handed the data sources. A nil
// client with no error means the provider is not configured yet (its
// settings are unknown until apply, or Configure has not run).
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
