package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

func TestJobModelOf(t *testing.T) {
	updated := int64(1700000000123)
	j := &etl.Job{ID: "1140000000000000001", Name: "GL Actuals", Status: jobstatus.StatusRunning, ModelID: "6", ModelName: "Finance Plan",
		CreatedDate: 1700000000000, UpdatedDate: &updated, UserName: "Ann"}
	m := jobModelOf(j, types.StringValue(j.ID))
	want := jobModel{ID: types.StringValue(j.ID), Name: types.StringValue("GL Actuals"), Status: types.StringValue("RUNNING"),
		ModelID: types.StringValue("6"), ModelName: types.StringValue("Finance Plan"), UserName: types.StringValue("Ann"),
		CreatedDate: types.Int64Value(1700000000000), UpdatedDate: types.Int64Value(updated)}
	if m != want {
		t.Errorf("jobModelOf = %+v, want %+v", m, want)
	}
	j.UpdatedDate = nil
	if m := jobModelOf(j, types.StringValue(j.ID)); !m.UpdatedDate.IsNull() {
		t.Errorf("no updatedDate: %v, want null", m.UpdatedDate)
	}
}

func TestJobIDValidator(t *testing.T) {
	for v, ok := range map[string]bool{"640101874288689160": true, "1140000000000000001": true, "12345": false, "64010187428868916x": false, " 640101874288689160": false} {
		var resp validator.StringResponse
		jobIDValidator.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("id"), ConfigValue: types.StringValue(v)}, &resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("%q: %v", v, resp.Diagnostics)
		}
		if !ok && !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "18 or 19 decimal digits") {
			t.Errorf("%q: %s", v, resp.Diagnostics.Errors()[0].Detail())
		}
	}
}
