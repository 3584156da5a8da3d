package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// A wait cut short is resumed by the next plain apply, never repeated:
// each test asserts on the emulator's record of jobs (count and bytes)
// and of submit requests, and logs what it saw.

// resumeRows is the data every test here imports.
var resumeRows = [][]string{{"Account", "Amount"}, {"4000", "1"}}

// resumeConfig is an etl_import of resumeRows that submits, waits, and
// gives up waiting after createTimeout.
func resumeConfig(e *testEmulator, createTimeout string) string {
	return e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "gl" {
  template_id         = %q
  rows                = [["Account", "Amount"], ["4000", "1"]]
  submit              = true
  wait_for_completion = true
  timeouts = {
    create = %q
  }
}
`, emulator.GLActualsTemplateID, createTimeout)
}

// expectStatus checks the status recorded for resumeAddr.
func expectStatus(s string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(resumeAddr, tfjsonpath.New("status"), knownvalue.StringExact(s))
}

// The wait times out; the job then completes; a plain apply settles that
// job (no second job), leaves it COMPLETED and untainted, and the next plan
// is empty.
func TestAccResume_timedOutThenCompleted(t *testing.T) {
	clock := &testClock{}
	e := newTestEmulator(t, emulator.Options{RunTime: time.Hour, Now: clock.Now})
	sum := sha256Hex(rowsBody(t, resumeRows))
	spy := &diagSpy{}
	firstJob := func() string { return e.Jobs()[0].ID }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: spy.factories(),
		CheckDestroy:             expectJobCount(t, e, 1),
		Steps: []resource.TestStep{
			{Config: resumeConfig(e, "1s"), ExpectError: regexp.MustCompile(`Timed out waiting for import job`)},
			{
				PreConfig: func() { clock.advance(2 * time.Hour) },
				Config:    resumeConfig(e, "1s"),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, resumeAddr), expectStatus("COMPLETED"),
					spy.expectWarning(func() string { return "Resumed import job " + firstJob() }, "instead of starting a new one", "status COMPLETED")},
			},
			{Config: resumeConfig(e, "1s"), PlanOnly: true},
		},
	})
}

// The job is still running at the next apply: that apply waits for it.
func TestAccResume_stillRunning(t *testing.T) {
	clock := &testClock{}
	var finishOnPoll atomic.Bool
	e := wrappedEmulator(t, emulator.Options{RunTime: time.Hour, Now: clock.Now}, func(srv *emulator.Server, w http.ResponseWriter, r *http.Request) {
		if finishOnPoll.Load() && strings.HasSuffix(r.URL.Path, "/status") {
			clock.advance(2 * time.Hour)
		}
		srv.ServeHTTP(w, r)
	})
	sum := sha256Hex(rowsBody(t, resumeRows))
	polls := 0
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectJobCount(t, e, 1),
		Steps: []resource.TestStep{
			{Config: resumeConfig(e, "1s"), ExpectError: regexp.MustCompile(`Timed out waiting for import job`)},
			{
				PreConfig: func() {
					finishOnPoll.Store(true)
					polls = e.Requests(emulator.EndpointGetJobStatus)
				},
				Config: resumeConfig(e, "1s"),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, resumeAddr), expectStatus("COMPLETED"),
					stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
						if e.Requests(emulator.EndpointGetJobStatus) <= polls {
							resp.Error = fmt.Errorf("the resumed job was not waited for (no status poll)")
						}
					})},
			},
			{Config: resumeConfig(e, "1s"), PlanOnly: true},
		},
	})
}

// Submitting fails after the data was sent: the next apply settles that
// job.
func TestAccResume_failedSubmit(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointSubmitJob, Status: http.StatusBadGateway})
	sum := sha256Hex(rowsBody(t, resumeRows))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectJobCount(t, e, 1),
		Steps: []resource.TestStep{
			{Config: resumeConfig(e, "30s"), ExpectError: regexp.MustCompile(`Submitting import job \d+ failed`)},
			{
				PreConfig:         func() { e.ClearFaults() },
				Config:            resumeConfig(e, "30s"),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, resumeAddr), expectStatus("COMPLETED")},
			},
			{Config: resumeConfig(e, "30s"), PlanOnly: true},
		},
	})
}

// Destroying the resource after a timed-out wait starts nothing and
// cancels nothing.
func TestAccResume_destroyAfterTimeout(t *testing.T) {
	clock := &testClock{}
	e := newTestEmulator(t, emulator.Options{RunTime: time.Hour, Now: clock.Now})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if n := e.Requests(emulator.EndpointCancelJob); n != 0 {
				return fmt.Errorf("%d cancel requests, want 0", n)
			}
			return expectJobCount(t, e, 1)(s)
		},
		Steps: []resource.TestStep{
			{Config: resumeConfig(e, "1s"), ExpectError: regexp.MustCompile(`Timed out waiting for import job`)},
			{
				Config: e.providerConfig(),
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
					resp.Error = checkJobs(e, sha256Hex(rowsBody(t, resumeRows)))
				})},
			},
		},
	})
}

// A job that ended in ERROR did not import: the next apply starts exactly
// one new job.
func TestAccResume_errorStartsOneNewJob(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	config := e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "gl" {
  template_id         = %q
  rows                = [["Account"], ["4000"]]
  submit              = true
  wait_for_completion = true
}
`, emulator.GLActualsTemplateID)
	ended := regexp.MustCompile(`Import job \d+ ended with status ERROR`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectJobCount(t, e, 2),
		Steps: []resource.TestStep{
			{Config: config, ExpectError: ended},
			{Config: config, ExpectError: ended},
			{
				PreConfig: func() {
					if n := len(e.Jobs()); n != 2 {
						t.Errorf("%d jobs after the second apply, want 2 (exactly one new job)", n)
					}
				},
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// A saved plan turns submit on for an EDITING job, which EXPIRES before
// the apply: the apply fails naming the job and its status, nothing is
// reported imported, and the next plan replaces the job, saying why (it
// imported nothing).
func TestAccResume_expiredBeforeSavedPlanApplies(t *testing.T) {
	clock := &testClock{}
	e := newTestEmulator(t, emulator.Options{Now: clock.Now})
	config := func(submit bool) string {
		return e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "gl" {
  template_id = %q
  submit      = %t
  inputs = {
    "Load Actuals" = { rows = [["Account", "Amount"], ["4000", "1"]] }
    "Load Rates"   = { rows = [["Currency", "Rate"], ["USD", "1"]] }
  }
}
`, emulator.TwoStepTemplateID, submit)
	}
	spy := &diagSpy{}
	firstJob := func() string { return e.Jobs()[0].ID }
	expire := planCheckFunc(func(_ context.Context, _ plancheck.CheckPlanRequest, _ *plancheck.CheckPlanResponse) {
		clock.advance(2 * time.Hour) // past ExpireAfter: the EDITING job is EXPIRED
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: spy.factories(),
		CheckDestroy:             expectJobCount(t, e, 2),
		Steps: []resource.TestStep{
			{Config: config(false), ConfigStateChecks: []statecheck.StateCheck{expectStatus("EDITING")}},
			{
				Config: config(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resumeAddr, plancheck.ResourceActionUpdate), expire,
				}},
				ExpectError: regexp.MustCompile(`(?s)Submitting import job \d+ failed.*is EXPIRED.*did not\s+import`),
			},
			{
				Config: config(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resumeAddr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					spy.expectWarning(func() string { return "Import job " + firstJob() + " ended with status EXPIRED: a new job is planned" }, "imported none", "keep_failed = true"),
					stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
						if jobs := e.Jobs(); len(jobs) != 2 || jobs[0].Status != emulator.StatusExpired {
							resp.Error = fmt.Errorf("jobs %+v: want the EXPIRED one and one new", jobs)
						}
						if n := e.Requests(emulator.EndpointSubmitJob); n != 1 {
							resp.Error = fmt.Errorf("%d submit requests, want 1 (the new job's)", n)
						}
					}),
				},
			},
		},
	})
}

// Ctrl-C (SIGINT) while the provider waits: Terraform stops the provider,
// the apply fails with the job in state, and the next plain apply settles
// that job: 1 job, COMPLETED, and the plan after it is empty. Driven
// through the CLI, which alone can be interrupted.
func TestAccResume_interrupted(t *testing.T) {
	// This test drives the Terraform CLI itself, not through resource.Test:
	// nothing else skips it without TF_ACC.
	requireTFAcc(t)
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		t.Skip("TF_ACC_TERRAFORM_PATH names no CLI to interrupt")
	}
	clock := &testClock{}
	e := newTestEmulator(t, emulator.Options{RunTime: time.Hour, Now: clock.Now})
	c := newCLI(t, tf)
	c.write(t, resumeConfig(e, "10m"))
	// Interrupt once the job runs and has been polled.
	cmd, out := c.startWaiting(t, e, "apply", "-auto-approve", "-no-color", "-input=false")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatalf("the interrupted apply succeeded:\n%s", out.String())
	}
	t.Logf("interrupted apply:\n%s", out.String())
	if n := len(e.Jobs()); n != 1 {
		t.Fatalf("%d jobs after the interrupted apply, want 1", n)
	}
	clock.advance(2 * time.Hour) // the job completes
	if o, err := c.run("apply", "-auto-approve", "-no-color", "-input=false"); err != nil {
		t.Fatalf("the next apply failed: %v\n%s", err, o)
	} else {
		expectOutput(t, o, "Resumed import job "+e.Jobs()[0].ID)
	}
	if jobs := e.Jobs(); len(jobs) != 1 || jobs[0].Status != emulator.StatusCompleted {
		t.Fatalf("jobs %+v: want the one job, COMPLETED", jobs)
	}
	if o, err := c.run("plan", "-detailed-exitcode", "-no-color", "-input=false"); err != nil {
		t.Fatalf("the plan after it is not empty: %v\n%s", err, o)
	}
	t.Logf("jobs: %d, submit requests: %d", len(e.Jobs()), e.Requests(emulator.EndpointSubmitJob))
}

// cancel_on_destroy = true: the replacement's Delete of a tainted job with
// the same data does not cancel it (the Create that follows resumes it);
// destroying the resource then cancels an unfinished job as configured.
func TestAccResume_cancelOnDestroy(t *testing.T) {
	clock := &testClock{}
	e := newTestEmulator(t, emulator.Options{RunTime: time.Hour, Now: clock.Now})
	config := strings.Replace(resumeConfig(e, "1s"), "submit              = true", "submit              = true\n  cancel_on_destroy   = true", 1)
	sum := sha256Hex(rowsBody(t, resumeRows))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := e.Requests(emulator.EndpointCancelJob); n != 1 {
				return fmt.Errorf("%d cancel requests, want 1 (the destroy's)", n)
			}
			if jobs := e.Jobs(); len(jobs) != 1 || jobs[0].Status != emulator.StatusCancelled {
				return fmt.Errorf("jobs %+v: want the one job, CANCELLED by the destroy", jobs)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config, ExpectError: regexp.MustCompile(`Timed out waiting for import job`)},
			{
				// Still running: resumed, not cancelled; it times out again.
				Config:      config,
				ExpectError: regexp.MustCompile(`Timed out waiting for import job`),
			},
			{
				PreConfig: func() {
					if n := e.Requests(emulator.EndpointCancelJob); n != 0 {
						t.Errorf("%d cancel requests by the replacement, want 0", n)
					}
					if err := checkJobs(e, sum); err != nil {
						t.Error(err)
					}
				},
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true, // still tainted
			},
		},
	})
}

// Reading the job to resume fails: the apply fails with the job still in
// state, and the apply after it resumes that job; 1 job throughout.
func TestAccResume_readFailsWhileResuming(t *testing.T) {
	clock := &testClock{}
	var failGets atomic.Int32
	e := wrappedEmulator(t, emulator.Options{RunTime: time.Hour, Now: clock.Now}, func(srv *emulator.Server, w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/jobs/") && !strings.HasSuffix(r.URL.Path, "/status") && failGets.Add(-1) >= 0 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		srv.ServeHTTP(w, r)
	})
	sum := sha256Hex(rowsBody(t, resumeRows))
	failNextGets := planCheckFunc(func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
		failGets.Store(2) // the first attempt and its retry, after the plan
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectJobCount(t, e, 1),
		Steps: []resource.TestStep{
			{Config: resumeConfig(e, "1s"), ExpectError: regexp.MustCompile(`Timed out waiting for import job`)},
			{
				PreConfig:        func() { clock.advance(2 * time.Hour) },
				Config:           resumeConfig(e, "1s"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{failNextGets}},
				ExpectError:      regexp.MustCompile(`Reading import job \d+ to resume it failed`),
			},
			{
				PreConfig:         func() { failGets.Store(0) },
				Config:            resumeConfig(e, "1s"),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum), sameJob(e, resumeAddr), expectStatus("COMPLETED")},
			},
			{Config: resumeConfig(e, "1s"), PlanOnly: true},
		},
	})
}
