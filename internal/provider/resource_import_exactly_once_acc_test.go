package provider

// An import happens exactly once: a new job starts only when what the
// service would import changes. Each test asserts on the emulator's record
// of jobs (how many, and the SHA-256 of the bytes each received), not only
// on Terraform's state, and logs the number of jobs it saw.

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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

// Moving the file, switching between content and a path with the same
// bytes, renaming the file or its part, and the behaviour settings update
// in place: one job throughout. Editing the bytes (the control) starts the
// second.
func TestAccExactlyOnce_inPlaceChanges(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	text := delimited(testRows, "CSV")
	sum := sha256Hex([]byte(text))
	dirA, dirB := t.TempDir(), t.TempDir()
	pathA := writeFile(t, dirA, "gl.csv", []byte(text))
	pathB := writeFile(t, dirB, "gl.csv", []byte(text))
	const addr = "etl_import.gl"
	// vars are the variables of the configuration: the file's attributes
	// and the behaviour settings to set, name and value in turn (the
	// others are left out).
	vars := func(nameValues ...any) config.Variables {
		v := e.configVariables(config.Variables{"template_id": config.StringVariable(emulator.GLActualsTemplateID)})
		for i := 0; i < len(nameValues); i += 2 {
			switch x := nameValues[i+1].(type) {
			case string:
				v[nameValues[i].(string)] = config.StringVariable(x)
			case bool:
				v[nameValues[i].(string)] = config.BoolVariable(x)
			}
		}
		return v
	}
	inPlace := func(vars config.Variables, checks ...statecheck.StateCheck) resource.TestStep {
		return resource.TestStep{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
			ConfigVariables:          vars,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sum)),
			}},
			ConfigStateChecks: append([]statecheck.StateCheck{jobsAre(e, sum), sameJob(e, addr),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sum))}, checks...),
		}
	}
	fileAttr := func(name string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey(name), knownvalue.NotNull())
	}
	edited := append(slices.Clone(testRows), []string{"4030", "7", "Québec"})
	editedSum := sha256Hex([]byte(delimited(edited, "CSV")))
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars("content", text, "format", "CSV"),
				ConfigStateChecks:        []statecheck.StateCheck{jobsAre(e, sum)},
			},
			// Inline content to a path holding the same bytes.
			inPlace(vars("path", pathA), fileAttr("path")),
			// The file moved to another directory.
			inPlace(vars("path", pathB),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey("path"), knownvalue.StringExact(pathB))),
			// Renamed, sent in another part.
			inPlace(vars("path", pathB, "name", "renamed.csv", "part_name", "upload"),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey("name"), knownvalue.StringExact("renamed.csv"))),
			// How to wait, what to do on destroy, the time limits.
			inPlace(vars("path", pathB, "name", "renamed.csv", "wait", true, "cancel", true, "create_timeout", "10m"),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("cancel_on_destroy"), knownvalue.Bool(true))),
			// The control: other bytes are a new job.
			{
				PreConfig:                func() { writeFile(t, dirB, "gl.csv", []byte(delimited(edited, "CSV"))) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars("path", pathB, "name", "renamed.csv"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum, editedSum)},
			},
		},
	})
	t.Logf("jobs: %d", len(e.Jobs()))
}

