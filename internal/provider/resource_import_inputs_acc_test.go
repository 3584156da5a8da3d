package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func TestAccImportInputs_fileAndRows(t *testing.T) {
	e, wire := newLoggedEmulator(t, emulator.Options{})
	dir := t.TempDir()
	actuals, actualsRaw := writeTestFile(t, dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	ratesCSV := []byte(delimited(ratesRows, "CSV"))
	const addr = "etl_import.multi"
	vars := twoStepVariables(e, "Load Actuals", actuals, config.Variables{"wait": config.BoolVariable(true)})
	var jobID string
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				ConfigStateChecks: []statecheck.StateCheck{
					expectInputs(e, addr, map[string][]byte{emulator.TwoStepActualsInputID: actualsRaw, emulator.TwoStepRatesInputID: ratesCSV}),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("submit"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("inputs").AtMapKey("Load Actuals").AtMapKey("file").AtMapKey("format"), knownvalue.StringExact("CSV")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("inputs").AtMapKey("Load Actuals").AtMapKey("file").AtMapKey("name"), knownvalue.StringExact("actuals.csv")),
					checkEmulator(addr, func(v map[string]any) error {
						jobs := e.Jobs()
						if len(jobs) != 1 || jobs[0].ID != v["id"] || jobs[0].TemplateID != emulator.TwoStepTemplateID {
							return fmt.Errorf("emulator jobs %+v, want exactly the state's job %v of the two-step template", jobs, v["id"])
						}
						jobID = jobs[0].ID
						for ep, want := range map[emulator.Endpoint]int{emulator.EndpointCreateJob: 1, emulator.EndpointUploadJobFile: 2, emulator.EndpointSubmitJob: 1, emulator.EndpointStartWithFile: 0, emulator.EndpointStartWithData: 0} {
							if n := e.Requests(ep); n != want {
								return fmt.Errorf("%s: %d requests, want %d", ep, n, want)
							}
						}
						want := []string{
							"POST /api/public/v1/etl/templates/" + emulator.TwoStepTemplateID + "/jobs -> 200",
							"PUT /api/public/v1/etl/jobs/" + jobID + "/inputs/" + emulator.TwoStepActualsInputID + "/file -> 204",
							"PUT /api/public/v1/etl/jobs/" + jobID + "/inputs/" + emulator.TwoStepRatesInputID + "/file -> 204",
							"POST /api/public/v1/etl/jobs/" + jobID + "/submit -> 200",
						}
						if got := wire.writes(); !slices.Equal(got, want) {
							return fmt.Errorf("requests that change something:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
						}
						t.Logf("wire sequence of a two-step import:\n%s", strings.Join(wire.all(), "\n"))
						return nil
					}),
				},
			},
			{
				// Nothing changed: nothing to do, no job.
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				PostApplyFunc: func() {
					if n := len(e.Jobs()); n != 1 {
						t.Errorf("emulator has %d jobs, want 1", n)
					}
				},
			},
		},
	})
}

// A key the template does not have fails the plan, on the key, listing
// the steps with their input ids; nothing is sent.
func TestAccImportInputs_unknownKey(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	dir := t.TempDir()
	actuals, _ := writeTestFile(t, dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          twoStepVariables(e, "Load Actual", actuals, nil),
				ExpectError: errRe(`Unknown input step(.|\n)*inputs key "Load Actual" is neither a step name nor an input id of template ` + emulator.TwoStepTemplateID +
					`(.|\n)*"Load Actuals": input id ` + emulator.TwoStepActualsInputID + `(.|\n)*"Load Rates": input id ` + emulator.TwoStepRatesInputID),
			},
		},
	})
	if jobs, _ := e.Stats(); jobs != 0 || e.Requests(emulator.EndpointCreateJob) != 0 || e.Requests(emulator.EndpointUploadJobFile) != 0 {
		t.Errorf("a plan-time error sent something: %d jobs, %d creates, %d uploads", jobs, e.Requests(emulator.EndpointCreateJob), e.Requests(emulator.EndpointUploadJobFile))
	}
}

