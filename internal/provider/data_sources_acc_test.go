package provider

import (
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
		PreCheck:                 func() { testAccPreCheck(t) },
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
				Config: e.providerConfig() + `
data "etl_templates" "all" {}

data "etl_templates" "sales" {
  model_name = "Sales Model"
}

data "etl_templates" "finance_by_id" {
  model_id = "600000000000000001"
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
`,
				ConfigStateChecks: []statecheck.StateCheck{
					// Every template, in the service's order, with last_run_time null when never run.
					statecheck.ExpectKnownValue("data.etl_templates.all", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						templateObj(tmplGLFinance, "GL Actuals", modelFinance, "Finance Plan", knownvalue.Null()),
						templateObj(tmplHeadcount, "Headcount", modelFinance, "Finance Plan", knownvalue.Int64Exact(1700000000000)),
						templateObj(tmplSales, "Sales Volumes", "600000000000000002", "Sales Model", knownvalue.Null()),
						templateObj(tmplGLSales, "GL Actuals", "600000000000000002", "Sales Model", knownvalue.Null()),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.sales", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(tmplSales)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(tmplGLSales)}),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.finance_by_id", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(tmplGLFinance)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(tmplHeadcount)}),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.gl", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(tmplGLFinance)}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(tmplGLSales)}),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.gl_finance", tfjsonpath.New("templates"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(tmplGLFinance)}),
					})),
					statecheck.ExpectKnownValue("data.etl_templates.none", tfjsonpath.New("templates"), knownvalue.ListSizeExact(0)),
				},
			},
		},
	})
}

func TestAccTemplateDataSource(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	steps := knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
		"step_name": knownvalue.StringExact("Load GL"),
		"data_type": knownvalue.StringExact("Values"),
		"input_id":  knownvalue.StringExact(inputGLFinance),
	})})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Two templates share the name: the error lists both as name (id, model).
				Config:      e.providerConfig() + `data "etl_template" "x" { name = "GL Actuals" }`,
				ExpectError: errRe(`(?s)Several templates match.*GL Actuals \(640101874288689152, Finance Plan\).*GL Actuals \(640101874288689158, Sales Model\)`),
			},
			{
				Config:      e.providerConfig() + `data "etl_template" "x" { name = "Payroll" }`,
				ExpectError: errRe(`(?s)Template not found.*Headcount \(640101874288689154, Finance Plan\)`),
			},
			{
				Config: e.providerConfig() + `
data "etl_template" "x" {
  name       = "Headcount"
  model_name = "Sales Model"
}
`,
				ExpectError: errRe(`(?s)Template not found.*other models.*Headcount \(640101874288689154, Finance Plan\)`),
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
				Config: e.providerConfig() + `
data "etl_template" "by_id" {
  id = "640101874288689152"
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
  model_id = "600000000000000002"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("name"), knownvalue.StringExact("GL Actuals")),
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("model_name"), knownvalue.StringExact("Finance Plan")),
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("model_id"), knownvalue.StringExact(modelFinance)),
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("last_run_time"), knownvalue.Null()),
					statecheck.ExpectKnownValue("data.etl_template.by_id", tfjsonpath.New("steps"), steps),
					statecheck.ExpectKnownValue("data.etl_template.by_name", tfjsonpath.New("id"), knownvalue.StringExact(tmplHeadcount)),
					statecheck.ExpectKnownValue("data.etl_template.by_name", tfjsonpath.New("last_run_time"), knownvalue.Int64Exact(1700000000000)),
					statecheck.ExpectKnownValue("data.etl_template.by_name", tfjsonpath.New("steps").AtSliceIndex(0).AtMapKey("input_id"), knownvalue.StringExact("640101874288689155")),
					statecheck.ExpectKnownValue("data.etl_template.by_name_and_model_name", tfjsonpath.New("id"), knownvalue.StringExact(tmplGLFinance)),
					statecheck.ExpectKnownValue("data.etl_template.by_name_and_model_name", tfjsonpath.New("steps"), steps),
					statecheck.ExpectKnownValue("data.etl_template.by_name_and_model_id", tfjsonpath.New("id"), knownvalue.StringExact(tmplGLSales)),
					statecheck.ExpectKnownValue("data.etl_template.by_name_and_model_id", tfjsonpath.New("model_name"), knownvalue.StringExact("Sales Model")),
				},
			},
		},
	})
}
