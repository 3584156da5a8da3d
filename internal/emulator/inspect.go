package emulator

// Jobs returns a snapshot of every job, in creation order, purged ones
// included.
func (s *Server) Jobs() []Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	out := make([]Job, len(s.jobs))
	for i, j := range s.jobs {
		out[i] = j.snapshot(now)
	}
	return out
}

// Job returns a snapshot of one job, purged or not.
func (s *Server) Job(id string) (Job, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobIndex[id]
	if !ok {
		return Job{}, false
	}
	return j.snapshot(s.opts.Now()), true
}

// SetJobStatus forces a job's status from now on, dropping any planned
// transition. It reports whether the job exists.
func (s *Server) SetJobStatus(id, status string) bool {
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
