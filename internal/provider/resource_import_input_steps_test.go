package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// TestInputStepsPrivateState: what saveInputSteps keeps, inputStepsFrom
// reads back; nothing is kept for no entries.
func TestInputStepsPrivateState(t *testing.T) {
	ctx := context.Background()
	p := fakePrivate{}
	var d diag.Diagnostics
	saveInputSteps(ctx, nil, p, &d)
	if inputStepsFrom(ctx, p) != nil || len(p) != 0 {
		t.Fatalf("no entries: kept %v", p)
	}
	e := []inputEntry{{Input: importjob.Input{InputID: "1", Format: "CSV", Encoding: "UTF-8", SHA256: "s", StepName: "Load", Position: 3}}}
	saveInputSteps(ctx, e, p, &d)
	if got := inputStepsFrom(ctx, p); d.HasError() || len(got) != 1 || got[0] != e[0] {
		t.Fatalf("read back %+v, %v", got, d)
	}
}
