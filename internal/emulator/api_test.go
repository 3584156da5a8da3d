package emulator

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

var jobKeys = []string{"createdDate", "id", "modelId", "modelName", "name", "status", "updatedDate", "userName"}

var idRE = regexp.MustCompile(`^[0-9]{18,19}$`)

// checkJob checks the ETLJob shape and returns it.
func checkJob(t *testing.T, r resp, wantStatus string) map[string]any {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != jsonMIME {
		t.Errorf("Content-Type %q", ct)
	}
	m := r.obj(t)
	if got := keys(m); !reflect.DeepEqual(got, jobKeys) {
		t.Errorf("job keys = %v, want %v", got, jobKeys)
	}
	id, ok := m["id"].(string)
	if !ok || !idRE.MatchString(id) || len(id) != 19 {
		t.Errorf("id = %#v, want a 19-digit string", m["id"])
	}
	if _, ok := m["createdDate"].(float64); !ok {
		t.Errorf("createdDate = %#v, want a number", m["createdDate"])
	}
	if u := m["updatedDate"]; u != nil {
		if _, ok := u.(float64); !ok {
			t.Errorf("updatedDate = %#v, want a number or null", u)
		}
	}
	for _, k := range []string{"name", "status", "modelId", "modelName", "userName"} {
		if _, ok := m[k].(string); !ok {
			t.Errorf("%s = %#v, want a string", k, m[k])
		}
	}
	if wantStatus != "" && m["status"] != wantStatus {
		t.Errorf("status = %v, want %s", m["status"], wantStatus)
	}
	return m
}

