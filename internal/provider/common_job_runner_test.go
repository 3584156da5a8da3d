package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// The resource's and the action's wordings: each says its own, and the
// action's never speaks of a state it does not keep. Configure gives the
// resource its wording.
func TestJobRunnerWording(t *testing.T) {
	res, act := resourceWording, actionWording
	if res.afterFailure != keptInState || res.afterEnded != keptEnded || res.afterIncomplete != keptIncomplete || res.timeoutSetting != "timeouts.create" || res.maybeCreated != adoptAdvice {
		t.Error("the resource's wording changed")
	}
	if act.timeoutSetting != "timeouts.invoke" {
		t.Error("the action's wording names the resource's timeout")
	}
	for i, s := range []string{act.afterFailure, act.afterEnded, act.afterIncomplete, act.maybeCreated, act.createAgain} {
		if s == "" || strings.Contains(s, "state, marked tainted") || strings.Contains(s, "terraform import") || strings.Contains(s, "apply again") {
			t.Errorf("action wording %d speaks of the resource's state, or is empty: %q", i, s)
		}
	}
	r := &importResource{}
	var resp resource.ConfigureResponse
	r.Configure(context.Background(), resource.ConfigureRequest{}, &resp)
	if r.wording != resourceWording {
		t.Errorf("a configured resource's wording is %+v", r.wording)
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
