package explore

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// TestProxy_hangsAJobTheEmulatorEndedFirst: a job the emulator ran to its
// end before the proxy got its lock (its run time passed: a busy machine)
// is hung all the same, as every job a hanging apply starts. A run time of
// 1 ns makes that moment certain; CI's Terraform 1.16 run met it by chance
// (the job COMPLETED, its instance untainted, where the model wants a
// timed-out wait).
func TestProxy_hangsAJobTheEmulatorEndedFirst(t *testing.T) {
	srv := emulator.New(emulator.Options{RunTime: time.Nanosecond, RequiredColumns: emulator.RequiredColumnsOff})
	px := newProxy(srv)
	px.setHang(true, 0)
	req := httptest.NewRequest(http.MethodPost, emulator.BasePath+"/templates/"+emulator.SalesVolumesTemplateID+"/startWithData",
		strings.NewReader(`{"input":{"data":[["Product","Units"],["a",1]]}}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(emulator.DefaultTokenID, emulator.DefaultTokenSecret)
	rec := httptest.NewRecorder()
	px.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	time.Sleep(10 * time.Millisecond)
	jobs := srv.Jobs()
	if len(jobs) != 1 || jobs[0].Status != emulator.StatusRunning {
		t.Fatalf("jobs after a hanging start = %+v; want one job, RUNNING (hung)", jobs)
	}
}

// TestProxy_uploadKillWaitsForTheUploadsLetThrough: armed to kill at the
// second upload, the proxy fires only once the first, let through and
// still in the emulator when the second arrives, was answered: a kill
// before that answer would leave a job no journal can hold (CI's
// Terraform 1.16 run, seed 1147). The emulator's latency keeps the first
// upload in flight.
func TestProxy_uploadKillWaitsForTheUploadsLetThrough(t *testing.T) {
	srv := emulator.New(emulator.Options{RequiredColumns: emulator.RequiredColumnsOff})
	srv.InjectFault(emulator.Fault{Endpoint: emulator.EndpointStartWithData, Count: 1, Latency: 300 * time.Millisecond})
	px := newProxy(srv)
	fired := px.armKill("upload", 1)
	start := func() *http.Request {
		req := httptest.NewRequest(http.MethodPost, emulator.BasePath+"/templates/"+emulator.SalesVolumesTemplateID+"/startWithData",
			strings.NewReader(`{"input":{"data":[["Product","Units"],["a",1]]}}`))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth(emulator.DefaultTokenID, emulator.DefaultTokenSecret)
		return req
	}
	answered := make(chan struct{})
	go func() {
		rec := httptest.NewRecorder()
		px.ServeHTTP(rec, start())
		if rec.Code != http.StatusOK {
			t.Errorf("the upload let through: %d %s", rec.Code, rec.Body)
		}
		close(answered)
	}()
	time.Sleep(50 * time.Millisecond) // the first upload is in the emulator
	held := make(chan struct{})
	go func() {
		px.ServeHTTP(httptest.NewRecorder(), start())
		close(held)
	}()
	select {
	case <-fired:
		select {
		case <-answered:
		default:
			t.Fatal("the kill fired while the upload let through was not answered")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the kill never fired")
	}
	px.disarm()
	<-held
	if n := len(srv.Jobs()); n != 1 {
		t.Errorf("%d jobs, want 1: the held upload never reaches the emulator", n)
	}
}
