package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The state Create returns keeps the planned model where the job reports
// another (with a warning naming both) or none (silently); a plan that
// knew no model leaves the job's.
func TestKeepPlannedModel(t *testing.T) {
	planned := importModel{ModelID: types.StringValue("1"), ModelName: types.StringValue("Finance")}
	for _, tc := range []struct {
		name      string
		p         importModel
		jobID     string
		jobName   string
		wantID    string
		wantKept  bool
		wantWarns int
	}{
		{"same", planned, "1", "Finance", "1", false, 0},
		{"another", planned, "2", "Sales", "1", true, 1},
		{"none reported", planned, "", "", "1", true, 0},
		{"nothing planned", importModel{ModelID: types.StringUnknown(), ModelName: types.StringUnknown()}, "2", "Sales", "2", false, 0},
	} {
		m := importModel{ModelID: types.StringValue(tc.jobID), ModelName: types.StringValue(tc.jobName)}
		var diags diag.Diagnostics
		kept := keepPlannedModel(tc.p, &m, "99", &diags)
		if kept != tc.wantKept || m.ModelID.ValueString() != tc.wantID || diags.WarningsCount() != tc.wantWarns {
			t.Errorf("%s: kept %v, model %s, %d warnings; want %v, %s, %d", tc.name, kept, m.ModelID, diags.WarningsCount(), tc.wantKept, tc.wantID, tc.wantWarns)
		}
	}
}