// submit turned on submits the job in place (and waits); turned off,
// nothing is sent; turned on again for the COMPLETED job, which was
// submitted, the change is recorded in place: 1 job, 1 submit.
func TestAccExactlyOnce_submitToggle(t *testing.T) {
	clock := &testClock{}
	// Jobs run for an hour of the emulator's clock, which jumps two hours
	// once a job is submitted.
	e := wrappedEmulator(t, emulator.Options{RunTime: time.Hour, Now: clock.Now}, func(srv *emulator.Server, w http.ResponseWriter, r *http.Request) {
		srv.ServeHTTP(w, r)
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/submit") {
			clock.advance(2 * time.Hour)
		}
	})
	const addr = "etl_import.gl"
	rows := [][]string{{"Account", "Amount"}, {"4000", "1"}}
	sum := sha256Hex(rowsBody(t, rows))
	vars := func(submit bool, wait bool) config.Variables {
		return e.configVariables(config.Variables{
			"template_id": config.StringVariable(emulator.GLActualsTemplateID),
			"submit":      config.BoolVariable(submit),
			"wait":        config.BoolVariable(wait),
		})
	}
	submits := func(n int) statecheck.StateCheck {
		return stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
			if got := e.Requests(emulator.EndpointSubmitJob); got != n {
				resp.Error = fmt.Errorf("%d submit requests, want %d", got, n)
			}
		})
	}
	status := func(s string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(s))
	}
	spy := &diagSpy{}
	firstJob := func() string { return e.Jobs()[0].ID }
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(false, false),
				ConfigStateChecks:        []statecheck.StateCheck{jobsAre(e, sum), submits(0), status("RUNNING")},
			},
			{
				// On: the same job is submitted, then waited for.
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(true, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					expectPriorID(addr, firstJob),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, addr), submits(1), status("COMPLETED")},
			},
			{
				// Off: recorded, nothing sent.
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(false, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, addr), submits(1),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("submit"), knownvalue.Bool(false))},
			},
			{
				// On again, for a COMPLETED job: it was submitted, so the
				// change is recorded in place and nothing is sent.
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(true, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					expectPriorID(addr, firstJob),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					jobsAre(e, sum), sameJob(e, addr), submits(1), status("COMPLETED"),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("submit"), knownvalue.Bool(true)),
				},
			},
			{
				// And the next plan is empty.
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(true, true),
				PlanOnly:                 true,
			},
		},
	})
	t.Logf("jobs: %d, submit requests: %d", len(e.Jobs()), e.Requests(emulator.EndpointSubmitJob))
}

// A job the service no longer knows stays in state with status NOT_FOUND
// and a warning; no plan or apply starts a job for it; in-place changes
// are recorded; destroy succeeds.
func TestAccExactlyOnce_purgedJob(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	const addr = "etl_import.gl"
	rows := [][]string{{"Account", "Amount"}, {"4000", "1"}}
	sum := sha256Hex(rowsBody(t, rows))
	// vars are the variables of the configuration with these behaviour
	// settings set (the others left out).
	vars := func(settings config.Variables) config.Variables {
		v := e.configVariables(config.Variables{"template_id": config.StringVariable(emulator.GLActualsTemplateID)})
		maps.Copy(v, settings)
		return v
	}
	spy := &diagSpy{}
	jobID := func() string { return e.Jobs()[0].ID }
	goneWarning := spy.expectWarning(func() string { return "Import job " + jobID() + " no longer found" },
		"The data the job imported is still in the model", "status NOT_FOUND", "terraform apply -replace=etl_import.<name>")
	notFound := statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(statusNotFound))
	resource.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			return checkJobs(e, sum)
		},
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(nil),
				ConfigStateChecks:        []statecheck.StateCheck{jobsAre(e, sum)},
			},
			{
				// Purged: the refresh keeps the job, and the plan is empty.
				PreConfig: func() {
					if !e.PurgeJob(jobID()) {
						t.Error("no job to purge")
					}
				},
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(nil),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, addr), notFound, goneWarning},
			},
			{
				// In-place changes are recorded; the 404 does not fail them.
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(config.Variables{"cancel": config.BoolVariable(true), "wait": config.BoolVariable(true)}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, addr), notFound,
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("cancel_on_destroy"), knownvalue.Bool(true))},
			},
			{
				// submit turned on: the job cannot be submitted; recorded,
				// with a warning, and no job starts.
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(config.Variables{"cancel": config.BoolVariable(true), "submit": config.BoolVariable(true)}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, addr), notFound,
					spy.expectWarning(func() string { return "Import job " + jobID() + " cannot be submitted" }, "terraform apply -replace=etl_import.<name>")},
			},
			{
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(config.Variables{"cancel": config.BoolVariable(true), "submit": config.BoolVariable(true)}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum)},
			},
		},
	})
	t.Logf("jobs: %d, submit requests: %d, cancel requests: %d", len(e.Jobs()), e.Requests(emulator.EndpointSubmitJob), e.Requests(emulator.EndpointCancelJob))
}

