package emulator

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestListTemplates(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.get("/templates")
	if r.status != 200 || r.header.Get("Content-Type") != jsonMIME {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	var list []map[string]any
	r.json(t, &list)
	ids := []string{GLActualsTemplateID, HeadcountTemplateID, SalesVolumesTemplateID, SalesGLActualsTemplateID, TwoStepTemplateID, NoStepTemplateID, SameStepNameTemplateID}
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
	r := e.get("/templates/" + HeadcountTemplateID)
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
	want := map[string]any{"stepName": "Load Headcount", "dataType": "Values", "inputId": HeadcountInputID}
	if !reflect.DeepEqual(steps[0], want) {
		t.Errorf("step = %#v, want %#v", steps[0], want)
	}
	if m["name"] != "Headcount" || m["modelName"] != "Finance Plan" || m["lastRunTime"] != float64(1700000000000) {
		t.Errorf("template = %v", m)
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
			r := e.startFile(GLActualsTemplateID, parts...)
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
			if j.TemplateID != GLActualsTemplateID || j.Status != StatusRunning {
				t.Errorf("job = %+v", j)
			}
			// The template has run now.
			tm := e.get("/templates/" + GLActualsTemplateID).obj(t)
			if tm["lastRunTime"] != float64(clk.Now().UnixMilli()) {
				t.Errorf("lastRunTime = %v", tm["lastRunTime"])
			}
		})
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

func TestConcurrentStarts(t *testing.T) {
	e := newEnv(t, Options{})
	const n = 50
	ids := make([]string, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, ct := multipartBody(t, filePart(glCSV), metaPart(metaGL))
			tmpl := GLActualsTemplateID
			if i%2 == 1 {
				body, ct = nil, ""
			}
			var req *http.Request
			if body != nil {
				req, _ = http.NewRequest(http.MethodPost, e.ts.URL+base+"/templates/"+tmpl+"/startWithFile", body)
				req.Header.Set("Content-Type", ct)
			} else {
				req, _ = http.NewRequest(http.MethodPost, e.ts.URL+base+"/templates/"+SalesVolumesTemplateID+"/startWithData",
					strings.NewReader(`{"input":{"data":[["Product","Units"],["a",1]]}}`))
				req.Header.Set("Content-Type", jsonMIME)
			}
			req.SetBasicAuth(tokenID, tokenSecret)
			res, err := e.ts.Client().Do(req)
			if err != nil {
				errs <- err
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != http.StatusOK {
				errs <- errors.New(string(b))
				return
			}
			ids[i] = resp{status: 200, body: b}.obj(t)["id"].(string)
			e.srv.Jobs() // concurrent inspection
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			t.Fatalf("missing or duplicate id %q", id)
		}
		seen[id] = true
	}
	if nj, nr := e.srv.Stats(); nj != n || nr != n {
		t.Errorf("stats %d jobs %d requests", nj, nr)
	}
}
