package emulator

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestLifecycleRunToCompletion(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, RunTime: time.Minute})
	t0 := clk.Now()
	r := checkJob(t, e.startFile(GLActualsTemplateID, filePart(glCSV), metaPart(metaGL)), StatusRunning)
	id := r["id"].(string)
	if r["updatedDate"] != float64(t0.UnixMilli()) {
		t.Errorf("updatedDate of a started job = %v, want its start", r["updatedDate"])
	}
	bad := checkJob(t, e.startFile(SalesVolumesTemplateID, filePart(glCSV), metaPart(metaGL)), StatusRunning)["id"].(string)
	clk.Add(time.Minute - time.Millisecond)
	if s := e.status(id); s != StatusRunning {
		t.Fatalf("just before run time: %s", s)
	}
	clk.Add(time.Millisecond)
	if s := e.status(id); s != StatusCompleted {
		t.Fatalf("at run time: %s", s)
	}
	if s := e.status(bad); s != StatusError {
		t.Fatalf("missing columns: %s", s)
	}
	g := checkJob(t, e.get("/jobs/"+id), StatusCompleted)
	if g["updatedDate"] != float64(t0.Add(time.Minute).UnixMilli()) || g["createdDate"] != float64(t0.UnixMilli()) {
		t.Errorf("dates = %v / %v", g["createdDate"], g["updatedDate"])
	}
	j, _ := e.srv.Job(bad)
	if j.Message != `missing required columns "Product", "Units"` || !j.Updated.Equal(t0.Add(time.Minute)) {
		t.Errorf("job = %+v", j)
	}
}

func TestLifecycleQueue(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, RunTime: time.Minute})
	a := e.mustStart(GLActualsTemplateID, glCSV) // Finance Plan
	clk.Add(10 * time.Second)
	b := checkJob(t, e.startFile(HeadcountTemplateID, filePart("Employee,Department\nx,y\n"), metaPart(metaGL)), StatusQueued)["id"].(string)
	other := checkJob(t, e.startFile(SalesVolumesTemplateID, filePart("Product,Units\nx,1\n"), metaPart(metaGL)), StatusRunning)["id"].(string)
	c := checkJob(t, e.startData(GLActualsTemplateID, `{"input":{"data":[["Account","Amount"]]}}`), StatusQueued)["id"].(string)

	clk.Add(50 * time.Second) // t=60s: a done, b runs
	for id, want := range map[string]string{a: StatusCompleted, b: StatusRunning, c: StatusQueued} {
		if s := e.status(id); s != want {
			t.Errorf("t=60s %s: %s, want %s", id, s, want)
		}
	}
	if e.status(other) != StatusRunning { // other model: ran from 10s, not queued
		t.Errorf("other model job at 60s: %s", e.status(other))
	}
	clk.Add(10 * time.Second)
	if e.status(other) != StatusCompleted {
		t.Errorf("other model job at 70s: %s", e.status(other))
	}
	clk.Add(50 * time.Second) // t=120s: b done, c runs
	if e.status(b) != StatusCompleted || e.status(c) != StatusRunning {
		t.Errorf("t=120s: b %s c %s", e.status(b), e.status(c))
	}
	clk.Add(time.Minute)
	if e.status(c) != StatusCompleted {
		t.Errorf("t=180s: c %s", e.status(c))
	}
	jb, _ := e.srv.Job(b)
	if !jb.Updated.Equal(jb.Created.Add(110 * time.Second)) {
		t.Errorf("b updated %v, created %v", jb.Updated, jb.Created)
	}
	// A job after everything finished runs at once.
	checkJob(t, e.startFile(GLActualsTemplateID, filePart(glCSV), metaPart(metaGL)), StatusRunning)
}

func TestLifecycleEditingExpires(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, ExpireAfter: 30 * time.Minute})
	id := checkJob(t, e.post("/templates/"+GLActualsTemplateID+"/jobs"), StatusEditing)["id"].(string)
	clk.Add(30*time.Minute - time.Second)
	if e.status(id) != StatusEditing {
		t.Fatal("expired early")
	}
	clk.Add(time.Second)
	g := checkJob(t, e.get("/jobs/"+id), StatusExpired)
	if g["updatedDate"] != float64(clk.Now().UnixMilli()) {
		t.Errorf("updatedDate = %v", g["updatedDate"])
	}
	wantError(t, e.post("/jobs/"+id+"/submit"), http.StatusConflict, "EXPIRED")
	// An editing job does not hold up a start of the same model.
	checkJob(t, e.post("/templates/"+GLActualsTemplateID+"/jobs"), StatusEditing)
	checkJob(t, e.startFile(GLActualsTemplateID, filePart(glCSV), metaPart(metaGL)), StatusRunning)
}

