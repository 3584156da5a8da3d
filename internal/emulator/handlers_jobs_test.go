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

func TestCreateUploadSubmitGet(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, RunTime: time.Second})
	r := e.post("/templates/" + GLActualsTemplateID + "/jobs")
	m := checkJob(t, r, StatusEditing)
	if m["updatedDate"] != nil {
		t.Errorf("updatedDate = %v, want null before any update", m["updatedDate"])
	}
	if !strings.Contains(string(r.body), `"updatedDate":null`) {
		t.Errorf("no explicit null updatedDate: %s", r.body)
	}
	id := m["id"].(string)
	if j, _ := e.srv.Job(id); j.Upload != nil {
		t.Error("upload before PUT")
	}

	body, ct := multipartBody(t, metaPart(metaGL), filePart(glCSV))
	put := e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+GLActualsInputID+"/file", body, "Content-Type", ct)
	if put.status != http.StatusNoContent || len(put.body) != 0 {
		t.Fatalf("PUT = %d %q", put.status, put.body)
	}
	if j, _ := e.srv.Job(id); j.Upload == nil || j.Upload.RowCount != 2 || j.Status != StatusEditing {
		t.Fatalf("after PUT: %+v", j)
	}

	clk.Add(10 * time.Second)
	g := checkJob(t, e.get("/jobs/"+id), StatusEditing)
	if g["id"] != id {
		t.Errorf("GET id %v", g["id"])
	}
	s := checkJob(t, e.post("/jobs/"+id+"/submit", "Content-Type", jsonMIME), StatusSubmitted)
	if s["updatedDate"] != float64(clk.Now().UnixMilli()) {
		t.Errorf("updatedDate = %v, want now", s["updatedDate"])
	}
	st := e.get("/jobs/" + id + "/status")
	if st.status != 200 || string(st.body) != "\"SUBMITTED\"\n" || st.header.Get("Content-Type") != jsonMIME {
		t.Errorf("status = %d %q", st.status, st.body)
	}
	clk.Add(time.Second)
	if got := e.status(id); got != StatusCompleted {
		t.Errorf("status after run time = %s", got)
	}
}

func TestStatusIsBareJSONString(t *testing.T) {
	e := newEnv(t, Options{Instant: true})
	id := e.mustStart(GLActualsTemplateID, glCSV)
	r := e.get("/jobs/" + id + "/status")
	if string(r.body) != "\"COMPLETED\"\n" {
		t.Errorf("body %q", r.body)
	}
}

func TestConflictAfterFinal(t *testing.T) {
	for _, final := range []string{StatusCompleted, StatusError, StatusCancelled, StatusExpired} {
		t.Run(final, func(t *testing.T) {
			e := newEnv(t, Options{})
			id := e.post("/templates/" + GLActualsTemplateID + "/jobs").obj(t)["id"].(string)
			e.srv.SetJobStatus(id, final)
			wantError(t, e.post("/jobs/"+id+"/submit", "Content-Type", jsonMIME), http.StatusConflict, final, id)
			wantError(t, e.post("/jobs/"+id+"/cancel", "Content-Type", jsonMIME), http.StatusConflict, final)
			body, ct := multipartBody(t, metaPart(metaGL), filePart(glCSV))
			wantError(t, e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+GLActualsInputID+"/file", body, "Content-Type", ct), http.StatusConflict, final)
			if got := e.status(id); got != final {
				t.Errorf("status = %s", got)
			}
		})
	}
}

func TestConflictStatusOption(t *testing.T) {
	e := newEnv(t, Options{ConflictStatus: http.StatusBadRequest})
	id := e.post("/templates/" + GLActualsTemplateID + "/jobs").obj(t)["id"].(string)
	e.srv.SetJobStatus(id, StatusCompleted)
	wantError(t, e.post("/jobs/"+id+"/submit"), http.StatusBadRequest, "cannot be submitted", StatusCompleted)
	wantError(t, e.post("/jobs/"+id+"/cancel"), http.StatusBadRequest, "cannot be cancelled")
	body, ct := multipartBody(t, metaPart(metaGL), filePart(glCSV))
	wantError(t, e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+GLActualsInputID+"/file", body, "Content-Type", ct), http.StatusBadRequest, "cannot take a file")
	// Other errors keep their own status.
	wantError(t, e.post("/jobs/42/submit"), http.StatusNotFound, `"42"`)
	for _, bad := range []int{201, 204, 302, 500, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New accepted ConflictStatus %d", bad)
				}
			}()
			New(Options{ConflictStatus: bad})
		}()
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
