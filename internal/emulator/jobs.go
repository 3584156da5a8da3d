package emulator

import (
	"net/http"
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
	Upload                                             *Upload // nil for a created job with no file yet
	Message                                            string  // why it ended in ERROR
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
	upload          *Upload
	// outcome of the data once run: "" when there is no data yet.
	outcome, message string
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

func (j *job) final() transition {
	if j.outcome == "" {
		return transition{status: StatusError, message: "no input data"}
	}
	return transition{status: j.outcome, message: j.message}
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
	if j.upload != nil {
		u := *j.upload
		u.Header = append([]string(nil), u.Header...)
		u.Rows = append([][]string(nil), u.Rows...)
		out.Upload = &u
	}
	return out
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
			steps = append(steps, stepJSON(st))
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
func (s *Server) startJob(w http.ResponseWriter, tmplID string, u *Upload, outcome, message string) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.templateLocked(tmplID)
	if !ok {
		return errorf(http.StatusNotFound, "template %q not found", tmplID)
	}
	now := s.opts.Now()
	j := s.newJobLocked(t, now)
	j.upload, j.outcome, j.message = u, outcome, message
	j.startedIsUpdate = true
	fin := j.final()
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
	j, ok := s.jobIndex[id]
	if !ok {
		return errorf(http.StatusNotFound, "job %q not found", id)
	}
	writeJSON(w, http.StatusOK, j.json(s.opts.Now()))
	return nil
}

func (s *Server) getJobStatus(w http.ResponseWriter, id string) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobIndex[id]
	if !ok {
		return errorf(http.StatusNotFound, "job %q not found", id)
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
	j, ok := s.jobIndex[id]
	if !ok {
		return errorf(http.StatusNotFound, "job %q not found", id)
	}
	now := s.opts.Now()
	switch st := j.status(now); {
	case IsFinal(st):
		return errorf(http.StatusConflict, "job %s cannot be submitted: its status is %s", id, st)
	case st == StatusSubmitted:
	default:
		fin := j.final()
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
	j, ok := s.jobIndex[id]
	if !ok {
		return errorf(http.StatusNotFound, "job %q not found", id)
	}
	now := s.opts.Now()
	if st := j.status(now); IsFinal(st) {
		return errorf(http.StatusConflict, "job %s cannot be cancelled: its status is %s", id, st)
	}
	j.replan(now, transition{at: now, status: StatusCancelled})
	writeJSON(w, http.StatusOK, j.json(now))
	return nil
}

// editableLocked checks that job id exists, takes input inputID and can
// still receive a file. s.mu must be held.
func (s *Server) editableLocked(id, inputID string) (*job, *apiError) {
	j, ok := s.jobIndex[id]
	if !ok {
		return nil, errorf(http.StatusNotFound, "job %q not found", id)
	}
	t, ok := s.templateLocked(j.templateID)
	found := false
	if ok {
		for _, st := range t.Steps {
			if st.InputID == inputID {
				found = true
			}
		}
	}
	if !found {
		return nil, errorf(http.StatusNotFound, "input %q not found in job %s (template %s)", inputID, id, j.templateID)
	}
	if st := j.status(s.opts.Now()); st != StatusEditing && st != StatusNotStarted {
		return nil, errorf(http.StatusConflict, "job %s cannot take a file: its status is %s", id, st)
	}
	return j, nil
}

func (s *Server) uploadJobFile(w http.ResponseWriter, r *http.Request, id, inputID string) *apiError {
	s.mu.Lock()
	j, e := s.editableLocked(id, inputID)
	var required []string
	if e == nil {
		if t, ok := s.templateLocked(j.templateID); ok {
			required = append(required, t.RequiredColumns...)
		}
	}
	s.mu.Unlock()
	if e != nil {
		return e
	}
	u, outcome, msg, e := s.readFileUpload(r, required)
	if e != nil {
		return e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, e := s.editableLocked(id, inputID); e != nil {
		return e
	}
	j.upload, j.outcome, j.message = u, outcome, msg
	w.WriteHeader(http.StatusNoContent)
	return nil
}
