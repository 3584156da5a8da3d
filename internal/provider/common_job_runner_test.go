package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func TestJobRunnerWording(t *testing.T) {
	res, act := &jobRunner{}, &jobRunner{action: true}
	if res.afterFailure() != keptInState || res.timeoutSetting() != "timeouts.create" || res.maybeCreatedAdvice() != adoptAdvice {
		t.Error("the resource's wording changed")
	}
	if act.afterFailure() != actionNothingKept || act.timeoutSetting() != "timeouts.invoke" || act.maybeCreatedAdvice() != actionMaybeCreatedAdvice {
		t.Error("the action's wording is not its own")
	}
	if strings.Contains(actionNothingKept+actionMaybeCreatedAdvice, "state, marked tainted") || strings.Contains(actionMaybeCreatedAdvice, "terraform import") {
		t.Error("the action's wording speaks of the resource's state")
	}
}

// statusSeen reports each change to a status still in progress, once.
func TestJobRunnerStatusSeen(t *testing.T) {
	if (&jobRunner{}).statusSeen("1", etl.StatusRunning) != nil {
		t.Error("without progress, waiting needs no callback")
	}
	var got []string
	r := &jobRunner{progress: func(m string) { got = append(got, m) }}
	seen := r.statusSeen("7", etl.StatusSubmitted)
	for _, s := range []etl.JobStatus{etl.StatusSubmitted, etl.StatusQueued, etl.StatusQueued, etl.StatusRunning, etl.StatusCompleted} {
		seen(s)
	}
	want := "Import job 7 is QUEUED|Import job 7 is RUNNING"
	if strings.Join(got, "|") != want {
		t.Errorf("reported %q, want %q", got, want)
	}
}

// The action's runner words a failed job's error for the action.
func TestJobRunnerActionWaitWording(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{})
	r := &jobRunner{client: testClient(t, e), action: true}
	failed := importModel{ID: types.StringValue(startJob(t, e, emulator.GLActualsTemplateID, [][]string{{"Account", "Value"}, {"4000", "1"}})), Status: types.StringValue("RUNNING")}
	var d diag.Diagnostics
	r.waitAndRecord(ctx, &failed, time.Minute, &d)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), actionNothingKept) || strings.Contains(d.Errors()[0].Detail(), keptInState) {
		t.Fatalf("failed job: %v", d)
	}

	e.SetJobStatus(startJob(t, e, emulator.GLActualsTemplateID, glRows), emulator.StatusRunning)
	running := importModel{ID: types.StringValue(e.Jobs()[1].ID), Status: types.StringValue("RUNNING")}
	wctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	d = nil
	r.waitAndRecord(wctx, &running, 50*time.Millisecond, &d)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), "(timeouts.invoke). Raise timeouts.invoke, or set wait_for_completion = false") {
		t.Fatalf("timed out: %v", d)
	}
}
