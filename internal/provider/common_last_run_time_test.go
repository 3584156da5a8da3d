package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// A template that never ran has a null last_run_time.
func TestLastRunTime(t *testing.T) {
	if got := templateItemOf(etl.Template{}).LastRunTime; !got.IsNull() {
		t.Errorf("never ran: %v, want null", got)
	}
	ran := int64(1700000000000)
	if got := templateItemOf(etl.Template{LastRunTime: &ran}).LastRunTime; !got.Equal(types.Int64Value(ran)) {
		t.Errorf("ran: %v, want %d", got, ran)
	}
}
