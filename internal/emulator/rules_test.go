package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConflictUnchanged: with ConflictStatus 200, a submit or cancel of a
// final job and a PUT into a job no longer EDITING answer 200 with the job
// as it is, and change nothing.
func TestConflictUnchanged(t *testing.T) {
	e := newEnv(t, Options{ConflictStatus: ConflictUnchanged, Instant: true})
	id := e.create(GLActualsTemplateID)
	e.mustPut(id, GLActualsInputID, glCSV)
	checkJob(t, e.post("/jobs/"+id+"/submit"), StatusCompleted)
	before, _ := e.srv.Job(id)

	sub := checkJob(t, e.post("/jobs/"+id+"/submit"), StatusCompleted)
	can := checkJob(t, e.post("/jobs/"+id+"/cancel"), StatusCompleted)
	if sub["id"] != id || can["id"] != id {
		t.Errorf("answered jobs %v and %v, want %s", sub["id"], can["id"], id)
	}
	body, ct := multipartBody(t, metaPart(metaGL), filePart("Account,Amount\n1,2\n3,4\n5,6\n"))
	put := e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+GLActualsInputID+"/file", body, "Content-Type", ct)
	checkJob(t, put, StatusCompleted)

	after, _ := e.srv.Job(id)
	if after.Status != StatusCompleted || after.Updated != before.Updated || after.Upload.RowCount != before.Upload.RowCount {
		t.Errorf("the job changed: before %+v, after %+v", before, after)
	}
	// A job that is not final is still submitted and cancelled as usual.
	other := e.create(GLActualsTemplateID)
	checkJob(t, e.post("/jobs/"+other+"/cancel"), StatusCancelled)
}

// TestMissingMetadataOption: an upload of the file part alone is 422 by
// default; with MissingMetadataDefault it is read as CSV in UTF-8, part
// "file", its file name from the part's filename, for start with file and
// for a PUT alike.
func TestMissingMetadataOption(t *testing.T) {
	t.Run("reject", func(t *testing.T) {
		e := newEnv(t, Options{Instant: true})
		wantError(t, e.startFile(GLActualsTemplateID, filePart(glCSV)), http.StatusUnprocessableEntity, "no metadata part")
	})
	t.Run("default", func(t *testing.T) {
		e := newEnv(t, Options{Instant: true, MissingMetadata: MissingMetadataDefault})
		j := checkJob(t, e.startFile(GLActualsTemplateID, part{name: "file", filename: "ledger.csv", content: glCSV}), StatusCompleted)
		got, _ := e.srv.Job(j["id"].(string))
		if u := got.Upload; u.PartName != "file" || u.FileName != "ledger.csv" || u.Format != "CSV" || u.Encoding != "UTF-8" || u.RowCount != 2 {
			t.Errorf("upload = %+v", u)
		}
		// Read as CSV even when it looks like another format.
		j = checkJob(t, e.startFile(GLActualsTemplateID, filePart("Account|Amount\n4000|1\n")), StatusError)
		if got, _ := e.srv.Job(j["id"].(string)); !strings.Contains(got.Message, "missing required column") {
			t.Errorf("a PSV file read as CSV: %q", got.Message)
		}
		// The lone part must be named "file".
		wantError(t, e.startFile(GLActualsTemplateID, part{name: "data", filename: "gl.csv", content: glCSV}),
			http.StatusUnprocessableEntity, `no file part named "file"`)
		// A PUT of the file part alone loads the input.
		id := e.create(GLActualsTemplateID)
		body, ct := multipartBody(t, filePart(glCSV))
		if r := e.request(http.MethodPut, base+"/jobs/"+id+"/inputs/"+GLActualsInputID+"/file", body, "Content-Type", ct); r.status != http.StatusNoContent {
			t.Fatalf("PUT without metadata: %d %s", r.status, r.body)
		}
		checkJob(t, e.post("/jobs/"+id+"/submit"), StatusCompleted)
		// A metadata part, when sent, still rules.
		checkJob(t, e.startFile(GLActualsTemplateID, metaPart(metaFor("PSV", "UTF-8")), filePart("Account|Amount\n4000|1\n")), StatusCompleted)
	})
	defer func() {
		if recover() == nil {
			t.Error("New accepted MissingMetadata \"accept\"")
		}
	}()
	New(Options{MissingMetadata: "accept"})
}

