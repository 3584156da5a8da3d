package emulator

import "slices"

// Jobs returns a snapshot of every job, in creation order, purged ones
// included. Jobs found in ERROR go to Options.JobLog, if they did not yet.
func (s *Server) Jobs() []Job {
	defer s.flushJobLog()
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	out := make([]Job, len(s.jobs))
	for i, j := range s.jobs {
		s.noteEndLocked(j, now)
		out[i] = j.snapshot(now)
	}
	return out
}

// Job returns a snapshot of one job, purged or not; found in ERROR, it
// goes to Options.JobLog, if it did not yet.
func (s *Server) Job(id string) (Job, bool) {
	defer s.flushJobLog()
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobIndex[id]
	if !ok {
		return Job{}, false
	}
	now := s.opts.Now()
	s.noteEndLocked(j, now)
	return j.snapshot(now), true
}

// SetJobStatus forces a job's status from now on, dropping any planned
// transition. It reports whether the job exists. A job forced to ERROR
// goes to Options.JobLog ("status set by test"), if it did not yet.
func (s *Server) SetJobStatus(id, status string) bool {
	defer s.flushJobLog()
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobIndex[id]
	if !ok {
		return false
	}
	now := s.opts.Now()
	t := transition{at: now, status: status}
	if status == StatusError {
		t.message = "status set by test"
	}
	j.replan(now, t)
	s.watchEndLocked(j, now)
	return true
}

// PurgeJob forgets job id as a service whose job history was purged does:
// the API answers 404 for it from now on. Jobs and Job still return it,
// marked Purged, so tests can count the jobs created. It reports whether
// the job existed (and was not purged already).
func (s *Server) PurgeJob(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobIndex[id]
	if !ok || j.purged {
		return false
	}
	j.purged = true
	return true
}

// DeleteTemplate removes template id as a user who deletes it on the
// service does: the API answers 404 for it, and it is no longer listed;
// its jobs stay, and are read, cancelled and submitted as before (a job
// submitted without its template loads no step). It reports whether the
// template existed.
func (s *Server) DeleteTemplate(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.tmplIndex[id]
	if !ok {
		return false
	}
	s.templates = slices.Delete(s.templates, i, i+1)
	clear(s.tmplIndex)
	for k, t := range s.templates {
		s.tmplIndex[t.ID] = k
	}
	return true
}
