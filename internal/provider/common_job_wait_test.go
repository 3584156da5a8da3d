package provider

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func TestWaitForJob(t *testing.T) {
	ctx := context.Background()
	t.Run("completes", func(t *testing.T) {
		e := newTestEmulator(t, emulator.Options{RunTime: 100 * time.Millisecond})
		id := startJob(t, e, emulator.GLActualsTemplateID, glRows)
		status, err := testRunner(t, e).waitForJob(ctx, id, etl.StatusRunning, nil)
		if err != nil || status != etl.StatusCompleted {
			t.Fatalf("waitForJob = %s, %v; want COMPLETED", status, err)
		}
		if n := e.Requests(emulator.EndpointGetJobStatus); n < 2 {
			t.Errorf("%d status polls, want several (the job ran 100ms)", n)
		}
	})
	t.Run("ends in error", func(t *testing.T) {
		e := newTestEmulator(t, emulator.Options{})
		// Amount is a required column: the job ends in ERROR.
		id := startJob(t, e, emulator.GLActualsTemplateID, [][]string{{"Account", "Value"}, {"4000", "1"}})
		status, err := testRunner(t, e).waitForJob(ctx, id, etl.StatusRunning, nil)
		if err != nil || status != etl.StatusError {
			t.Fatalf("waitForJob = %s, %v; want ERROR", status, err)
		}
	})
	t.Run("times out with the last status", func(t *testing.T) {
		e := newTestEmulator(t, emulator.Options{RunTime: time.Hour})
		id := startJob(t, e, emulator.GLActualsTemplateID, glRows)
		wctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
		defer cancel()
		status, err := testRunner(t, e).waitForJob(wctx, id, "", nil)
		if !errors.Is(err, context.DeadlineExceeded) || status != etl.StatusRunning {
			t.Fatalf("waitForJob = %s, %v; want RUNNING and the deadline", status, err)
		}
	})
	t.Run("unknown job", func(t *testing.T) {
		e := newTestEmulator(t, emulator.Options{Instant: true})
		status, err := testRunner(t, e).waitForJob(ctx, "999999999999999999", etl.StatusSubmitted, nil)
		if !etl.IsNotFound(err) || status != etl.StatusSubmitted {
			t.Fatalf("waitForJob = %s, %v; want the last status and a 404", status, err)
		}
	})
}

func TestJobRunnerWait(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{})
	r := &jobRunner{client: testClient(t, e), tuning: testTuning, wording: resourceWording}

	ok := &etl.Job{ID: startJob(t, e, emulator.GLActualsTemplateID, glRows), Status: etl.StatusRunning}
	var d diag.Diagnostics
	got := r.wait(ctx, ok, time.Minute, &d)
	if d.HasError() || got.Status != etl.StatusCompleted || got.ModelName != "Finance Plan" {
		t.Fatalf("completed job: %+v, %v", got, d)
	}

	failed := &etl.Job{ID: startJob(t, e, emulator.GLActualsTemplateID, [][]string{{"Account", "Value"}, {"4000", "1"}}), Status: etl.StatusRunning}
	d = nil
	got = r.wait(ctx, failed, time.Minute, &d)
	if d.ErrorsCount() != 1 || got.Status != etl.StatusError {
		t.Fatalf("failed job: %+v, %v", got, d)
	}
	if want := "Import job " + failed.ID + " ended with status ERROR"; d.Errors()[0].Summary() != want {
		t.Errorf("summary %q, want %q", d.Errors()[0].Summary(), want)
	}
	if !strings.Contains(d.Errors()[0].Detail(), keptEnded) || strings.Contains(d.Errors()[0].Detail(), keptInState) {
		t.Errorf("the resource's error of a job that ended in ERROR does not say the next apply replaces it: %s", d.Errors()[0].Detail())
	}
}

// The action's runner words a failed job's error for the action.
func TestJobRunnerActionWaitWording(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{})
	r := &jobRunner{client: testClient(t, e), tuning: testTuning, wording: actionWording}
	failed := &etl.Job{ID: startJob(t, e, emulator.GLActualsTemplateID, [][]string{{"Account", "Value"}, {"4000", "1"}}), Status: etl.StatusRunning}
	var d diag.Diagnostics
	r.wait(ctx, failed, time.Minute, &d)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), actionWording.afterFailure) || strings.Contains(d.Errors()[0].Detail(), keptEnded) {
		t.Fatalf("failed job: %v", d)
	}

	e.SetJobStatus(startJob(t, e, emulator.GLActualsTemplateID, glRows), emulator.StatusRunning)
	running := &etl.Job{ID: e.Jobs()[1].ID, Status: etl.StatusRunning}
	wctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	d = nil
	r.wait(wctx, running, 50*time.Millisecond, &d)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), "(timeouts.invoke). Raise timeouts.invoke, or set wait_for_completion = false") {
		t.Fatalf("timed out: %v", d)
	}
}
