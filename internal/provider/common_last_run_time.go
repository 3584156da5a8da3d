package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// lastRunTimeDescription describes last_run_time in both data sources.
const lastRunTimeDescription = "When a job of the template last ran, in milliseconds since the Unix epoch; null when it never ran."

// lastRunTime returns a template's last run time, null when it never ran.
func lastRunTime(t etl.Template) types.Int64 {
	if t.LastRunTime == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*t.LastRunTime)
}
