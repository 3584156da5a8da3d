package emulator

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Fault is an injected failure. The first fault (in injection order) that
// matches a request applies to it.
type Fault struct {
	Endpoint    Endpoint // "" = any request (unknown paths included)
	Count       int      // how many matching requests it applies to; 0 = unlimited (until ClearFaults)
	Probability float64  // 0 = always; else apply to this fraction (at most 1) of matching requests, at random
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

// faultState is an injected Fault with the number of applications it has
// left; countAndPickFault drops it once they are used up.
type faultState struct {
	Fault
	left int // remaining applications when Count > 0
}

// InjectFault adds a fault after those already injected. It panics, with
// the error of f.Validate, on a value it cannot honour (a Probability that
// is NaN or outside 0..1, ...).
func (s *Server) InjectFault(f Fault) {
	if err := f.Validate(); err != nil {
		panic(err.Error())
	}
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

// countAndPickFault counts a request to e and returns the fault that
// applies to it, if any, using up one of its applications.
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

// applyFault applies f to a request: its latency first, then the first of
// reset, echoed credentials, a raw or JSON error answer, or a drop after
// handling that it sets. It returns a note for the request log and whether
// the request is done (else it is handled as usual).
func (s *Server) applyFault(sw *statusWriter, r *http.Request, rt routed, f *Fault) (note string, done bool) {
	if f.Latency > 0 && !sleepCtx(r, f.Latency) {
		return " [fault: client gone during latency]", true
	}
	switch {
	case f.CloseBeforeReading:
		abortConn(sw.ResponseWriter, true)
		return " [fault: connection reset]", true
	case f.EchoCredentials:
		writeError(sw, echoCredentials(r, f))
	case f.Status != 0 && f.Body != "":
		writeRawFault(sw, f)
	case f.Status != 0:
		e := &apiError{status: f.Status, message: "injected fault"}
		if f.RetryAfter != "" {
			e.header = map[string]string{"Retry-After": f.RetryAfter}
		}
		writeError(sw, e)
	case f.DropAfterHandling:
		dw := &discardWriter{}
		s.handle(dw, r, rt)
		abortConn(sw.ResponseWriter, false)
		return fmt.Sprintf(" [fault: handled with %d, connection dropped]", dw.code), true
	default:
		return " [fault]", false
	}
	return " [fault]", true
}

// sleepCtx waits d, or until the request is cancelled (then false).
func sleepCtx(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// writeRawFault answers with a fault's Status and Body as is.
func writeRawFault(w http.ResponseWriter, f *Fault) {
	ct := "text/plain; charset=utf-8"
	if strings.HasPrefix(f.Body, "{") || strings.HasPrefix(f.Body, "[") {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	if f.RetryAfter != "" {
		w.Header().Set("Retry-After", f.RetryAfter)
	}
	w.WriteHeader(f.Status)
	_, _ = w.Write([]byte(f.Body))
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

// discardWriter swallows a response (DropAfterHandling).
type discardWriter struct {
	h    http.Header
	code int
}

// Header returns the header map, made on first use; it is never sent.
func (w *discardWriter) Header() http.Header {
	if w.h == nil {
		w.h = http.Header{}
	}
	return w.h
}
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }

// WriteHeader records the first status code, for the request log's note;
// nothing is sent.
func (w *discardWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}
