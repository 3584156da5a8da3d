package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
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
	// The configurations are in testdata/TestAccTemplatesDataSource.
	dir := func(name string) func(config.TestStepConfigRequest) string {
		return config.StaticDirectory("testdata/TestAccTemplatesDataSource/" + name)
	}
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, dir("bad_regex")),
				ConfigVariables:          e.configVariables(nil),
				PlanOnly:                 true,
				ExpectError:              errRe(`(?s)Invalid regular expression.*name_regex`),
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, dir("filters")),
				ConfigVariables:          e.configVariables(config.Variables{"finance_model_id": config.StringVariable(modelFinance)}),
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
