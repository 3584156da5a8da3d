package provider

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// A resource's whole life (docs/guides/import-jobs.md, "When the file or
// the service is gone"): once imported, no plan of an etl_import fails on what lies
// outside its configuration, and terraform destroy works while the
// service answers. Each test drives the CLI as a user does, with a real
// terraform destroy (its refresh plan included, which the testing
// framework's own destroy skips), and counts on the emulator the jobs
// started and cancelled.

// lifeCSV is the data every test imports: GL Actuals' columns.
const lifeCSV = "Account,Amount\n4000,1\n"

// newLifeCLI is a CLI on testdata/<config> against an emulator whose jobs
// end at once, with the data file d.csv in a directory of its own (as on
// a CI runner, where an earlier step generated it); it returns the file's
// path.
func newLifeCLI(t *testing.T, config string) (*binaryCLI, string) {
	t.Helper()
	return newLifeCLIWith(t, config, emulator.Options{Instant: true})
}

// newLifeCLIWith is newLifeCLI with the emulator's options.
func newLifeCLIWith(t *testing.T, config string, opts emulator.Options) (*binaryCLI, string) {
	t.Helper()
	e := newTestEmulator(t, opts)
	c := newBinaryCLI(t, config, e, false)
	return c, writeFile(t, t.TempDir(), "d.csv", []byte(lifeCSV))
}

// setLife writes the variables of testdata/life*: the template and the
// data file, with extra values.
func (c *binaryCLI) setLife(t *testing.T, templateID, path string, extra map[string]any) {
	t.Helper()
	v := map[string]any{"template_id": templateID, "path": path}
	for k, x := range extra {
		v[k] = x
	}
	c.vars(t, v)
}

// plan runs terraform plan -detailed-exitcode and reports whether it
// plans a change; a failed plan fails the test.
func (c *binaryCLI) plan(t *testing.T, args ...string) (bool, string) {
	t.Helper()
	return detailedPlan(t, c.run, args...)
}

// detailedPlan runs terraform plan -detailed-exitcode with run and reports
// whether it plans a change; a failed plan fails the test.
func detailedPlan(t *testing.T, run func(...string) (string, error), args ...string) (bool, string) {
	t.Helper()
	out, err := run(append([]string{"plan", "-detailed-exitcode", "-no-color", "-input=false"}, args...)...)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return false, out
	case errors.As(err, &exit) && exit.ExitCode() == 2:
		return true, out
	}
	t.Fatalf("terraform plan: %v\n%s", err, out)
	return false, ""
}

// destroy runs terraform destroy, its refresh included; ok says whether it
// must succeed.
func (c *binaryCLI) destroy(t *testing.T, ok bool) string {
	t.Helper()
	out, err := c.run("destroy", "-auto-approve", "-no-color", "-input=false")
	if (err == nil) != ok {
		t.Fatalf("terraform destroy: error %v, want success %v\n%s", err, ok, out)
	}
	return out
}

// expectJobs requires the emulator to have started n jobs in all and
// cancelled k.
func (c *binaryCLI) expectJobs(t *testing.T, n, k int) {
	t.Helper()
	if got := len(c.e.Jobs()); got != n {
		t.Errorf("%d jobs on the emulator, want %d", got, n)
	}
	if got := c.e.Requests(emulator.EndpointCancelJob); got != k {
		t.Errorf("%d cancel requests, want %d", got, k)
	}
}

// expectDestroyed requires a state with no etl_import left.
func (c *binaryCLI) expectDestroyed(t *testing.T) {
	t.Helper()
	if s := c.state(t); len(s) != 0 {
		t.Errorf("the state still holds %v", s)
	}
}

// expectCount requires text to occur n times in out.
func expectCount(t *testing.T, out, text string, n int) {
	t.Helper()
	if got := strings.Count(out, text); got != n {
		t.Errorf("%q occurs %d times, want %d, in:\n%s", text, got, n, out)
	}
}

// The file of a COMPLETED import deleted: a plan plans no change and warns
// once, on file.path; an apply changes nothing; destroy removes the
// resource. One job in all, none cancelled.
func TestAccLife_fileDeleted(t *testing.T) {
	c, p := newLifeCLI(t, "life")
	c.setLife(t, emulator.GLActualsTemplateID, p, nil)
	c.apply(t, true)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	changes, out := c.plan(t)
	if changes {
		t.Errorf("the plan after the file was deleted plans a change:\n%s", out)
	}
	expectCount(t, out, "Warning: File not found", 1)
	expectOutput(t, out, "with etl_import.x", "file.path", p, "terraform destroy")
	c.apply(t, true)
	c.destroy(t, true)
	c.expectJobs(t, 1, 0)
	c.expectDestroyed(t)
}

