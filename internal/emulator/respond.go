package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// apiError is an error answer a handler returns: its status, the message
// of its JSON body, and headers to send with it (such as Allow or
// Retry-After). writeError sends it. A conflict answered 200
// (ConflictUnchanged) is one too, with the job as its body.
type apiError struct {
	status  int
	message string
	header  map[string]string
	body    any // sent instead of {"code","message"} when set
}

// errorf returns the error answer of status with a formatted message.
func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
}

// writeJSON answers status with v as JSON (and a final newline).
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

// errorBody is the JSON body of every error answer.
type errorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// writeError sends e: its headers, then its status with the JSON body
// {"code":status,"message":...} (or e.body, when set).
func writeError(w http.ResponseWriter, e *apiError) {
	for k, v := range e.header {
		w.Header().Set(k, v)
	}
	if e.body != nil {
		writeJSON(w, e.status, e.body)
		return
	}
	writeJSON(w, e.status, errorBody{Code: e.status, Message: e.message})
}

// statusWriter records the status code for the request log.
type statusWriter struct {
	http.ResponseWriter
	code int
}

// WriteHeader records the first status code, then passes it on.
func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write records 200, the status a first Write implies, when no status
// was written yet.
func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap returns the wrapped ResponseWriter, so that http.ResponseController
// reaches the features (flushing, hijacking) statusWriter does not wrap.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
