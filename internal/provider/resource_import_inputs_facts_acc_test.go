package provider

import (
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// Each input's columns, row_count and size_bytes are known in the plan of
// a new import (a file, counted in the read that hashes it; rows, as the
// CSV file they are sent as), the plan after the apply is empty, and an
// edited file plans its new row_count.
func TestAccImportInputs_dataFacts(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	dir := t.TempDir()
	actuals, actualsRaw := writeTestFile(t, dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	ratesCSV := []byte(delimited(ratesRows, "CSV"))
	const addr = "etl_import.multi"
	vars := twoStepVariables(e, "Load Actuals", actuals, config.Variables{"wait": config.BoolVariable(true)})
	input := func(key, name string) tfjsonpath.Path {
		return tfjsonpath.New("inputs").AtMapKey(key).AtMapKey(name)
	}
	facts := func(key string, cols []string, n, size int) []plancheck.PlanCheck {
		var cs []knownvalue.Check
		for _, c := range cols {
			cs = append(cs, knownvalue.StringExact(c))
		}
		return []plancheck.PlanCheck{
			plancheck.ExpectKnownValue(addr, input(key, "columns"), knownvalue.ListExact(cs)),
			plancheck.ExpectKnownValue(addr, input(key, "row_count"), knownvalue.Int64Exact(int64(n))),
			plancheck.ExpectKnownValue(addr, input(key, "size_bytes"), knownvalue.Int64Exact(int64(size))),
		}
	}
	first := append(facts("Load Actuals", actualsRows[0], 2, len(actualsRaw)), facts("Load Rates", ratesRows[0], 2, len(ratesCSV))...)
	first = append(first, plancheck.ExpectKnownValue(addr, tfjsonpath.New("row_count"), knownvalue.Null()))
	three := append(append([][]string{}, actualsRows...), []string{"4020", "7"})
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, ConfigDirectory: withProvider(t, twoStepDirectory), ConfigVariables: vars, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: first}},
			{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, ConfigDirectory: withProvider(t, twoStepDirectory), ConfigVariables: vars, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
			{
				PreConfig: func() {
					if err := os.WriteFile(actuals, []byte(delimited(three, "CSV")), 0o600); err != nil {
						t.Fatal(err)
					}
				},
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, input("Load Actuals", "row_count"), knownvalue.Int64Exact(3)),
					plancheck.ExpectKnownValue(addr, input("Load Rates", "row_count"), knownvalue.Int64Exact(2)),
				}},
			},
			{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, ConfigDirectory: withProvider(t, twoStepDirectory), ConfigVariables: vars, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// A job with inputs applied before the inputs had these values (null in
// state) plans nothing after the upgrade: no job starts.
func TestAccImportInputs_dataFactsUpgrade(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	actuals, _ := writeTestFile(t, t.TempDir(), "actuals.csv", "CSV", "UTF-8", actualsRows)
	vars := twoStepVariables(e, "Load Actuals", actuals, nil)
	rowCount := tfjsonpath.New("inputs").AtMapKey("Load Actuals").AtMapKey("row_count")
	resource.Test(t, resource.TestCase{
		CheckDestroy: expectJobCount(t, e, 1),
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: withoutFactsFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				ConfigStateChecks:        []statecheck.StateCheck{statecheck.ExpectKnownValue("etl_import.multi", rowCount, knownvalue.Null())},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				ConfigPlanChecks:         resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
