package provider

// What the provider sends and shows, through Terraform: names a multipart
// header cannot carry are refused at plan time, and the others arrive as
// written; a service error body that echoes the credentials reaches no
// message or log in any form; submit and cancel refused with 400 (not 409)
// are decided by reading the job. Each test asserts on the emulator's
// record of jobs.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
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
		PreCheck:                 func() { testAccPreCheck(t) },
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

// A service error body that echoes the request's credentials (the
// Authorization header, "id:secret", the secret raw and URL-encoded) is
// shown redacted: no form of the secret (etl.SecretForms) in any error
// Terraform prints or in the TF_LOG=TRACE log, for a data source, a start,
// a refresh and a submit.
func TestAccSecrets_echoedInErrorBody(t *testing.T) {
	testAccPreCheck(t)
	const secret = "s3cr/t+k&y=1 ü~\"x" // every escape differs from the raw secret
	dir := t.TempDir()
	logFile := filepath.Join(dir, "trace.log")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	clearEnv(t)
	t.Setenv(EnvTokenSecret, secret) // from the environment: nothing in the configuration holds it
	e := newTestEmulator(t, emulator.Options{TokenSecret: secret, RunTime: time.Hour})
	forms := etl.SecretForms(emulator.DefaultTokenID, secret)
	prov := fmt.Sprintf("provider \"etl\" {\n  base_url = %q\n  token_id = %q\n  max_retries = 0\n}\n", e.URL, emulator.DefaultTokenID)
	res := func(submit bool) string {
		return fmt.Sprintf("resource \"etl_import\" \"x\" {\n  template_id = %q\n  rows = [[\"Account\", \"Amount\"], [\"4000\", \"1\"]]\n  submit = %t\n}\n",
			emulator.GLActualsTemplateID, submit)
	}
	echo := func(ep emulator.Endpoint) func() {
		return func() { e.InjectFault(emulator.Fault{Endpoint: ep, Count: 1, EchoCredentials: true}) }
	}
	var errs []string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		ErrorCheck:               func(err error) error { errs = append(errs, err.Error()); return nil },
		CheckDestroy: func(*terraform.State) error {
			return checkJobs(e, sha256Hex(rowsBody(t, [][]string{{"Account", "Amount"}, {"4000", "1"}})))
		},
		Steps: []resource.TestStep{
			{PreConfig: echo(emulator.EndpointListTemplates), Config: prov + "data \"etl_templates\" \"all\" {}\n"},
			{PreConfig: echo(emulator.EndpointStartWithData), Config: prov + res(false)},
			{PreConfig: func() { check(t, checkJobs(e)) }, Config: prov + res(false)},
			{PreConfig: echo(emulator.EndpointGetJob), Config: prov + res(false)},
			{PreConfig: echo(emulator.EndpointSubmitJob), Config: prov + res(true)},
			{Config: prov + res(true), ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("etl_import.x", tfjsonpath.New("status"), knownvalue.StringExact("SUBMITTED")),
			}},
		},
	})
	wants := []*regexp.Regexp{
		errRe(`(?s)Listing templates failed.*500.*\[redacted\]`),
		errRe(`(?s)Starting an import job.*500.*\[redacted\]`),
		errRe(`(?s)Reading import job.*500.*\[redacted\]`),
		errRe(`(?s)Submitting import job.*500.*\[redacted\]`),
	}
	if len(errs) != len(wants) {
		t.Fatalf("%d steps failed, want %d:\n%s", len(errs), len(wants), strings.Join(errs, "\n---\n"))
	}
	leaks := 0
	for i, re := range wants {
		if !re.MatchString(errs[i]) {
			t.Errorf("error %d does not match %s:\n%s", i+1, re, errs[i])
		}
		leaks += scanForSecrets(t, fmt.Sprintf("error message %d", i+1), errs[i], forms)
	}
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logs), "etl response") {
		t.Errorf("the trace log (%d bytes) has no client lines: is logging captured?", len(logs))
	}
	leaks += scanForSecrets(t, "the TF_LOG=TRACE log", string(logs), forms)
	t.Logf("secret scan: %d forms, %d error messages, %d bytes of trace log; %d leaks; jobs: %d", len(forms), len(errs), len(logs), leaks, len(e.Jobs()))
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
	// jobStatus checks the status of the job of resource name (whose rows
	// hold its name).
	jobStatus := func(name string, want string) func() {
		return func() {
			for _, j := range e.Jobs() {
				if j.Upload != nil && len(j.Upload.Rows) == 1 && j.Upload.Rows[0][1] == name {
					if j.Status != want && !(want == emulator.StatusRunning && inProgress.MatchString(j.Status)) {
						t.Errorf("job of %s: %s, want %s", name, j.Status, want)
					}
					return
				}
			}
			t.Errorf("no job of %s", name)
		}
	}
	prov := e.providerConfig()
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
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
				// Update: submit turned on; the job finished first, refused with 400.
				PreConfig: func() {
					jobStatus("c", emulator.StatusCancelled)()
					finishOnSubmit.Store(true)
				},
				Config:            prov + res("a", true, false) + res("d", true, false),
				ConfigStateChecks: []statecheck.StateCheck{jobsAre(e, sum("a"), sum("b"), sum("c"), sum("d")), requests(2, 3), status("d", "COMPLETED")},
			},
		},
	})
	t.Logf("jobs: %d, submit requests: %d, cancel requests: %d", len(e.Jobs()), e.Requests(emulator.EndpointSubmitJob), e.Requests(emulator.EndpointCancelJob))
}
