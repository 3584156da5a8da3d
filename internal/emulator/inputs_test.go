package emulator

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

const (
	actualsCSV = "Account,Amount\n4000,1\n5000,2\n"
	ratesCSV   = "Currency,Rate\nEUR,1.1\n"
)

// put loads content into input inputID of job id (metadata first).
func (e *env) put(id, inputID, meta, content string) resp {
	e.t.Helper()
	body, ct := multipartBody(e.t, metaPart(meta), filePart(content))
	return e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+inputID+"/file", body, "Content-Type", ct)
}

func (e *env) mustPut(id, inputID, content string) {
	e.t.Helper()
	if r := e.put(id, inputID, metaGL, content); r.status != http.StatusNoContent {
		e.t.Fatalf("PUT %s: %d %s", inputID, r.status, r.body)
	}
}

func (e *env) create(tmpl string) string {
	e.t.Helper()
	return checkJob(e.t, e.post("/templates/"+tmpl+"/jobs"), StatusEditing)["id"].(string)
}

func TestNewDefaultTemplates(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		id, name, model, modelName string
		steps                      []any
	}{
		{TwoStepTemplateID, "Actuals and Rates", "600000000000000001", "Finance Plan", []any{
			map[string]any{"stepName": "Load Actuals", "dataType": "Values", "inputId": TwoStepActualsInputID},
			map[string]any{"stepName": "Load Rates", "dataType": "Values", "inputId": TwoStepRatesInputID}}},
		{NoStepTemplateID, "Recalculate", "600000000000000001", "Finance Plan", []any{}},
		{SameStepNameTemplateID, "Twin Loads", "600000000000000002", "Sales Model", []any{
			map[string]any{"stepName": "Load", "dataType": "Values", "inputId": SameStepNameFirstInputID},
			map[string]any{"stepName": "Load", "dataType": "Values", "inputId": SameStepNameSecondInputID}}},
	}
	for _, c := range cases {
		m := e.get("/templates/" + c.id).obj(t)
		if m["id"] != c.id || m["name"] != c.name || m["modelId"] != c.model || m["modelName"] != c.modelName {
			t.Errorf("template %s = %v", c.id, m)
		}
		if !reflect.DeepEqual(m["steps"], c.steps) {
			t.Errorf("template %s steps = %#v, want %#v", c.id, m["steps"], c.steps)
		}
	}
	// The first four are unchanged, in the same order.
	ts := DefaultTemplates()
	for i, id := range []string{GLActualsTemplateID, HeadcountTemplateID, SalesVolumesTemplateID, SalesGLActualsTemplateID} {
		if ts[i].ID != id {
			t.Errorf("template %d = %s, want %s", i, ts[i].ID, id)
		}
	}
	// Step columns are copies too.
	ts[4].Steps[0].RequiredColumns[0] = "changed"
	if DefaultTemplates()[4].Steps[0].RequiredColumns[0] != "Account" {
		t.Error("DefaultTemplates shares step columns")
	}
}