// TestRequiredColumnsOption: with RequiredColumnsOff, data without the
// template's columns completes (start with data, with file, and a two-step
// job's PUTs); data that is not well formed still ends in ERROR.
func TestRequiredColumnsOption(t *testing.T) {
	on := newEnv(t, Options{Instant: true})
	checkJob(t, on.startData(GLActualsTemplateID, `{"input":{"data":[["A","B"],["1","2"]]}}`), StatusError)

	e := newEnv(t, Options{Instant: true, RequiredColumns: RequiredColumnsOff})
	checkJob(t, e.startData(GLActualsTemplateID, `{"input":{"data":[["A","B"],["1","2"]]}}`), StatusCompleted)
	checkJob(t, e.startFile(GLActualsTemplateID, metaPart(metaGL), filePart("X\n1\n")), StatusCompleted)
	id := e.create(TwoStepTemplateID)
	e.mustPut(id, TwoStepActualsInputID, "X,Y\n1,2\n")
	e.mustPut(id, TwoStepRatesInputID, "Z\n3\n")
	checkJob(t, e.post("/jobs/"+id+"/submit"), StatusCompleted)
	// Still checked: the width of every row, and a header at all.
	j := checkJob(t, e.startFile(GLActualsTemplateID, metaPart(metaGL), filePart("X,Y\n1\n")), StatusError)
	if got, _ := e.srv.Job(j["id"].(string)); !strings.Contains(got.Message, "has 1 fields, the header has 2") {
		t.Errorf("a short row: %q", got.Message)
	}
	checkJob(t, e.startFile(GLActualsTemplateID, metaPart(metaGL), filePart("")), StatusError)
	defer func() {
		if recover() == nil {
			t.Error("New accepted RequiredColumns \"maybe\"")
		}
	}()
	New(Options{RequiredColumns: "maybe"})
}

// jobLines collects what Options.JobLog is given.
type jobLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *jobLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *jobLines) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// TestJobLog: every job that ends in ERROR is reported once to
// Options.JobLog with its id, template id and name, and the reason;
// COMPLETED and CANCELLED jobs are not.
func TestJobLog(t *testing.T) {
	t.Run("instant", func(t *testing.T) {
		var l jobLines
		e := newEnv(t, Options{Instant: true, JobLog: l.logf})
		e.mustStart(GLActualsTemplateID, glCSV)
		bad := checkJob(t, e.startData(GLActualsTemplateID, `{"input":{"data":[["Account"],["4000"]]}}`), StatusError)["id"].(string)
		e.status(bad)
		e.get("/jobs/" + bad)
		e.srv.Jobs()
		want := fmt.Sprintf(`etl-emulator: job %s (template %s "GL Actuals") ended in ERROR: missing required column "Amount"`, bad, GLActualsTemplateID)
		if got := l.get(); len(got) != 1 || got[0] != want {
			t.Errorf("lines = %q, want [%q]", got, want)
		}
		// A submitted job whose input was never loaded.
		id := e.create(TwoStepTemplateID)
		e.mustPut(id, TwoStepActualsInputID, actualsCSV)
		checkJob(t, e.post("/jobs/"+id+"/submit"), StatusError)
		want2 := fmt.Sprintf(`etl-emulator: job %s (template %s "Actuals and Rates") ended in ERROR: no input data for step "Load Rates" (input %s)`, id, TwoStepTemplateID, TwoStepRatesInputID)
		if got := l.get(); len(got) != 2 || got[1] != want2 {
			t.Errorf("lines = %q, want a second %q", got, want2)
		}
		e.srv.SetJobStatus(e.create(GLActualsTemplateID), StatusError)
		if got := l.get(); len(got) != 3 || !strings.HasSuffix(got[2], `"GL Actuals") ended in ERROR: status set by test`) {
			t.Errorf("lines = %q, want a third for SetJobStatus", got)
		}
	})
	t.Run("on the real clock, unobserved", func(t *testing.T) {
		var l jobLines
		e := newEnv(t, Options{RunTime: 50 * time.Millisecond, JobLog: l.logf})
		bad := checkJob(t, e.startData(GLActualsTemplateID, `{"input":{"data":[["Account"],["4000"]]}}`), StatusRunning)["id"].(string)
		cancelled := checkJob(t, e.startData(SalesVolumesTemplateID, `{"input":{"data":[["Units"],["1"]]}}`), StatusRunning)["id"].(string)
		checkJob(t, e.post("/jobs/"+cancelled+"/cancel"), StatusCancelled)
		if got := l.get(); len(got) != 0 {
			t.Fatalf("reported before the job ended: %q", got)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(l.get()) == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // a cancelled job's timer would have fired by now
		if got := l.get(); len(got) != 1 || !strings.HasPrefix(got[0], "etl-emulator: job "+bad+" ") {
			t.Errorf("lines = %q, want one for job %s", got, bad)
		}
	})
	t.Run("fake clock, observed", func(t *testing.T) {
		var l jobLines
		clk := newClock()
		e := newEnv(t, Options{Now: clk.Now, RunTime: time.Hour, JobLog: l.logf})
		bad := checkJob(t, e.startData(GLActualsTemplateID, `{"input":{"data":[["Account"],["4000"]]}}`), StatusRunning)["id"].(string)
		clk.Add(2 * time.Hour)
		if got := l.get(); len(got) != 0 {
			t.Fatalf("reported before anyone looked: %q", got)
		}
		if st := e.status(bad); st != StatusError {
			t.Fatalf("status %s", st)
		}
		if got := l.get(); len(got) != 1 || !strings.Contains(got[0], "job "+bad+" ") {
			t.Errorf("lines = %q", got)
		}
	})
}
