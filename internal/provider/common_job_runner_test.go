package provider

import (
	"strings"
	"testing"

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