// A step name that the template has twice cannot be a key: the error says
// to use the input ids, and with them both inputs are loaded.
func TestAccImportInputs_sameStepName(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	vars := func(k1, k2 string) config.Variables {
		return e.configVariables(config.Variables{
			"template_id": config.StringVariable(emulator.SameStepNameTemplateID),
			"first_key":   config.StringVariable(k1),
			"second_key":  config.StringVariable(k2),
		})
	}
	first := []byte(delimited([][]string{{"Product", "Units"}, {"East", "1"}}, "CSV"))
	second := []byte(delimited([][]string{{"Product", "Units"}, {"West", "2"}}, "CSV"))
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars("Load", emulator.SameStepNameSecondInputID),
				ExpectError: errRe(`Step name not unique(.|\n)*has 2 steps named "Load"(.|\n)*key each of them by its input id(.|\n)*` +
					emulator.SameStepNameFirstInputID + `(.|\n)*` + emulator.SameStepNameSecondInputID),
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(emulator.SameStepNameFirstInputID, emulator.SameStepNameSecondInputID),
				ConfigStateChecks: []statecheck.StateCheck{
					expectInputs(e, "etl_import.twin", map[string][]byte{emulator.SameStepNameFirstInputID: first, emulator.SameStepNameSecondInputID: second}),
				},
			},
		},
	})
	if jobs, _ := e.Stats(); jobs != 1 {
		t.Errorf("%d jobs, want 1", jobs)
	}
}

// An input whose file is moved to another path, or whose key changes from
// step name to input id, updates in place: no job. An input whose bytes
// change plans a new job.
func TestAccImportInputs_movedVersusEdited(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	dir := t.TempDir()
	actuals, actualsRaw := writeTestFile(t, dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	moved := filepath.Join(dir, "moved", "actuals-2024.csv")
	ratesCSV := []byte(delimited(ratesRows, "CSV"))
	edited := append(slices.Clone(actualsRows), []string{"4020", "7"})
	editedRaw := []byte(delimited(edited, "CSV"))
	const addr = "etl_import.multi"
	var firstID string
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          twoStepVariables(e, "Load Actuals", actuals, nil),
				ConfigStateChecks: []statecheck.StateCheck{
					checkEmulator(addr, func(v map[string]any) error { firstID, _ = v["id"].(string); return nil }),
				},
			},
			{
				PreConfig: func() {
					if err := os.MkdirAll(filepath.Dir(moved), 0o700); err != nil {
						t.Fatal(err)
					}
					if err := os.Rename(actuals, moved); err != nil {
						t.Fatal(err)
					}
				},
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          twoStepVariables(e, "Load Actuals", moved, nil),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringFunc(func(id string) error {
						if id != firstID {
							return fmt.Errorf("job %s, want the first job %s", id, firstID)
						}
						return nil
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("inputs").AtMapKey("Load Actuals").AtMapKey("file").AtMapKey("name"), knownvalue.StringExact("actuals-2024.csv")),
					expectInputs(e, addr, map[string][]byte{emulator.TwoStepActualsInputID: actualsRaw, emulator.TwoStepRatesInputID: ratesCSV}),
				},
				PostApplyFunc: func() {
					if n := len(e.Jobs()); n != 1 {
						t.Errorf("moving a file started a job: %d jobs, want 1", n)
					}
				},
			},
			{
				// The step keyed by its input id instead of its name: the same input.
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          twoStepVariables(e, emulator.TwoStepActualsInputID, moved, nil),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				PostApplyFunc: func() {
					if n := len(e.Jobs()); n != 1 {
						t.Errorf("keying the input by id started a job: %d jobs, want 1", n)
					}
				},
			},
			{
				PreConfig:                func() { writeFile(t, filepath.Dir(moved), filepath.Base(moved), editedRaw) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          twoStepVariables(e, emulator.TwoStepActualsInputID, moved, nil),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
						expectPriorID(addr, func() string { return firstID }),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectInputs(e, addr, map[string][]byte{emulator.TwoStepActualsInputID: editedRaw, emulator.TwoStepRatesInputID: ratesCSV}),
				},
				PostApplyFunc: func() {
					if n := len(e.Jobs()); n != 2 {
						t.Errorf("editing an input: %d jobs, want 2", n)
					}
				},
			},
		},
	})
}

// A PUT answered 422: the job is in state (tainted) and cancelled, the
// error names the step and the job; the next apply replaces it.
func TestAccImportInputs_loadFails(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointUploadJobFile, Count: 1, Status: 422})
	dir := t.TempDir()
	actuals, actualsRaw := writeTestFile(t, dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	const addr = "etl_import.multi"
	vars := twoStepVariables(e, "Load Actuals", actuals, nil)
	failedID := func() string {
		if jobs := e.Jobs(); len(jobs) > 0 {
			return jobs[0].ID
		}
		return "(none)"
	}
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				ExpectError:              regexp.MustCompile(`Loading step "Load Actuals" into import job [0-9]{18,19} failed(.|\n)*input id ` + emulator.TwoStepActualsInputID + `(.|\n)*422(.|\n)*cancelled`),
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
						expectPriorID(addr, failedID),
					},
				},
				PreConfig: func() {
					jobs := e.Jobs()
					if len(jobs) != 1 || jobs[0].Status != emulator.StatusCancelled {
						t.Fatalf("after the failed load: jobs %+v, want one CANCELLED job", jobs)
					}
					if n := e.Requests(emulator.EndpointCancelJob); n != 1 {
						t.Errorf("%d cancels, want 1", n)
					}
					if n := e.Requests(emulator.EndpointSubmitJob); n != 0 {
						t.Errorf("%d submits, want 0", n)
					}
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectInputs(e, addr, map[string][]byte{emulator.TwoStepActualsInputID: actualsRaw, emulator.TwoStepRatesInputID: []byte(delimited(ratesRows, "CSV"))}),
				},
			},
		},
	})
	if n := len(e.Jobs()); n != 2 {
		t.Errorf("%d jobs, want 2 (the cancelled one and its replacement)", n)
	}
}