// The file made unreadable: destroy works. As root, whom mode 000 does not
// stop, the path is made a loop of symbolic links instead, which no one
// can open.
func TestAccLife_fileUnreadable(t *testing.T) {
	c, p := newLifeCLI(t, "life")
	c.setLife(t, emulator.GLActualsTemplateID, p, nil)
	c.apply(t, true)
	makeUnreadable(t, p)
	changes, out := c.plan(t)
	if changes {
		t.Errorf("the plan after the file was made unreadable plans a change:\n%s", out)
	}
	expectCount(t, out, "Warning: File not readable", 1)
	c.destroy(t, true)
	c.expectJobs(t, 1, 0)
	c.expectDestroyed(t)
}

// makeUnreadable makes the file at p unreadable by this process.
func makeUnreadable(t *testing.T, p string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(p, 0o600) })
		return
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	loop := p + ".loop"
	if err := os.Symlink(loop, p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(p, loop); err != nil {
		t.Fatal(err)
	}
	if f, err := os.Open(p); err == nil {
		_ = f.Close()
		t.Fatalf("%s is still readable", p)
	}
}

// The file of one input deleted: destroy works.
func TestAccLife_inputFileDeleted(t *testing.T) {
	c, p := newLifeCLI(t, "life_inputs")
	c.setLife(t, emulator.TwoStepTemplateID, p, nil)
	c.apply(t, true)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	changes, out := c.plan(t)
	if changes {
		t.Errorf("the plan after the input's file was deleted plans a change:\n%s", out)
	}
	expectCount(t, out, "Warning: File not found", 1)
	c.destroy(t, true)
	c.expectJobs(t, 1, 0)
	c.expectDestroyed(t)
}

// The template deleted on the service: a plan of a file's import and of
// inputs (whose keys are resolved against the template's steps) plans no
// change, and destroy works.
func TestAccLife_templateDeleted(t *testing.T) {
	requireTFAcc(t) // its subtests are acceptance tests
	for _, tc := range []struct{ config, template string }{
		{"life", emulator.GLActualsTemplateID},
		{"life_inputs", emulator.TwoStepTemplateID},
	} {
		t.Run(tc.config, func(t *testing.T) {
			c, p := newLifeCLI(t, tc.config)
			c.setLife(t, tc.template, p, nil)
			c.apply(t, true)
			c.e.DeleteTemplate(tc.template)
			if changes, out := c.plan(t); changes {
				t.Errorf("the plan after the template was deleted plans a change:\n%s", out)
			}
			c.destroy(t, true)
			c.expectJobs(t, 1, 0)
			c.expectDestroyed(t)
		})
	}
}

// A job adopted by id, then template_id edited to another model's template
// before any apply: the plan warns on template_id, the apply fails (the
// job is not adopted, nothing is started) and destroy works.
func TestAccLife_adoptedTemplateEdited(t *testing.T) {
	c, p := newLifeCLI(t, "life_adopt")
	id := startJob(t, c.e, emulator.GLActualsTemplateID, [][]string{{"Account", "Amount"}, {"4000", "1"}})
	c.setLife(t, emulator.GLActualsTemplateID, p, nil)
	if out, err := c.run("import", "-no-color", "-input=false", "etl_import.x", id); err != nil {
		t.Fatalf("terraform import: %v\n%s", err, out)
	}
	c.setLife(t, emulator.SalesVolumesTemplateID, p, nil)
	_, out := c.plan(t)
	expectCount(t, out, "Warning: "+summaryOtherTemplate, 1)
	out = c.apply(t, false)
	expectOutput(t, out, "Error: "+summaryOtherTemplate)
	if s := c.state(t)["etl_import.x"]; s.ID != id {
		t.Errorf("the state holds job %q, want the adopted %s", s.ID, id)
	}
	c.destroy(t, true)
	c.expectJobs(t, 1, 0)
	c.expectDestroyed(t)
}

