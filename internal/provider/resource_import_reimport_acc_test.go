package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// An import happens exactly as often as the user asks: once per change of
// what the service would import, once more per -replace or triggered
// replacement, never twice for a wait cut short. Each test drives the CLI
// (which alone can -replace, taint and be killed) on the configuration in
// testdata/reimport, and asserts on the emulator's record of jobs: how
// many, with which bytes, format and encoding, and how many cancels.

// reimportData is the file every test here imports: one column, so that
// it reads the same as CSV and PSV, and ASCII, so that it is the same
// bytes in UTF-8 and Windows Latin-1.
var reimportData = []byte("Account\n4000\n4001\n")

// reimportCLI is the CLI in a directory holding testdata/reimport, its
// data file and a provider block for the emulator e.
type reimportCLI struct {
	*actionsCLI
	e *testEmulator
}

// newReimportCLI sets up the directory and runs terraform init; it skips
// the test without a CLI to drive. Required columns are off: the data
// has one column, for any template.
func newReimportCLI(t *testing.T, opts emulator.Options) *reimportCLI {
	t.Helper()
	// These tests drive the Terraform CLI themselves, not through
	// resource.Test: nothing else skips them without TF_ACC.
	requireTFAcc(t)
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		t.Skip("TF_ACC_TERRAFORM_PATH names no CLI to drive")
	}
	opts.RequiredColumns = emulator.RequiredColumnsOff
	e := newTestEmulator(t, opts)
	c := newCLI(t, tf)
	b, err := os.ReadFile(filepath.Join("testdata", "reimport", "import.tf"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, c.dir, "import.tf", b)
	writeFile(t, c.dir, "gl.csv", reimportData)
	c.write(t, e.providerConfig())
	return &reimportCLI{c, e}
}

// vars are the -var flags of a run: the template, then name=value pairs.
func (c *reimportCLI) vars(kv ...string) []string {
	args := []string{"-var=template_id=" + emulator.GLActualsTemplateID, "-var=data=" + filepath.Join(c.dir, "gl.csv")}
	for _, s := range kv {
		args = append(args, "-var="+s)
	}
	return args
}

// apply runs terraform apply with the -var pairs kv and the extra flags;
// ok says whether it must succeed.
func (c *reimportCLI) apply(t *testing.T, ok bool, kv []string, extra ...string) string {
	t.Helper()
	args := append([]string{"apply", "-auto-approve", "-no-color", "-input=false"}, extra...)
	out, err := c.run(append(args, c.vars(kv...)...)...)
	if (err == nil) != ok {
		t.Fatalf("terraform %s: error %v, want success %v\n%s", strings.Join(extra, " "), err, ok, out)
	}
	return out
}

// state reads every etl_import in state, by address.
func (c *reimportCLI) state(t *testing.T) map[string]stateJob {
	t.Helper()
	out, err := c.run("show", "-json")
	if err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, out)
	}
	return parseShowJSON(t, out)
}

// expectJobs requires exactly n jobs on the emulator, each with the
// planned bytes, and no cancel; it returns them.
func (c *reimportCLI) expectJobs(t *testing.T, n int) []emulator.Job {
	t.Helper()
	jobs := c.e.Jobs()
	if len(jobs) != n {
		t.Fatalf("%d jobs on the emulator, want %d: %+v", len(jobs), n, jobs)
	}
	want := sha256Hex(reimportData)
	for _, j := range jobs {
		if j.Upload == nil || j.Upload.SHA256 != want {
			t.Errorf("job %s received %+v, want the planned bytes (%s)", j.ID, j.Upload, want)
		}
	}
	if k := c.e.Requests(emulator.EndpointCancelJob); k != 0 {
		t.Errorf("%d cancel requests, want 0", k)
	}
	t.Logf("jobs: %d, submit requests: %d, cancel requests: 0", n, c.e.Requests(emulator.EndpointSubmitJob))
	return jobs
}

// gl is the address of the etl_import of key k.
func gl(k string) string { return fmt.Sprintf("etl_import.gl[%q]", k) }

