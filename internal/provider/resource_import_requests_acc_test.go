package provider

// What the provider sends, through Terraform: names a multipart header
// cannot carry are refused at plan time, and the others arrive as
// written; submit and cancel refused with 400 (not 409) are decided by
// reading the job. Each test asserts on the emulator's record of jobs.
// (A service error body that echoes the credentials is in
// provider_secrets_acc_test.go.)

import (
	"context"
	"fmt"
	"net/http"
	"path"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// file.name and file.part_name with a control character (a CR LF read
// with file(), a line feed) fail the plan on the attribute: no request.
// A tab, quotes and backslashes arrive as written.
func TestAccRequests_partHeaderNames(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	dir := t.TempDir()
	text := delimited(testRows, "CSV")
	p := writeFile(t, dir, "gl.csv", []byte(text))
	nameFile := writeFile(t, dir, "name.txt", []byte("gl.csv\r\n")) // saved on Windows
	res := func(names string) string {
		return e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "x" {
  template_id = %q
  file = {
    path = %q
%s
  }
}
`, emulator.GLActualsTemplateID, p, names)
	}
	const name, part = "my \"quoted\"\tname\\x.csv", "the \"part\"\t\\x"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      res(fmt.Sprintf("    name = file(%q)", nameFile)),
				ExpectError: errRe(`(?s)Character a multipart header cannot carry.*file\.name "gl\.csv\\r\\n" contains a carriage return \(U\+000D\) at byte 6`),
			},
			{
				Config:      res(`    part_name = "file\nContent-Type: text/html"`),
				ExpectError: errRe(`(?s)Character a multipart header cannot carry.*file\.part_name .* contains a line feed \(U\+000A\) at byte 4`),
			},
			{
				PreConfig: func() {
					if n := e.Requests(emulator.EndpointStartWithFile); n != 0 {
						t.Errorf("%d start requests after plan-time errors, want 0", n)
					}
				},
				Config: res(fmt.Sprintf("    name = %q\n    part_name = %q", name, part)),
				ConfigStateChecks: []statecheck.StateCheck{
					jobsAre(e, sha256Hex([]byte(text))),
					expectUpload(e, "etl_import.x", emulator.Upload{FileName: name, PartName: part, Header: testRows[0], RowCount: 2}),
				},
			},
		},
	})
	t.Logf("jobs: %d", len(e.Jobs()))
}

// With conflicts answered 400 (not 409), submit and cancel still behave:
// a refused submit or cancel is decided by reading the job. A job that
// finished before it could be submitted or cancelled is no failure; a 400
// for a job still running is.
func TestAccRequests_conflictAnswered400(t *testing.T) {
	var finishOnSubmit, finishOnCancel atomic.Bool
	// Jobs run for an hour; a flag finishes the job just before the
	// service handles a submit or cancel, which it then refuses with 400.
	e := wrappedEmulator(t, emulator.Options{RunTime: time.Hour, ConflictStatus: http.StatusBadRequest}, func(srv *emulator.Server, w http.ResponseWriter, r *http.Request) {
		action := path.Base(r.URL.Path)
		if r.Method == http.MethodPost && (action == "submit" && finishOnSubmit.Load() || action == "cancel" && finishOnCancel.Load()) {
			srv.SetJobStatus(path.Base(path.Dir(r.URL.Path)), emulator.StatusCompleted)
		}
		srv.ServeHTTP(w, r)
	})
	res := func(name string, submit, cancel bool) string {
		return fmt.Sprintf("resource \"etl_import\" %q {\n  template_id = %q\n  rows = [[\"Account\", \"Amount\"], [\"4000\", %q]]\n  submit = %t\n  cancel_on_destroy = %t\n}\n",
			name, emulator.GLActualsTemplateID, name, submit, cancel)
	}
	sum := func(name string) string {
		return sha256Hex(rowsBody(t, [][]string{{"Account", "Amount"}, {"4000", name}}))
	}
	requests := func(submits, cancels int) statecheck.StateCheck {
		return stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
			if s, c := e.Requests(emulator.EndpointSubmitJob), e.Requests(emulator.EndpointCancelJob); s != submits || c != cancels {
				resp.Error = fmt.Errorf("%d submit and %d cancel requests, want %d and %d", s, c, submits, cancels)
			}
		})
	}
	// A job in progress is RUNNING, or QUEUED behind another of its model.
	inProgress := regexp.MustCompile(`^(RUNNING|QUEUED)$`)
	status := func(name, s string) statecheck.StateCheck {
		if s == emulator.StatusRunning {
			return statecheck.ExpectKnownValue("etl_import."+name, tfjsonpath.New("status"), knownvalue.StringRegexp(inProgress))
		}
		return statecheck.ExpectKnownValue("etl_import."+name, tfjsonpath.New("status"), knownvalue.StringExact(s))
	}
	// jobOf returns the job of resource name (whose rows hold its name).
	jobOf := func(name string) (emulator.Job, bool) {
		for _, j := range e.Jobs() {
			if j.Upload != nil && len(j.Upload.Rows) == 1 && j.Upload.Rows[0][1] == name {
				return j, true
			}
		}
		return emulator.Job{}, false
	}
	// jobStatus checks the status of the job of resource name.
	jobStatus := func(name string, want string) func() {
		return func() {
			j, ok := jobOf(name)
			switch {
			case !ok:
				t.Errorf("no job of %s", name)
			case j.Status != want && !(want == emulator.StatusRunning && inProgress.MatchString(j.Status)):
				t.Errorf("job of %s: %s, want %s", name, j.Status, want)
			}
		}
	}
	prov := e.providerConfig()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Create: the job finished before its submit, refused with 400.
				PreConfig:         func() { finishOnSubmit.Store(true) },
				Config:            prov + res("a", true, false),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum("a")), requests(1, 0), status("a", "COMPLETED")},
			},
			{
				PreConfig:         func() { finishOnSubmit.Store(false) },
				Config:            prov + res("a", true, false) + res("b", false, true) + res("c", false, true),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum("a"), sum("b"), sum("c")), status("b", "RUNNING"), status("c", "RUNNING")},
			},
			{
				// Destroy: b finished before its cancel, refused with 400.
				PreConfig:         func() { finishOnCancel.Store(true) },
				Config:            prov + res("a", true, false) + res("c", false, true),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum("a"), sum("b"), sum("c")), requests(1, 1)},
			},
			{
				// Destroy: a 400 for c, still running, fails.
				PreConfig: func() {
					jobStatus("b", emulator.StatusCompleted)()
					finishOnCancel.Store(false)
					e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointCancelJob, Count: 1, Status: http.StatusBadRequest})
				},
				Config:      prov + res("a", true, false),
				ExpectError: errRe(`(?s)Cancelling import job.*failed.*The job was (RUNNING|QUEUED).*400`),
			},
			{
				PreConfig:         jobStatus("c", emulator.StatusRunning),
				Config:            prov + res("a", true, false) + res("d", false, false),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum("a"), sum("b"), sum("c"), sum("d")), requests(1, 3), status("d", "RUNNING")},
			},
			{
				// Update: submit turned on for a job QUEUED behind another
				// of its model (as a start may answer: QUEUED is no sign of
				// a submit); the job finished first, refused with 400.
				PreConfig: func() {
					jobStatus("c", emulator.StatusCancelled)()
					if d, ok := jobOf("d"); !ok || !e.SetJobStatus(d.ID, emulator.StatusQueued) {
						t.Error("no job of d to queue")
					}
					finishOnSubmit.Store(true)
				},
				Config:            prov + res("a", true, false) + res("d", true, false),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum("a"), sum("b"), sum("c"), sum("d")), requests(2, 3), status("d", "COMPLETED")},
			},
		},
	})
	t.Logf("jobs: %d, submit requests: %d, cancel requests: %d", len(e.Jobs()), e.Requests(emulator.EndpointSubmitJob), e.Requests(emulator.EndpointCancelJob))
}
