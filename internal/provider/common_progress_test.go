package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// syncBuffer is a log sink written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// infoLines returns the messages and fields of the INFO lines logged.
func (s *syncBuffer) infoLines(t *testing.T) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if m["@level"] == "info" {
			out = append(out, m)
		}
	}
	return out
}

// TestReportUpload: while a file is sent, INFO lines say how far it is.
func TestReportUpload(t *testing.T) {
	var out syncBuffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	content := bytes.Repeat([]byte("Account,Amount\n"), 1000)
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	of, err := localfile.Open(p, localfile.HashBytes(content))
	if err != nil {
		t.Fatal(err)
	}
	defer of.Close()
	up := &preparedUpload{file: &etl.FileUpload{Open: of.Reader, Size: of.Size()}, opened: of}
	stop := reportUpload(ctx, up, testTuning.progressEvery)
	rc, _ := up.file.Open()
	buf := make([]byte, 4000)
	if _, err := rc.Read(buf); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * testTuning.progressEvery)
	stop()
	stop() // twice is fine
	lines := out.infoLines(t)
	if len(lines) == 0 {
		t.Fatal("no progress line")
	}
	last := lines[len(lines)-1]
	msg, _ := last["@message"].(string)
	if !strings.HasPrefix(msg, "uploading "+p+": 3.9 KiB of 14.6 KiB sent (26%)") || !strings.Contains(msg, "left") ||
		last["sent_bytes"] != float64(4000) || last["total_bytes"] != float64(len(content)) || last["path"] != p {
		t.Errorf("progress line %v", last)
	}
	// Nothing after stop.
	n := len(out.infoLines(t))
	time.Sleep(2 * testTuning.progressEvery)
	if len(out.infoLines(t)) != n {
		t.Error("progress lines after stop")
	}
	// Rows and inline content report nothing.
	reportUpload(ctx, &preparedUpload{}, testTuning.progressEvery)()
}

// TestWaitProgress: a wait longer than the interval logs the job's status
// and the time elapsed (logWaiting, which etl.Client.WaitForJob paces).
func TestWaitProgress(t *testing.T) {
	var out syncBuffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	e := newTestEmulator(t, emulator.Options{RunTime: 6 * testTuning.progressEvery})
	id := startJob(t, e, emulator.GLActualsTemplateID, glRows)
	var d diag.Diagnostics
	if job := testRunner(t, e).wait(ctx, &etl.Job{ID: id, Status: etl.StatusRunning}, time.Minute, false, &d); d.HasError() || job.Status != etl.StatusCompleted {
		t.Fatalf("wait = %+v, %v", job, d)
	}
	lines := out.infoLines(t)
	if len(lines) == 0 {
		t.Fatal("no progress line")
	}
	msg, _ := lines[0]["@message"].(string)
	if !strings.HasPrefix(msg, "import job "+id+" is ") || !strings.Contains(msg, " after ") || lines[0]["job_id"] != id || lines[0]["status"] == "" {
		t.Errorf("progress line %v", lines[0])
	}
}

// TestLogStarted: a job the service creates is logged at INFO with its id
// before anything else is sent (the runbook's TF_LOG_PROVIDER=INFO).
func TestLogStarted(t *testing.T) {
	var out syncBuffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	e := newTestEmulator(t, emulator.Options{})
	var d diag.Diagnostics
	job := testRunner(t, e).createJob(ctx, emulator.TwoStepTemplateID, &d)
	if d.HasError() || job == nil {
		t.Fatalf("createJob: %+v, %v", job, d)
	}
	lines := out.infoLines(t)
	if len(lines) != 1 || lines[0]["@message"] != "started import job" || lines[0]["job_id"] != job.ID || lines[0]["template_id"] != emulator.TwoStepTemplateID {
		t.Errorf("INFO lines %v, want one that names job %s", lines, job.ID)
	}
}
