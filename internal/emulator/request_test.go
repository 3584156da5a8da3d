package emulator

import (
	"bytes"
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
	r := e.request(http.MethodPost, base+"/templates/"+GLActualsTemplateID+"/startWithFile", body, "Content-Type", ct, "Authorization", "")
	wantError(t, r, http.StatusUnauthorized)
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs after unauthorized start", n)
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
	editing := e.post("/templates/" + GLActualsTemplateID + "/jobs").obj(t)["id"].(string)
	body, ct := multipartBody(t, filePart(glCSV), metaPart(metaGL))
	cases := []struct{ method, path, ct string }{
		{"POST", "/templates/" + GLActualsTemplateID + "/startWithData", "text/plain"},
		{"POST", "/templates/" + GLActualsTemplateID + "/startWithData", ct},
		{"POST", "/templates/" + GLActualsTemplateID + "/startWithData", ""},
		{"POST", "/templates/" + GLActualsTemplateID + "/startWithFile", jsonMIME},
		{"POST", "/templates/" + GLActualsTemplateID + "/startWithFile", ""},
		{"POST", "/templates/" + GLActualsTemplateID + "/startWithFile", "multipart/form-data"}, // no boundary
		{"POST", "/templates/" + GLActualsTemplateID + "/startWithFile", "multipart/mixed; boundary=x"},
		{"PUT", "/jobs/" + editing + "/inputs/" + GLActualsInputID + "/file", "text/csv"},
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
