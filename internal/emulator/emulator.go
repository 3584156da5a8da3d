package emulator

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultTokenID and DefaultTokenSecret are the credentials a Server accepts
// when Options leaves them empty. They are fake: the emulator's own.
const (
	DefaultTokenID     = "1112140681100620800.1"
	DefaultTokenSecret = "5f4dcc3b5aa765d61d8327deb882cf99" // 32 lower-case hex
)

// BasePath is the path prefix of every endpoint.
const BasePath = "/api/public/v1/etl"

// Job status values, as the service spells them.
const (
	StatusEditing    = "EDITING"
	StatusNotStarted = "NOT_STARTED"
	StatusSubmitted  = "SUBMITTED"
	StatusRunning    = "RUNNING"
	StatusCompleted  = "COMPLETED"
	StatusError      = "ERROR"
	StatusCancelled  = "CANCELLED"
	StatusWaiting    = "WAITING"
	StatusQueued     = "QUEUED"
	StatusExpired    = "EXPIRED"
)

// IsFinal reports whether status is one no transition leaves: COMPLETED,
// ERROR, CANCELLED or EXPIRED.
func IsFinal(status string) bool {
	switch status {
	case StatusCompleted, StatusError, StatusCancelled, StatusExpired:
		return true
	}
	return false
}

// Step is one step of a template; InputID names the job input a file is
// loaded into with PUT /jobs/{jobId}/inputs/{inputId}/file.
type Step struct {
	StepName, DataType, InputID string
	// RequiredColumns are the header columns data loaded into this step
	// must contain, else the job ends in ERROR; nil means the template's
	// RequiredColumns. (An invented rule: see Template.RequiredColumns.)
	RequiredColumns []string
}

// Template is an import template the emulator serves.
type Template struct {
	ID, Name, ModelID, ModelName string
	LastRunTime                  *int64 // epoch ms, nil = never run; updated when a job starts from it
	Steps                        []Step
	// RequiredColumns are the header columns a job's data must contain,
	// else the job ends in ERROR. Invented: no source shows how the
	// service matches columns; this is a test device for the ERROR path.
	RequiredColumns []string
}

// requiredFor returns the columns data loaded into input inputID must
// contain: the step's own, else the template's.
func (t *Template) requiredFor(inputID string) []string {
	for _, st := range t.Steps {
		if st.InputID == inputID && st.RequiredColumns != nil {
			return st.RequiredColumns
		}
	}
	return t.RequiredColumns
}

// firstInput returns the input id of the template's first step, "" when it
// has none: start with file or data loads that input.
func (t *Template) firstInput() string {
	if len(t.Steps) == 0 {
		return ""
	}
	return t.Steps[0].InputID
}

func ptr64(v int64) *int64 { return &v }

// The ids of DefaultTemplates and of their input steps, for tests and
// examples that name a template.
const (
	GLActualsTemplateID      = "640101874288689152"
	GLActualsInputID         = "640101874288689153"
	HeadcountTemplateID      = "640101874288689154"
	HeadcountInputID         = "640101874288689155"
	SalesVolumesTemplateID   = "640101874288689156"
	SalesVolumesInputID      = "640101874288689157"
	SalesGLActualsTemplateID = "640101874288689158"
	SalesGLActualsInputID    = "640101874288689159"

	// "Actuals and Rates" (Finance Plan): two input steps.
	TwoStepTemplateID     = "640101874288689160"
	TwoStepActualsInputID = "640101874288689161" // step "Load Actuals": Account, Amount
	TwoStepRatesInputID   = "640101874288689162" // step "Load Rates": Currency, Rate
	// "Recalculate" (Finance Plan): no input steps.
	NoStepTemplateID = "640101874288689163"
	// "Twin Loads" (Sales Model): two steps both named "Load".
	SameStepNameTemplateID    = "640101874288689164"
	SameStepNameFirstInputID  = "640101874288689165"
	SameStepNameSecondInputID = "640101874288689166"
)

