package emulator

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestFaultStatus(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.InjectFault(Fault{Endpoint: EndpointStartWithData, Count: 2, Status: http.StatusTooManyRequests, RetryAfter: "3"})
	body := `{"input":{"data":[["Account","Amount"],["1","2"]]}}`
	for i := 0; i < 2; i++ {
		r := e.startData(GLActualsTemplateID, body)
		wantError(t, r, http.StatusTooManyRequests, "injected fault")
		if r.header.Get("Retry-After") != "3" {
			t.Errorf("Retry-After = %q", r.header.Get("Retry-After"))
		}
	}
	if n, _ := e.srv.Stats(); n != 0 {
		t.Fatalf("faulted requests created %d jobs", n)
	}
	// Other endpoints are untouched; the third start goes through.
	if r := e.get("/templates"); r.status != 200 {
		t.Errorf("templates: %d", r.status)
	}
	checkJob(t, e.startData(GLActualsTemplateID, body), StatusRunning)
	if e.srv.Requests(EndpointStartWithData) != 3 || e.srv.Requests(EndpointListTemplates) != 1 {
		t.Errorf("requests = %d, %d", e.srv.Requests(EndpointStartWithData), e.srv.Requests(EndpointListTemplates))
	}

	// Unlimited, any endpoint, applies before auth; without Retry-After none is sent.
	e.srv.InjectFault(Fault{Status: http.StatusBadGateway})
	for _, p := range []string{"/templates", "/jobs/1", "/unknown"} {
		r := e.get(p, "Authorization", "")
		wantError(t, r, http.StatusBadGateway, "injected fault")
		if _, ok := r.header["Retry-After"]; ok {
			t.Error("Retry-After sent")
		}
	}
	e.srv.ClearFaults()
	if r := e.get("/templates"); r.status != 200 {
		t.Errorf("after ClearFaults: %d", r.status)
	}
}

func TestFaultOrderAndProbability(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.InjectFault(Fault{Endpoint: EndpointGetTemplate, Count: 1, Status: 504})
	e.srv.InjectFault(Fault{Endpoint: EndpointGetTemplate, Count: 1, Status: 503})
	if r := e.get("/templates/" + GLActualsTemplateID); r.status != 504 {
		t.Errorf("first = %d", r.status)
	}
	if r := e.get("/templates/" + GLActualsTemplateID); r.status != 503 {
		t.Errorf("second = %d", r.status)
	}
	if r := e.get("/templates/" + GLActualsTemplateID); r.status != 200 {
		t.Errorf("third = %d", r.status)
	}
	e.srv.InjectFault(Fault{Endpoint: EndpointListTemplates, Probability: 0.5, Status: 503})
	faulted := 0
	const n = 400
	for i := 0; i < n; i++ {
		if e.get("/templates").status == 503 {
			faulted++
		}
	}
	if faulted < n/4 || faulted > 3*n/4 {
		t.Errorf("%d of %d faulted with probability 0.5", faulted, n)
	}
}

func TestFaultLatency(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.InjectFault(Fault{Endpoint: EndpointCreateJob, Count: 1, Latency: 150 * time.Millisecond})
	start := time.Now()
	checkJob(t, e.post("/templates/"+GLActualsTemplateID+"/jobs"), StatusEditing)
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("answered after %v, want >= 150ms", d)
	}

	// A client that gives up during the latency leaves nothing behind.
	e.srv.InjectFault(Fault{Endpoint: EndpointCreateJob, Count: 1, Latency: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.ts.URL+base+"/templates/"+GLActualsTemplateID+"/jobs", nil)
	req.SetBasicAuth(tokenID, tokenSecret)
	_, err := e.ts.Client().Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	if n, _ := e.srv.Stats(); n != 1 {
		t.Errorf("%d jobs, want 1", n)
	}
	if e.srv.Requests(EndpointCreateJob) != 2 {
		t.Errorf("requests = %d", e.srv.Requests(EndpointCreateJob))
	}
	// Latency plus status.
	e.srv.InjectFault(Fault{Count: 1, Latency: 50 * time.Millisecond, Status: 503})
	start = time.Now()
	if r := e.get("/templates"); r.status != 503 || time.Since(start) < 50*time.Millisecond {
		t.Errorf("latency+status: %d after %v", r.status, time.Since(start))
	}
}

