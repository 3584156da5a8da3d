package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

func TestAccTemplateDataSource(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	steps := knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
		"step_name": knownvalue.StringExact("Load GL"),
		"data_type": knownvalue.StringExact("Values"),
		"input_id":  knownvalue.StringExact(emulator.GLActualsInputID),
	})})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Two templates share the name: the error lists both as name (id, model).
				Config:      e.providerConfig() + `data "etl_template" "x" { name = "GL Actuals" }`,
				ExpectError: errRe(fmt.Sprintf(`(?s)Several templates match.*GL Actuals \(%s, Finance Plan\).*GL Actuals \(%s, Sales Model\)`, emulator.GLActualsTemplateID, emulator.SalesGLActualsTemplateID)),
			},
			{
				Config:      e.providerConfig() + `data "etl_template" "x" { name = "Payroll" }`,
				ExpectError: errRe(fmt.Sprintf(`(?s)Template not found.*Headcount \(%s, Finance Plan\)`, emulator.HeadcountTemplateID)),
			},
			{
				Config: e.providerConfig() + `
data "etl_template" "x" {
  name       = "Headcount"
  model_name = "Sales Model"
}
`,
				ExpectError: errRe(fmt.Sprintf(`(?s)Template not found.*other models.*Headcount \(%s, Finance Plan\)`, emulator.HeadcountTemplateID)),
			},
			{
				Config:      e.providerConfig() + `data "etl_template" "x" { id = "999999999999999999" }`,
				ExpectError: errRe(`(?s)Reading template 999999999999999999 failed.*404`),
			},
			{
				Config:      e.providerConfig() + `data "etl_template" "x" {}`,
				PlanOnly:    true,
				ExpectError: errRe(`(?s)Missing Attribute Configuration.*\[id,name\]`),
			},
			{
				Config: e.providerConfig() + fmt.Sprintf(`
data "etl_template" "by_id" {
  id = %q
}

data "etl_template" "by_name" {
  name = "Headcount"
}

data "etl_template" "by_name_and_model_name" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

data "etl_template" "by_name_and_model_id" {
  name     = "GL Actuals"
  model_id = %q
}
`, emulator.GLActualsTemplateID, modelSales),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("name"), knownvalue.StringExact("GL Actuals")),
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("model_name"), knownvalue.StringExact("Finance Plan")),
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("model_id"), knownvalue.StringExact(modelFinance)),
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("last_run_time"), knownvalue.Null()),
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("steps"), steps),
					statecheck.ExpectKnownValue("data.etl_template.by_name", tfjsonpath.New("id"), knownvalue.StringExact(emulator.HeadcountTemplateID)),
					statecheck.ExpectKnownValue("data.etl_template.by_name", tfjsonpath.New("last_run_time"), knownvalue.Int64Exact(1700000000000)),
					statecheck.ExpectKnownValue("data.etl_template.by_name", tfjsonpath.New("steps").AtSliceIndex(0).AtMapKey("input_id"), knownvalue.StringExact(emulator.HeadcountInputID)),
					statecheck.ExpectKnownValue("data.etl_template.by_name_and_model_name", tfjsonpath.New("id"), knownvalue.StringExact(emulator.GLActualsTemplateID)),
					statecheck.ExpectKnownValue("data.etl_template.by_name_and_model_name", tfjsonpath.New("steps"), steps),
					statecheck.ExpectKnownValue("data.etl_template.by_name_and_model_id", tfjsonpath.New("id"), knownvalue.StringExact(emulator.SalesGLActualsTemplateID)),
					statecheck.ExpectKnownValue("data.etl_template.by_name_and_model_id", tfjsonpath.New("model_name"), knownvalue.StringExact("Sales Model")),
				},
			},
		},
	})
}