// Adopting a job of another template (import block or command) is an
// error at plan time naming both templates; nothing starts. The right
// template adopts.
func TestAccExactlyOnce_wrongTemplateImport(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	salesRows := [][]string{{"Account", "Amount"}, {"4000", "12"}}
	// "GL Actuals" of Sales Model: the name of GLActualsTemplateID, another model.
	salesJob := startJob(t, e, emulator.SalesGLActualsTemplateID, salesRows)
	// "Headcount": the model of GLActualsTemplateID, another name.
	headcountRows := [][]string{{"Employee", "Department"}, {"E1", "Finance"}}
	headcountJob := startJob(t, e, emulator.HeadcountTemplateID, headcountRows)
	// The configurations are in the test's directory: import_sales adopts
	// salesJob as etl_import.sales, hc declares etl_import.hc, adopt_both
	// does both. vars gives the template of each resource.
	dir := func(name string) func(config.TestStepConfigRequest) string {
		return config.StaticDirectory("testdata/TestAccExactlyOnce_wrongTemplateImport/" + name)
	}
	vars := func(templates map[string]string) config.Variables {
		v := e.configVariables(nil)
		if _, ok := templates["sales"]; ok {
			v["sales_job"] = config.StringVariable(salesJob)
		}
		for name, id := range templates {
			v[name+"_template_id"] = config.StringVariable(id)
		}
		return v
	}
	started := []string{sha256Hex(rowsBody(t, salesRows)), sha256Hex(rowsBody(t, headcountRows))}
	noNewJob := func() error { return checkJobs(e, started...) }
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				// Same name, another model.
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, dir("import_sales")),
				ConfigVariables:          vars(map[string]string{"sales": emulator.GLActualsTemplateID}),
				ExpectError: errRe(`(?s)Imported job belongs to another template.*` + salesJob + `.*"GL Actuals".*"Sales Model".*` +
					emulator.GLActualsTemplateID + `.*"GL Actuals".*"Finance Plan"`),
			},
			{
				// The command: imported, then the plan refuses to adopt.
				PreConfig:                func() { check(t, noNewJob()) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, dir("hc")),
				ConfigVariables:          vars(map[string]string{"hc": emulator.GLActualsTemplateID}),
				ResourceName:             "etl_import.hc",
				ImportState:              true,
				ImportStateId:            headcountJob,
				ImportStatePersist:       true,
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, dir("hc")),
				ConfigVariables:          vars(map[string]string{"hc": emulator.GLActualsTemplateID}),
				ExpectError:              errRe(`(?s)Imported job belongs to another template.*` + headcountJob + `.*"Headcount".*` + emulator.GLActualsTemplateID + `.*"GL Actuals"`),
			},
			{
				// The right templates adopt, in place.
				PreConfig:                func() { check(t, noNewJob()) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, dir("adopt_both")),
				ConfigVariables:          vars(map[string]string{"sales": emulator.SalesGLActualsTemplateID, "hc": emulator.HeadcountTemplateID}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("etl_import.sales", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("etl_import.hc", plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					jobsAre(e, started...),
					statecheck.ExpectKnownValue("etl_import.sales", tfjsonpath.New("id"), knownvalue.StringExact(salesJob)),
					statecheck.ExpectKnownValue("etl_import.hc", tfjsonpath.New("id"), knownvalue.StringExact(headcountJob)),
				},
			},
		},
	})
	t.Logf("jobs: %d (both started outside Terraform)", len(e.Jobs()))
}