// A 429 on a PUT is retried: one job, the bytes exact.
func TestAccImportInputs_loadRetried(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointUploadJobFile, Count: 1, Status: 429, RetryAfter: "0"})
	dir := t.TempDir()
	actuals, actualsRaw := writeTestFile(t, dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	const addr = "etl_import.multi"
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          twoStepVariables(e, "Load Actuals", actuals, nil),
				ConfigStateChecks: []statecheck.StateCheck{
					expectInputs(e, addr, map[string][]byte{emulator.TwoStepActualsInputID: actualsRaw, emulator.TwoStepRatesInputID: []byte(delimited(ratesRows, "CSV"))}),
				},
			},
		},
	})
	if jobs, _ := e.Stats(); jobs != 1 {
		t.Errorf("%d jobs, want 1", jobs)
	}
	if n := e.Requests(emulator.EndpointUploadJobFile); n != 3 {
		t.Errorf("%d PUTs, want 3 (one answered 429, then each input once)", n)
	}
}

// One file (or rows) for a template with two input steps: a plan-time
// warning naming the steps and pointing at inputs; the import is not
// refused.
func TestAccImportInputs_singleFileWarning(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	spy := &spyServer{}
	dir := t.TempDir()
	actuals, actualsRaw := writeTestFile(t, dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	const addr = "etl_import.single"
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: spyFactories(spy),
			ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
			ConfigVariables: e.configVariables(config.Variables{
				"two_step_template_id": config.StringVariable(emulator.TwoStepTemplateID),
				"one_step_template_id": config.StringVariable(emulator.GLActualsTemplateID),
				"actuals":              config.StringVariable(actuals),
			}),
			ConfigStateChecks: []statecheck.StateCheck{
				expectUpload(e, addr, emulator.Upload{Kind: "file", Header: actualsRows[0], RowCount: 2, SHA256: sha256Hex(actualsRaw)}),
				checkEmulator(addr, func(map[string]any) error {
					ws := spy.warnings("Template has several input steps")
					// One warning (the GL Actuals template has one step), in
					// the plan and again in the apply's plan.
					if len(ws) == 0 {
						return fmt.Errorf("no warning about the template's steps")
					}
					for _, w := range ws {
						for _, s := range []string{emulator.TwoStepTemplateID, `"Load Actuals"`, `"Load Rates"`, "inputs"} {
							if !strings.Contains(w, s) {
								return fmt.Errorf("warning %q does not name %s", w, s)
							}
						}
					}
					if len(ws) > 2 {
						return fmt.Errorf("%d warnings, want one per plan of the two-step resource only:\n%s", len(ws), strings.Join(ws, "\n"))
					}
					if jobs, _ := e.Stats(); jobs != 2 {
						return fmt.Errorf("%d jobs, want 2", jobs)
					}
					return nil
				}),
			},
		}},
	})
}

