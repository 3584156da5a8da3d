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