// A saved plan applied after its file was edited starts no job and leaves
// the state as it was (Terraform reports the provider's new content_sha256
// as an inconsistent final plan); after its file was deleted, the apply
// fails on file.path naming the file. Both for a new job and for an
// in-place change of an existing one.
func TestAccExactlyOnce_stalePlan(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	dir := t.TempDir()
	text := delimited(testRows, "CSV")
	sum := sha256Hex([]byte(text))
	p := writeFile(t, dir, "gl.csv", []byte(text))
	moved := filepath.Join(dir, "moved.csv")
	// The configuration of etl_import.<name>, new or old, is in
	// testdata/TestAccExactlyOnce_stalePlan/<name>; vars gives its file.
	configDir := func(name string) func(config.TestStepConfigRequest) string {
		return config.StaticDirectory("testdata/TestAccExactlyOnce_stalePlan/" + name)
	}
	vars := func(path string) config.Variables {
		return e.configVariables(config.Variables{
			"template_id": config.StringVariable(emulator.GLActualsTemplateID),
			"path":        config.StringVariable(path),
		})
	}
	// Between plan and apply (PreApply runs on the saved plan).
	edit := func(path string) plancheck.PlanCheck {
		return planCheckFunc(func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
			writeFile(t, filepath.Dir(path), filepath.Base(path), []byte(text+"4099,1,Edited\n"))
		})
	}
	remove := func(path string) plancheck.PlanCheck {
		return planCheckFunc(func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
			check(t, os.Remove(path))
		})
	}
	restore := func(path string) func() {
		return func() { writeFile(t, filepath.Dir(path), filepath.Base(path), []byte(text)) }
	}
	inconsistent := func(name string) *regexp.Regexp {
		return errRe(`(?s)Provider produced inconsistent final plan.*etl_import\.` + name + `.*content_sha256`)
	}
	unchanged := plancheck.ExpectResourceAction("etl_import.old", plancheck.ResourceActionNoop)
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				// A new job, the file edited after the plan.
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, configDir("new")),
				ConfigVariables:          vars(p),
				ConfigPlanChecks:         resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{edit(p)}},
				ExpectError:              inconsistent("new"),
			},
			{
				// A new job, the file deleted after the plan.
				PreConfig:                func() { check(t, checkJobs(e)); restore(p)() },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, configDir("new")),
				ConfigVariables:          vars(p),
				ConfigPlanChecks:         resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{remove(p)}},
				ExpectError:              errRe(`(?s)File not found.*file\.path.*gl\.csv`),
			},
			{
				PreConfig:                func() { check(t, checkJobs(e)); restore(p)() },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, configDir("old")),
				ConfigVariables:          vars(p),
				ConfigStateChecks:        []statecheck.StateCheck{jobsAre(e, sum)},
			},
			{
				// An in-place change (the file moved), edited after the plan.
				PreConfig:                func() { restore(moved)() },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, configDir("old")),
				ConfigVariables:          vars(moved),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("etl_import.old", plancheck.ResourceActionUpdate), edit(moved),
				}},
				ExpectError: inconsistent("old"),
			},
			{
				// The state is as it was: the old path and bytes, the same job.
				PreConfig:                func() { restore(moved)() },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, configDir("old")),
				ConfigVariables:          vars(p),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					unchanged,
					plancheck.ExpectKnownValue("etl_import.old", tfjsonpath.New("content_sha256"), knownvalue.StringExact(sum)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, "etl_import.old")},
			},
			{
				// An in-place change, the file deleted after the plan.
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, configDir("old")),
				ConfigVariables:          vars(moved),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("etl_import.old", plancheck.ResourceActionUpdate), remove(moved),
				}},
				ExpectError: errRe(`(?s)File not found.*file\.path.*moved\.csv`),
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, configDir("old")),
				ConfigVariables:          vars(p),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					unchanged,
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, "etl_import.old")},
			},
		},
	})
	t.Logf("jobs: %d", len(e.Jobs()))
}

// A path unknown until apply plans an update in place (content_sha256
// known after apply): the same bytes are recorded; other bytes fail the
// apply before anything is sent (Terraform's re-plan at apply sees the
// replacement), and the next plan replaces the job.
func TestAccExactlyOnce_unknownAtPlan(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	dir := t.TempDir()
	text := delimited(testRows, "CSV")
	sum := sha256Hex([]byte(text))
	p := writeFile(t, dir, "gl.csv", []byte(text))
	same := writeFile(t, dir, "same.csv", []byte(text))
	other := writeFile(t, dir, "other.csv", []byte(text+"4099,1,Other\n"))
	const addr = "etl_import.gl"
	// The path goes through terraform_data: unknown at plan when it changes.
	vars := func(path string) config.Variables {
		return e.configVariables(config.Variables{
			"template_id": config.StringVariable(emulator.GLActualsTemplateID),
			"path":        config.StringVariable(path),
		})
	}
	update := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
		plancheck.ExpectUnknownValue(addr, tfjsonpath.New("content_sha256")),
	}}
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, ConfigDirectory: withProvider(t, config.TestNameDirectory()), ConfigVariables: vars(p), ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum)}},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(same),
				ConfigPlanChecks:         update,
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, addr),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey("path"), knownvalue.StringExact(same))},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(other),
				ConfigPlanChecks:         update,
				// Terraform's re-plan at apply reads the file: the planned
				// action changes, which Terraform refuses before any apply.
				ExpectError: errRe(`(?s)Provider produced inconsistent final plan.*etl_import\.gl.*changed the planned action from Update to DeleteThenCreate`),
			},
			{
				PreConfig:                func() { check(t, checkJobs(e, sum)) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars(other),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum, sha256Hex([]byte(text+"4099,1,Other\n")))},
			},
		},
	})
	t.Logf("jobs: %d", len(e.Jobs()))
}

