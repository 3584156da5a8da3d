package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// Actions need Terraform 1.14 or later; OpenTofu has none (its 1.12 is
// below 1.14 anyway, but a later OpenTofu may not have them either).
const actionsSkipReason = "the etl_import action needs Terraform 1.14 or later (OpenTofu does not support actions)"

// terraform apply -invoke, as a user runs it: each invocation starts one
// new job with exactly the data's bytes, prints its progress, and a failed
// job fails the command, naming the job. Nothing is kept in state.
func TestAccImportAction_invoke(t *testing.T) {
	cli := newActionsCLI(t)
	e := newTestEmulator(t, emulator.Options{})
	p, raw := writeTestFile(t, cli.dir, "gl.csv", "CSV", "UTF-8", testRows)
	rows := [][]string{{"Account", "Amount"}, {"4000", "1"}, {"4010", "Québec"}}
	body := rowsBody(t, rows)
	cli.write(t, e.providerConfig()+fmt.Sprintf(`
action "etl_import" "file" {
  config {
    template_id         = %[1]q
    file                = { path = %[2]q }
    submit              = true
    wait_for_completion = true
  }
}

action "etl_import" "rows" {
  config {
    template_id = %[1]q
    rows        = [["Account", "Amount"], ["4000", "1"], ["4010", "Québec"]]
  }
}

# "Amount" is a required column of the template: the job ends in ERROR.
action "etl_import" "failing" {
  config {
    template_id         = %[1]q
    rows                = [["Account", "Value"], ["4000", "1"]]
    wait_for_completion = true
  }
}
`, emulator.GLActualsTemplateID, p))

	for i := 1; i <= 2; i++ {
		out := cli.invoke(t, "file", true)
		job := lastJob(t, e, i)
		if u := job.Upload; u.SHA256 != sha256Hex(raw) || u.Bytes != int64(len(raw)) || u.FileName != "gl.csv" || u.RowCount != 2 || job.Status != emulator.StatusCompleted {
			t.Fatalf("invocation %d of file: job %+v, want the file's %d bytes (SHA-256 %s), COMPLETED", i, job, len(raw), sha256Hex(raw))
		}
		expectOutput(t, out, "Import job "+job.ID+" started: RUNNING", "Import job "+job.ID+" submitted: SUBMITTED",
			"Import job "+job.ID+" ended: COMPLETED", "SHA-256 "+sha256Hex(raw), "Actions: 1 invoked",
			fmt.Sprintf("with the file gl.csv: 2 data rows, %d bytes, SHA-256 %s", len(raw), sha256Hex(raw)),
			fmt.Sprintf("Import job %s sent the file gl.csv: 2 data rows, %d bytes", job.ID, len(raw)))
	}

	out := cli.invoke(t, "rows", true)
	job := lastJob(t, e, 3)
	if u := job.Upload; u.Kind != "data" || u.SHA256 != sha256Hex(body) || u.Bytes != int64(len(body)) {
		t.Fatalf("rows: job %+v, want the rows' JSON body (SHA-256 %s)", job, sha256Hex(body))
	}
	expectOutput(t, out, "Import job "+job.ID+" started", "not waiting for it",
		fmt.Sprintf("Import job %s sent the rows (as a JSON body): 2 data rows, %d bytes", job.ID, len(body)))

	out = cli.invoke(t, "failing", false)
	job = lastJob(t, e, 4)
	if job.Status != emulator.StatusError {
		t.Fatalf("failing: job %+v, want ERROR", job)
	}
	expectOutput(t, out, "Import job "+job.ID+" ended with status ERROR", "keeps nothing in state")

	// A plan invokes nothing, and no state holds a job.
	if out, err := cli.run("plan", "-no-color"); err != nil || !strings.Contains(out, "No changes") {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	if n := len(e.Jobs()); n != 4 {
		t.Errorf("%d jobs after a plan, want still 4", n)
	}
	if b, err := os.ReadFile(filepath.Join(cli.dir, "terraform.tfstate")); err == nil && strings.Contains(string(b), "etl_import") {
		t.Errorf("the state holds an etl_import:\n%s", b)
	}
}

// terraform apply -invoke with inputs: one job created from the two-step
// template, one PUT per input with exactly its bytes (in step order), one
// submit, progress per input; the state holds nothing.
func TestAccImportAction_inputs(t *testing.T) {
	cli := newActionsCLI(t)
	e, wire := newLoggedEmulator(t, emulator.Options{})
	actuals, actualsRaw := writeTestFile(t, cli.dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	ratesCSV := []byte(delimited(ratesRows, "CSV"))
	cli.write(t, e.providerConfig()+fmt.Sprintf(`
action "etl_import" "multi" {
  config {
    template_id = %q
    inputs = {
      "Load Actuals" = { file = { path = %q } }
      "Load Rates"   = { rows = [["Currency", "Rate"], ["EUR", "1.08"], ["CAD", 0.73]] }
    }
    wait_for_completion = true
  }
}
`, emulator.TwoStepTemplateID, actuals))

	out := cli.invoke(t, "multi", true)
	jobs := e.Jobs()
	if len(jobs) != 1 {
		t.Fatalf("%d jobs on the emulator, want 1", len(jobs))
	}
	job := jobs[0]
	if job.TemplateID != emulator.TwoStepTemplateID || job.Status != emulator.StatusCompleted {
		t.Errorf("job %+v, want a COMPLETED job of the two-step template", job)
	}
	expectJobInputs(t, job, map[string][]byte{emulator.TwoStepActualsInputID: actualsRaw, emulator.TwoStepRatesInputID: ratesCSV},
		map[string]string{emulator.TwoStepActualsInputID: "actuals.csv", emulator.TwoStepRatesInputID: "rows.csv"})
	want := []string{
		"POST /api/public/v1/etl/templates/" + emulator.TwoStepTemplateID + "/jobs -> 200",
		"PUT /api/public/v1/etl/jobs/" + job.ID + "/inputs/" + emulator.TwoStepActualsInputID + "/file -> 204",
		"PUT /api/public/v1/etl/jobs/" + job.ID + "/inputs/" + emulator.TwoStepRatesInputID + "/file -> 204",
		"POST /api/public/v1/etl/jobs/" + job.ID + "/submit -> 200",
	}
	if got := wire.writes(); !slices.Equal(got, want) {
		t.Errorf("requests that change something:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	expectOutput(t, out, "Import job "+job.ID+" created: EDITING",
		fmt.Sprintf(`Loading step "Load Actuals" (input %s): 2 data rows, %d bytes`, emulator.TwoStepActualsInputID, len(actualsRaw)),
		fmt.Sprintf(`Loading step "Load Rates" (input %s): 2 data rows, %d bytes`, emulator.TwoStepRatesInputID, len(ratesCSV)),
		fmt.Sprintf(`Import job %s sent step "Load Actuals": 2 data rows, %d bytes; step "Load Rates": 2 data rows, %d bytes`, job.ID, len(actualsRaw), len(ratesCSV)),
		"Import job "+job.ID+" submitted: SUBMITTED", "Import job "+job.ID+" ended: COMPLETED", "Actions: 1 invoked")

	// Nothing is kept: the state lists nothing.
	if list, err := cli.run("state", "list"); err != nil || strings.TrimSpace(list) != "" {
		t.Errorf("terraform state list: %v\n%s", err, list)
	}
}

// An action_trigger reloads the data after another resource (here a
// terraform_data standing in for, say, a rebuilt model) is replaced: once
// on create, never on a plan without changes, once more on replacement.
func TestAccImportAction_triggerAfterReplace(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	p, raw := writeTestFile(t, t.TempDir(), "gl.csv", "CSV", "UTF-8", testRows)
	config := func(model string) string {
		return e.providerConfig() + fmt.Sprintf(`
resource "terraform_data" "model" {
  triggers_replace = [%[3]q]

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.etl_import.reload]
    }
  }
}

action "etl_import" "reload" {
  config {
    template_id         = %[1]q
    file                = { path = %[2]q }
    submit              = true
    wait_for_completion = true
  }
}
`, emulator.GLActualsTemplateID, p, model)
	}
	jobs := func(want int) statecheck.StateCheck {
		return checkEmulator("terraform_data.model", func(map[string]any) error {
			jobs := e.Jobs()
			if len(jobs) != want {
				return fmt.Errorf("%d jobs, want %d", len(jobs), want)
			}
			for _, j := range jobs {
				if j.Upload == nil || j.Upload.SHA256 != sha256Hex(raw) || j.Upload.Bytes != int64(len(raw)) || j.Status != emulator.StatusCompleted {
					return fmt.Errorf("job %+v: want the file's bytes (SHA-256 %s), COMPLETED", j, sha256Hex(raw))
				}
			}
			return nil
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0), skipOpenTofu{}},
		Steps: []resource.TestStep{
			{Config: config("v1"), ConfigStateChecks: []statecheck.StateCheck{jobs(1)}},
			{Config: config("v1"), ConfigStateChecks: []statecheck.StateCheck{jobs(1)}},
			{Config: config("v2"), ConfigStateChecks: []statecheck.StateCheck{jobs(2)}},
		},
	})
}

// skipOpenTofu skips a test on OpenTofu, which has no actions.
type skipOpenTofu struct{}

func (skipOpenTofu) CheckTerraformVersion(_ context.Context, _ tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	if isOpenTofu(os.Getenv("TF_ACC_TERRAFORM_PATH")) {
		resp.Skip = actionsSkipReason
	}
}

// newActionsCLI serves the provider for the test and returns a CLI
// attached to it; it skips the test, saying why, on a CLI without actions.
func newActionsCLI(t *testing.T) *actionsCLI {
	t.Helper()
	// These tests drive the Terraform CLI themselves, not through
	// resource.Test: nothing else skips them without TF_ACC.
	requireTFAcc(t)
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		t.Skip("TF_ACC_TERRAFORM_PATH names no CLI; " + actionsSkipReason)
	}
	line := cliVersionLine(tf)
	v, err := version.NewVersion(strings.TrimPrefix(strings.TrimPrefix(line, "Terraform v"), "OpenTofu v"))
	if isOpenTofu(tf) || err != nil || v.LessThan(tfversion.Version1_14_0) {
		t.Skipf("%s: %s", line, actionsSkipReason)
	}
	return newCLI(t, tf)
}

// lastJob requires the emulator to hold exactly n jobs and returns the last.
func lastJob(t *testing.T, e *testEmulator, n int) emulator.Job {
	t.Helper()
	jobs := e.Jobs()
	if len(jobs) != n {
		t.Fatalf("%d jobs on the emulator, want %d (one per invocation)", len(jobs), n)
	}
	if jobs[n-1].Upload == nil {
		t.Fatalf("job %s received no data", jobs[n-1].ID)
	}
	return jobs[n-1]
}
