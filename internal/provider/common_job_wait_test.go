package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func TestJobRunnerWait(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{})
	r := &jobRunner{client: testClient(t, e), tuning: testTuning, wording: resourceWording}

	ok := &etl.Job{ID: startJob(t, e, emulator.GLActualsTemplateID, glRows), Status: etl.StatusRunning}
	var d diag.Diagnostics
	got := r.wait(ctx, ok, time.Minute, false, &d)
	if d.HasError() || got.Status != etl.StatusCompleted || got.ModelName != "Finance Plan" {
		t.Fatalf("completed job: %+v, %v", got, d)
	}

	failed := &etl.Job{ID: startJob(t, e, emulator.GLActualsTemplateID, [][]string{{"Account", "Value"}, {"4000", "1"}}), Status: etl.StatusRunning}
	d = nil
	got = r.wait(ctx, failed, time.Minute, false, &d)
	if d.ErrorsCount() != 1 || got.Status != etl.StatusError {
		t.Fatalf("failed job: %+v, %v", got, d)
	}
	if want := "Import job " + failed.ID + " ended with status ERROR"; d.Errors()[0].Summary() != want {
		t.Errorf("summary %q, want %q", d.Errors()[0].Summary(), want)
	}
	if !strings.Contains(d.Errors()[0].Detail(), keptEnded) || strings.Contains(d.Errors()[0].Detail(), keptInState) {
		t.Errorf("the resource's error of a job that ended in ERROR does not say the next apply replaces it: %s", d.Errors()[0].Detail())
	}

	// keep_failed: the same failure is a warning that the job stays.
	d = nil
	got = r.wait(ctx, failed, time.Minute, true, &d)
	if d.HasError() || d.WarningsCount() != 1 || got.Status != etl.StatusError {
		t.Fatalf("failed job kept: %+v, %v", got, d)
	}
	if w := d.Warnings()[0]; w.Summary() != "Import job "+failed.ID+" ended with status ERROR" || !strings.Contains(w.Detail(), keptFailed) || strings.Contains(w.Detail(), keptEnded) {
		t.Errorf("the warning of a kept failed job does not say it stays: %s: %s", w.Summary(), w.Detail())
	}
}

// The action's runner words a failed job's error for the action.
func TestJobRunnerActionWaitWording(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{})
	r := &jobRunner{client: testClient(t, e), tuning: testTuning, wording: actionWording}
	failed := &etl.Job{ID: startJob(t, e, emulator.GLActualsTemplateID, [][]string{{"Account", "Value"}, {"4000", "1"}}), Status: etl.StatusRunning}
	var d diag.Diagnostics
	r.wait(ctx, failed, time.Minute, false, &d)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), actionWording.afterFailure) || strings.Contains(d.Errors()[0].Detail(), keptEnded) {
		t.Fatalf("failed job: %v", d)
	}

	e.SetJobStatus(startJob(t, e, emulator.GLActualsTemplateID, glRows), emulator.StatusRunning)
	running := &etl.Job{ID: e.Jobs()[1].ID, Status: etl.StatusRunning}
	wctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	d = nil
	r.wait(wctx, running, 50*time.Millisecond, false, &d)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), "(timeouts.invoke). Raise timeouts.invoke, or set wait_for_completion = false") {
		t.Fatalf("timed out: %v", d)
	}
}
