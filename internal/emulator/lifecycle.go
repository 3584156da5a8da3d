package emulator

import (
	"fmt"
	"time"
)

// Job status values, as the service spells them.
const (
	// StatusEditing is a created job waiting for its inputs and a submit;
	// it becomes EXPIRED after Options.ExpireAfter.
	StatusEditing = "EDITING"
	// StatusNotStarted is a documented status the emulator never plans; a
	// job set to it (SetJobStatus) still takes files, as an EDITING one.
	StatusNotStarted = "NOT_STARTED"
	// StatusSubmitted is a submitted job, until its final status RunTime
	// later.
	StatusSubmitted = "SUBMITTED"
	// StatusRunning is a started job, until its final status RunTime later.
	StatusRunning = "RUNNING"
	// StatusCompleted is the final status of a job whose data passed every
	// check.
	StatusCompleted = "COMPLETED"
	// StatusError is the final status of a job whose data failed a check
	// or whose inputs were missing; Job.Message says why.
	StatusError = "ERROR"
	// StatusCancelled is the final status of a cancelled job.
	StatusCancelled = "CANCELLED"
	// StatusWaiting is a documented status the emulator never plans; a job
	// set to it (SetJobStatus) is not final.
	StatusWaiting = "WAITING"
	// StatusQueued is a started job waiting for a job of the same model in
	// progress to finish, before it runs.
	StatusQueued = "QUEUED"
	// StatusExpired is the final status of a created job never submitted
	// within Options.ExpireAfter.
	StatusExpired = "EXPIRED"
)

// IsFinal reports whether status is one no transition leaves: COMPLETED,
// ERROR, CANCELLED or EXPIRED.
func IsFinal(status string) bool {
	switch status {
	case StatusCompleted, StatusError, StatusCancelled, StatusExpired:
		return true
	}
	return false
}

// transition is a status a job has from time at on, with the message of
// an ERROR.
type transition struct {
	at      time.Time
	status  string
	message string
}

// current returns the index in sched of the status in effect at now.
func (j *job) current(now time.Time) int {
	for i := len(j.sched) - 1; i > 0; i-- {
		if !j.sched[i].at.After(now) {
			return i
		}
	}
	return 0
}

// status returns the job's status in effect at now.
func (j *job) status(now time.Time) string { return j.sched[j.current(now)].status }

// updated returns the time of the last status change as of now.
func (j *job) updated(now time.Time) (time.Time, bool) {
	i := j.current(now)
	if i == 0 {
		return j.created, j.startedIsUpdate
	}
	return j.sched[i].at, true
}

// replan drops planned (future) transitions and appends ts.
func (j *job) replan(now time.Time, ts ...transition) {
	j.sched = append(j.sched[:j.current(now)+1], ts...)
}

// finishAt returns when a job in progress will reach its planned final
// status; ok is false when it is not running towards one.
func (j *job) finishAt(now time.Time) (time.Time, bool) {
	switch j.status(now) {
	case StatusRunning, StatusQueued, StatusSubmitted, StatusWaiting:
	default:
		return time.Time{}, false
	}
	last := j.sched[len(j.sched)-1]
	if IsFinal(last.status) && last.at.After(now) {
		return last.at, true
	}
	return time.Time{}, false
}

// final returns the status the job ends in once run: a started job's
// data decides; a created job's loaded inputs decide in step order, and
// inputs never loaded are decided by missing. A template with no input
// steps completes.
func (j *job) final(steps []Step, missing MissingInputs) transition {
	if j.started != nil {
		return transition{status: j.started.outcome, message: j.started.message}
	}
	var absent []Step
	for _, st := range steps {
		l, ok := j.loads[st.InputID]
		switch {
		case !ok:
			absent = append(absent, st)
		case l.outcome == StatusError && len(steps) == 1:
			return transition{status: StatusError, message: l.message}
		case l.outcome == StatusError:
			return transition{status: StatusError, message: fmt.Sprintf("step %q (input %s): %s", st.StepName, st.InputID, l.message)}
		}
	}
	switch {
	case len(absent) == 0 || missing == MissingInputsAccept:
		return transition{status: StatusCompleted}
	case len(j.loads) == 0:
		return transition{status: StatusError, message: "no input data"}
	}
	return transition{status: StatusError, message: fmt.Sprintf("no input data for step %q (input %s)", absent[0].StepName, absent[0].InputID)}
}

// planEditing plans a created job: EDITING, then EXPIRED after
// Options.ExpireAfter.
func (s *Server) planEditing(j *job, now time.Time) {
	j.sched = []transition{{at: now, status: StatusEditing}, {at: now.Add(s.opts.ExpireAfter), status: StatusExpired}}
}

// planStartLocked plans a started job: RUNNING (or QUEUED behind a job of
// the same model in progress), then final RunTime after it starts running.
// s.mu must be held.
func (s *Server) planStartLocked(j *job, fin transition, now time.Time) {
	defer s.watchEndLocked(j, now)
	if s.opts.Instant {
		fin.at = now
		j.sched = []transition{fin}
		return
	}
	runAt := now
	for _, o := range s.jobs {
		if o == j || o.modelID != j.modelID {
			continue
		}
		if end, ok := o.finishAt(now); ok && end.After(runAt) {
			runAt = end
		}
	}
	if runAt.After(now) {
		j.sched = []transition{{at: now, status: StatusQueued}, {at: runAt, status: StatusRunning}}
	} else {
		j.sched = []transition{{at: now, status: StatusRunning}}
	}
	fin.at = runAt.Add(s.runTime)
	j.sched = append(j.sched, fin)
}

// planSubmit plans a submitted job: SUBMITTED, then final RunTime later.
// s.mu must be held.
func (s *Server) planSubmit(j *job, fin transition, now time.Time) {
	defer s.watchEndLocked(j, now)
	if s.opts.Instant {
		fin.at = now
		j.replan(now, fin)
		return
	}
	fin.at = now.Add(s.runTime)
	j.replan(now, transition{at: now, status: StatusSubmitted}, fin)
}