// A change that needs a new job while the file is gone (another template,
// or -replace): the plan warns and shows the replacement; the apply fails
// on file.path before anything is destroyed or started, and the state
// keeps the job. With the file back, -replace imports again.
func TestAccLife_applyNeedsMissingFile(t *testing.T) {
	c, p := newLifeCLI(t, "life")
	c.setLife(t, emulator.GLActualsTemplateID, p, nil)
	c.apply(t, true)
	job := c.e.Jobs()[0].ID
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name     string
		template string
		args     []string
	}{
		{"another template", emulator.HeadcountTemplateID, nil},
		{"-replace", emulator.GLActualsTemplateID, []string{"-replace=etl_import.x"}},
	} {
		c.setLife(t, step.template, p, nil)
		changes, out := c.plan(t, step.args...)
		if !changes {
			t.Errorf("%s: the plan plans no change:\n%s", step.name, out)
		}
		expectOutput(t, out, "Warning: File not found", "Plan: 1 to add, 0 to change, 1 to destroy.")
		out, err := c.run(append([]string{"apply", "-auto-approve", "-no-color", "-input=false"}, step.args...)...)
		if err == nil {
			t.Fatalf("%s: the apply succeeded without the file:\n%s", step.name, out)
		}
		expectOutput(t, out, "Error: File not found")
		c.expectJobs(t, 1, 0)
		if s := c.state(t)["etl_import.x"]; s.ID != job {
			t.Errorf("%s: the state holds job %q, want %s", step.name, s.ID, job)
		}
	}
	writeFile(t, filepath.Dir(p), filepath.Base(p), []byte(lifeCSV))
	c.setLife(t, emulator.GLActualsTemplateID, p, nil)
	if out, err := c.run("apply", "-auto-approve", "-no-color", "-input=false", "-replace=etl_import.x"); err != nil {
		t.Fatalf("-replace with the file back: %v\n%s", err, out)
	}
	c.expectJobs(t, 2, 0)
}

// An unfinished job with cancel_on_destroy, its file deleted: destroy
// works and cancels it, as asked.
func TestAccLife_fileDeletedCancelOnDestroy(t *testing.T) {
	c, p := newLifeCLIWith(t, "life", emulator.Options{RunTime: time.Hour})
	c.setLife(t, emulator.GLActualsTemplateID, p, map[string]any{"wait": false, "cancel_on_destroy": true})
	c.apply(t, true)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	c.destroy(t, true)
	c.expectJobs(t, 1, 1)
	if j := c.e.Jobs()[0]; j.Status != emulator.StatusCancelled {
		t.Errorf("job %s is %s, want %s", j.ID, j.Status, emulator.StatusCancelled)
	}
	c.expectDestroyed(t)
}