// With inputs, the job is created EDITING: submit turned on submits that
// job in place (one job, one submit). Switching from inputs to rows is a
// new job.
func TestAccExactlyOnce_inputsSubmitInPlace(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	actuals, _ := writeTestFile(t, t.TempDir(), "actuals.csv", "CSV", "UTF-8", actualsRows)
	const addr = "etl_import.multi"
	firstJob := func() string { return e.Jobs()[0].ID }
	submits := func(n int) statecheck.StateCheck {
		return stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
			if got := e.Requests(emulator.EndpointSubmitJob); got != n {
				resp.Error = fmt.Errorf("%d submit requests, want %d", got, n)
			}
		})
	}
	jobCount := func(n int) statecheck.StateCheck {
		return stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
			if got := len(e.Jobs()); got != n {
				resp.Error = fmt.Errorf("%d jobs, want %d", got, n)
			}
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          twoStepVariables(e, "Load Actuals", actuals, config.Variables{"submit": config.BoolVariable(false)}),
				ConfigStateChecks: []statecheck.StateCheck{jobCount(1), submits(0),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("EDITING"))},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables: twoStepVariables(e, "Load Actuals", actuals, config.Variables{
					"submit": config.BoolVariable(true),
					"wait":   config.BoolVariable(true),
				}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					expectPriorID(addr, firstJob),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobCount(1), submits(1), sameJob(e, addr),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED"))},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Config: e.providerConfig() + `
data "etl_template" "ar" {
  name = "Actuals and Rates"
}

resource "etl_import" "multi" {
  template_id = data.etl_template.ar.id
  rows        = [["Account", "Amount"], ["4000", "1"]]
  submit      = true
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobCount(2)},
			},
		},
	})
	t.Logf("jobs: %d, submit requests: %d", len(e.Jobs()), e.Requests(emulator.EndpointSubmitJob))
}

// Moving data out of the state (rows to rows_wo, file.content to
// file.content_wo) with the same bytes updates in place: no job.
func TestAccExactlyOnce_toWriteOnly(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	rows := `[["Account", "Amount"], ["4000", "1"]]`
	text := delimited(testRows, "CSV")
	config := func(rowsAttr, contentAttr string) string {
		return e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "rows" {
  template_id = %q
  %s = %s
}

resource "etl_import" "content" {
  template_id = %q
  file = {
    %s = %q
    format = "CSV"
  }
}
`, emulator.GLActualsTemplateID, rowsAttr, rows, emulator.SalesGLActualsTemplateID, contentAttr, text)
	}
	sums := []string{sha256Hex(rowsBody(t, [][]string{{"Account", "Amount"}, {"4000", "1"}})), sha256Hex([]byte(text))}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("rows", "content"), ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sums...)}},
			{
				Config: config("rows_wo", "content_wo"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("etl_import.rows", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("etl_import.content", plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sums...),
					statecheck.ExpectKnownValue("etl_import.rows", tfjsonpath.New("rows"), knownvalue.Null()),
					statecheck.ExpectKnownValue("etl_import.content", tfjsonpath.New("content_sha256"), knownvalue.StringExact(sums[1]))},
			},
		},
	})
	t.Logf("jobs: %d", len(e.Jobs()))
}
