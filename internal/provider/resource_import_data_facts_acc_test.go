package provider

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	tfres "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// columns, row_count and size_bytes are known in the plan of a new import
// (a CSV file with quoted line breaks, CR LF and no final line break; rows;
// rows_wo, whose cells never reach the plan), an edited file plans its new
// row_count, and the plan after each apply is empty.
func TestAccImport_dataFacts(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	dir := t.TempDir()
	p := writeFile(t, dir, "gl.csv", []byte(factsCSV))
	five := factsCSV + "\r\n4030,5\r\n4040,6\r\n"
	rows := [][]string{{"Account", "Amount"}, {"4000", "1"}, {"4010", "2"}, {"4020", "3"}}
	woRows := [][]string{{"Account", "Amount"}, {"4000", "facts-wo-secret"}}
	vars := e.configVariables(config.Variables{
		"template_id": config.StringVariable(emulator.GLActualsTemplateID),
		"path":        config.StringVariable(p),
	})
	columns := knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("Account"), knownvalue.StringExact("Amount")})
	facts := func(addr string, cols knownvalue.Check, n, size int) []plancheck.PlanCheck {
		return []plancheck.PlanCheck{
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("columns"), cols),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("row_count"), knownvalue.Int64Exact(int64(n))),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("size_bytes"), knownvalue.Int64Exact(int64(size))),
		}
	}
	// Where the data goes: the template's model, known at plan.
	model := func(addr string) []plancheck.PlanCheck {
		return []plancheck.PlanCheck{
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("model_id"), knownvalue.StringExact(modelFinance)),
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("model_name"), knownvalue.StringExact("Finance Plan")),
		}
	}
	first := append(facts("etl_import.file", columns, 3, len(factsCSV)), facts("etl_import.rows", columns, 3, len(rowsBody(t, rows)))...)
	first = append(append(first, model("etl_import.file")...), model("etl_import.wo")...)
	first = append(first, facts("etl_import.wo", knownvalue.Null(), 1, len(rowsBody(t, woRows)))...)
	first = append(first, planHoldsNone([]string{"facts-wo-secret"}))
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, ConfigDirectory: withProvider(t, config.TestNameDirectory()), ConfigVariables: vars, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: first}},
			{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, ConfigDirectory: withProvider(t, config.TestNameDirectory()), ConfigVariables: vars, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
			{
				// Two rows more: a new job, its row_count known at plan.
				PreConfig:                func() { writeFile(t, dir, "gl.csv", []byte(five)) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(append(facts("etl_import.file", columns, 5, len(five)), model("etl_import.file")...),
					plancheck.ExpectResourceAction("etl_import.file", plancheck.ResourceActionReplace),
					plancheck.ExpectResourceAction("etl_import.rows", plancheck.ResourceActionNoop))},
			},
			{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, ConfigDirectory: withProvider(t, config.TestNameDirectory()), ConfigVariables: vars, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// A postcondition on row_count refuses an empty data file at plan time:
// no job starts.
func TestAccImport_dataFactsPostcondition(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	p := writeFile(t, t.TempDir(), "empty.csv", []byte("Account,Amount\r\n"))
	vars := e.configVariables(config.Variables{
		"template_id": config.StringVariable(emulator.GLActualsTemplateID),
		"path":        config.StringVariable(p),
	})
	resource.Test(t, resource.TestCase{
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
			ConfigVariables:          vars,
			ExpectError:              regexp.MustCompile(`the data file holds no rows`),
		}},
		CheckDestroy: func(*terraform.State) error {
			if n := len(e.Jobs()); n != 0 {
				return fmt.Errorf("%d jobs on the emulator, want 0", n)
			}
			if _, err := os.Stat(p); err != nil {
				return err
			}
			return nil
		},
	})
}

