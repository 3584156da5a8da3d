package emulator

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestUnauthorized(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		name   string
		header string
		want   string
	}{
		{"none", "", "missing"},
		{"wrong secret", "Basic " + b64(tokenID+":00000000000000000000000000000000"), "invalid"},
		{"wrong id", "Basic " + b64("1.1:"+tokenSecret), "invalid"},
		{"bearer", "Bearer " + tokenSecret, "missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, path := range []string{"/templates", "/jobs/1", "/nowhere"} {
				r := e.get(path, "Authorization", c.header)
				wantError(t, r, http.StatusUnauthorized, c.want)
				if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic ") {
					t.Errorf("WWW-Authenticate = %q", r.header.Get("WWW-Authenticate"))
				}
			}
		})
	}
	// An unauthenticated start creates nothing.
	body, ct := multipartBody(t, filePart(glCSV), metaPart(metaGL))
	r := e.request(http.MethodPost, base+"/templates/"+tmplGL+"/startWithFile", body, "Content-Type", ct, "Authorization", "")
	wantError(t, r, http.StatusUnauthorized)
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs after unauthorized start", n)
	}
}

func b64(s string) string {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil)
	u, p, _ := strings.Cut(s, ":")
	req.SetBasicAuth(u, p)
	return strings.TrimPrefix(req.Header.Get("Authorization"), "Basic ")
}

func TestNotFound(t *testing.T) {
	e := newEnv(t, Options{})
	editing := e.post("/templates/" + tmplGL + "/jobs").obj(t)["id"].(string)
	body, ct := multipartBody(t, filePart(glCSV), metaPart(metaGL))
	cases := []struct {
		method, path string
		body         io.Reader
		ct           string
		want         string
	}{
		{"GET", base + "/templates/123", nil, "", `"123"`},
		{"POST", base + "/templates/123/startWithFile", bytes.NewReader(body.Bytes()), ct, `"123"`},
		{"POST", base + "/templates/123/startWithData", strings.NewReader(`{}`), jsonMIME, `"123"`},
		{"POST", base + "/templates/123/jobs", nil, "", `"123"`},
		{"GET", base + "/jobs/1140000000000000999", nil, "", `"1140000000000000999"`},
		{"GET", base + "/jobs/42/status", nil, "", `"42"`},
		{"POST", base + "/jobs/42/submit", nil, "", `"42"`},
		{"POST", base + "/jobs/42/cancel", nil, "", `"42"`},
		{"PUT", base + "/jobs/42/inputs/" + inputGL + "/file", bytes.NewReader(body.Bytes()), ct, `"42"`},
		{"PUT", base + "/jobs/" + editing + "/inputs/640101874288689155/file", bytes.NewReader(body.Bytes()), ct, `input "640101874288689155"`},
		{"GET", base + "/nothing", nil, "", "/nothing"},
		{"GET", "/api/public/v1/templates", nil, "", "/api/public/v1/templates"},
		{"GET", base + "/templates/", nil, "", ""},
		{"GET", base + "/jobs/1/status/x", nil, "", ""},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			h := []string{}
			if c.ct != "" {
				h = append(h, "Content-Type", c.ct)
			}
			wantError(t, e.request(c.method, c.path, c.body, h...), http.StatusNotFound, c.want)
		})
	}
	if n, _ := e.srv.Stats(); n != 1 {
		t.Errorf("%d jobs, want 1", n)
	}
}

func TestMethodNotAllowed(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct{ method, path, allow string }{
		{"POST", "/templates", "GET"},
		{"DELETE", "/templates/" + tmplGL, "GET"},
		{"GET", "/templates/" + tmplGL + "/startWithFile", "POST"},
		{"PUT", "/templates/" + tmplGL + "/startWithData", "POST"},
		{"GET", "/templates/" + tmplGL + "/jobs", "POST"},
		{"POST", "/jobs/1/inputs/2/file", "PUT"},
		{"GET", "/jobs/1/submit", "POST"},
		{"DELETE", "/jobs/1", "GET"},
		{"POST", "/jobs/1/status", "GET"},
		{"GET", "/jobs/1/cancel", "POST"},
	}
	for _, c := range cases {
		r := e.request(c.method, base+c.path, nil)
		wantError(t, r, http.StatusMethodNotAllowed, c.method)
		if r.header.Get("Allow") != c.allow {
			t.Errorf("%s %s: Allow = %q, want %q", c.method, c.path, r.header.Get("Allow"), c.allow)
		}
	}
}

func TestNotAcceptable(t *testing.T) {
	e := newEnv(t, Options{})
	bad := []string{"text/html", "application/xml, text/plain", "application/json;q=0", "image/*", "application/json;q=0.0, text/csv;q=0"}
	for _, a := range bad {
		wantError(t, e.get("/templates", "Accept", a), http.StatusNotAcceptable, a)
	}
	good := []string{"*/*", "application/json", "text/csv", "text/html, application/json;q=0.9", "application/*", "text/*;q=0.1",
		"APPLICATION/JSON", "application/json; charset=utf-8", ""}
	for _, a := range good {
		if r := e.get("/templates", "Accept", a); r.status != 200 {
			t.Errorf("Accept %q: %d %s", a, r.status, r.body)
		}
	}
}

