package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// TestRowsCSVSHA256Golden: rows over the JSON limit are sent as a CSV file
// and content_sha256 is that file's hash, with a warning on the rows. The
// CSV encoding is pinned on small rows planned over a lowered limit (etl's
// TestPayloadOverTheLimitGolden pins rows just over the real one).
func TestRowsCSVSHA256Golden(t *testing.T) {
	sum, diags := planRowsHash(goldenRowsList(t, goldenRows), path.Root("rows"), 1)
	if want := "5e9bfe918aa3559f339677c357561dd1e3e9dfeb2b206549a9a004c7743943aa"; sum.ValueString() != want {
		t.Errorf("CSV of the golden rows: SHA-256 %s, want %s", sum.ValueString(), want)
	}
	if len(diags) != 2 || diags[1].Summary() != rowsAsFileSummary {
		t.Errorf("want the CR LF warning, then the rows-as-file warning: %v", diags)
	}
}