func TestLifecycleSubmit(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, RunTime: time.Minute})

	// EDITING with no file: SUBMITTED, then ERROR "no input data".
	empty := e.post("/templates/" + GLActualsTemplateID + "/jobs").obj(t)["id"].(string)
	clk.Add(time.Second)
	s1 := checkJob(t, e.post("/jobs/"+empty+"/submit", "Content-Type", jsonMIME), StatusSubmitted)
	if s1["updatedDate"] != float64(clk.Now().UnixMilli()) {
		t.Errorf("updatedDate = %v", s1["updatedDate"])
	}
	tm := e.get("/templates/" + GLActualsTemplateID).obj(t)
	if tm["lastRunTime"] != float64(clk.Now().UnixMilli()) {
		t.Errorf("lastRunTime after submit = %v", tm["lastRunTime"])
	}
	// Submitting again changes nothing.
	clk.Add(time.Second)
	s2 := checkJob(t, e.post("/jobs/"+empty+"/submit"), StatusSubmitted)
	if s2["updatedDate"] != s1["updatedDate"] {
		t.Errorf("resubmit changed updatedDate: %v -> %v", s1["updatedDate"], s2["updatedDate"])
	}
	clk.Add(59 * time.Second)
	if e.status(empty) != StatusError {
		t.Fatalf("status = %s", e.status(empty))
	}
	if j, _ := e.srv.Job(empty); j.Message != "no input data" {
		t.Errorf("message = %q", j.Message)
	}
	wantError(t, e.post("/jobs/"+empty+"/submit"), http.StatusConflict, "ERROR")

	// A RUNNING started job can be submitted; it then finishes RunTime later.
	run := e.mustStart(SalesVolumesTemplateID, "Product,Units\na,1\n")
	clk.Add(30 * time.Second)
	checkJob(t, e.post("/jobs/"+run+"/submit"), StatusSubmitted)
	clk.Add(45 * time.Second) // past the original finish
	if e.status(run) != StatusSubmitted {
		t.Errorf("submitted job finished early: %s", e.status(run))
	}
	clk.Add(15 * time.Second)
	if e.status(run) != StatusCompleted {
		t.Errorf("submitted job: %s", e.status(run))
	}
	// Other statuses that are not final can be submitted.
	for _, st := range []string{StatusNotStarted, StatusWaiting, StatusQueued, StatusRunning} {
		id := e.post("/templates/" + HeadcountTemplateID + "/jobs").obj(t)["id"].(string)
		e.srv.SetJobStatus(id, st)
		checkJob(t, e.post("/jobs/"+id+"/submit"), StatusSubmitted)
	}
}

func TestLifecycleCancel(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, RunTime: time.Minute})
	for _, setup := range []func() string{
		func() string { return e.mustStart(GLActualsTemplateID, glCSV) },                                     // RUNNING
		func() string { return e.mustStart(GLActualsTemplateID, glCSV) },                                     // QUEUED
		func() string { return e.post("/templates/" + GLActualsTemplateID + "/jobs").obj(t)["id"].(string) }, // EDITING
		func() string {
			id := e.post("/templates/" + GLActualsTemplateID + "/jobs").obj(t)["id"].(string)
			e.post("/jobs/" + id + "/submit")
			return id
		}, // SUBMITTED
	} {
		id := setup()
		before := e.status(id)
		clk.Add(time.Second)
		c := checkJob(t, e.post("/jobs/"+id+"/cancel", "Content-Type", jsonMIME), StatusCancelled)
		if c["updatedDate"] != float64(clk.Now().UnixMilli()) {
			t.Errorf("cancel from %s: updatedDate %v", before, c["updatedDate"])
		}
		clk.Add(time.Hour * 2)
		if e.status(id) != StatusCancelled {
			t.Errorf("cancelled job (was %s) became %s", before, e.status(id))
		}
		wantError(t, e.post("/jobs/"+id+"/cancel"), http.StatusConflict, "CANCELLED")
		wantError(t, e.post("/jobs/"+id+"/submit"), http.StatusConflict, "CANCELLED")
	}
}