// submit with inputs: left out, it is true (the job runs); an explicit
// false is a plan-time warning and the job stays EDITING; false with
// wait_for_completion is a plan-time error. A template with no input
// steps runs with inputs = {}: create, then submit.
func TestAccImportInputs_submitChoice(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	spy := &spyServer{}
	dir := t.TempDir()
	actuals, _ := writeTestFile(t, dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	const addr = "etl_import.multi"
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: spyFactories(spy),
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables: twoStepVariables(e, "Load Actuals", actuals, config.Variables{
					"submit": config.BoolVariable(false),
					"wait":   config.BoolVariable(true),
				}),
				ExpectError: errRe(`Waiting on a job that is not submitted(.|\n)*never runs`),
			},
			{
				// The same, without wait, and a template with no input
				// steps beside it.
				ProtoV6ProviderFactories: spyFactories(spy),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables: twoStepVariables(e, "Load Actuals", actuals, config.Variables{
					"submit":              config.BoolVariable(false),
					"no_step_template_id": config.StringVariable(emulator.NoStepTemplateID),
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("submit"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("EDITING")),
					statecheck.ExpectKnownValue("etl_import.recalculate", tfjsonpath.New("submit"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("etl_import.recalculate", tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
					statecheck.ExpectKnownValue("etl_import.recalculate", tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(nil))),
					checkEmulator(addr, func(v map[string]any) error {
						job, _ := e.Job(v["id"].(string))
						if job.Status != emulator.StatusEditing || len(job.Inputs) != 2 {
							return fmt.Errorf("job %s is %s with %d inputs, want EDITING with 2", job.ID, job.Status, len(job.Inputs))
						}
						ws := spy.warnings("Job will not be submitted")
						if len(ws) == 0 || !strings.Contains(ws[0], "stays EDITING") {
							return fmt.Errorf("warnings %q, want one saying the job stays EDITING", ws)
						}
						if n := e.Requests(emulator.EndpointSubmitJob); n != 1 {
							return fmt.Errorf("%d submits, want 1 (the template with no steps)", n)
						}
						if jobs, _ := e.Stats(); jobs != 2 {
							return fmt.Errorf("%d jobs, want 2", jobs)
						}
						return nil
					}),
				},
			},
		},
	})
}

// Problems of an input's file or rows are plan-time errors on the input's
// attribute, as for the top-level file; nothing is sent.
func TestAccImportInputs_planTimeDiagnostics(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	dir := t.TempDir()
	noExt := writeFile(t, dir, "gl.data", []byte("Account,Amount\n4000,1\n"))
	bad := writeFile(t, dir, "bad.csv", []byte("Account,Amount\n4000,1,2\n"))
	step := func(input, pattern string) resource.TestStep {
		return resource.TestStep{
			Config: e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "x" {
  template_id = %q
  inputs = {
    "Load Actuals" = %s
  }
}
`, emulator.TwoStepTemplateID, input),
			PlanOnly:    true,
			ExpectError: errRe(`(?s)` + pattern),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := len(e.Jobs()); n != 0 {
				return fmt.Errorf("%d jobs started, want none", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			step(fmt.Sprintf(`{ file = { path = %q } }`, filepath.Join(dir, "missing.csv")), `File not found.*inputs\["Load Actuals"\].*file\.path.*missing\.csv`),
			step(fmt.Sprintf(`{ file = { path = %q } }`, noExt), `Missing file format.*inputs\["Load Actuals"\].*file\.format is required`),
			step(fmt.Sprintf(`{ file = { path = %q } }`, bad), `Row of unequal width|row.*3.*2`),
			step(`{ rows = [["Account", "Amount"], ["4000"]] }`, `Row of unequal width.*rows\[1\]`),
			step(fmt.Sprintf(`{
      file = { path = %q }
      rows = [["Account", "Amount"]]
    }`, noExt), `Invalid Attribute Combination.*inputs\["Load Actuals"\]\.(file|rows)`),
			step(`{ file = { format = "CSV" } }`, `Invalid Attribute Combination.*\[inputs\["Load\s+Actuals"\]\.file\.path,inputs\["Load\s+Actuals"\]\.file\.content,inputs\["Load\s+Actuals"\]\.file\.content_wo\]`),
			{Config: e.providerConfig()},
		},
	})
}

// A job with inputs loaded elsewhere is adopted by import: the first apply
// records its configuration (content_sha256 included) without a job.
func TestAccImportInputs_adopt(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	ctx := context.Background()
	c, err := etl.New(etl.Config{BaseURL: e.URL, TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret})
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.CreateJob(ctx, emulator.TwoStepTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	for inputID, rows := range map[string][][]string{emulator.TwoStepActualsInputID: actualsRows, emulator.TwoStepRatesInputID: ratesRows} {
		if err := c.UploadJobFile(ctx, job.ID, inputID, etl.DataUpload{Rows: rows}.CSVFile()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.SubmitJob(ctx, job.ID); err != nil {
		t.Fatal(err)
	}
	const addr = "etl_import.adopted"
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
			ConfigVariables: e.configVariables(config.Variables{
				"template_id": config.StringVariable(emulator.TwoStepTemplateID),
				"job_id":      config.StringVariable(job.ID),
			}),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(job.ID)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
				expectInputs(e, addr, map[string][]byte{
					emulator.TwoStepActualsInputID: []byte(delimited(actualsRows, "CSV")),
					emulator.TwoStepRatesInputID:   []byte(delimited(ratesRows, "CSV")),
				}),
			},
			PostApplyFunc: func() {
				if jobs, _ := e.Stats(); jobs != 1 {
					t.Errorf("%d jobs, want 1: adopting starts none", jobs)
				}
			},
		}},
	})
}
