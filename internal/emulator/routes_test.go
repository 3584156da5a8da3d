package emulator

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestNotFound(t *testing.T) {
	e := newEnv(t, Options{})
	editing := e.post("/templates/" + GLActualsTemplateID + "/jobs").obj(t)["id"].(string)
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
		{"PUT", base + "/jobs/42/inputs/" + GLActualsInputID + "/file", bytes.NewReader(body.Bytes()), ct, `"42"`},
		{"PUT", base + "/jobs/" + editing + "/inputs/" + HeadcountInputID + "/file", bytes.NewReader(body.Bytes()), ct, `input "` + HeadcountInputID + `"`},
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
		{"DELETE", "/templates/" + GLActualsTemplateID, "GET"},
		{"GET", "/templates/" + GLActualsTemplateID + "/startWithFile", "POST"},
		{"PUT", "/templates/" + GLActualsTemplateID + "/startWithData", "POST"},
		{"GET", "/templates/" + GLActualsTemplateID + "/jobs", "POST"},
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

func TestLogNeverShowsSecret(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	e := newEnv(t, Options{Logf: func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(f, a...))
	}})
	e.get("/templates")
	e.mustStart(GLActualsTemplateID, glCSV)
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

func TestRoute(t *testing.T) {
	cases := []struct {
		method, path string
		want         routed
	}{
		{"GET", base + "/templates", routed{endpoint: EndpointListTemplates}},
		{"GET", base + "/templates/7", routed{endpoint: EndpointGetTemplate, id: "7"}},
		{"POST", base + "/templates/7/startWithFile", routed{endpoint: EndpointStartWithFile, id: "7"}},
		{"POST", base + "/templates/7/startWithData", routed{endpoint: EndpointStartWithData, id: "7"}},
		{"POST", base + "/templates/7/jobs", routed{endpoint: EndpointCreateJob, id: "7"}},
		{"GET", base + "/jobs/9", routed{endpoint: EndpointGetJob, id: "9"}},
		{"GET", base + "/jobs/9/status", routed{endpoint: EndpointGetJobStatus, id: "9"}},
		{"POST", base + "/jobs/9/submit", routed{endpoint: EndpointSubmitJob, id: "9"}},
		{"POST", base + "/jobs/9/cancel", routed{endpoint: EndpointCancelJob, id: "9"}},
		{"PUT", base + "/jobs/9/inputs/3/file", routed{endpoint: EndpointUploadJobFile, id: "9", input: "3"}},
		{"DELETE", base + "/jobs/9", routed{allow: "GET"}},
		{"GET", base + "/jobs//status", routed{}},
		{"GET", base + "/jobs/9/inputs/3", routed{}},
		{"GET", "/other" + base + "/templates", routed{}},
	}
	for _, c := range cases {
		if got := route(c.method, c.path); got != c.want {
			t.Errorf("route(%s %s) = %+v, want %+v", c.method, c.path, got, c.want)
		}
	}
}
