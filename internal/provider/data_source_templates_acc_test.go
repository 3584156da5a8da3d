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

func templateObj(id, name, modelID, modelName string, lastRun knownvalue.Check) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"id":            knownvalue.StringExact(id),
		"name":          knownvalue.StringExact(name),
		"model_id":      knownvalue.StringExact(modelID),
		"model_name":    knownvalue.StringExact(modelName),
		"last_run_time": lastRun,
	})
}

func TestAccTemplatesDataSource(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: e.providerConfig() + `
data "etl_templates" "bad" {
  name_regex = "GL("
}
`,
				PlanOnly:    true,
				ExpectError: errRe(`(?s)Invalid regular expression.*name_regex`),
			},
			{
				Config: e.providerConfig() + fmt.Sprintf(`
data "etl_templates" "all" {}

data "etl_templates" "sales" {
  model_name = "Sales Model"
}

data "etl_templates" "finance_by_id" {
  model_id = %q
}

data "etl_templates" "gl" {
  name_regex = "^GL "
}

data "etl_templates" "gl_finance" {
  name_regex = "^GL"
  model_name = "Finance Plan"
}

data "etl_templates" "none" {
  model_name = "No Such Model"
}
`, modelFinance),
				ConfigStateChecks: []statecheck.StateCheck{
					// Every template, in the service's order, with last_run_time null when never run.
					statecheck.ExpectKnownValue("data.etl_templates.all", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						templateObj(emulator.GLActualsTemplateID, "GL Actuals", modelFinance, "Finance Plan", knownvalue.Null()),
						templateObj(emulator.HeadcountTemplateID, "Headcount", modelFinance, "Finance Plan", knownvalue.Int64Exact(1700000000000)),
						templateObj(emulator.SalesVolumesTemplateID, "Sales Volumes", modelSales, "Sales Model", knownvalue.Null()),
						templateObj(emulator.SalesGLActualsTemplateID, "GL Actuals", modelSales, "Sales Model", knownvalue.Null()),
						templateObj(emulator.TwoStepTemplateID, "Actuals and Rates", modelFinance, "Finance Plan", knownvalue.Null()),
						templateObj(emulator.NoStepTemplateID, "Recalculate", modelFinance, "Finance Plan", knownvalue.Null()),
						templateObj(emulator.SameStepNameTemplateID, "Twin Loads", modelSales, "Sales Model", knownvalue.Null()),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.sales", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.SalesVolumesTemplateID)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.SalesGLActualsTemplateID)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.SameStepNameTemplateID)}),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.finance_by_id", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.GLActualsTemplateID)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.HeadcountTemplateID)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.TwoStepTemplateID)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.NoStepTemplateID)}),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.gl", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.GLActualsTemplateID)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.SalesGLActualsTemplateID)}),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.gl_finance", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(emulator.GLActualsTemplateID)}),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.none", tfjsonpath.New("templates"), knownvalue.ListSizeExact(0)),
				},
			},
		},
	})
}