// -replace imports again, whatever the job's status, and the apply warns
// that the replaced job's data stays in the model.
func TestAccReimport_replaceCompleted(t *testing.T) {
	c := newReimportCLI(t, emulator.Options{})
	c.apply(t, true, nil)
	first := c.expectJobs(t, 1)[0]
	out := c.apply(t, true, nil, "-replace="+gl("a"))
	jobs := c.expectJobs(t, 2)
	expectOutput(t, out, "Import job "+first.ID+" replaced: its data stays in the model")
	if strings.Contains(out, "Resumed import job") {
		t.Errorf("-replace resumed the old job:\n%s", out)
	}
	if s := c.state(t)[gl("a")]; s.ID != jobs[1].ID || s.Status != "COMPLETED" {
		t.Errorf("state holds %+v, want the new job %s COMPLETED", s, jobs[1].ID)
	}
}

// -replace of a job still running: a new job; the old one runs on.
func TestAccReimport_replaceRunning(t *testing.T) {
	c := newReimportCLI(t, emulator.Options{RunTime: time.Hour})
	c.apply(t, true, []string{"wait=false"})
	c.apply(t, true, []string{"wait=false"}, "-replace="+gl("a"))
	jobs := c.expectJobs(t, 2)
	if jobstatus.JobStatus(jobs[0].Status).Final() {
		t.Errorf("the replaced job is %s, want it still running its course", jobs[0].Status)
	}
	if s := c.state(t)[gl("a")]; s.ID != jobs[1].ID {
		t.Errorf("state holds %+v, want the new job %s", s, jobs[1].ID)
	}
}

// -replace of one instance of a for_each: one new job for it; the other
// keeps its job.
func TestAccReimport_replaceOneInstance(t *testing.T) {
	c := newReimportCLI(t, emulator.Options{})
	keys := []string{`keys=["a","b"]`}
	c.apply(t, true, keys)
	before := c.state(t)
	c.apply(t, true, keys, "-replace="+gl("a"))
	c.expectJobs(t, 3)
	after := c.state(t)
	if after[gl("b")].ID != before[gl("b")].ID {
		t.Errorf("the other instance changed job: %s -> %s", before[gl("b")].ID, after[gl("b")].ID)
	}
	if a := after[gl("a")].ID; a == before[gl("a")].ID || a == before[gl("b")].ID {
		t.Errorf("the replaced instance holds %s, want a new job", a)
	}
}

// A change of format, of encoding, or a triggered replacement starts one
// new job, sent as planned; the state records what that job was sent
// with.
func TestAccReimport_changesThatImportAgain(t *testing.T) {
	requireTFAcc(t) // its subtests are acceptance tests
	for _, tc := range []struct {
		name             string
		kv               []string
		format, encoding string
	}{
		{"format", []string{"format=PSV"}, "PSV", "UTF-8"},
		{"encoding", []string{"encoding=Windows Latin-1"}, "CSV", "Windows Latin-1"},
		{"replace_triggered_by", []string{"trigger=2"}, "CSV", "UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newReimportCLI(t, emulator.Options{})
			c.apply(t, true, nil)
			out := c.apply(t, true, tc.kv)
			jobs := c.expectJobs(t, 2)
			if strings.Contains(out, "Resumed import job") {
				t.Errorf("the change resumed the old job:\n%s", out)
			}
			// One warning names the replaced job, as -replace's does.
			if n := strings.Count(out, "Import job "+jobs[0].ID); n != 1 || !strings.Contains(out, "Import job "+jobs[0].ID+" replaced: its data stays in the model") {
				t.Errorf("%d warnings name job %s, want one, that it was replaced:\n%s", n, jobs[0].ID, out)
			}
			if u := jobs[1].Upload; u.Format != tc.format || u.Encoding != tc.encoding {
				t.Errorf("the new job was sent as %s, %s; want %s, %s", u.Format, u.Encoding, tc.format, tc.encoding)
			}
			if s := c.state(t)[gl("a")]; s.ID != jobs[1].ID || s.Format != tc.format || s.Encoding != tc.encoding {
				t.Errorf("state holds %+v, want job %s with %s, %s", s, jobs[1].ID, tc.format, tc.encoding)
			}
		})
	}
}

// A wait cut short, then the format corrected: the tainted job was sent
// as CSV, so it is not resumed; one new job is sent as PSV.
func TestAccReimport_taintThenFormatChange(t *testing.T) {
	c := newReimportCLI(t, emulator.Options{RunTime: time.Hour})
	out := c.apply(t, false, []string{"create_timeout=1s"})
	expectOutput(t, out, "Timed out waiting for import job")
	out = c.apply(t, true, []string{"create_timeout=1s", "format=PSV", "wait=false"})
	jobs := c.expectJobs(t, 2)
	if strings.Contains(out, "Resumed import job") {
		t.Errorf("the CSV job was resumed for the PSV import:\n%s", out)
	}
	if jobs[1].Upload.Format != "PSV" {
		t.Errorf("the new job was sent as %s, want PSV", jobs[1].Upload.Format)
	}
}

