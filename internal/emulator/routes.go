package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Endpoint names an API endpoint, for fault injection and request counts.
type Endpoint string

// The endpoints, with their method and path below BasePath.
const (
	// EndpointListTemplates is GET /templates.
	EndpointListTemplates Endpoint = "ListTemplates"
	// EndpointGetTemplate is GET /templates/{id}.
	EndpointGetTemplate Endpoint = "GetTemplate"
	// EndpointStartWithFile is POST /templates/{id}/startWithFile.
	EndpointStartWithFile Endpoint = "StartWithFile"
	// EndpointStartWithData is POST /templates/{id}/startWithData.
	EndpointStartWithData Endpoint = "StartWithData"
	// EndpointCreateJob is POST /templates/{id}/jobs.
	EndpointCreateJob Endpoint = "CreateJob"
	// EndpointUploadJobFile is PUT /jobs/{id}/inputs/{inputId}/file.
	EndpointUploadJobFile Endpoint = "UploadJobFile"
	// EndpointSubmitJob is POST /jobs/{id}/submit.
	EndpointSubmitJob Endpoint = "SubmitJob"
	// EndpointGetJob is GET /jobs/{id}.
	EndpointGetJob Endpoint = "GetJob"
	// EndpointGetJobStatus is GET /jobs/{id}/status.
	EndpointGetJobStatus Endpoint = "GetJobStatus"
	// EndpointCancelJob is POST /jobs/{id}/cancel.
	EndpointCancelJob Endpoint = "CancelJob"
)

// ServeHTTP implements http.Handler: it routes the request, counts it,
// applies the first injected fault that matches, then authenticates and
// handles it; with Options.Logf, it logs one line per request, and with
// Options.JobLog, the jobs the request found or left in ERROR after it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer s.flushJobLog()
	began := time.Now()
	rt := route(r.Method, r.URL.Path)
	f := s.countAndPickFault(rt.endpoint)
	sw := &statusWriter{ResponseWriter: w}
	note := ""
	defer func() {
		if s.opts.Logf != nil {
			ep := string(rt.endpoint)
			if ep == "" {
				ep = "-"
			}
			s.opts.Logf("etl-emulator: %s %s (%s) -> %d %s%s", r.Method, r.URL.Path, ep, sw.code, time.Since(began).Round(time.Microsecond), note)
		}
	}()
	if f != nil {
		var done bool
		if note, done = s.applyFault(sw, r, rt, f); done {
			return
		}
	}
	s.handle(sw, r, rt)
}

// handle answers a request no fault took: authentication, routing errors,
// Accept, then the endpoint's handler.
func (s *Server) handle(w http.ResponseWriter, r *http.Request, rt routed) {
	e := s.checkAuth(r)
	if e == nil {
		e = rt.problem(r)
	}
	if e == nil {
		e = checkAccept(r)
	}
	if e == nil {
		e = s.dispatch(w, r, rt)
	}
	if e != nil {
		writeError(w, e)
	}
}

// dispatch calls the handler of rt's endpoint; 404 when there is none.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, rt routed) *apiError {
	switch rt.endpoint {
	case EndpointListTemplates:
		return s.listTemplates(w)
	case EndpointGetTemplate:
		return s.getTemplate(w, rt.id)
	case EndpointStartWithFile:
		return s.startWithFile(w, r, rt.id)
	case EndpointStartWithData:
		return s.startWithData(w, r, rt.id)
	case EndpointCreateJob:
		return s.createJob(w, rt.id)
	case EndpointUploadJobFile:
		return s.uploadJobFile(w, r, rt.id, rt.input)
	case EndpointSubmitJob:
		return s.submitJob(w, r, rt.id)
	case EndpointGetJob:
		return s.getJob(w, rt.id)
	case EndpointGetJobStatus:
		return s.getJobStatus(w, rt.id)
	case EndpointCancelJob:
		return s.cancelJob(w, r, rt.id)
	}
	return errorf(http.StatusNotFound, "no such resource: %s", r.URL.Path)
}

// routed is the result of routing a request: the endpoint and its ids, or,
// for a known path with another method, the method it allows.
type routed struct {
	endpoint  Endpoint // "" when no endpoint matches
	allow     string   // when the path is known but the method is not
	id, input string   // template or job id; input id
}

// problem answers a request that matches no endpoint: 405 when only the
// method is wrong, else 404.
func (rt routed) problem(r *http.Request) *apiError {
	switch {
	case rt.endpoint != "":
		return nil
	case rt.allow != "":
		return &apiError{status: http.StatusMethodNotAllowed,
			message: fmt.Sprintf("method %s is not allowed on %s; allowed: %s", r.Method, r.URL.Path, rt.allow),
			header:  map[string]string{"Allow": rt.allow}}
	}
	return errorf(http.StatusNotFound, "no such resource: %s", r.URL.Path)
}

// route matches a method and path to an endpoint and its ids. A path of
// an endpoint with another method gets the allowed one in allow; a path
// outside BasePath, with an empty segment, or of no endpoint gets the zero
// routed.
func route(method, path string) routed {
	rest, ok := strings.CutPrefix(path, BasePath+"/")
	if !ok {
		return routed{}
	}
	seg := strings.Split(rest, "/")
	for _, p := range seg {
		if p == "" {
			return routed{}
		}
	}
	pick := func(want string, e Endpoint, id, input string) routed {
		if method != want {
			return routed{allow: want}
		}
		return routed{endpoint: e, id: id, input: input}
	}
	switch {
	case len(seg) == 1 && seg[0] == "templates":
		return pick(http.MethodGet, EndpointListTemplates, "", "")
	case len(seg) == 2 && seg[0] == "templates":
		return pick(http.MethodGet, EndpointGetTemplate, seg[1], "")
	case len(seg) == 3 && seg[0] == "templates" && seg[2] == "startWithFile":
		return pick(http.MethodPost, EndpointStartWithFile, seg[1], "")
	case len(seg) == 3 && seg[0] == "templates" && seg[2] == "startWithData":
		return pick(http.MethodPost, EndpointStartWithData, seg[1], "")
	case len(seg) == 3 && seg[0] == "templates" && seg[2] == "jobs":
		return pick(http.MethodPost, EndpointCreateJob, seg[1], "")
	case len(seg) == 2 && seg[0] == "jobs":
		return pick(http.MethodGet, EndpointGetJob, seg[1], "")
	case len(seg) == 3 && seg[0] == "jobs" && seg[2] == "status":
		return pick(http.MethodGet, EndpointGetJobStatus, seg[1], "")
	case len(seg) == 3 && seg[0] == "jobs" && seg[2] == "submit":
		return pick(http.MethodPost, EndpointSubmitJob, seg[1], "")
	case len(seg) == 3 && seg[0] == "jobs" && seg[2] == "cancel":
		return pick(http.MethodPost, EndpointCancelJob, seg[1], "")
	case len(seg) == 5 && seg[0] == "jobs" && seg[2] == "inputs" && seg[4] == "file":
		return pick(http.MethodPut, EndpointUploadJobFile, seg[1], seg[3])
	}
	return routed{}
}
