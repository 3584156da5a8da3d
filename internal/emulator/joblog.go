package emulator

import "time"

// endedJob is a job that reached ERROR, waiting to be reported to
// Options.JobLog.
type endedJob struct {
	id, templateID, templateName, message string
}

// jobLogFormat is the line Options.JobLog gets for a job ended in ERROR:
// the job id, its template's id and name, and the reason.
const jobLogFormat = "etl-emulator: job %s (template %s %q) ended in ERROR: %s"

// noteEndLocked queues job j for Options.JobLog when it is in ERROR as of
// now and was not reported yet. s.mu must be held.
func (s *Server) noteEndLocked(j *job, now time.Time) {
	if s.opts.JobLog == nil || j.errLogged {
		return
	}
	tr := j.sched[j.current(now)]
	if tr.status != StatusError {
		return
	}
	j.errLogged = true
	msg := tr.message
	if msg == "" {
		msg = "no reason recorded"
	}
	s.ended = append(s.ended, endedJob{id: j.id, templateID: j.templateID, templateName: j.name, message: msg})
}

// watchEndLocked follows a job just planned: it is queued for
// Options.JobLog at once when it is in ERROR now, and when its plan ends in
// ERROR later, a timer queues and reports it then. s.mu must be held.
func (s *Server) watchEndLocked(j *job, now time.Time) {
	if s.opts.JobLog == nil {
		return
	}
	s.noteEndLocked(j, now)
	last := j.sched[len(j.sched)-1]
	if last.status != StatusError || !last.at.After(now) {
		return
	}
	time.AfterFunc(last.at.Sub(now), func() {
		s.mu.Lock()
		s.noteEndLocked(j, s.opts.Now())
		s.mu.Unlock()
		s.flushJobLog()
	})
}

// flushJobLog reports the queued jobs to Options.JobLog, in the order they
// ended, without the lock held.
func (s *Server) flushJobLog() {
	if s.opts.JobLog == nil {
		return
	}
	s.mu.Lock()
	ended := s.ended
	s.ended = nil
	s.mu.Unlock()
	for _, e := range ended {
		s.opts.JobLog(jobLogFormat, e.id, e.templateID, e.templateName, e.message)
	}
}