// DefaultTemplates returns the templates a Server serves when
// Options.Templates is nil. Two of them share the name "GL Actuals" on
// purpose (in different models). The first four have one input step each;
// then come a two-step template, one with no input steps, and one whose two
// steps share a step name.
func DefaultTemplates() []Template {
	return []Template{
		{ID: GLActualsTemplateID, Name: "GL Actuals", ModelID: "600000000000000001", ModelName: "Finance Plan",
			Steps:           []Step{{StepName: "Load GL", DataType: "Values", InputID: GLActualsInputID}},
			RequiredColumns: []string{"Account", "Amount"}},
		{ID: HeadcountTemplateID, Name: "Headcount", ModelID: "600000000000000001", ModelName: "Finance Plan",
			LastRunTime:     ptr64(1700000000000),
			Steps:           []Step{{StepName: "Load Headcount", DataType: "Values", InputID: HeadcountInputID}},
			RequiredColumns: []string{"Employee", "Department"}},
		{ID: SalesVolumesTemplateID, Name: "Sales Volumes", ModelID: "600000000000000002", ModelName: "Sales Model",
			Steps:           []Step{{StepName: "Load Volumes", DataType: "Values", InputID: SalesVolumesInputID}},
			RequiredColumns: []string{"Product", "Units"}},
		{ID: SalesGLActualsTemplateID, Name: "GL Actuals", ModelID: "600000000000000002", ModelName: "Sales Model",
			Steps:           []Step{{StepName: "Load GL", DataType: "Values", InputID: SalesGLActualsInputID}},
			RequiredColumns: []string{"Account", "Amount"}},
		{ID: TwoStepTemplateID, Name: "Actuals and Rates", ModelID: "600000000000000001", ModelName: "Finance Plan",
			Steps: []Step{
				{StepName: "Load Actuals", DataType: "Values", InputID: TwoStepActualsInputID, RequiredColumns: []string{"Account", "Amount"}},
				{StepName: "Load Rates", DataType: "Values", InputID: TwoStepRatesInputID, RequiredColumns: []string{"Currency", "Rate"}},
			}},
		{ID: NoStepTemplateID, Name: "Recalculate", ModelID: "600000000000000001", ModelName: "Finance Plan",
			Steps: []Step{}},
		{ID: SameStepNameTemplateID, Name: "Twin Loads", ModelID: "600000000000000002", ModelName: "Sales Model",
			Steps: []Step{
				{StepName: "Load", DataType: "Values", InputID: SameStepNameFirstInputID},
				{StepName: "Load", DataType: "Values", InputID: SameStepNameSecondInputID},
			},
			RequiredColumns: []string{"Product", "Units"}},
	}
}

func cloneTemplate(t Template) Template {
	if t.LastRunTime != nil {
		t.LastRunTime = ptr64(*t.LastRunTime)
	}
	t.Steps = slices.Clone(t.Steps)
	for i := range t.Steps {
		t.Steps[i].RequiredColumns = slices.Clone(t.Steps[i].RequiredColumns)
	}
	t.RequiredColumns = slices.Clone(t.RequiredColumns)
	return t
}

// Options configure a Server. The zero value is usable.
type Options struct {
	TokenID, TokenSecret string     // default DefaultTokenID / DefaultTokenSecret
	Templates            []Template // nil = DefaultTemplates()
	UserName             string     // default "Emulator User"
	// RunTime is how long a started (RUNNING) or SUBMITTED job runs before
	// it is COMPLETED or ERROR; default 100ms. With Instant, jobs are final
	// as soon as they start or are submitted.
	RunTime      time.Duration
	Instant      bool
	ExpireAfter  time.Duration                    // EDITING job becomes EXPIRED after this; default 1h
	MaxDataBytes int64                            // start-with-data body limit, default 25 MiB; bigger -> 413
	MaxKeptRows  int                              // data rows kept per upload for inspection, default 1000; negative keeps none
	Now          func() time.Time                 // default time.Now
	Logf         func(format string, args ...any) // optional request log; never given credentials
	// ConflictStatus is the status of a conflict: submit or cancel of a job
	// in a final status, a PUT into a job no longer EDITING. 0 means 409.
	// Invented: no source shows what the service answers (real clients
	// see 400 or 422 for rejected requests, or a plain 200); set 400 to
	// test a client that must not depend on 409. It must be a 4xx status.
	ConflictStatus int
	// SubmitMissingInputs decides a created job submitted while some of its
	// template's inputs were never loaded: MissingInputsError (the default)
	// ends it in ERROR, MissingInputsAccept runs it with the inputs it has.
	// Invented: no source documents this case.
	SubmitMissingInputs MissingInputs
}

