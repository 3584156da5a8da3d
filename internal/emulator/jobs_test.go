package emulator

import (
	"net/http"
	"testing"
	"time"
)

func TestJobSnapshotIsACopy(t *testing.T) {
	e := newEnv(t, Options{Instant: true})
	id := e.create(TwoStepTemplateID)
	if j, _ := e.srv.Job(id); j.Upload != nil || j.Inputs != nil || j.Purged || j.TemplateID != TwoStepTemplateID {
		t.Fatalf("created job = %+v", j)
	}
	e.mustPut(id, TwoStepActualsInputID, actualsCSV)
	j, _ := e.srv.Job(id)
	j.Inputs[TwoStepActualsInputID].Header[0] = "changed"
	j.Inputs[TwoStepRatesInputID] = &Upload{}
	again, _ := e.srv.Job(id)
	if again.Inputs[TwoStepActualsInputID].Header[0] != "Account" || len(again.Inputs) != 1 {
		t.Errorf("snapshot shares inputs: %+v", again.Inputs)
	}
	if again.Upload == again.Inputs[TwoStepActualsInputID] {
		t.Error("Upload and Inputs share a pointer")
	}
}

func TestJobJSON(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, RunTime: time.Second, UserName: "Pat"})
	id := e.create(GLActualsTemplateID)
	r := e.get("/jobs/" + id)
	want := `{"id":"` + id + `","name":"GL Actuals","status":"EDITING","modelId":"600000000000000001","modelName":"Finance Plan",` +
		`"createdDate":1750000000000,"updatedDate":null,"userName":"Pat"}` + "\n"
	if r.status != http.StatusOK || string(r.body) != want {
		t.Errorf("GET job = %d %s\nwant %s", r.status, r.body, want)
	}
	// Ids increase, 19 digits.
	next := e.create(GLActualsTemplateID)
	if len(next) != 19 || next <= id {
		t.Errorf("ids %s then %s", id, next)
	}
}

func TestUnknownJobAnswers404(t *testing.T) {
	e := newEnv(t, Options{})
	for _, r := range []resp{e.get("/jobs/1"), e.get("/jobs/1/status"), e.post("/jobs/1/submit"), e.post("/jobs/1/cancel")} {
		wantError(t, r, http.StatusNotFound, `job "1" not found`)
	}
}