// A tainted import (its job ended in ERROR), its file deleted: destroy
// works. Terraform plans a tainted object as a new one, with no prior
// state: the refresh of the same run tells the provider the file is that
// of an object in state.
func TestAccLife_taintedFileDeleted(t *testing.T) {
	c, p := newLifeCLI(t, "life")
	// Sales Volumes requires columns this file lacks: its job ends in ERROR.
	c.setLife(t, emulator.SalesVolumesTemplateID, p, nil)
	c.apply(t, false)
	if s := c.state(t)["etl_import.x"]; !s.Tainted {
		t.Fatalf("the import is not tainted: %+v", s)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	c.destroy(t, true)
	c.expectJobs(t, 1, 0)
	c.expectDestroyed(t)
}

// A job imported by id and tainted before an apply adopted it, its file
// deleted (the explorer: Terraform 1.16 seed 38202, OpenTofu seed 38350):
// the plan warns; the apply of its replacement fails before anything is
// destroyed or started; destroy works. Its state names no file and no
// template yet: the refresh tells the provider by the job's model that
// the tainted object's plan is that of an object in state, before and
// after an apply whose Delete refused (the state's private data is then
// the plan's, which a tainted object's plan does not get).
func TestAccLife_importedTaintedFileDeleted(t *testing.T) {
	c, p := newLifeCLI(t, "life_adopt")
	id := startJob(t, c.e, emulator.GLActualsTemplateID, [][]string{{"Account", "Amount"}, {"4000", "1"}})
	c.setLife(t, emulator.GLActualsTemplateID, p, nil)
	for _, args := range [][]string{{"import", "-no-color", "-input=false", "etl_import.x", id}, {"taint", "-no-color", "etl_import.x"}} {
		if out, err := c.run(args...); err != nil {
			t.Fatalf("terraform %s: %v\n%s", args[0], err, out)
		}
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	_, out := c.plan(t)
	expectCount(t, out, "Warning: File not found", 1)
	expectOutput(t, c.apply(t, false), "Error: File not found")
	if s := c.state(t)["etl_import.x"]; s.ID != id || !s.Tainted {
		t.Errorf("after the failed apply the state holds %+v, want job %s, tainted", s, id)
	}
	c.destroy(t, true)
	c.expectJobs(t, 1, 0)
	c.expectDestroyed(t)
}

// file.path edited to a file that is not there (yet): the plan warns and
// plans the change in place; its apply fails on file.path, starting
// nothing, and the state keeps the old path; destroy works. With the file
// there and the same bytes, the apply records the new path.
func TestAccLife_pathEditedToMissingFile(t *testing.T) {
	c, p := newLifeCLI(t, "life")
	c.setLife(t, emulator.GLActualsTemplateID, p, nil)
	c.apply(t, true)
	moved := filepath.Join(filepath.Dir(p), "moved.csv")
	c.setLife(t, emulator.GLActualsTemplateID, moved, nil)
	changes, out := c.plan(t)
	if !changes {
		t.Errorf("the plan of the new path plans no change:\n%s", out)
	}
	expectOutput(t, out, "Warning: File not found", "Plan: 0 to add, 1 to change, 0 to destroy.")
	out = c.apply(t, false)
	expectOutput(t, out, "Error: File not found", "moved.csv")
	c.expectJobs(t, 1, 0)
	writeFile(t, filepath.Dir(moved), filepath.Base(moved), []byte(lifeCSV))
	c.apply(t, true)
	c.expectJobs(t, 1, 0)
	if changes, out := c.plan(t); changes {
		t.Errorf("after the apply of the new path, the plan plans a change:\n%s", out)
	}
	if err := os.Remove(moved); err != nil {
		t.Fatal(err)
	}
	c.destroy(t, true)
	c.expectJobs(t, 1, 0)
	c.expectDestroyed(t)
}

// The template deleted on the service while the configuration looks it up
// by name (data "etl_template"): the data source fails at the refresh
// before a destroy, as every data source does for what is gone
// (hashicorp/terraform#18385), naming the template; the docs' command,
// terraform destroy -refresh=false, removes the resource and cancels
// nothing.
func TestAccLife_templateDeletedLookedUpByName(t *testing.T) {
	c, p := newLifeCLI(t, "life_by_name")
	c.setLife(t, emulator.GLActualsTemplateID, p, nil)
	c.apply(t, true)
	c.e.DeleteTemplate(emulator.GLActualsTemplateID)
	expectOutput(t, c.destroy(t, false), "Error: Template not found", "with data.etl_template.gl")
	if out, err := c.run("destroy", "-auto-approve", "-no-color", "-input=false", "-refresh=false"); err != nil {
		t.Fatalf("terraform destroy -refresh=false: %v\n%s", err, out)
	}
	c.expectJobs(t, 1, 0)
	c.expectDestroyed(t)
}

// The template deleted on the service, then a replacement asked for
// (-replace): the new job cannot start, so the apply fails at the
// replacement's Delete, before anything is destroyed or started, and the
// state keeps the job; destroy works.
func TestAccLife_templateDeletedReplace(t *testing.T) {
	c, p := newLifeCLI(t, "life")
	c.setLife(t, emulator.GLActualsTemplateID, p, nil)
	c.apply(t, true)
	job := c.e.Jobs()[0].ID
	c.e.DeleteTemplate(emulator.GLActualsTemplateID)
	out, err := c.run("apply", "-auto-approve", "-no-color", "-input=false", "-replace=etl_import.x")
	if err == nil {
		t.Fatalf("-replace succeeded without the template:\n%s", out)
	}
	expectOutput(t, out, "Error: Template not found", "Nothing was destroyed and no job was started: the state keeps job "+job)
	if s := c.state(t)["etl_import.x"]; s.ID != job {
		t.Errorf("the state holds job %q, want %s", s.ID, job)
	}
	c.destroy(t, true)
	c.expectJobs(t, 1, 0)
	c.expectDestroyed(t)
}
