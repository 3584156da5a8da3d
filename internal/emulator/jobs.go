package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Upload is what the emulator received as a job's data.
type Upload struct {
	Kind                                 string // "file" or "data"
	PartName, FileName, Format, Encoding string // file only (from metadata)
	Header                               []string
	RowCount                             int        // data rows (not counting the header)
	Rows                                 [][]string // first MaxKeptRows data rows, decoded
	Bytes                                int64      // raw bytes received: the file part's bytes, or the whole JSON body for data
	SHA256                               string     // lower-case hex SHA-256 of exactly those raw bytes
}

// Job is a snapshot of a job.
type Job struct {
	ID, TemplateID, Name, ModelID, ModelName, UserName string
	Status                                             string // current status, lifecycle applied as of Now()
	Created, Updated                                   time.Time
	// Upload is the data the job received last: its start's, or its last
	// PUT's; nil for a created job with no file yet.
	Upload *Upload
	// Inputs holds what each PUT /jobs/{id}/inputs/{inputId}/file loaded,
	// by input id (the last PUT of an input wins); nil when none was.
	Inputs  map[string]*Upload
	Message string // why it ended in ERROR
	// Purged: PurgeJob forgot the job, so the API answers 404 for it; it
	// stays here so tests still see it was created.
	Purged bool
}

// transition is a status a job has from time at on.
type transition struct {
	at      time.Time
	status  string
	message string
}

type job struct {
	id, templateID, name, modelID, modelName, userName string
	created                                            time.Time
	// sched holds the job's status changes, past and planned, in time order;
	// sched[0] is the status it was created with.
	sched []transition
	// startedIsUpdate: the job was created and started at once, which counts
	// as its first update (updatedDate is set from creation on).
	startedIsUpdate bool
	upload          *Upload // last data received
	// started is the data a start with file or data ran with; nil for a
	// created job.
	started *load
	// loads holds each input a PUT loaded, by input id.
	loads  map[string]*load
	purged bool
}

// load is data received for a job and the outcome it leads to.
type load struct {
	upload           *Upload
	outcome, message string // COMPLETED, or ERROR and why
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

func (j *job) snapshot(now time.Time) Job {
	i := j.current(now)
	out := Job{ID: j.id, TemplateID: j.templateID, Name: j.name, ModelID: j.modelID, ModelName: j.modelName,
		UserName: j.userName, Status: j.sched[i].status, Created: j.created}
	if u, ok := j.updated(now); ok {
		out.Updated = u
	}
	if j.sched[i].status == StatusError {
		out.Message = j.sched[i].message
	}
	out.Upload = j.upload.clone()
	for id, l := range j.loads {
		if out.Inputs == nil {
			out.Inputs = map[string]*Upload{}
		}
		out.Inputs[id] = l.upload.clone()
	}
	out.Purged = j.purged
	return out
}

// clone returns a copy that shares nothing the caller could change.
func (u *Upload) clone() *Upload {
	if u == nil {
		return nil
	}
	c := *u
	c.Header = slices.Clone(u.Header)
	c.Rows = slices.Clone(u.Rows)
	return &c
}

// jobJSON is the ETLJob resource.
type jobJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Status      string `json:"status"`
	ModelID     string `json:"modelId"`
	ModelName   string `json:"modelName"`
	CreatedDate int64  `json:"createdDate"`
	UpdatedDate *int64 `json:"updatedDate"`
	UserName    string `json:"userName"`
}

func (j *job) json(now time.Time) jobJSON {
	out := jobJSON{ID: j.id, Name: j.name, Status: j.status(now), ModelID: j.modelID, ModelName: j.modelName,
		CreatedDate: j.created.UnixMilli(), UserName: j.userName}
	if u, ok := j.updated(now); ok {
		out.UpdatedDate = ptr64(u.UnixMilli())
	}
	return out
}

type stepJSON struct {
	StepName string `json:"stepName"`
	DataType string `json:"dataType"`
	InputID  string `json:"inputId"`
}

type templateJSON struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	LastRunTime *int64      `json:"lastRunTime"`
	ModelID     string      `json:"modelId"`
	ModelName   string      `json:"modelName"`
	Steps       *[]stepJSON `json:"steps,omitempty"`
}

func templateToJSON(t Template, withSteps bool) templateJSON {
	out := templateJSON{ID: t.ID, Name: t.Name, LastRunTime: t.LastRunTime, ModelID: t.ModelID, ModelName: t.ModelName}
	if withSteps {
		steps := make([]stepJSON, 0, len(t.Steps))
		for _, st := range t.Steps {
			steps = append(steps, stepJSON{StepName: st.StepName, DataType: st.DataType, InputID: st.InputID})
		}
		out.Steps = &steps
	}
	return out
}

// Jobs returns a snapshot of every job, in creation order.
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

// Job returns a snapshot of one job.
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