func TestUnsupportedMediaType(t *testing.T) {
	e := newEnv(t, Options{})
	editing := e.post("/templates/" + tmplGL + "/jobs").obj(t)["id"].(string)
	body, ct := multipartBody(t, filePart(glCSV), metaPart(metaGL))
	cases := []struct{ method, path, ct string }{
		{"POST", "/templates/" + tmplGL + "/startWithData", "text/plain"},
		{"POST", "/templates/" + tmplGL + "/startWithData", ct},
		{"POST", "/templates/" + tmplGL + "/startWithData", ""},
		{"POST", "/templates/" + tmplGL + "/startWithFile", jsonMIME},
		{"POST", "/templates/" + tmplGL + "/startWithFile", ""},
		{"POST", "/templates/" + tmplGL + "/startWithFile", "multipart/form-data"}, // no boundary
		{"POST", "/templates/" + tmplGL + "/startWithFile", "multipart/mixed; boundary=x"},
		{"PUT", "/jobs/" + editing + "/inputs/" + inputGL + "/file", "text/csv"},
		{"POST", "/jobs/" + editing + "/submit", "text/plain"},
		{"POST", "/jobs/" + editing + "/cancel", "application/x-www-form-urlencoded"},
		{"POST", "/jobs/" + editing + "/submit", "garbage;;"},
	}
	for _, c := range cases {
		h := []string{}
		if c.ct != "" {
			h = []string{"Content-Type", c.ct}
		}
		wantError(t, e.request(c.method, base+c.path, bytes.NewReader(body.Bytes()), h...), http.StatusUnsupportedMediaType, "Content-Type")
	}
	if n, _ := e.srv.Stats(); n != 1 {
		t.Errorf("%d jobs, want 1", n)
	}
	if e.status(editing) != StatusEditing {
		t.Error("rejected submit/cancel acted")
	}
	// No Content-Type on submit is fine.
	checkJob(t, e.post("/jobs/"+editing+"/submit"), StatusSubmitted)
}

func TestUnprocessable(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		name  string
		parts []part
		want  string
	}{
		{"no metadata", []part{filePart(glCSV)}, "metadata"},
		{"no file part", []part{metaPart(metaGL)}, `"file"`},
		{"file part misnamed", []part{{name: "upload", filename: "gl.csv", content: glCSV}, metaPart(metaGL)}, `"file"`},
		{"file part misnamed after", []part{metaPart(metaGL), {name: "upload", filename: "gl.csv", content: glCSV}}, `"file"`},
		{"two file parts", []part{filePart(glCSV), metaPart(metaGL), filePart(glCSV)}, "more than one"},
		{"two file parts after", []part{metaPart(metaGL), filePart(glCSV), filePart(glCSV)}, "more than one"},
		{"two file parts before", []part{filePart(glCSV), filePart(glCSV), metaPart(metaGL)}, "more than one"},
		{"two metadata", []part{metaPart(metaGL), metaPart(metaGL), filePart(glCSV)}, "more than one metadata"},
		{"bad metadata JSON", []part{filePart(glCSV), metaPart(`{"input":`)}, "JSON"},
		{"metadata not an object", []part{filePart(glCSV), metaPart(`"x"`)}, "JSON"},
		{"no input", []part{filePart(glCSV), metaPart(`{}`)}, "input"},
		{"no partName", []part{filePart(glCSV), metaPart(`{"input":{"fileFormat":"CSV","fileEncoding":"UTF-8"}}`)}, "partName"},
		{"empty body", nil, "metadata"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.startFile(tmplGL, c.parts...), http.StatusUnprocessableEntity, c.want)
		})
	}
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs created by rejected uploads", n)
	}
	// Other parts with other names are ignored.
	r := e.startFile(tmplGL, part{name: "comment", content: "hi"}, filePart(glCSV), metaPart(metaGL), part{name: "x", content: "y"})
	checkJob(t, r, StatusRunning)
}

