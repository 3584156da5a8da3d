package emulator

import "net/http"

// listTemplates answers GET /templates with every template, without steps.
func (s *Server) listTemplates(w http.ResponseWriter) *apiError { //nolint:unparam // the shape of every endpoint handler
	s.mu.Lock()
	out := make([]templateJSON, 0, len(s.templates))
	for _, t := range s.templates {
		out = append(out, templateToJSON(t, false))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
	return nil
}

// getTemplate answers GET /templates/{id} with the template and its steps,
// or 404.
func (s *Server) getTemplate(w http.ResponseWriter, id string) *apiError {
	t, e := s.lookupTemplate(id)
	if e != nil {
		return e
	}
	writeJSON(w, http.StatusOK, templateToJSON(t, true))
	return nil
}

// createJob answers POST /templates/{id}/jobs: it creates a job that
// waits, EDITING, for its inputs and a submit, and expires after
// Options.ExpireAfter.
func (s *Server) createJob(w http.ResponseWriter, tmplID string) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.templateLocked(tmplID)
	if !ok {
		return errorf(http.StatusNotFound, "template %q not found", tmplID)
	}
	now := s.opts.Now()
	j := s.newJobLocked(t, now)
	s.planEditing(j, now)
	writeJSON(w, http.StatusOK, j.json(now))
	return nil
}

// startWithFile answers POST /templates/{id}/startWithFile: it reads a
// multipart upload into the template's first input and starts a job with
// it.
func (s *Server) startWithFile(w http.ResponseWriter, r *http.Request, tmplID string) *apiError {
	tmpl, e := s.lookupTemplate(tmplID)
	if e != nil {
		return e
	}
	l, e := s.readFileUpload(r, s.requiredFor(&tmpl, tmpl.firstInput()))
	if e != nil {
		return e
	}
	return s.startJob(w, tmplID, l)
}

// startWithData answers POST /templates/{id}/startWithData: it reads a
// JSON rows upload into the template's first input and starts a job with
// it.
func (s *Server) startWithData(w http.ResponseWriter, r *http.Request, tmplID string) *apiError {
	tmpl, e := s.lookupTemplate(tmplID)
	if e != nil {
		return e
	}
	l, e := s.readDataUpload(w, r, s.requiredFor(&tmpl, tmpl.firstInput()))
	if e != nil {
		return e
	}
	return s.startJob(w, tmplID, l)
}

// startJob creates a job from template tmplID with the data of l and starts
// it (see planStartLocked).
func (s *Server) startJob(w http.ResponseWriter, tmplID string, l *load) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.templateLocked(tmplID)
	if !ok {
		return errorf(http.StatusNotFound, "template %q not found", tmplID)
	}
	now := s.opts.Now()
	j := s.newJobLocked(t, now)
	j.upload, j.started = l.upload, l
	j.startedIsUpdate = true
	s.planStartLocked(j, j.final(t.Steps, s.opts.SubmitMissingInputs), now)
	s.ranLocked(t, now)
	writeJSON(w, http.StatusOK, j.json(now))
	return nil
}
