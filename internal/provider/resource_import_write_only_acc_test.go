package provider

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// rows_wo and file.content_wo (top level and in inputs): the emulator
// receives exactly the bytes, content_sha256 is planned from them, an
// unchanged value plans nothing and an edited one plans a replacement (one
// more job), and neither the state file nor the plan ever holds the values.
func TestAccImport_writeOnly(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	workDir := t.TempDir()
	config := func(amount string) string {
		return e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "rows" {
  template_id         = %[1]q
  rows_wo             = [["Account", "Amount"], ["4000", %[2]q]]
  wait_for_completion = true
}

resource "etl_import" "content" {
  template_id = %[1]q
  file = {
    content_wo = "Account,Amount\n4010,wo-content-1\n"
    format     = "CSV"
  }
}

resource "etl_import" "inputs" {
  template_id = %[3]q
  inputs = {
    "Load Actuals" = { file = { content_wo = "Account,Amount\n4020,wo-input-1\n", format = "CSV" } }
    "Load Rates"   = { rows = [["Currency", "Rate"], ["EUR", "1.1"]] }
  }
}
`, emulator.GLActualsTemplateID, amount, emulator.TwoStepTemplateID)
	}
	rows := func(amount string) [][]string { return [][]string{{"Account", "Amount"}, {"4000", amount}} }
	body1, body2 := rowsBody(t, rows("wo-rows-1")), rowsBody(t, rows("wo-rows-2"))
	content := []byte("Account,Amount\n4010,wo-content-1\n")
	input := []byte("Account,Amount\n4020,wo-input-1\n")
	secrets := []string{"wo-rows-1", "wo-rows-2", "wo-content-1", "wo-input-1"}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		WorkingDir:               workDir,
		Steps: []resource.TestStep{
			{
				Config: config("wo-rows-1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue("etl_import.rows", tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(body1))),
					plancheck.ExpectKnownValue("etl_import.content", tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(content))),
					planHoldsNone(secrets),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("etl_import.rows", tfjsonpath.New("rows_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue("etl_import.rows", tfjsonpath.New("rows"), knownvalue.Null()),
					statecheck.ExpectKnownValue("etl_import.rows", tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
					statecheck.ExpectKnownValue("etl_import.content", tfjsonpath.New("file").AtMapKey("content_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue("etl_import.content", tfjsonpath.New("file").AtMapKey("name"), knownvalue.StringExact("data.csv")),
					expectUpload(e, "etl_import.rows", emulator.Upload{Kind: "data", RowCount: 1, SHA256: sha256Hex(body1), Bytes: int64(len(body1))}),
					expectUpload(e, "etl_import.content", emulator.Upload{Kind: "file", FileName: "data.csv", RowCount: 1, SHA256: sha256Hex(content), Bytes: int64(len(content))}),
					checkEmulator("etl_import.inputs", func(v map[string]any) error {
						job, _ := e.Job(v["id"].(string))
						if in := job.Inputs[emulator.TwoStepActualsInputID]; in == nil || in.SHA256 != sha256Hex(input) {
							return fmt.Errorf("job %+v: the actuals input did not receive the content_wo bytes", job)
						}
						return nil
					}),
					stateFilesHoldNone(workDir, secrets),
				},
			},
			{
				// Unchanged: nothing planned, although the state holds no value to compare.
				Config:           config("wo-rows-1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// An edited value plans a new job, for that resource alone.
				Config: config("wo-rows-2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("etl_import.rows", plancheck.ResourceActionReplace),
					plancheck.ExpectResourceAction("etl_import.content", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("etl_import.inputs", plancheck.ResourceActionNoop),
					plancheck.ExpectKnownValue("etl_import.rows", tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(body2))),
					planHoldsNone(secrets),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					expectUpload(e, "etl_import.rows", emulator.Upload{Kind: "data", RowCount: 1, Rows: rows("wo-rows-2")[1:], SHA256: sha256Hex(body2)}),
					checkEmulator("etl_import.rows", func(map[string]any) error {
						if n := len(e.Jobs()); n != 4 {
							return fmt.Errorf("%d jobs, want 4 (three first, one for the edited rows)", n)
						}
						return nil
					}),
					stateFilesHoldNone(workDir, secrets),
				},
			},
		},
	})
}

// stateFilesHoldNone checks that the state files Terraform wrote under dir
// hold none of the strings.
func stateFilesHoldNone(dir string, secrets []string) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		files := 0
		resp.Error = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.Contains(d.Name(), ".tfstate") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if strings.Contains(string(b), "content_sha256") {
				files++
			}
			for _, s := range secrets {
				if strings.Contains(string(b), s) {
					return fmt.Errorf("the state file %s holds the write-only value %q", p, s)
				}
			}
			return nil
		})
		if resp.Error == nil && files == 0 {
			resp.Error = fmt.Errorf("no state file with an etl_import under %s: the scan proves nothing", dir)
		}
	})
}
