package importjob

import (
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

func TestAdopting(t *testing.T) {
	for _, c := range []struct{ imported, templateInState, want bool }{
		{true, false, true},   // imported, nothing adopted yet
		{true, true, false},   // a mark left behind: the state has a template to compare
		{false, false, false}, // a new object's plan is no adoption
		{false, true, false},
	} {
		if got := Adopting(c.imported, c.templateInState); got != c.want {
			t.Errorf("Adopting(%v, %v) = %v", c.imported, c.templateInState, got)
		}
	}
}

func TestAdoptionMismatch(t *testing.T) {
	const finance, sales = "6401018742886891", "6401018742886892"
	gl := Template{ID: "640101874288689160", Name: "GL Actuals", ModelID: finance, ModelName: "Finance Plan"}
	if p := AdoptionMismatch(ImportedJob{"1", "GL Actuals", finance, "Finance Plan"}, gl); p != "" {
		t.Errorf("the template's own job: %s", p)
	}
	if p := AdoptionMismatch(ImportedJob{"1", "", finance, "Finance Plan"}, gl); p != "" {
		t.Errorf("a job without a name, of the template's model: %s", p)
	}
	for _, job := range []ImportedJob{
		{"640101874288689170", "GL Actuals", sales, "Sales Model"}, // same name, other model
		{"640101874288689170", "Headcount", finance, "Finance Plan"},
		{"640101874288689170", "", sales, "Sales Model"},
	} {
		p := AdoptionMismatch(job, gl)
		for _, want := range []string{"640101874288689170", job.Name, job.ModelID, job.ModelName,
			gl.ID, `"GL Actuals"`, finance, "Finance Plan", "no job was started"} {
			if !strings.Contains(p, want) {
				t.Errorf("mismatch of %s: %q does not name %q", job.Name, p, want)
			}
		}
	}
}

// TestWasSubmitted: the statuses a job reaches only through a submit (or
// a start), and those of a job never submitted that can no longer be.
func TestWasSubmitted(t *testing.T) {
	submitted := map[jobstatus.JobStatus]bool{jobstatus.StatusSubmitted: true, jobstatus.StatusWaiting: true, jobstatus.StatusCompleted: true, jobstatus.StatusError: true}
	for _, s := range jobstatus.AllStatuses {
		if got := WasSubmitted(s); got != submitted[s] {
			t.Errorf("WasSubmitted(%s) = %v, want %v", s, got, submitted[s])
		}
		if got, want := EndedUnsubmitted(s), s == jobstatus.StatusCancelled || s == jobstatus.StatusExpired; got != want {
			t.Errorf("EndedUnsubmitted(%s) = %v, want %v", s, got, want)
		}
	}
	if WasSubmitted("SOMETHING_NEW") || EndedUnsubmitted("SOMETHING_NEW") {
		t.Error("a status the service does not document counts as neither")
	}
}

// TestWarningWords: each warning of a plan of a live object names the
// job, is about its attribute, and says what is done and what to run;
// NoWarning says nothing.
func TestWarningWords(t *testing.T) {
	for _, tc := range []struct {
		w                     Warning
		status                string
		attr, summary, detail string
	}{
		{WarnSubmitGone, "NOT_FOUND", "submit", "Import job 7 cannot be submitted", "no longer knows job 7 (status NOT_FOUND), so it cannot be submitted: submit = true is recorded and nothing is sent. To import the data again with a new job, run: replace it."},
		{WarnSubmitReplaces, "EXPIRED", "submit", "Turning submit on replaces import job 7", "Job 7 is EXPIRED: it was never submitted"},
		{WarnFailedReplaced, "ERROR", "status", "Import job 7 ended with status ERROR: a new job is planned", "Job 7 ended with status ERROR, so the service imported none of its data (the reason is in the job's details in the service's own application). This plan replaces it with one new job that imports the data of this configuration; fix the cause first, or the new job fails the same way. To keep the failed job in the state instead, set keep_failed = true."},
		{WarnRehashed, "COMPLETED", "inputs", "Template input ids changed; the job is kept", "The input ids of template t1 changed on the service since job 7 was loaded"},
	} {
		attr, summary, detail := tc.w.Words("7", tc.status, "t1", "replace it")
		if attr != tc.attr || summary != tc.summary || !strings.Contains(detail, tc.detail) {
			t.Errorf("warning %d: %q, %q, %q", tc.w, attr, summary, detail)
		}
	}
	if attr, summary, detail := NoWarning.Words("7", "", "t1", ""); attr+summary+detail != "" {
		t.Errorf("NoWarning says %q %q %q", attr, summary, detail)
	}
}
