package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

func TestSetJob(t *testing.T) {
	updated := int64(1700000000500)
	m := importModel{ID: types.StringValue("640101874288689160")}
	m.setJob(&etl.Job{Status: jobstatus.StatusRunning, Name: "GL Actuals", ModelID: "600000000000000001", ModelName: "Finance Plan",
		UserName: "Ana", CreatedDate: 1700000000000, UpdatedDate: &updated})
	if m.ID.ValueString() != "640101874288689160" || m.Status.ValueString() != "RUNNING" || m.Name.ValueString() != "GL Actuals" ||
		m.ModelID.ValueString() != "600000000000000001" || m.ModelName.ValueString() != "Finance Plan" || m.UserName.ValueString() != "Ana" ||
		m.CreatedDate.ValueInt64() != 1700000000000 || m.UpdatedDate.ValueInt64() != updated {
		t.Fatalf("applied %+v", m)
	}
	// A job the service gives without an id or an updated date keeps the id
	// and has no updated date.
	m.setJob(&etl.Job{Status: jobstatus.StatusCompleted})
	if m.ID.ValueString() != "640101874288689160" || m.Status.ValueString() != "COMPLETED" || !m.UpdatedDate.IsNull() {
		t.Fatalf("applied %+v", m)
	}
}

func TestIsAdopted(t *testing.T) {
	ctx := context.Background()
	p := fakePrivate{}
	if isAdopted(ctx, p) || isAdopted(ctx, nil) {
		t.Fatal("adopted without the key")
	}
	p[privateAdoptedKey] = privateAdoptedValue
	if !isAdopted(ctx, p) {
		t.Fatal("not adopted with the key set")
	}
}

// A value that cannot be encoded is an error, not a silent no-op.
func TestSetPrivateJSON_encodingError(t *testing.T) {
	var diags diag.Diagnostics
	setPrivateJSON(context.Background(), fakePrivate{}, "k", func() {}, &diags)
	if !diags.HasError() {
		t.Fatal("a function value was kept without an error")
	}
}