func TestListTemplates(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.get("/templates")
	if r.status != 200 || r.header.Get("Content-Type") != jsonMIME {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	var list []map[string]any
	r.json(t, &list)
	ids := []string{tmplGL, tmplHead, tmplSales, tmplGLSales, TwoStepTemplateID, NoStepTemplateID, SameStepNameTemplateID}
	if len(list) != len(ids) {
		t.Fatalf("got %d templates, want %d", len(list), len(ids))
	}
	want := []string{"id", "lastRunTime", "modelId", "modelName", "name"}
	for i, m := range list {
		if got := keys(m); !reflect.DeepEqual(got, want) {
			t.Errorf("template %d keys = %v, want %v", i, got, want)
		}
		if m["id"] != ids[i] {
			t.Errorf("template %d id = %#v, want string %s", i, m["id"], ids[i])
		}
		if _, ok := m["modelId"].(string); !ok {
			t.Errorf("modelId %#v not a string", m["modelId"])
		}
	}
	if list[0]["lastRunTime"] != nil {
		t.Errorf("GL Actuals lastRunTime = %v, want null", list[0]["lastRunTime"])
	}
	if list[1]["lastRunTime"] != float64(1700000000000) {
		t.Errorf("Headcount lastRunTime = %#v", list[1]["lastRunTime"])
	}
	if !strings.Contains(string(r.body), `"lastRunTime":null`) {
		t.Errorf("body lacks an explicit null lastRunTime: %s", r.body)
	}
	if list[0]["name"] != "GL Actuals" || list[3]["name"] != "GL Actuals" || list[0]["modelName"] == list[3]["modelName"] {
		t.Errorf("the two GL Actuals templates are wrong: %v / %v", list[0], list[3])
	}
}

func TestGetTemplate(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.get("/templates/" + tmplHead)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	m := r.obj(t)
	if got := keys(m); !reflect.DeepEqual(got, []string{"id", "lastRunTime", "modelId", "modelName", "name", "steps"}) {
		t.Errorf("keys = %v", got)
	}
	steps, ok := m["steps"].([]any)
	if !ok || len(steps) != 1 {
		t.Fatalf("steps = %#v", m["steps"])
	}
	want := map[string]any{"stepName": "Load Headcount", "dataType": "Values", "inputId": "640101874288689155"}
	if !reflect.DeepEqual(steps[0], want) {
		t.Errorf("step = %#v, want %#v", steps[0], want)
	}
	if m["name"] != "Headcount" || m["modelName"] != "Finance Plan" || m["lastRunTime"] != float64(1700000000000) {
		t.Errorf("template = %v", m)
	}
}

func TestDefaultTemplatesValues(t *testing.T) {
	ts := DefaultTemplates()
	if len(ts) != 7 {
		t.Fatalf("%d templates", len(ts))
	}
	want := []struct{ id, name, model, modelName, input string }{
		{tmplGL, "GL Actuals", "600000000000000001", "Finance Plan", "640101874288689153"},
		{tmplHead, "Headcount", "600000000000000001", "Finance Plan", "640101874288689155"},
		{tmplSales, "Sales Volumes", "600000000000000002", "Sales Model", "640101874288689157"},
		{tmplGLSales, "GL Actuals", "600000000000000002", "Sales Model", "640101874288689159"},
	}
	for i, w := range want {
		got := ts[i]
		if got.ID != w.id || got.Name != w.name || got.ModelID != w.model || got.ModelName != w.modelName ||
			len(got.Steps) != 1 || got.Steps[0].InputID != w.input || len(got.RequiredColumns) != 2 {
			t.Errorf("template %d = %+v", i, got)
		}
	}
	// Callers must not be able to change the server's templates.
	ts[0].Name = "changed"
	if DefaultTemplates()[0].Name != "GL Actuals" {
		t.Error("DefaultTemplates shares state")
	}
}

func TestStartWithFileCurlStyle(t *testing.T) {
	for _, metaFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("metaFirst=%v", metaFirst), func(t *testing.T) {
			clk := newClock()
			e := newEnv(t, Options{Now: clk.Now})
			parts := []part{filePart(glCSV), metaPart(metaGL)}
			if metaFirst {
				parts[0], parts[1] = parts[1], parts[0]
			}
			r := e.startFile(tmplGL, parts...)
			m := checkJob(t, r, StatusRunning)
			if m["name"] != "GL Actuals" || m["modelId"] != "600000000000000001" || m["modelName"] != "Finance Plan" || m["userName"] != "Emulator User" {
				t.Errorf("job = %v", m)
			}
			if m["createdDate"] != float64(clk.Now().UnixMilli()) {
				t.Errorf("createdDate = %v, want %d", m["createdDate"], clk.Now().UnixMilli())
			}
			j, ok := e.srv.Job(m["id"].(string))
			if !ok {
				t.Fatal("job not kept")
			}
			sum := sha256.Sum256([]byte(glCSV))
			u := j.Upload
			if u == nil || u.Kind != "file" || u.PartName != "file" || u.FileName != "gl.csv" || u.Format != "CSV" || u.Encoding != "UTF-8" {
				t.Fatalf("upload = %+v", u)
			}
			if u.Bytes != int64(len(glCSV)) || u.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("bytes %d sha %s", u.Bytes, u.SHA256)
			}
			if !reflect.DeepEqual(u.Header, []string{"Account", "Amount"}) || u.RowCount != 2 ||
				!reflect.DeepEqual(u.Rows, [][]string{{"4000", "100.50"}, {"5000", "-20"}}) {
				t.Errorf("upload = %+v", u)
			}
			if j.TemplateID != tmplGL || j.Status != StatusRunning {
				t.Errorf("job = %+v", j)
			}
			// The template has run now.
			tm := e.get("/templates/" + tmplGL).obj(t)
			if tm["lastRunTime"] != float64(clk.Now().UnixMilli()) {
				t.Errorf("lastRunTime = %v", tm["lastRunTime"])
			}
		})
	}
}

