package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A job gone from the service is recorded, with a warning that names it,
// says its data stays, and gives the command that starts a new job.
func TestMarkGone(t *testing.T) {
	m := importModel{ID: types.StringValue("640101874288689160"), Status: types.StringValue("COMPLETED")}
	var diags diag.Diagnostics
	markGone(&m, &diags)
	if !isGone(m.Status) || m.Status.ValueString() != "NOT_FOUND" {
		t.Errorf("status %s, want NOT_FOUND", m.Status)
	}
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("want one warning, got %v", diags)
	}
	w := diags.Warnings()[0]
	if !strings.Contains(w.Summary(), "640101874288689160") {
		t.Errorf("summary %q does not name the job", w.Summary())
	}
	for _, want := range []string{"640101874288689160", "still in the model", "status NOT_FOUND", "no new job is started", "terraform apply -replace=etl_import.<name>"} {
		if !strings.Contains(w.Detail(), want) {
			t.Errorf("warning %q does not say %q", w.Detail(), want)
		}
	}
	if isGone(types.StringValue("COMPLETED")) || isGone(types.StringNull()) {
		t.Error("isGone of a known job")
	}
	if !strings.Contains(statusNotFoundDoc, statusNotFound) {
		t.Error("the status description does not document NOT_FOUND")
	}
}