func TestFaultDropAfterHandling(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.InjectFault(Fault{Endpoint: EndpointStartWithFile, Count: 1, DropAfterHandling: true})
	body, ct := multipartBody(t, filePart(glCSV), metaPart(metaGL))
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+base+"/templates/"+GLActualsTemplateID+"/startWithFile", body)
	req.SetBasicAuth(tokenID, tokenSecret)
	req.Header.Set("Content-Type", ct)
	res, err := e.ts.Client().Do(req)
	if err == nil {
		res.Body.Close()
		t.Fatalf("got a response %d, want a connection error", res.StatusCode)
	}
	if !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") {
		t.Errorf("err = %v, want an EOF", err)
	}
	jobs := e.srv.Jobs()
	if len(jobs) != 1 || jobs[0].Upload == nil || jobs[0].Upload.RowCount != 2 {
		t.Fatalf("jobs = %+v, want exactly one with the upload", jobs)
	}
	// The fault was used up: the retry (a duplicate import) succeeds.
	checkJob(t, e.startFile(GLActualsTemplateID, filePart(glCSV), metaPart(metaGL)), StatusQueued)
	if n, _ := e.srv.Stats(); n != 2 || e.srv.Requests(EndpointStartWithFile) != 2 {
		t.Errorf("jobs %d requests %d", n, e.srv.Requests(EndpointStartWithFile))
	}
}

func TestFaultCloseBeforeReading(t *testing.T) {
	e := newEnv(t, Options{})
	e.srv.InjectFault(Fault{Endpoint: EndpointStartWithData, Count: 1, CloseBeforeReading: true})
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+base+"/templates/"+GLActualsTemplateID+"/startWithData",
		strings.NewReader(`{"input":{"data":[["Account","Amount"]]}}`))
	req.SetBasicAuth(tokenID, tokenSecret)
	req.Header.Set("Content-Type", jsonMIME)
	res, err := e.ts.Client().Do(req)
	if err == nil {
		res.Body.Close()
		t.Fatalf("got a response %d, want a connection error", res.StatusCode)
	}
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs, want none", n)
	}
	if e.srv.Requests(EndpointStartWithData) != 1 {
		t.Errorf("requests = %d", e.srv.Requests(EndpointStartWithData))
	}
	checkJob(t, e.startData(GLActualsTemplateID, `{"input":{"data":[["Account","Amount"]]}}`), StatusRunning)
}

func TestFaultEchoCredentials(t *testing.T) {
	const id, secret = "7.1", "s3cr&t/+ key"
	e := newEnv(t, Options{TokenID: id, TokenSecret: secret})
	e.srv.InjectFault(Fault{Endpoint: EndpointGetJob, Count: 1, Status: http.StatusBadRequest, EchoCredentials: true, Body: "ignored"})
	e.srv.InjectFault(Fault{Endpoint: EndpointGetJob, Count: 1, EchoCredentials: true})
	req, _ := http.NewRequest(http.MethodGet, e.ts.URL+base+"/jobs/1", nil)
	req.SetBasicAuth(id, secret)
	auth := req.Header.Get("Authorization")
	for _, status := range []int{http.StatusBadRequest, http.StatusInternalServerError} {
		res, err := e.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		r := resp{status: res.StatusCode, header: res.Header, body: b}
		wantError(t, r, status, "injected fault", auth, id+":"+secret, "secret: "+secret,
			"query-escaped: s3cr%26t%2F%2B+key", "path-escaped: s3cr&t%2F+%20key")
	}
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs", n)
	}
}