func TestStartWithData(t *testing.T) {
	e := newEnv(t, Options{})
	body := `{"input":{"data":[["Account","Amount","Flag","Note"],["4000",100.50,true,null],[5000,1e3,false,"x"]]}}`
	r := e.startData(tmplGL, body)
	m := checkJob(t, r, StatusRunning)
	j, _ := e.srv.Job(m["id"].(string))
	u := j.Upload
	if u == nil || u.Kind != "data" {
		t.Fatalf("upload = %+v", u)
	}
	want := [][]string{{"4000", "100.50", "true", ""}, {"5000", "1e3", "false", "x"}}
	if !reflect.DeepEqual(u.Rows, want) || u.RowCount != 2 || !reflect.DeepEqual(u.Header, []string{"Account", "Amount", "Flag", "Note"}) {
		t.Errorf("upload = %+v", u)
	}
	sum := sha256.Sum256([]byte(body))
	if u.Bytes != int64(len(body)) || u.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("bytes %d sha %s", u.Bytes, u.SHA256)
	}
	// A charset parameter is fine.
	// A charset parameter is fine; same model, so this one queues.
	r = e.request(http.MethodPost, base+"/templates/"+tmplGL+"/startWithData", strings.NewReader(body), "Content-Type", "application/json; charset=utf-8")
	checkJob(t, r, StatusQueued)
}

func TestCreateUploadSubmitGet(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now, RunTime: time.Second})
	r := e.post("/templates/" + tmplGL + "/jobs")
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
	put := e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+inputGL+"/file", body, "Content-Type", ct)
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
	id := e.mustStart(tmplGL, glCSV)
	r := e.get("/jobs/" + id + "/status")
	if string(r.body) != "\"COMPLETED\"\n" {
		t.Errorf("body %q", r.body)
	}
}

func TestJobsInspection(t *testing.T) {
	e := newEnv(t, Options{Instant: true, UserName: "Pat"})
	a := e.mustStart(tmplGL, glCSV)
	b := e.post("/templates/" + tmplSales + "/jobs").obj(t)["id"].(string)
	c := e.mustStart(tmplGLSales, "Amount\n1\n")
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

func TestCustomOptions(t *testing.T) {
	e := newEnv(t, Options{TokenID: "abc", TokenSecret: "def", Templates: []Template{{ID: "1", Name: "T", ModelID: "9", ModelName: "M",
		Steps: []Step{{StepName: "S", DataType: "Values", InputID: "2"}}, RequiredColumns: []string{"X"}}}, MaxKeptRows: 1, Instant: true})
	r := e.get("/templates")
	wantError(t, r, http.StatusUnauthorized)
	req, _ := http.NewRequest(http.MethodGet, e.ts.URL+base+"/templates", nil)
	req.SetBasicAuth("abc", "def")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("custom token: %v %v", err, res)
	}
	res.Body.Close()
	body := `{"input":{"data":[["X"],["a"],["b"],["c"]]}}`
	req, _ = http.NewRequest(http.MethodPost, e.ts.URL+base+"/templates/1/startWithData", strings.NewReader(body))
	req.SetBasicAuth("abc", "def")
	req.Header.Set("Content-Type", jsonMIME)
	res, err = http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("start: %v %v", err, res)
	}
	res.Body.Close()
	j := e.srv.Jobs()[0]
	if j.Upload.RowCount != 3 || len(j.Upload.Rows) != 1 || j.Status != StatusCompleted {
		t.Errorf("job = %+v", j)
	}
	if !slices.Equal(e.srv.Templates()[0].RequiredColumns, []string{"X"}) || e.srv.Templates()[0].LastRunTime == nil {
		t.Errorf("templates = %+v", e.srv.Templates())
	}
}

func TestLogNeverShowsSecret(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	e := newEnv(t, Options{Logf: func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(f, a...))
	}})
	e.get("/templates")
	e.mustStart(tmplGL, glCSV)
	e.get("/templates", "Authorization", "Basic Zm9vOmJhcg==")
	var log string
	for range 100 { // the log line is written just after the response
		mu.Lock()
		log = strings.Join(lines, "\n")
		n := len(lines)
		mu.Unlock()
		if n == 3 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if strings.Count(log, "\n") != 2 || !strings.Contains(log, "/templates") || !strings.Contains(log, "401") || !strings.Contains(log, "StartWithFile") {
		t.Errorf("log = %q", log)
	}
	for _, secret := range []string{tokenSecret, "Basic", "Zm9vOmJhcg", "Authorization"} {
		if strings.Contains(log, secret) {
			t.Errorf("log contains %q: %s", secret, log)
		}
	}
}