func TestInstant(t *testing.T) {
	e := newEnv(t, Options{Instant: true})
	a := checkJob(t, e.startFile(GLActualsTemplateID, filePart(glCSV), metaPart(metaGL)), StatusCompleted)
	// No queueing behind a finished job; bad data is ERROR at once.
	checkJob(t, e.startFile(GLActualsTemplateID, filePart("x\n"), metaPart(metaGL)), StatusError)
	id := e.post("/templates/" + GLActualsTemplateID + "/jobs").obj(t)["id"].(string)
	checkJob(t, e.post("/jobs/"+id+"/submit"), StatusError)
	if a["updatedDate"] == nil {
		t.Error("instantly completed job has no updatedDate")
	}
}

func TestRealClockDefaults(t *testing.T) {
	e := newEnv(t, Options{RunTime: 20 * time.Millisecond})
	id := e.mustStart(GLActualsTemplateID, glCSV)
	if e.status(id) != StatusRunning {
		t.Fatal("not running")
	}
	deadline := time.Now().Add(5 * time.Second)
	for e.status(id) != StatusCompleted {
		if time.Now().After(deadline) {
			t.Fatal("never completed")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSubmitMissingInputs(t *testing.T) {
	for _, c := range []struct {
		opt    MissingInputs
		status string
		msg    string
	}{
		{"", StatusError, `no input data for step "Load Rates" (input ` + TwoStepRatesInputID + `)`},
		{MissingInputsError, StatusError, `no input data for step "Load Rates"`},
		{MissingInputsAccept, StatusCompleted, ""},
	} {
		t.Run(string(c.opt), func(t *testing.T) {
			e := newEnv(t, Options{Instant: true, SubmitMissingInputs: c.opt})
			id := e.create(TwoStepTemplateID)
			e.mustPut(id, TwoStepActualsInputID, actualsCSV)
			checkJob(t, e.post("/jobs/"+id+"/submit"), c.status)
			if j, _ := e.srv.Job(id); !strings.Contains(j.Message, c.msg) || (c.msg == "") != (j.Message == "") {
				t.Errorf("message = %q, want %q", j.Message, c.msg)
			}
			// A job with no input loaded at all.
			none := e.create(SameStepNameTemplateID)
			want := map[MissingInputs]string{MissingInputsAccept: StatusCompleted}[c.opt]
			if want == "" {
				want = StatusError
			}
			checkJob(t, e.post("/jobs/"+none+"/submit"), want)
		})
	}
	for _, bad := range []MissingInputs{"ERROR", "ignore"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New accepted SubmitMissingInputs %q", bad)
				}
			}()
			New(Options{SubmitMissingInputs: bad})
		}()
	}
}

func TestTwoStepColumnsPerStep(t *testing.T) {
	e := newEnv(t, Options{Instant: true})
	// Each step checks its own columns: the rates file in the actuals step fails.
	id := e.create(TwoStepTemplateID)
	e.mustPut(id, TwoStepActualsInputID, ratesCSV)
	e.mustPut(id, TwoStepRatesInputID, ratesCSV)
	checkJob(t, e.post("/jobs/"+id+"/submit"), StatusError)
	j, _ := e.srv.Job(id)
	for _, want := range []string{`"Load Actuals"`, TwoStepActualsInputID, `"Account"`} {
		if !strings.Contains(j.Message, want) {
			t.Errorf("message %q lacks %s", j.Message, want)
		}
	}
	// A later PUT of the same input replaces the earlier one.
	id = e.create(TwoStepTemplateID)
	e.mustPut(id, TwoStepActualsInputID, ratesCSV)
	e.mustPut(id, TwoStepActualsInputID, actualsCSV)
	e.mustPut(id, TwoStepRatesInputID, ratesCSV)
	checkJob(t, e.post("/jobs/"+id+"/submit"), StatusCompleted)
}

func TestCreatedMultiInputJobExpires(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, ExpireAfter: 10 * time.Minute})
	id := e.create(TwoStepTemplateID)
	e.mustPut(id, TwoStepActualsInputID, actualsCSV)
	clk.Add(10*time.Minute - time.Millisecond)
	e.mustPut(id, TwoStepRatesInputID, ratesCSV)
	clk.Add(time.Millisecond)
	if s := e.status(id); s != StatusExpired {
		t.Fatalf("status = %s, want EXPIRED", s)
	}
	wantError(t, e.put(id, TwoStepRatesInputID, metaGL, ratesCSV), http.StatusConflict, "EXPIRED")
	wantError(t, e.post("/jobs/"+id+"/submit"), http.StatusConflict, "EXPIRED")
}