func TestTwoStepJobCompletes(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, RunTime: time.Second})
	id := e.create(TwoStepTemplateID)
	e.mustPut(id, TwoStepActualsInputID, actualsCSV)
	e.mustPut(id, TwoStepRatesInputID, ratesCSV)
	checkJob(t, e.post("/jobs/"+id+"/submit"), StatusSubmitted)
	clk.Add(time.Second)
	if s := e.status(id); s != StatusCompleted {
		t.Fatalf("status = %s", s)
	}
	j, _ := e.srv.Job(id)
	if len(j.Inputs) != 2 {
		t.Fatalf("inputs = %+v", j.Inputs)
	}
	for input, content := range map[string]string{TwoStepActualsInputID: actualsCSV, TwoStepRatesInputID: ratesCSV} {
		sum := sha256.Sum256([]byte(content))
		u := j.Inputs[input]
		if u == nil || u.SHA256 != hex.EncodeToString(sum[:]) || u.Bytes != int64(len(content)) || u.Kind != "file" {
			t.Errorf("input %s = %+v", input, u)
		}
	}
	if j.Upload == nil || j.Upload.SHA256 != j.Inputs[TwoStepRatesInputID].SHA256 {
		t.Errorf("Upload is not the last PUT: %+v", j.Upload)
	}
	if e.srv.Requests(EndpointUploadJobFile) != 2 || e.srv.Requests(EndpointCreateJob) != 1 {
		t.Errorf("requests: PUT %d create %d", e.srv.Requests(EndpointUploadJobFile), e.srv.Requests(EndpointCreateJob))
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

func TestPutChecksLikeStart(t *testing.T) {
	e := newEnv(t, Options{Instant: true})
	id := e.create(TwoStepTemplateID)
	wantError(t, e.put(id, TwoStepActualsInputID, metaFor("CSV", "UTF-8"), "Account,Amount\n4000,\xff\n"), http.StatusBadRequest, "UTF-8", "offset")
	wantError(t, e.put(id, TwoStepActualsInputID, metaFor("XLSX", "UTF-8"), actualsCSV), http.StatusBadRequest, "XLSX")
	body, ct := multipartBody(t, filePart(actualsCSV))
	wantError(t, e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+TwoStepActualsInputID+"/file", body, "Content-Type", ct),
		http.StatusUnprocessableEntity, "metadata")
	wantError(t, e.put(id, GLActualsInputID, metaGL, actualsCSV), http.StatusNotFound, GLActualsInputID)
	// UTF-16 and PSV decode as on start.
	e.mustPut(id, TwoStepRatesInputID, ratesCSV)
	r := e.put(id, TwoStepActualsInputID, metaFor("PSV", "UTF-16"), string(utf16Bytes("Account|Amount\n1|2\n", true, true)))
	if r.status != http.StatusNoContent {
		t.Fatalf("PUT UTF-16 PSV: %d %s", r.status, r.body)
	}
	j, _ := e.srv.Job(id)
	if u := j.Inputs[TwoStepActualsInputID]; u == nil || !reflect.DeepEqual(u.Header, []string{"Account", "Amount"}) || u.RowCount != 1 {
		t.Fatalf("input = %+v", u)
	}
	checkJob(t, e.post("/jobs/"+id+"/submit"), StatusCompleted)
}

func TestNoStepTemplateCompletesOnSubmit(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, RunTime: time.Second})
	id := e.create(NoStepTemplateID)
	wantError(t, e.put(id, "1", metaGL, glCSV), http.StatusNotFound, `input "1"`)
	checkJob(t, e.post("/jobs/"+id+"/submit"), StatusSubmitted)
	clk.Add(time.Second)
	if s := e.status(id); s != StatusCompleted {
		t.Fatalf("status = %s", s)
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

func TestSameStepNameInputs(t *testing.T) {
	e := newEnv(t, Options{Instant: true})
	id := e.create(SameStepNameTemplateID)
	e.mustPut(id, SameStepNameFirstInputID, "Product,Units\na,1\n")
	e.mustPut(id, SameStepNameSecondInputID, "Units,Product\n2,b\n")
	checkJob(t, e.post("/jobs/"+id+"/submit"), StatusCompleted)
	if j, _ := e.srv.Job(id); len(j.Inputs) != 2 {
		t.Errorf("inputs = %+v", j.Inputs)
	}
}

func TestStartOnMultiStepTemplate(t *testing.T) {
	// Start with file loads the first step (its columns decide); the
	// missing-input rule applies only to created jobs.
	e := newEnv(t, Options{Instant: true})
	checkJob(t, e.startFile(TwoStepTemplateID, filePart(actualsCSV), metaPart(metaGL)), StatusCompleted)
	checkJob(t, e.startFile(TwoStepTemplateID, filePart(ratesCSV), metaPart(metaGL)), StatusError)
	checkJob(t, e.startData(NoStepTemplateID, `{"input":{"data":[["Anything"]]}}`), StatusCompleted)
}
