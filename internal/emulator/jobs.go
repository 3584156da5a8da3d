package emulator

import (
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

// Job is a copy of a job's state as of one moment, for tests to inspect:
// nothing in it is shared with the emulator.
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

// job is the emulator's state of one job: what it answers with, its status
// schedule, and the data it received. Server.mu guards it.
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
	// errLogged: the job's ERROR was queued for Options.JobLog (at most
	// once per job).
	errLogged bool
}

// load is data received for a job and the outcome it leads to.
type load struct {
	upload           *Upload
	outcome, message string // COMPLETED, or ERROR and why
}

// snapshot returns the job as of now, as a Job that shares nothing with j.
func (j *job) snapshot(now time.Time) Job {
	i := j.current(now)
	out := Job{ID: j.id, TemplateID: j.templateID, Name: j.name, ModelID: j.modelID, ModelName: j.modelName,
		UserName: j.userName, Status: j.sched[i].status, Created: j.created, Purged: j.purged}
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
	return out
}

// jobJSON is the ETLJob resource, as the API answers it.
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

// json returns the job as of now as the API answers it: dates in epoch
// milliseconds, updatedDate null while the job has no update (see
// updated).
func (j *job) json(now time.Time) jobJSON {
	out := jobJSON{ID: j.id, Name: j.name, Status: j.status(now), ModelID: j.modelID, ModelName: j.modelName,
		CreatedDate: j.created.UnixMilli(), UserName: j.userName}
	if u, ok := j.updated(now); ok {
		out.UpdatedDate = ptr64(u.UnixMilli())
	}
	return out
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

// apiJobLocked returns job id as the API sees it: 404 when unknown or
// purged. A job found in ERROR is queued for Options.JobLog, if it was
// not yet. s.mu must be held.
func (s *Server) apiJobLocked(id string) (*job, *apiError) {
	j, ok := s.jobIndex[id]
	if !ok || j.purged {
		return nil, errorf(http.StatusNotFound, "job %q not found", id)
	}
	s.noteEndLocked(j, s.opts.Now())
	return j, nil
}

// conflictLocked is the answer to a request job j's status does not allow
// (Options.ConflictStatus): an error of that status, or with
// ConflictUnchanged, 200 with the job as of now. s.mu must be held.
func (s *Server) conflictLocked(j *job, now time.Time, format string, args ...any) *apiError {
	e := errorf(s.opts.ConflictStatus, format, args...)
	if s.opts.ConflictStatus == ConflictUnchanged {
		e.body = j.json(now)
	}
	return e
}