// MissingInputs is a choice for Options.SubmitMissingInputs.
type MissingInputs string

// The choices for Options.SubmitMissingInputs.
const (
	MissingInputsError  MissingInputs = "error"  // the job ends in ERROR ("no input data ...")
	MissingInputsAccept MissingInputs = "accept" // the job runs with the inputs loaded
)

// Server is the emulator: an http.Handler, safe for concurrent requests.
type Server struct {
	opts    Options
	runTime time.Duration
	maxKept int
	tokenID []byte
	secret  []byte

	mu        sync.Mutex
	templates []Template
	tmplIndex map[string]int
	jobs      []*job
	jobIndex  map[string]*job
	nextID    uint64
	faults    []*faultState
	requests  map[Endpoint]int
	total     int
}

// New returns a Server configured by opts.
func New(opts Options) *Server {
	if opts.TokenID == "" {
		opts.TokenID = DefaultTokenID
	}
	if opts.TokenSecret == "" {
		opts.TokenSecret = DefaultTokenSecret
	}
	if opts.Templates == nil {
		opts.Templates = DefaultTemplates()
	}
	if opts.UserName == "" {
		opts.UserName = "Emulator User"
	}
	if opts.ExpireAfter <= 0 {
		opts.ExpireAfter = time.Hour
	}
	if opts.MaxDataBytes <= 0 {
		opts.MaxDataBytes = 25 << 20
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ConflictStatus == 0 {
		opts.ConflictStatus = http.StatusConflict
	}
	if opts.ConflictStatus < 400 || opts.ConflictStatus > 499 {
		panic(fmt.Sprintf("emulator: Options.ConflictStatus %d is not a 4xx status", opts.ConflictStatus))
	}
	switch opts.SubmitMissingInputs {
	case "":
		opts.SubmitMissingInputs = MissingInputsError
	case MissingInputsError, MissingInputsAccept:
	default:
		panic(fmt.Sprintf("emulator: Options.SubmitMissingInputs %q is not %q or %q", opts.SubmitMissingInputs, MissingInputsError, MissingInputsAccept))
	}
	s := &Server{
		opts:      opts,
		tokenID:   []byte(opts.TokenID),
		secret:    []byte(opts.TokenSecret),
		tmplIndex: map[string]int{},
		jobIndex:  map[string]*job{},
		requests:  map[Endpoint]int{},
		// 19-digit ids, increasing.
		nextID: 1140000000000000000,
	}
	switch {
	case opts.Instant:
		s.runTime = 0
	case opts.RunTime <= 0:
		s.runTime = 100 * time.Millisecond
	default:
		s.runTime = opts.RunTime
	}
	switch {
	case opts.MaxKeptRows == 0:
		s.maxKept = 1000
	case opts.MaxKeptRows < 0:
		s.maxKept = 0
	default:
		s.maxKept = opts.MaxKeptRows
	}
	for i, t := range opts.Templates {
		s.templates = append(s.templates, cloneTemplate(t))
		s.tmplIndex[t.ID] = i
	}
	return s
}

// Templates returns a snapshot of the templates, with their current
// lastRunTime.
func (s *Server) Templates() []Template {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Template, len(s.templates))
	for i, t := range s.templates {
		out[i] = cloneTemplate(t)
	}
	return out
}

// Stats returns the number of jobs created and of requests received.
func (s *Server) Stats() (jobs int, requests int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.jobs), s.total
}

// Requests returns how many requests reached endpoint e, faulted ones
// included.
func (s *Server) Requests(e Endpoint) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[e]
}

// apiError is an error answer.
type apiError struct {
	status  int
	message string
	header  map[string]string
}

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"code":500,"message":"encoding response failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(b)+1))
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

type errorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func writeError(w http.ResponseWriter, e *apiError) {
	for k, v := range e.header {
		w.Header().Set(k, v)
	}
	writeJSON(w, e.status, errorBody{Code: e.status, Message: e.message})
}

