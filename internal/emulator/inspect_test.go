package emulator

import (
	"net/http"
	"testing"
)

func TestJobsInspection(t *testing.T) {
	e := newEnv(t, Options{Instant: true, UserName: "Pat"})
	a := e.mustStart(GLActualsTemplateID, glCSV)
	b := e.post("/templates/" + SalesVolumesTemplateID + "/jobs").obj(t)["id"].(string)
	c := e.mustStart(SalesGLActualsTemplateID, "Amount\n1\n")
	jobs := e.srv.Jobs()
	if len(jobs) != 3 || jobs[0].ID != a || jobs[1].ID != b || jobs[2].ID != c {
		t.Fatalf("jobs = %+v", jobs)
	}
	if !(a < b && b < c) {
		t.Errorf("ids not increasing: %s %s %s", a, b, c)
	}
	if jobs[0].Status != StatusCompleted || jobs[0].UserName != "Pat" || jobs[1].Status != StatusEditing || jobs[2].Status != StatusError {
		t.Errorf("statuses = %s %s %s", jobs[0].Status, jobs[1].Status, jobs[2].Status)
	}
	if jobs[2].Message != `missing required column "Account"` {
		t.Errorf("message = %q", jobs[2].Message)
	}
	if !jobs[1].Updated.IsZero() || jobs[0].Updated.IsZero() {
		t.Errorf("updated: %v %v", jobs[1].Updated, jobs[0].Updated)
	}
	if _, ok := e.srv.Job("1"); ok {
		t.Error("unknown job found")
	}
	if !e.srv.SetJobStatus(b, StatusWaiting) || e.status(b) != StatusWaiting {
		t.Error("SetJobStatus did not apply")
	}
	if e.srv.SetJobStatus("nope", StatusError) {
		t.Error("SetJobStatus of unknown job reported true")
	}
	nj, nreq := e.srv.Stats()
	if nj != 3 || nreq != 4 {
		t.Errorf("stats = %d jobs %d requests", nj, nreq)
	}
	if e.srv.Requests(EndpointStartWithFile) != 2 || e.srv.Requests(EndpointCreateJob) != 1 || e.srv.Requests(EndpointGetJobStatus) != 1 {
		t.Errorf("requests: %d %d %d", e.srv.Requests(EndpointStartWithFile), e.srv.Requests(EndpointCreateJob), e.srv.Requests(EndpointGetJobStatus))
	}
	// Snapshots are copies.
	jobs[0].Upload.Rows[0] = nil
	if j, _ := e.srv.Job(a); j.Upload.Rows[0] == nil {
		t.Error("snapshot shares rows")
	}
}

func TestPurgeJob(t *testing.T) {
	e := newEnv(t, Options{Instant: true})
	id := e.mustStart(GLActualsTemplateID, glCSV)
	other := e.mustStart(GLActualsTemplateID, glCSV)
	if !e.srv.PurgeJob(id) {
		t.Fatal("PurgeJob of an existing job reported false")
	}
	if e.srv.PurgeJob(id) || e.srv.PurgeJob("1") {
		t.Error("PurgeJob of a purged or unknown job reported true")
	}
	for _, r := range []resp{e.get("/jobs/" + id), e.get("/jobs/" + id + "/status"), e.post("/jobs/" + id + "/submit"), e.post("/jobs/" + id + "/cancel")} {
		wantError(t, r, http.StatusNotFound, id)
	}
	if e.status(other) != StatusCompleted {
		t.Error("the other job is affected")
	}
	jobs := e.srv.Jobs()
	if len(jobs) != 2 || jobs[0].ID != id || !jobs[0].Purged || jobs[1].Purged || jobs[0].Upload == nil {
		t.Fatalf("jobs = %+v", jobs)
	}
	if j, ok := e.srv.Job(id); !ok || !j.Purged {
		t.Errorf("Job(%s) = %+v, %v", id, j, ok)
	}
	if n, _ := e.srv.Stats(); n != 2 {
		t.Errorf("Stats counts %d jobs, want 2", n)
	}
	// An editing job purged takes no file.
	ed := e.post("/templates/" + GLActualsTemplateID + "/jobs").obj(t)["id"].(string)
	e.srv.PurgeJob(ed)
	body, ct := multipartBody(t, metaPart(metaGL), filePart(glCSV))
	wantError(t, e.request(http.MethodPut, base+"/jobs/"+ed+"/inputs/"+GLActualsInputID+"/file", body, "Content-Type", ct), http.StatusNotFound, ed)
}

func TestDeleteTemplate(t *testing.T) {
	e := newEnv(t, Options{Instant: true})
	id := e.mustStart(GLActualsTemplateID, glCSV)
	editing := e.create(GLActualsTemplateID)
	if !e.srv.DeleteTemplate(GLActualsTemplateID) {
		t.Fatal("DeleteTemplate of an existing template reported false")
	}
	if e.srv.DeleteTemplate(GLActualsTemplateID) || e.srv.DeleteTemplate("1") {
		t.Error("DeleteTemplate of a deleted or unknown template reported true")
	}
	wantError(t, e.get("/templates/"+GLActualsTemplateID), http.StatusNotFound, GLActualsTemplateID)
	wantError(t, e.startFile(GLActualsTemplateID, metaPart(metaGL), filePart(glCSV)), http.StatusNotFound, GLActualsTemplateID)
	for _, tmpl := range e.srv.Templates() {
		if tmpl.ID == GLActualsTemplateID {
			t.Error("the deleted template is still listed")
		}
	}
	// The other templates are found by id, and the jobs stay.
	if r := e.get("/templates/" + HeadcountTemplateID); r.status != http.StatusOK {
		t.Errorf("another template: %d %s", r.status, r.body)
	}
	if e.status(id) != StatusCompleted {
		t.Errorf("the job of the deleted template is %s", e.status(id))
	}
	checkJob(t, e.post("/jobs/"+editing+"/cancel"), StatusCancelled)
}
