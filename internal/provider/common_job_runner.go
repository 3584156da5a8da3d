package provider

import (
	"fmt"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// jobRunner starts, submits and waits for an import job: the code the
// etl_import resource and the etl_import action share (start, submit and
// waitAndRecord). They differ only in what their diagnostics say: the
// resource keeps a job that failed after it started in state, tainted,
// and bounds waiting with timeouts.create; the action keeps nothing and
// bounds it with timeout.
type jobRunner struct {
	client *etl.Client
	// action: the diagnostics are the etl_import action's.
	action bool
	// progress, when set, hears each status seen while waiting (the
	// action's SendProgress).
	progress func(msg string)
}

// afterFailure ends the error of a job that failed after it started.
func (r *jobRunner) afterFailure() string {
	if r.action {
		return actionNothingKept
	}
	return keptInState
}

// timeoutSetting names the setting that bounds waiting.
func (r *jobRunner) timeoutSetting() string {
	if r.action {
		return "timeouts.invoke"
	}
	return "timeouts.create"
}

// maybeCreatedAdvice says what to do when a start's answer was lost.
func (r *jobRunner) maybeCreatedAdvice() string {
	if r.action {
		return actionMaybeCreatedAdvice
	}
	return adoptAdvice
}

// statusSeen returns what waiting calls with each status it reads: a
// progress message when the status changes to one still in progress (the
// caller reports the final one); nil without progress.
func (r *jobRunner) statusSeen(jobID string, last etl.JobStatus) func(etl.JobStatus) {
	if r.progress == nil {
		return nil
	}
	return func(s etl.JobStatus) {
		if s != last && !s.Final() {
			last = s
			r.progress(fmt.Sprintf("Import job %s is %s", jobID, s))
		}
	}
}

// The action's endings of a job's diagnostics.
const (
	actionNothingKept = "The etl_import action keeps nothing in state: the job stays on the service as it is " +
		"(look it up by its id in the service's ETL job history). Invoking the action again starts a new job."
	actionMaybeCreatedAdvice = "Look for the job in the service's ETL job history before invoking the action again: " +
		"if it exists, invoking again would import the data a second time. If it does not, invoke the action again."
)