// statusWriter records the status code for the request log.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// discardWriter swallows a response (DropAfterHandling).
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header {
	if w.h == nil {
		w.h = http.Header{}
	}
	return w.h
}
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

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
		note = " [fault]"
		if f.Latency > 0 {
			t := time.NewTimer(f.Latency)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				note = " [fault: client gone during latency]"
				return
			}
		}
		if f.CloseBeforeReading {
			note = " [fault: connection reset]"
			abortConn(w, true)
			return
		}
		if f.EchoCredentials {
			writeError(sw, echoCredentials(r, f))
			return
		}
		if f.Status != 0 && f.Body != "" {
			ct := "text/plain; charset=utf-8"
			if strings.HasPrefix(f.Body, "{") || strings.HasPrefix(f.Body, "[") {
				ct = "application/json"
			}
			sw.Header().Set("Content-Type", ct)
			if f.RetryAfter != "" {
				sw.Header().Set("Retry-After", f.RetryAfter)
			}
			sw.WriteHeader(f.Status)
			_, _ = sw.Write([]byte(f.Body))
			return
		}
		if f.Status != 0 {
			e := &apiError{status: f.Status, message: "injected fault"}
			if f.RetryAfter != "" {
				e.header = map[string]string{"Retry-After": f.RetryAfter}
			}
			writeError(sw, e)
			return
		}
		if f.DropAfterHandling {
			dw := &discardWriter{}
			s.handle(dw, r, rt)
			note = fmt.Sprintf(" [fault: handled with %d, connection dropped]", dw.code)
			abortConn(w, false)
			return
		}
	}
	s.handle(sw, r, rt)
}

// abortConn closes the client connection without a response. With reset,
// the close sends a TCP RST.
func abortConn(w http.ResponseWriter, reset bool) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if reset {
		c := conn
		if nc, ok := c.(interface{ NetConn() net.Conn }); ok {
			c = nc.NetConn()
		}
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
	}
	conn.Close()
}

func (s *Server) authorized(r *http.Request) bool {
	user, pass, ok := r.BasicAuth()
	if !ok {
		return false
	}
	u := subtle.ConstantTimeCompare([]byte(user), s.tokenID)
	p := subtle.ConstantTimeCompare([]byte(pass), s.secret)
	return u&p == 1
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request, rt routed) {
	if _, _, hasAuth := r.BasicAuth(); !s.authorized(r) {
		msg := "missing HTTP Basic credentials: send the application token id as user name and its secret as password"
		if hasAuth {
			msg = "invalid application token id or secret"
		}
		writeError(w, &apiError{status: http.StatusUnauthorized, message: msg,
			header: map[string]string{"WWW-Authenticate": `Basic realm="ETL", charset="UTF-8"`}})
		return
	}
	if rt.endpoint == "" {
		if rt.allow != "" {
			writeError(w, &apiError{status: http.StatusMethodNotAllowed,
				message: fmt.Sprintf("method %s is not allowed on %s; allowed: %s", r.Method, r.URL.Path, rt.allow),
				header:  map[string]string{"Allow": rt.allow}})
			return
		}
		writeError(w, errorf(http.StatusNotFound, "no such resource: %s", r.URL.Path))
		return
	}
	if !acceptable(r.Header.Values("Accept")) {
		writeError(w, errorf(http.StatusNotAcceptable, "Accept header %q accepts none of */*, application/json, text/csv", strings.Join(r.Header.Values("Accept"), ", ")))
		return
	}
	var e *apiError
	switch rt.endpoint {
	case EndpointListTemplates:
		e = s.listTemplates(w)
	case EndpointGetTemplate:
		e = s.getTemplate(w, rt.id)
	case EndpointStartWithFile:
		e = s.startWithFile(w, r, rt.id)
	case EndpointStartWithData:
		e = s.startWithData(w, r, rt.id)
	case EndpointCreateJob:
		e = s.createJob(w, rt.id)
	case EndpointUploadJobFile:
		e = s.uploadJobFile(w, r, rt.id, rt.input)
	case EndpointSubmitJob:
		e = s.submitJob(w, r, rt.id)
	case EndpointGetJob:
		e = s.getJob(w, rt.id)
	case EndpointGetJobStatus:
		e = s.getJobStatus(w, rt.id)
	case EndpointCancelJob:
		e = s.cancelJob(w, r, rt.id)
	}
	if e != nil {
		writeError(w, e)
	}
}

