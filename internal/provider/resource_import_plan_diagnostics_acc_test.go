package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// Problems knowable at plan time are plan-time diagnostics on their
// attribute, and nothing reaches the service.
func TestAccImport_planTimeDiagnostics(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	dir := t.TempDir()
	noExt := writeFile(t, dir, "gl.data", []byte("Account,Amount\n4000,1\n"))
	csv := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	dirCSV := filepath.Join(dir, "folder.csv")
	if err := os.Mkdir(dirCSV, 0o700); err != nil {
		t.Fatal(err)
	}
	res := func(body string) string {
		return e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "x" {
  template_id = %q
%s
}
`, emulator.GLActualsTemplateID, body)
	}
	step := func(body, pattern string) resource.TestStep {
		return resource.TestStep{
			Config:      res(body),
			PlanOnly:    true,
			ExpectError: errRe(`(?s)` + pattern),
		}
	}
	steps := []resource.TestStep{
		step(fmt.Sprintf(`file = { path = %q }`, filepath.Join(dir, "missing.csv")), `File not found.*file\.path.*missing\.csv.*does not\s+exist`),
		step(fmt.Sprintf(`file = { path = %q }`, dirCSV), `Path is a directory.*file\.path`),
		step(fmt.Sprintf(`file = { path = %q }`, noExt), `Missing file format.*file\.format is required.*gl\.data`),
		step(`file = { content = "Account,Amount\n4000,1\n" }`, `Missing file format.*file\.format is required for inline\s+content`),
		step(`rows = [["Account", "Amount"], ["4000", "1"], ["4010"]]`, `Row of unequal width.*rows\[2\] has 1 cells but the header row \(rows\[0\]\) has 2`),
		step(`rows = [["Account", "Amount"], ["4000", "1", "x"]]`, `rows\[1\] has 3 cells`),
		step(`rows = []`, `Empty rows.*rows is empty`),
		step(`rows = [[]]`, `Empty header row.*rows\[0\]`),
		step(fmt.Sprintf(`
  file = { path = %q }
  rows = [["Account", "Amount"]]`, csv), `Invalid Attribute Combination.*\[file,rows,rows_wo,inputs\]`),
		step(``, `Missing Attribute Configuration.*\[file,rows,rows_wo,inputs\]`),
		step(fmt.Sprintf("file = {\n    path    = %q\n    content = \"a\"\n  }", csv), `Invalid Attribute Combination.*2 attributes.*\[file\.path,file\.content,file\.content_wo\]`),
		step(`file = { format = "CSV" }`, `Invalid Attribute Combination.*\[file\.path,file\.content,file\.content_wo\]`),
		step(`file = {
    content  = "Account,Amount\n4000,Ωmega\n"
    format   = "CSV"
    encoding = "Windows Latin-1"
  }`, `file\.content.*U\+03A9.*line 2, column 6.*Windows\s+Latin-1`),
		step(fmt.Sprintf(`file = {
    path     = %q
    encoding = "utf-8"
  }`, csv), `file\.encoding.*value must be one of`),
		step(fmt.Sprintf(`file = {
    path   = %q
    format = "XLSX"
  }`, csv), `file\.format.*value must be one of`),
		// A final valid configuration, so that the test's destroy runs.
		{Config: e.providerConfig()},
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := len(e.Jobs()); n != 0 {
				return fmt.Errorf("%d jobs started, want none", n)
			}
			return nil
		},
		Steps: steps,
	})
}