// A state written before columns, row_count and size_bytes existed (null
// in state, the file's hash record without counts) plans nothing after the
// upgrade: no job starts, the unchanged file is not read at plan, rows
// gain their values at the refresh.
func TestAccImport_dataFactsUpgrade(t *testing.T) {
	c := newCacheFixture(t, true)
	vars := c.vars(nil)
	resource.ParallelTest(t, resource.TestCase{
		CheckDestroy: expectJobCount(t, c.e, 2),
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: withoutFactsFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cachedAddr, tfjsonpath.New("row_count"), knownvalue.Null()),
					statecheck.ExpectKnownValue("etl_import.rows", tfjsonpath.New("row_count"), knownvalue.Null()),
				},
			},
			{
				PreConfig:                func() { c.requireReads(2, "after the first apply (its plan, then the send)") },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigPlanChecks:         resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					c.expectReads(2, "after the plan of the upgrade"),
					statecheck.ExpectKnownValue("etl_import.rows", tfjsonpath.New("row_count"), knownvalue.Int64Exact(1)),
				},
			},
		},
	})
}

// Resources serves etl_import without its data facts.
func (p *providerWithoutFacts) Resources(context.Context) []func() tfres.Resource {
	return []func() tfres.Resource{func() tfres.Resource { return importWithoutFacts{&importResource{}} }}
}

// importWithoutFacts is etl_import that forgets its data facts.
type importWithoutFacts struct{ *importResource }

// ModifyPlan plans the facts null.
func (r importWithoutFacts) ModifyPlan(ctx context.Context, req tfres.ModifyPlanRequest, resp *tfres.ModifyPlanResponse) {
	r.importResource.ModifyPlan(ctx, req, resp)
	if !resp.Plan.Raw.IsNull() {
		forgetFacts(ctx, resp.Plan.GetAttribute, resp.Plan.SetAttribute)
	}
}

// Create records the facts null.
func (r importWithoutFacts) Create(ctx context.Context, req tfres.CreateRequest, resp *tfres.CreateResponse) {
	r.importResource.Create(ctx, req, resp)
	forgetFacts(ctx, resp.State.GetAttribute, resp.State.SetAttribute)
}

// Read keeps the facts null.
func (r importWithoutFacts) Read(ctx context.Context, req tfres.ReadRequest, resp *tfres.ReadResponse) {
	r.importResource.Read(ctx, req, resp)
	if !resp.State.Raw.IsNull() {
		forgetFacts(ctx, resp.State.GetAttribute, resp.State.SetAttribute)
	}
}

// forgetFacts sets the facts null, those of each input too, and drops
// the counts of the disk cache's record of the file.
func forgetFacts(ctx context.Context, get, set func(context.Context, path.Path, any) diag.Diagnostics) {
	at := []path.Path{path.Root("columns")}
	var inputs types.Map
	if d := get(ctx, path.Root("inputs"), &inputs); !d.HasError() && !inputs.IsUnknown() {
		for k := range inputs.Elements() {
			at = append(at, inputPath(k).AtName("columns"))
		}
	}
	for _, c := range at {
		set(ctx, c, types.ListNull(types.StringType))
		set(ctx, c.ParentPath().AtName("row_count"), types.Int64Null())
		set(ctx, c.ParentPath().AtName("size_bytes"), types.Int64Null())
	}
	var p types.String
	get(ctx, path.Root("file").AtName("path"), &p)
	if abs, id, ok := localfile.StatPath(p.ValueString()); known(p) && ok {
		if rec := localfile.UserDiskCache().Get(abs, id); rec != nil {
			rec.Counts = nil
			localfile.UserDiskCache().Put(rec)
		}
	}
}

// After the apply of an unchanged old file, the disk cache's record of its
// hash (the send's: localfile.DiskCache.KeepSent) keeps the plan's counts:
// a later plan that trusts the record knows the values without reading
// the file.
func TestAccImport_dataFactsKeptInTheHashCache(t *testing.T) {
	c := newCacheFixture(t, true)
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          withProvider(t, hashCacheDirectory),
			ConfigVariables:          c.vars(nil),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(cachedAddr, tfjsonpath.New("row_count"), knownvalue.Int64Exact(300_000)),
				plancheck.ExpectKnownValue(cachedAddr, tfjsonpath.New("size_bytes"), knownvalue.Int64Exact(int64(len(c.content)))),
			}},
			ConfigStateChecks: []statecheck.StateCheck{c.imported(1), stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
				abs, id, _ := localfile.StatPath(c.path)
				if r := localfile.UserDiskCache().Get(abs, id); r == nil || r.Counts == nil || r.Counts.Rows != 300_000 || r.Counts.Size != int64(len(c.content)) {
					resp.Error = fmt.Errorf("the disk cache's record of the file after the apply: %+v", r)
				}
			})},
		}},
	})
}