// Two instances with identical data, both tainted: each settles a job of
// its own (no new job, none claims the other's twice), both COMPLETED.
func TestAccReimport_twoTaintedIdentical(t *testing.T) {
	c := newReimportCLI(t, emulator.Options{})
	keys := []string{`keys=["a","b"]`}
	c.apply(t, true, keys)
	before := c.state(t)
	for _, k := range []string{"a", "b"} {
		if out, err := c.run("taint", "-no-color", gl(k)); err != nil {
			t.Fatalf("terraform taint: %v\n%s", err, out)
		}
	}
	out := c.apply(t, true, keys)
	c.expectJobs(t, 2)
	after := c.state(t)
	got := []string{after[gl("a")].ID, after[gl("b")].ID}
	want := []string{before[gl("a")].ID, before[gl("b")].ID}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("state holds jobs %v, want the two resumed %v", got, want)
	}
	for _, k := range []string{"a", "b"} {
		if after[gl(k)].Status != "COMPLETED" {
			t.Errorf("%s is %s, want COMPLETED", gl(k), after[gl(k)].Status)
		}
	}
	if n := strings.Count(out, "Resumed import job"); n != 2 {
		t.Errorf("%d resumed warnings, want 2:\n%s", n, out)
	}
}

// In one apply, a tainted instance and a replaced one with identical
// data: the replaced one imports again (one new job), the tainted one's
// job is settled, not repeated.
func TestAccReimport_taintedAndReplacedIdentical(t *testing.T) {
	c := newReimportCLI(t, emulator.Options{})
	keys := []string{`keys=["a","b"]`}
	c.apply(t, true, keys)
	before := c.state(t)
	if out, err := c.run("taint", "-no-color", gl("a")); err != nil {
		t.Fatalf("terraform taint: %v\n%s", err, out)
	}
	out := c.apply(t, true, keys, "-replace="+gl("b"))
	jobs := c.expectJobs(t, 3)
	after := c.state(t)
	held := []string{after[gl("a")].ID, after[gl("b")].ID}
	if !slices.Contains(held, before[gl("a")].ID) || !slices.Contains(held, jobs[2].ID) || slices.Contains(held, before[gl("b")].ID) {
		t.Errorf("state holds %v; want the tainted job %s resumed and the new job %s, not the replaced %s",
			held, before[gl("a")].ID, jobs[2].ID, before[gl("b")].ID)
	}
	if n := strings.Count(out, "Resumed import job"); n != 1 {
		t.Errorf("%d resumed warnings, want 1:\n%s", n, out)
	}
	t.Logf("a: %s -> %s, b: %s -> %s", before[gl("a")].ID, after[gl("a")].ID, before[gl("b")].ID, after[gl("b")].ID)
}

// Terraform killed (SIGKILL) while the provider waits: it never records
// the job. The next plain apply finds the job the provider kept and
// settles it: 1 job in all.
func TestAccReimport_killedDuringWait(t *testing.T) {
	clock := &testClock{}
	c := newReimportCLI(t, emulator.Options{RunTime: time.Hour, Now: clock.Now})
	cmd, _ := c.startWaiting(t, c.e, append([]string{"apply", "-auto-approve", "-no-color", "-input=false"}, c.vars()...)...)
	if err := cmd.Process.Kill(); err != nil { // SIGKILL on unix
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if s := c.state(t); len(s) != 0 {
		t.Fatalf("the killed apply recorded %+v", s)
	}
	time.Sleep(200 * time.Millisecond) // the provider sees the connection go
	clock.advance(2 * time.Hour)
	o := c.apply(t, true, nil)
	jobs := c.expectJobs(t, 1)
	expectOutput(t, o, "Resumed import job "+jobs[0].ID)
	if s := c.state(t)[gl("a")]; s.ID != jobs[0].ID || s.Status != "COMPLETED" {
		t.Errorf("state holds %+v, want job %s COMPLETED", s, jobs[0].ID)
	}
}