func TestBadRequest(t *testing.T) {
	e := newEnv(t, Options{})
	fileCases := []struct {
		name, meta, content, want string
	}{
		{"format", metaFor("XLSX", "UTF-8"), glCSV, `"XLSX"`},
		{"format lower case", metaFor("csv", "UTF-8"), glCSV, "fileFormat"},
		{"format missing", `{"input":{"partName":"file","fileEncoding":"UTF-8"}}`, glCSV, "fileFormat"},
		{"encoding", metaFor("CSV", "ASCII"), glCSV, `"ASCII"`},
		{"encoding spelled differently", metaFor("CSV", "utf8"), glCSV, "fileEncoding"},
		{"utf-8 invalid", metaFor("CSV", "UTF-8"), "Account,Amount\n4000,\xff\n", "UTF-8"},
	}
	for _, c := range fileCases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.startFile(tmplGL, metaPart(c.meta), filePart(c.content)), http.StatusBadRequest, c.want)
			wantError(t, e.startFile(tmplGL, filePart(c.content), metaPart(c.meta)), http.StatusBadRequest, c.want)
		})
	}
	dataCases := []struct{ name, body, want string }{
		{"empty data", `{"input":{"data":[]}}`, "empty"},
		{"malformed", `{"input":{"data":[["a"]`, "JSON"},
		{"not JSON", `Account,Amount`, "JSON"},
		{"no input", `{"data":[["a"]]}`, "input.data"},
		{"null data", `{"input":{"data":null}}`, "input.data"},
		{"row not array", `{"input":{"data":["Account"]}}`, "row 1"},
		{"cell object", `{"input":{"data":[["Account",{"x":1}]]}}`, "cell 2"},
		{"trailing", `{"input":{"data":[["a"]]}} {}`, "after"},
		{"empty body", ``, "JSON"},
	}
	for _, c := range dataCases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.startData(tmplGL, c.body), http.StatusBadRequest, c.want)
		})
	}
	// Malformed multipart framing.
	r := e.request(http.MethodPost, base+"/templates/"+tmplGL+"/startWithFile", strings.NewReader("--b\r\nContent-Disposition: form-data; name=\"metadata\"\r\n\r\n"+metaGL),
		"Content-Type", "multipart/form-data; boundary=b")
	wantError(t, r, http.StatusBadRequest, "multipart")
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs created by rejected uploads", n)
	}
}

func TestTooLarge(t *testing.T) {
	e := newEnv(t, Options{MaxDataBytes: 1000})
	big := `{"input":{"data":[["Account","Amount"],["` + strings.Repeat("x", 1000) + `","1"]]}}`
	// With Content-Length: refused up front.
	wantError(t, e.startData(tmplGL, big), http.StatusRequestEntityTooLarge, "1000")
	// Chunked (no Content-Length): refused while reading.
	r := e.request(http.MethodPost, base+"/templates/"+tmplGL+"/startWithData", io.MultiReader(strings.NewReader(big)), "Content-Type", jsonMIME)
	wantError(t, r, http.StatusRequestEntityTooLarge, "1000")
	// Just under the limit is fine.
	ok := `{"input":{"data":[["Account","Amount"],["` + strings.Repeat("x", 900) + `","1"]]}}`
	checkJob(t, e.startData(tmplGL, ok), StatusRunning)
	if n, _ := e.srv.Stats(); n != 1 {
		t.Errorf("%d jobs, want 1", n)
	}
}

func TestConflictAfterFinal(t *testing.T) {
	for _, final := range []string{StatusCompleted, StatusError, StatusCancelled, StatusExpired} {
		t.Run(final, func(t *testing.T) {
			e := newEnv(t, Options{})
			id := e.post("/templates/" + tmplGL + "/jobs").obj(t)["id"].(string)
			e.srv.SetJobStatus(id, final)
			wantError(t, e.post("/jobs/"+id+"/submit", "Content-Type", jsonMIME), http.StatusConflict, final, id)
			wantError(t, e.post("/jobs/"+id+"/cancel", "Content-Type", jsonMIME), http.StatusConflict, final)
			body, ct := multipartBody(t, metaPart(metaGL), filePart(glCSV))
			wantError(t, e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+inputGL+"/file", body, "Content-Type", ct), http.StatusConflict, final)
			if got := e.status(id); got != final {
				t.Errorf("status = %s", got)
			}
		})
	}
}

func TestErrorBodyShape(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.get("/templates/999")
	if string(r.body) != fmt.Sprintf("{\"code\":404,\"message\":%q}\n", `template "999" not found`) {
		t.Errorf("body = %s", r.body)
	}
}

func TestConflictStatusOption(t *testing.T) {
	e := newEnv(t, Options{ConflictStatus: http.StatusBadRequest})
	id := e.post("/templates/" + tmplGL + "/jobs").obj(t)["id"].(string)
	e.srv.SetJobStatus(id, StatusCompleted)
	wantError(t, e.post("/jobs/"+id+"/submit"), http.StatusBadRequest, "cannot be submitted", StatusCompleted)
	wantError(t, e.post("/jobs/"+id+"/cancel"), http.StatusBadRequest, "cannot be cancelled")
	body, ct := multipartBody(t, metaPart(metaGL), filePart(glCSV))
	wantError(t, e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+inputGL+"/file", body, "Content-Type", ct), http.StatusBadRequest, "cannot take a file")
	// Other errors keep their own status.
	wantError(t, e.post("/jobs/42/submit"), http.StatusNotFound, `"42"`)
	for _, bad := range []int{200, 302, 500, -1} {
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

func TestPurgeJob(t *testing.T) {
	e := newEnv(t, Options{Instant: true})
	id := e.mustStart(tmplGL, glCSV)
	other := e.mustStart(tmplGL, glCSV)
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
	ed := e.post("/templates/" + tmplGL + "/jobs").obj(t)["id"].(string)
	e.srv.PurgeJob(ed)
	body, ct := multipartBody(t, metaPart(metaGL), filePart(glCSV))
	wantError(t, e.request(http.MethodPut, base+"/jobs/"+ed+"/inputs/"+inputGL+"/file", body, "Content-Type", ct), http.StatusNotFound, ed)
}
