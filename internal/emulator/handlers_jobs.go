package emulator

import (
	"io"
	"net/http"
	"slices"
)

// getJob answers GET /jobs/{id} with the job as of now, or 404.
func (s *Server) getJob(w http.ResponseWriter, id string) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, e := s.apiJobLocked(id)
	if e != nil {
		return e
	}
	writeJSON(w, http.StatusOK, j.json(s.opts.Now()))
	return nil
}

// getJobStatus answers GET /jobs/{id}/status with the job's status alone,
// as a JSON string, or 404.
func (s *Server) getJobStatus(w http.ResponseWriter, id string) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, e := s.apiJobLocked(id)
	if e != nil {
		return e
	}
	writeJSON(w, http.StatusOK, j.status(s.opts.Now()))
	return nil
}

// submitJob answers POST /jobs/{id}/submit: a job that is not final is
// planned to run (SUBMITTED, then the final status its inputs decide) and
// its template's lastRunTime is set; a SUBMITTED job stays as it is; a
// final one is a conflict (Options.ConflictStatus).
func (s *Server) submitJob(w http.ResponseWriter, r *http.Request, id string) *apiError {
	if e := checkNoBodyType(r); e != nil {
		return e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	j, e := s.apiJobLocked(id)
	if e != nil {
		return e
	}
	now := s.opts.Now()
	switch st := j.status(now); {
	case IsFinal(st):
		return s.conflictLocked(j, now, "job %s cannot be submitted: its status is %s", id, st)
	case st == StatusSubmitted:
	default:
		t, ok := s.templateLocked(j.templateID)
		var steps []Step
		if ok {
			steps = t.Steps
			s.ranLocked(t, now)
		}
		s.planSubmit(j, j.final(steps, s.opts.SubmitMissingInputs), now)
	}
	writeJSON(w, http.StatusOK, j.json(now))
	return nil
}

// cancelJob answers POST /jobs/{id}/cancel: a job that is not final is
// CANCELLED from now on, its planned transitions dropped; a final one is a
// conflict (Options.ConflictStatus).
func (s *Server) cancelJob(w http.ResponseWriter, r *http.Request, id string) *apiError {
	if e := checkNoBodyType(r); e != nil {
		return e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	j, e := s.apiJobLocked(id)
	if e != nil {
		return e
	}
	now := s.opts.Now()
	if st := j.status(now); IsFinal(st) {
		return s.conflictLocked(j, now, "job %s cannot be cancelled: its status is %s", id, st)
	}
	j.replan(now, transition{at: now, status: StatusCancelled})
	writeJSON(w, http.StatusOK, j.json(now))
	return nil
}

// editableLocked checks that job id exists, takes input inputID and can
// still receive a file, and returns the columns that input requires.
// s.mu must be held.
func (s *Server) editableLocked(id, inputID string) (*job, []string, *apiError) {
	j, e := s.apiJobLocked(id)
	if e != nil {
		return nil, nil, e
	}
	t, ok := s.templateLocked(j.templateID)
	if !ok || !slices.ContainsFunc(t.Steps, func(st Step) bool { return st.InputID == inputID }) {
		return nil, nil, errorf(http.StatusNotFound, "input %q not found in job %s (template %s)", inputID, id, j.templateID)
	}
	now := s.opts.Now()
	if st := j.status(now); st != StatusEditing && st != StatusNotStarted {
		return nil, nil, s.conflictLocked(j, now, "job %s cannot take a file: its status is %s", id, st)
	}
	return j, s.requiredFor(t, inputID), nil
}

// uploadJobFile answers PUT /jobs/{id}/inputs/{inputId}/file: it loads a
// multipart upload into one input of a job, decoded and checked as start
// with file does, replacing what that input held, and answers 204; the
// job still waits for a submit. The job is checked before the upload is
// read and again after, since the lock is not held while it streams. A
// conflict answered 200 (ConflictUnchanged) reads the body first and drops
// it, as a service that ignores the file would.
func (s *Server) uploadJobFile(w http.ResponseWriter, r *http.Request, id, inputID string) *apiError {
	s.mu.Lock()
	_, required, e := s.editableLocked(id, inputID)
	s.mu.Unlock()
	if e != nil {
		if e.status == ConflictUnchanged {
			_, _ = io.Copy(io.Discard, r.Body)
		}
		return e
	}
	l, e := s.readFileUpload(r, required)
	if e != nil {
		return e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	j, _, e := s.editableLocked(id, inputID)
	if e != nil {
		return e
	}
	if j.loads == nil {
		j.loads = map[string]*load{}
	}
	j.loads[inputID] = l
	j.upload = l.upload
	w.WriteHeader(http.StatusNoContent)
	return nil
}
