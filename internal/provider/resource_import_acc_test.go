package provider

import (
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The configurations of these tests are under testdata/<test name>: the
// provider block there takes the emulator's URL and credentials as
// variables, and data files by absolute path (Terraform runs in a copy
// of the directory). The provider factories are given in each step, not
// in the TestCase: the testing framework refuses a configuration
// directory with a provider block when the TestCase names providers.

// configVariables are the variables of the provider block of a
// configuration under testdata, pointing at e, with the test's vars.
func (e *testEmulator) configVariables(vars config.Variables) config.Variables {
	v := config.Variables{
		"endpoint":     config.StringVariable(e.URL),
		"token_id":     config.StringVariable(emulator.DefaultTokenID),
		"token_secret": config.StringVariable(emulator.DefaultTokenSecret),
	}
	maps.Copy(v, vars)
	return v
}

func TestAccImport_filesFormatsEncodings(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	dir := t.TempDir()
	type tc struct {
		addr, format, enc, fileName string
		raw                         []byte
	}
	// The files the configuration names, in var.dir, one per resource.
	var cases []tc
	exts := map[string]string{"CSV": "csv", "PSV": "psv", "TDF": "tsv"}
	for _, format := range []string{"CSV", "PSV", "TDF"} {
		for i, enc := range []string{"UTF-8", "UTF-16", "Windows Latin-1"} {
			name := fmt.Sprintf("gl_%s_%d.%s", strings.ToLower(format), i, exts[format])
			if format == "TDF" && i == 2 {
				name = "gl_tdf_2.tab" // every TDF extension gives the format
			}
			_, raw := writeTestFile(t, dir, name, format, enc, testRows)
			res := fmt.Sprintf("%s_%d", strings.ToLower(format), i)
			cases = append(cases, tc{addr: "etl_import." + res, format: format, enc: enc, fileName: name, raw: raw})
		}
	}
	// Inline content, encoded by the provider to the declared encoding.
	inline := []struct{ res, format, enc, fileName string }{
		{"inline_csv", "CSV", "UTF-8", "inline.csv"},
		{"inline_psv", "PSV", "UTF-16", "data.psv"},
		{"inline_tdf", "TDF", "Windows Latin-1", "data.tsv"},
	}
	for _, in := range inline {
		text := delimited(testRows, in.format)
		cases = append(cases, tc{addr: "etl_import." + in.res, format: in.format, enc: in.enc, fileName: in.fileName, raw: encodeTestText(t, text, in.enc)})
	}
	vars := e.configVariables(config.Variables{
		"template_id": config.StringVariable(emulator.GLActualsTemplateID),
		"dir":         config.StringVariable(dir),
		"csv_text":    config.StringVariable(delimited(testRows, "CSV")),
		"psv_text":    config.StringVariable(delimited(testRows, "PSV")),
		"tdf_text":    config.StringVariable(delimited(testRows, "TDF")),
	})

	var checks []statecheck.StateCheck
	for _, c := range cases {
		checks = append(checks,
			statecheck.ExpectKnownValue(c.addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(c.raw))),
			statecheck.ExpectKnownValue(c.addr, tfjsonpath.New("file").AtMapKey("format"), knownvalue.StringExact(c.format)),
			statecheck.ExpectKnownValue(c.addr, tfjsonpath.New("file").AtMapKey("name"), knownvalue.StringExact(c.fileName)),
			statecheck.ExpectKnownValue(c.addr, tfjsonpath.New("file").AtMapKey("part_name"), knownvalue.StringExact("file")),
			statecheck.ExpectKnownValue(c.addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]{18,19}$`))),
			statecheck.ExpectKnownValue(c.addr, tfjsonpath.New("model_name"), knownvalue.StringExact("Finance Plan")),
			expectUpload(e, c.addr, emulator.Upload{
				Kind: "file", Format: c.format, Encoding: c.enc, FileName: c.fileName, PartName: "file",
				Header: testRows[0], RowCount: 2, Rows: testRows[1:],
				SHA256: sha256Hex(c.raw), Bytes: int64(len(c.raw)),
			}),
		)
	}
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigStateChecks:        checks,
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				PostApplyFunc: func() {
					if n := len(e.Jobs()); n != len(cases) {
						t.Errorf("emulator has %d jobs, want exactly %d (one per resource)", n, len(cases))
					}
				},
			},
		},
	})
}

func TestAccImport_rowsSubmitWaitCompleted(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{RunTime: 300 * time.Millisecond})
	const addr = "etl_import.rows"
	vars := func(wait bool) config.Variables {
		return e.configVariables(config.Variables{"wait": config.BoolVariable(wait)})
	}
	want := [][]string{{"Account", "Amount"}, {"4000", "100"}, {"4010", "-20.5"}, {"4020", "Montréal & <co>"}}
	body := rowsBody(t, want)
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
						// The hash is known at plan time.
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(body))),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(body))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("GL Actuals")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("model_id"), knownvalue.StringExact(modelFinance)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_name"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_date"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("updated_date"), knownvalue.NotNull()),
					expectUpload(e, addr, emulator.Upload{Kind: "data", Header: want[0], RowCount: 3, Rows: want[1:], SHA256: sha256Hex(body), Bytes: int64(len(body))}),
					checkEmulator(addr, func(v map[string]any) error {
						job, _ := e.Job(v["id"].(string))
						if job.Status != emulator.StatusCompleted {
							return fmt.Errorf("emulator job status %s, want COMPLETED", job.Status)
						}
						if n := e.Requests(emulator.EndpointSubmitJob); n != 1 {
							return fmt.Errorf("%d submit requests, want 1", n)
						}
						return nil
					}),
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				// Nothing changed: an empty plan.
				ConfigDirectory: withProvider(t, config.TestNameDirectory()),
				ConfigVariables: vars(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				// A behaviour-only setting updates in place, without a new job.
				ConfigDirectory: withProvider(t, config.TestNameDirectory()),
				ConfigVariables: vars(false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("wait_for_completion"), knownvalue.Bool(false)),
					checkEmulator(addr, func(map[string]any) error {
						if n := len(e.Jobs()); n != 1 {
							return fmt.Errorf("%d jobs, want 1", n)
						}
						return nil
					}),
				},
			},
		},
	})
}

func TestAccImport_submitWithoutWait(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{RunTime: time.Hour})
	const addr = "etl_import.sub"
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
			ConfigVariables: e.configVariables(config.Variables{
				"sales_template_id":     config.StringVariable(emulator.SalesVolumesTemplateID),
				"headcount_template_id": config.StringVariable(emulator.HeadcountTemplateID),
			}),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("SUBMITTED")),
				statecheck.ExpectKnownValue("etl_import.nosub", tfjsonpath.New("status"), knownvalue.StringExact("RUNNING")),
				statecheck.ExpectKnownValue("etl_import.nosub", tfjsonpath.New("submit"), knownvalue.Bool(false)),
				checkEmulator(addr, func(v map[string]any) error {
					if n := e.Requests(emulator.EndpointSubmitJob); n != 1 {
						return fmt.Errorf("%d submit requests, want 1 (only for submit = true)", n)
					}
					if job, _ := e.Job(v["id"].(string)); job.Status != emulator.StatusSubmitted {
						return fmt.Errorf("emulator job status %s, want SUBMITTED", job.Status)
					}
					return nil
				}),
			},
		}},
	})
}

func TestAccImport_waitEndsInError(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	// "Amount" is a required column of the template: the job ends in ERROR.
	vars := e.configVariables(config.Variables{"template_id": config.StringVariable(emulator.GLActualsTemplateID)})
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ExpectError:              errRe(`(?s)Import job [0-9]{18,19} ended with status ERROR.*stays in the Terraform state`),
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				// The job stayed in state, tainted: the plan replaces it
				// (a lost job would plan a plain create).
				PreConfig: func() {
					jobs := e.Jobs()
					if len(jobs) != 1 || jobs[0].Status != emulator.StatusError {
						t.Errorf("emulator jobs %+v, want exactly one in ERROR", jobs)
					}
				},
				ConfigDirectory:    withProvider(t, config.TestNameDirectory()),
				ConfigVariables:    vars,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPreRefresh: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("etl_import.bad", plancheck.ResourceActionReplace),
						expectPriorID("etl_import.bad", func() string { return e.Jobs()[0].ID }),
					},
				},
			},
		},
	})
}

func TestAccImport_editedFileReplaces(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	dir := t.TempDir()
	p, raw := writeTestFile(t, dir, "gl.csv", "CSV", "UTF-8", testRows)
	const addr = "etl_import.gl"
	vars := e.configVariables(config.Variables{
		"template_id": config.StringVariable(emulator.GLActualsTemplateID),
		"path":        config.StringVariable(p),
	})
	edited := append(slices.Clone(testRows), []string{"4030", "7", "Québec"})
	var editedRaw []byte
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(raw))),
					expectUpload(e, addr, emulator.Upload{Format: "CSV", Encoding: "UTF-8", FileName: "gl.csv", Header: testRows[0], RowCount: 2, SHA256: sha256Hex(raw)}),
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				PreConfig:                func() { _, editedRaw = writeTestFile(t, dir, "gl.csv", "CSV", "UTF-8", edited) },
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringFunc(func(v string) error {
							if v != sha256Hex(editedRaw) {
								return fmt.Errorf("planned content_sha256 %s, want the edited file's %s", v, sha256Hex(editedRaw))
							}
							return nil
						})),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					expectUpload(e, addr, emulator.Upload{Format: "CSV", Header: testRows[0], RowCount: 3}),
					checkEmulator(addr, func(map[string]any) error {
						if n := len(e.Jobs()); n != 2 {
							return fmt.Errorf("%d jobs, want exactly 2 (one more for the edited file)", n)
						}
						return nil
					}),
				},
			},
		},
	})
}

func TestAccImport_pathUnknownAtPlan(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	p, raw := writeTestFile(t, t.TempDir(), "later.psv", "PSV", "UTF-8", testRows)
	const addr = "etl_import.later"
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
			ConfigVariables: e.configVariables(config.Variables{
				"template_id": config.StringVariable(emulator.GLActualsTemplateID),
				"path":        config.StringVariable(p),
			}),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("content_sha256")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("file").AtMapKey("format")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("file").AtMapKey("name")),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(raw))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey("format"), knownvalue.StringExact("PSV")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey("name"), knownvalue.StringExact("later.psv")),
				expectUpload(e, addr, emulator.Upload{Format: "PSV", FileName: "later.psv", Header: testRows[0], RowCount: 2}),
			},
		}},
	})
}

func TestAccImport_importState(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	const addr = "etl_import.gl"
	vars := e.configVariables(config.Variables{"template_id": config.StringVariable(emulator.GLActualsTemplateID)})
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ResourceName:             addr,
				ImportState:              true,
				ImportStateVerify:        true,
				// What defines the job is configuration only: the service does not return it,
				// nor what the plan counted of its data.
				ImportStateVerifyIgnore: []string{"template_id", "file", "rows", "submit", "wait_for_completion", "cancel_on_destroy", "content_sha256", "timeouts",
					"columns", "row_count", "size_bytes"},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ResourceName:             addr,
				ImportState:              true,
				ImportStateId:            "12345",
				ExpectError:              errRe(`(?s)Invalid job id.*18 or 19\s+decimal digits`),
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ResourceName:             addr,
				ImportState:              true,
				ImportStateId:            "999999999999999999",
				ExpectError:              errRe(`(?s)Cannot import non-existent remote object|not found`),
			},
		},
	})
}

func TestAccImport_importBlockAdopts(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	rows := [][]string{{"Account", "Amount"}, {"4000", "12"}}
	jobID := startJob(t, e, emulator.GLActualsTemplateID, rows)
	const addr = "etl_import.adopted"
	vars := func(amount string) config.Variables {
		return e.configVariables(config.Variables{
			"template_id": config.StringVariable(emulator.GLActualsTemplateID),
			"amount":      config.StringVariable(amount),
		})
	}
	importVars := vars("12")
	importVars["job_id"] = config.StringVariable(jobID)
	onlyOneJob := checkEmulator(addr, func(map[string]any) error {
		if n := len(e.Jobs()); n != 1 {
			return fmt.Errorf("%d jobs, want 1: adopting must not start a job", n)
		}
		return nil
	})
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				// Import and adopt the configuration: an update, no new job.
				ConfigDirectory: withProvider(t, config.StaticDirectory("testdata/TestAccImport_importBlockAdopts/import")),
				ConfigVariables: importVars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(jobID)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(rowsBody(t, rows)))),
					onlyOneJob,
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars("12"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{onlyOneJob},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				// Once adopted, a change replaces as usual.
				ConfigDirectory: withProvider(t, config.TestNameDirectory()),
				ConfigVariables: vars("13"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					checkEmulator(addr, func(v map[string]any) error {
						if n := len(e.Jobs()); n != 2 {
							return fmt.Errorf("%d jobs, want 2", n)
						}
						if v["id"] == jobID {
							return fmt.Errorf("state still holds the adopted job %s", jobID)
						}
						return nil
					}),
				},
			},
		},
	})
}

func TestAccImport_cliImportAdopts(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	jobID := startJob(t, e, emulator.SalesVolumesTemplateID, [][]string{{"Product", "Units"}, {"Widget", "3"}})
	const addr = "etl_import.sales"
	// The configuration need not match what the adopted job imported: the
	// first apply takes it over as it is.
	vars := e.configVariables(config.Variables{"template_id": config.StringVariable(emulator.SalesVolumesTemplateID)})
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ResourceName:             addr,
				ImportState:              true,
				ImportStateId:            jobID,
				ImportStatePersist:       true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 || states[0].ID != jobID || states[0].Attributes["model_name"] != "Sales Model" {
						return fmt.Errorf("imported %+v, want job %s of Sales Model", states, jobID)
					}
					return nil
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(jobID)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte("Product,Units\nWidget,3\n")))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey("name"), knownvalue.StringExact("data.csv")),
					checkEmulator(addr, func(map[string]any) error {
						if n := len(e.Jobs()); n != 1 {
							return fmt.Errorf("%d jobs, want 1", n)
						}
						return nil
					}),
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

func TestAccImport_cancelOnDestroy(t *testing.T) {
	// Jobs run for an hour: still RUNNING when destroyed.
	e := newTestEmulator(t, emulator.Options{RunTime: time.Hour})
	vars := func(cancel bool) config.Variables {
		return e.configVariables(config.Variables{
			"gl_template_id":    config.StringVariable(emulator.GLActualsTemplateID),
			"sales_template_id": config.StringVariable(emulator.SalesVolumesTemplateID),
			"cancel":            config.BoolVariable(cancel),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			for _, j := range e.Jobs() {
				want := emulator.StatusRunning // destroy forgets the job: data and job stay
				if j.TemplateID == emulator.GLActualsTemplateID {
					want = emulator.StatusCancelled
				}
				if j.Status != want {
					return fmt.Errorf("job %s of template %s is %s after destroy, want %s", j.ID, j.TemplateID, j.Status, want)
				}
			}
			if n := e.Requests(emulator.EndpointCancelJob); n != 1 {
				return fmt.Errorf("%d cancel requests, want 1", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(false),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("etl_import.cancel", tfjsonpath.New("status"), knownvalue.StringExact("RUNNING")),
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				// cancel_on_destroy changes in place.
				ConfigDirectory: withProvider(t, config.TestNameDirectory()),
				ConfigVariables: vars(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("etl_import.cancel", plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("etl_import.cancel", tfjsonpath.New("cancel_on_destroy"), knownvalue.Bool(true)),
					checkEmulator("etl_import.cancel", func(map[string]any) error {
						if n := len(e.Jobs()); n != 2 {
							return fmt.Errorf("%d jobs, want 2", n)
						}
						return nil
					}),
				},
			},
		},
	})
}

func TestAccImport_jobGoneLeavesState(t *testing.T) {
	srv := emulator.New(emulator.Options{Instant: true})
	var gone atomic.Bool
	// Once gone is set, the service no longer knows any job.
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gone.Load() && strings.Contains(r.URL.Path, "/jobs/") {
			http.Error(w, `{"message":"job not found"}`, http.StatusNotFound)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	e := &testEmulator{Server: srv, URL: ts.URL}
	vars := e.configVariables(config.Variables{"template_id": config.StringVariable(emulator.GLActualsTemplateID)})
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				// Refresh keeps the job the service no longer knows (a
				// warning; status NOT_FOUND), and the plan starts no job:
				// its data is still in the model.
				PreConfig:       func() { gone.Store(true) },
				ConfigDirectory: withProvider(t, config.TestNameDirectory()),
				ConfigVariables: vars,
				PlanOnly:        true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction("etl_import.gone", plancheck.ResourceActionNoop)},
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				PreConfig: func() {
					if n := len(srv.Jobs()); n != 1 {
						t.Errorf("%d jobs, want 1", n)
					}
				},
				ConfigDirectory: withProvider(t, config.TestNameDirectory()),
				ConfigVariables: vars,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("etl_import.gone", tfjsonpath.New("status"), knownvalue.StringExact(statusNotFound)),
				},
			},
		},
	})
}

// A start whose answer is lost is not retried (no duplicate job), and the
// error says a job may exist and how to adopt it.
func TestAccImport_answerLostNoDuplicate(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointStartWithData, Count: 1, DropAfterHandling: true})
	resource.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if n := len(e.Jobs()); n != 1 {
				return fmt.Errorf("%d jobs, want exactly 1: the lost answer's request must not be retried", n)
			}
			if n := e.Requests(emulator.EndpointStartWithData); n != 1 {
				return fmt.Errorf("%d start requests, want 1", n)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
			ConfigVariables:          e.configVariables(config.Variables{"template_id": config.StringVariable(emulator.GLActualsTemplateID)}),
			ExpectError:              errRe(`(?s)Import job may have been created.*not retried.*terraform import etl_import.<name> <job id>`),
		}},
	})
}
