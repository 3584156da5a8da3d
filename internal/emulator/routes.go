package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Endpoint names an API endpoint, for fault injection and request counts.
type Endpoint string

// The endpoints.
const (
	EndpointListTemplates Endpoint = "ListTemplates"
	EndpointGetTemplate   Endpoint = "GetTemplate"
	EndpointStartWithFile Endpoint = "StartWithFile"
	EndpointStartWithData Endpoint = "StartWithData"
	EndpointCreateJob     Endpoint = "CreateJob"
	EndpointUploadJobFile Endpoint = "UploadJobFile"
	EndpointSubmitJob     Endpoint = "SubmitJob"
	EndpointGetJob        Endpoint = "GetJob"
	EndpointGetJobStatus  Endpoint = "GetJobStatus"
	EndpointCancelJob     Endpoint = "CancelJob"
)

// ServeHTTP implements http.Handler: route, fault injection, authentication,
// then the endpoint.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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

// dispatch calls the endpoint's handler.
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

// routed is the result of routing a request.
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

// route matches a method and path to an endpoint.
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
