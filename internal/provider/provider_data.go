package provider

import (
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// importResourceData holds what Configure hands the etl_import resource:
// the client and the hash_cache setting.
type importResourceData struct {
	client    *etl.Client // nil until the provider's settings are known
	hashCache bool        // the file hash caches are on (hash_cache)
	ledger    *jobLedger  // the jobs in no state yet; one per provider process
	refreshed *refreshedSources
}

// importDataFrom returns the client, whether the file hash caches are
// on and the job ledger, from what Configure handed the import resource. A nil client with no
// error means the provider is not configured yet. Before Configure, the
// caches follow the environment variable.
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

// clientFrom returns the client Configure handed the data sources and
// the action. A nil client
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