// apiJobLocked returns job id as the API sees it: 404 when unknown or
// purged. s.mu must be held.
func (s *Server) apiJobLocked(id string) (*job, *apiError) {
	j, ok := s.jobIndex[id]
	if !ok || j.purged {
		return nil, errorf(http.StatusNotFound, "job %q not found", id)
	}
	return j, nil
}

// conflictf is the answer to a request the job's status does not allow
// (Options.ConflictStatus).
func (s *Server) conflictf(format string, args ...any) *apiError {
	return errorf(s.opts.ConflictStatus, format, args...)
}

// template returns a copy of a template by id; s.mu must be held.
func (s *Server) templateLocked(id string) (*Template, bool) {
	i, ok := s.tmplIndex[id]
	if !ok {
		return nil, false
	}
	return &s.templates[i], true
}

func (s *Server) lookupTemplate(id string) (Template, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.templateLocked(id)
	if !ok {
		return Template{}, errorf(http.StatusNotFound, "template %q not found", id)
	}
	return cloneTemplate(*t), nil
}

// newJobLocked creates a job from template t; s.mu must be held.
func (s *Server) newJobLocked(t *Template, now time.Time) *job {
	s.nextID++
	j := &job{id: strconv.FormatUint(s.nextID, 10), templateID: t.ID, name: t.Name, modelID: t.ModelID,
		modelName: t.ModelName, userName: s.opts.UserName, created: now}
	s.jobs = append(s.jobs, j)
	s.jobIndex[j.id] = j
	return j
}

// startJob creates a job from template id with the given upload and starts
// it: RUNNING (or QUEUED behind a job of the same model in progress), then
// final RunTime after it starts running.
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
	fin := j.final(t.Steps, s.opts.SubmitMissingInputs)
	if s.opts.Instant {
		j.sched = []transition{{at: now, status: fin.status, message: fin.message}}
	} else {
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
	t.LastRunTime = ptr64(now.UnixMilli())
	writeJSON(w, http.StatusOK, j.json(now))
	return nil
}

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

func (s *Server) getTemplate(w http.ResponseWriter, id string) *apiError {
	t, e := s.lookupTemplate(id)
	if e != nil {
		return e
	}
	writeJSON(w, http.StatusOK, templateToJSON(t, true))
	return nil
}

func (s *Server) createJob(w http.ResponseWriter, tmplID string) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.templateLocked(tmplID)
	if !ok {
		return errorf(http.StatusNotFound, "template %q not found", tmplID)
	}
	now := s.opts.Now()
	j := s.newJobLocked(t, now)
	j.sched = []transition{{at: now, status: StatusEditing},
		{at: now.Add(s.opts.ExpireAfter), status: StatusExpired}}
	writeJSON(w, http.StatusOK, j.json(now))
	return nil
}

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

// checkNoBodyType enforces that submit and cancel carry no Content-Type or
// application/json.
func checkNoBodyType(r *http.Request) *apiError {
	mt, _, ok := mediaType(r)
	if !ok || (mt != "" && mt != "application/json") {
		return errorf(http.StatusUnsupportedMediaType, "unsupported Content-Type %q: send application/json or none", r.Header.Get("Content-Type"))
	}
	return nil
}

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
		return s.conflictf("job %s cannot be submitted: its status is %s", id, st)
	case st == StatusSubmitted:
	default:
		var steps []Step
		if t, ok := s.templateLocked(j.templateID); ok {
			steps = t.Steps
		}
		fin := j.final(steps, s.opts.SubmitMissingInputs)
		if s.opts.Instant {
			fin.at = now
			j.replan(now, fin)
		} else {
			fin.at = now.Add(s.runTime)
			j.replan(now, transition{at: now, status: StatusSubmitted}, fin)
		}
		if t, ok := s.templateLocked(j.templateID); ok {
			t.LastRunTime = ptr64(now.UnixMilli())
		}
	}
	writeJSON(w, http.StatusOK, j.json(now))
	return nil
}

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
		return s.conflictf("job %s cannot be cancelled: its status is %s", id, st)
	}
	j.replan(now, transition{at: now, status: StatusCancelled})
	writeJSON(w, http.StatusOK, j.json(now))
	return nil
}

// editableLocked checks that job id exists, takes input inputID and can
// still receive a file. s.mu must be held.
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
	if st := j.status(s.opts.Now()); st != StatusEditing && st != StatusNotStarted {
		return nil, nil, s.conflictf("job %s cannot take a file: its status is %s", id, st)
	}
	return j, slices.Clone(t.requiredFor(inputID)), nil
}

func (s *Server) uploadJobFile(w http.ResponseWriter, r *http.Request, id, inputID string) *apiError {
	s.mu.Lock()
	_, required, e := s.editableLocked(id, inputID)
	s.mu.Unlock()
	if e != nil {
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
