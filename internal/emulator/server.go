package emulator

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// The credentials a Server accepts when Options leaves them empty. They are
// fake: the emulator's own.
const (
	// DefaultTokenID is the application token id a Server accepts by
	// default.
	DefaultTokenID = "1112140681100620800.1"
	// DefaultTokenSecret is the token secret a Server accepts by default:
	// 32 lower-case hex digits.
	DefaultTokenSecret = "5f4dcc3b5aa765d61d8327deb882cf99"
)

// BasePath is the path prefix of every endpoint.
const BasePath = "/api/public/v1/etl"

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
	// test a client that must not depend on 409. It must be a 4xx status,
	// or ConflictUnchanged (200): the request is answered 200 with the job
	// as it is, unchanged (a PUT's file is read and dropped).
	ConflictStatus int
	// SubmitMissingInputs decides a created job submitted while some of its
	// template's inputs were never loaded: MissingInputsError (the default)
	// ends it in ERROR, MissingInputsAccept runs it with the inputs it has.
	// Invented: no source documents this case.
	SubmitMissingInputs MissingInputs
	// MissingMetadata decides a start with file or a PUT of a job's file
	// whose multipart body has no metadata part: MissingMetadataReject (the
	// default) answers 422, MissingMetadataDefault reads the part named
	// "file" as CSV in UTF-8, its file name from the part's filename.
	// Invented: the seed requires the metadata part, yet a public client
	// sends the file part alone and reports success.
	MissingMetadata MissingMetadata
	// RequiredColumns decides whether data must hold its template's (or
	// step's) required columns, matched by header name: RequiredColumnsOn
	// (the default) ends a job whose header lacks one in ERROR;
	// RequiredColumnsOff checks none, so that well-formed data always
	// completes. Invented: see Template.RequiredColumns.
	RequiredColumns RequiredColumnsRule
	// JobLog, when set, is called once for every job that ends in ERROR,
	// with a line naming the job, its template (id and name) and the
	// reason (Job.Message): the ETLJob resource carries no error text, so
	// this is where a user of the emulator sees why. It is called when the
	// ERROR is reached (timers follow RunTime on the real clock) or, with
	// an Options.Now that is not the real clock, when the job is next
	// looked at; never with the Server's lock held.
	JobLog func(format string, args ...any)
}

// ConflictUnchanged is the Options.ConflictStatus that answers a conflict
// 200 with the job unchanged.
const ConflictUnchanged = http.StatusOK

// MissingInputs is a choice for Options.SubmitMissingInputs.
type MissingInputs string

// The choices for Options.SubmitMissingInputs.
const (
	// MissingInputsError ends the job in ERROR ("no input data ..."); it is
	// the default.
	MissingInputsError MissingInputs = "error"
	// MissingInputsAccept runs the job with the inputs it has.
	MissingInputsAccept MissingInputs = "accept"
)

// MissingMetadata is a choice for Options.MissingMetadata.
type MissingMetadata string

// The choices for Options.MissingMetadata.
const (
	// MissingMetadataReject answers 422 to a multipart upload without a
	// metadata part; it is the default.
	MissingMetadataReject MissingMetadata = "reject"
	// MissingMetadataDefault reads an upload without a metadata part as if
	// its metadata named the part "file", CSV and UTF-8, and the part's
	// filename.
	MissingMetadataDefault MissingMetadata = "default"
)

// RequiredColumnsRule is a choice for Options.RequiredColumns.
type RequiredColumnsRule string

// The choices for Options.RequiredColumns.
const (
	// RequiredColumnsOn checks the required columns by header name; it is
	// the default.
	RequiredColumnsOn RequiredColumnsRule = "on"
	// RequiredColumnsOff checks no required column.
	RequiredColumnsOff RequiredColumnsRule = "off"
)

// withDefaults fills in the defaults of the fields left zero. It panics on
// a ConflictStatus, SubmitMissingInputs, MissingMetadata or RequiredColumns
// no rule can use.
func (o Options) withDefaults() Options {
	if o.TokenID == "" {
		o.TokenID = DefaultTokenID
	}
	if o.TokenSecret == "" {
		o.TokenSecret = DefaultTokenSecret
	}
	if o.Templates == nil {
		o.Templates = DefaultTemplates()
	}
	if o.UserName == "" {
		o.UserName = "Emulator User"
	}
	if o.ExpireAfter <= 0 {
		o.ExpireAfter = time.Hour
	}
	if o.MaxDataBytes <= 0 {
		o.MaxDataBytes = 25 << 20
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ConflictStatus == 0 {
		o.ConflictStatus = http.StatusConflict
	}
	if o.ConflictStatus != ConflictUnchanged && (o.ConflictStatus < 400 || o.ConflictStatus > 499) {
		panic(fmt.Sprintf("emulator: Options.ConflictStatus %d is neither a 4xx status nor 200", o.ConflictStatus))
	}
	o.SubmitMissingInputs = choice("SubmitMissingInputs", o.SubmitMissingInputs, MissingInputsError, MissingInputsAccept)
	o.MissingMetadata = choice("MissingMetadata", o.MissingMetadata, MissingMetadataReject, MissingMetadataDefault)
	o.RequiredColumns = choice("RequiredColumns", o.RequiredColumns, RequiredColumnsOn, RequiredColumnsOff)
	return o
}

// Server is the emulator: an http.Handler that serves the API from memory,
// safe for concurrent requests; mu guards its templates, jobs, faults and
// counts.
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
	// ended holds the jobs that reached ERROR and are not yet reported to
	// Options.JobLog (see joblog.go).
	ended []endedJob
}

// New returns a Server configured by opts. It panics, with the error of
// opts.Validate, on a value it cannot honour (a negative RunTime, a
// ConflictStatus neither 0, 200 nor a 4xx status, a rule's choice none of
// its choices, ...).
func New(opts Options) *Server {
	if err := opts.Validate(); err != nil {
		panic(err.Error())
	}
	opts = opts.withDefaults()
	s := &Server{
		opts:      opts,
		runTime:   runTime(opts),
		maxKept:   keptRows(opts.MaxKeptRows),
		tokenID:   []byte(opts.TokenID),
		secret:    []byte(opts.TokenSecret),
		tmplIndex: map[string]int{},
		jobIndex:  map[string]*job{},
		requests:  map[Endpoint]int{},
		// 19-digit ids, increasing.
		nextID: 1140000000000000000,
	}
	for i, t := range opts.Templates {
		s.templates = append(s.templates, cloneTemplate(t))
		s.tmplIndex[t.ID] = i
	}
	return s
}

// runTime returns how long a job runs: 0 with Instant, else RunTime
// (100ms when unset; New refuses a negative one).
func runTime(o Options) time.Duration {
	switch {
	case o.Instant:
		return 0
	case o.RunTime <= 0:
		return 100 * time.Millisecond
	}
	return o.RunTime
}

// keptRows returns how many data rows an upload keeps for MaxKeptRows n:
// 1000 when unset, none when negative.
func keptRows(n int) int {
	switch {
	case n == 0:
		return 1000
	case n < 0:
		return 0
	}
	return n
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

// choice returns the option name's value v, or def (its default) when v
// is empty; it panics, naming the option, when v is neither def nor other.
func choice[T ~string](name string, v, def, other T) T {
	switch v {
	case "":
		return def
	case def, other:
		return v
	}
	panic(fmt.Sprintf("emulator: Options.%s %q is not %q or %q", name, v, def, other))
}