// routed is the result of routing a request.
type routed struct {
	endpoint  Endpoint // "" when no endpoint matches
	allow     string   // when the path is known but the method is not
	id, input string   // template or job id; input id
}

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

// acceptable reports whether the Accept header values (if any) accept one of
// */*, application/json or text/csv.
func acceptable(values []string) bool {
	present := false
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			present = true
			mt, params, err := mime.ParseMediaType(item)
			if err != nil {
				continue
			}
			if q, ok := params["q"]; ok && qZero(q) {
				continue
			}
			switch mt {
			case "*/*", "application/*", "application/json", "text/*", "text/csv":
				return true
			}
		}
	}
	return !present
}

// qZero reports whether a q value is zero (or unparsable, which counts as
// not acceptable).
func qZero(q string) bool {
	var f float64
	if _, err := fmt.Sscanf(q, "%g", &f); err != nil {
		return true
	}
	return f <= 0
}

// mediaType returns the lower-cased media type of the Content-Type header,
// "" when absent, and ok=false when present but unparsable.
func mediaType(r *http.Request) (mt string, params map[string]string, ok bool) {
	ct := r.Header.Get("Content-Type")
	if strings.TrimSpace(ct) == "" {
		return "", nil, true
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", nil, false
	}
	return mt, params, true
}

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

// Fault is an injected failure. The first fault (in injection order) that
// matches a request applies to it.
type Fault struct {
	Endpoint    Endpoint // "" = any request (unknown paths included)
	Count       int      // how many matching requests it applies to; 0 = unlimited (until ClearFaults)
	Probability float64  // 0 = always; else apply to this fraction of matching requests, at random
	// Status answers with this status (and {"code":..,"message":"injected
	// fault"}) without acting on the request.
	Status     int
	RetryAfter string // sent as Retry-After with Status
	// Body replaces the JSON error body sent with Status (sent as is, with
	// Content-Type application/json when it starts with '{' or '[', else
	// text/plain).
	Body    string
	Latency time.Duration // sleep before handling; a cancelled request ends the wait
	// DropAfterHandling handles the request fully (a job IS created), then
	// closes the connection without writing any response.
	DropAfterHandling bool
	// CloseBeforeReading resets the connection at once, without reading the
	// body or acting.
	CloseBeforeReading bool
	// EchoCredentials answers with Status (500 when 0) and an error body
	// that echoes what the request carried: the raw Authorization header,
	// the decoded "id:secret", the raw secret and the secret URL-encoded
	// (query and path escaping), all in its message (a service error body
	// that echoes credentials). It replaces Body.
	EchoCredentials bool
}

// echoCredentials builds the answer of a Fault with EchoCredentials.
func echoCredentials(r *http.Request, f *Fault) *apiError {
	status := f.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	user, secret, _ := r.BasicAuth()
	e := errorf(status, "injected fault: the request carried Authorization: %s; credentials: %s; secret: %s; query-escaped: %s; path-escaped: %s",
		r.Header.Get("Authorization"), user+":"+secret, secret, url.QueryEscape(secret), url.PathEscape(secret))
	if f.RetryAfter != "" {
		e.header = map[string]string{"Retry-After": f.RetryAfter}
	}
	return e
}

type faultState struct {
	Fault
	left int // remaining applications when Count > 0
}

// InjectFault adds a fault after those already injected.
func (s *Server) InjectFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultState{Fault: f, left: f.Count})
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

func (s *Server) countAndPickFault(e Endpoint) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total++
	if e != "" {
		s.requests[e]++
	}
	for i, f := range s.faults {
		if f.Endpoint != "" && f.Endpoint != e {
			continue
		}
		if f.Count > 0 && f.left <= 0 {
			continue
		}
		if f.Probability > 0 && rand.Float64() >= f.Probability {
			continue
		}
		if f.Count > 0 {
			f.left--
			if f.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		out := f.Fault
		return &out
	}
	return nil
}
