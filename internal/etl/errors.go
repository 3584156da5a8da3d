package etl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Bounds on what an error keeps of the service's answer.
const (
	// maxErrorBody is how many bytes of an error answer's body are read and
	// kept in APIError.Body.
	maxErrorBody = 4 << 10
	// maxErrorMessage is the length, in bytes, APIError.Message is cut to.
	maxErrorMessage = 512
)

// APIError is a non-2xx answer of the service: the request, the status and
// what the body said, with every form of the secret redacted.
type APIError struct {
	Method     string // e.g. "POST"
	Path       string // e.g. "/api/public/v1/etl/templates/123/startWithFile"
	StatusCode int
	// Message is the service's own message: a JSON body's message field
	// when the body is JSON, the raw text otherwise, cut to a sane length.
	Message string
	// Body is the raw answer, cut to 4 KiB.
	Body string
	// Attempts is how many requests were made, retries included.
	Attempts int
	// earlierWritten: an attempt before the one answered was written in
	// full, so the service may have acted on it.
	earlierWritten bool
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d %s", e.Method, e.Path, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Hint says what to check for the error's status, or "" when there is
// nothing more to say.
func (e *APIError) Hint() string {
	switch e.StatusCode {
	case http.StatusUnauthorized:
		return "check the token id and secret, and the hub: a token only works on the hub it was issued on"
	case http.StatusForbidden:
		return "the token or its user lacks a permission: listing templates needs Read Model, starting, submitting and cancelling jobs need Update Model, and the user needs at least Modeler access"
	case http.StatusNotFound:
		return "check the template or job id: it is unknown to the service, or not visible to this token"
	case http.StatusNotAcceptable:
		return "the service refused the Accept header: this is a client bug, please report it"
	case http.StatusRequestEntityTooLarge:
		return "the body is over the service's size limit: a JSON body of rows takes at most 25 MB (larger rows are normally sent as a CSV file automatically), so the service's limit may be lower here; write the data to a file and use file.path"
	case http.StatusUnsupportedMediaType:
		return "the service refused the Content-Type: this is a client bug, please report it"
	case http.StatusUnprocessableEntity:
		return "the upload was malformed: it needs a metadata part and exactly one file part named as metadata.input.partName"
	case http.StatusBadRequest:
		return "check the file's format and encoding: the data must decode in the declared encoding"
	case http.StatusConflict:
		return "the job is in a status that does not allow this action"
	case http.StatusTooManyRequests:
		return "the service is rate limiting this token: retry later, or raise max_retries"
	}
	return ""
}

// newAPIError reads the answer's body (bounded) and keeps it, and the
// service's message in it, with every form of the secret redacted. The
// message is redacted after it is extracted too, since decoding JSON can
// unescape a form the raw body hid.
func newAPIError(method, path string, resp *http.Response, attempts int, forms []string) *APIError {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	body := Redact(string(raw), forms)
	msg := Redact(serviceMessage([]byte(body)), forms)
	return &APIError{
		Method: method, Path: path, StatusCode: resp.StatusCode,
		Message: cut(msg, maxErrorMessage), Body: body, Attempts: attempts,
	}
}

// serviceMessage extracts a human message from an error body: the usual
// message fields of a JSON object, else the text itself.
func serviceMessage(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var obj map[string]any
	if json.Unmarshal(raw, &obj) == nil {
		for _, k := range []string{"message", "errorMessage", "error_description", "detail", "error", "title", "errors"} {
			if m := messageOf(obj[k]); m != "" {
				return m
			}
		}
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.Join(strings.Fields(string(raw)), " ")
}

// messageOf returns the message a JSON value holds: a string as is, an
// object's "message" field, or the messages of an array's elements joined
// with "; "; "" for anything else.
func messageOf(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case map[string]any:
		if m, ok := t["message"].(string); ok {
			return m
		}
	case []any:
		var parts []string
		for _, e := range t {
			if m := messageOf(e); m != "" {
				parts = append(parts, m)
			}
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// cut returns s when it is at most n bytes long, else its first n bytes,
// backed off to a rune boundary, followed by "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// RequestError is a request that got no usable answer: the connection
// failed, was reset, or the answer timed out, on every attempt.
type RequestError struct {
	Method   string
	Path     string
	Attempts int
	Err      error
	forms    []string // the secret's forms, redacted from Error()
}

// Error redacts every form of the secret from the message: Err, from the
// transport, may quote the request.
func (e *RequestError) Error() string {
	if e.Attempts > 1 {
		return Redact(fmt.Sprintf("%s %s: no answer after %d attempts: %v", e.Method, e.Path, e.Attempts, e.Err), e.forms)
	}
	return Redact(fmt.Sprintf("%s %s: no answer: %v", e.Method, e.Path, e.Err), e.forms)
}

func (e *RequestError) Unwrap() error { return e.Err }

// HostNotFoundError is a request whose host name does not exist: DNS
// answered that there is no such host (a *net.DNSError with IsNotFound),
// so nothing was sent. It is not retried, since asking again gets the same
// answer; it is not a *RequestError. Error and Hint redact every form of
// the secret.
type HostNotFoundError struct {
	Method string // e.g. "GET"
	Path   string // e.g. "/api/public/v1/etl/templates"
	// Host is the name DNS does not know, e.g. "us9.vena.io": the base
	// URL's host, or a proxy's when the client goes through one.
	Host string
	// Hub is the hub the host was built from, e.g. "us9"; "" when the
	// base URL was given explicitly or Host is not the base URL's host.
	Hub string
	// Attempts is how many requests were tried: 1, unless earlier ones
	// failed in a way that is retried (a temporary DNS failure).
	Attempts int
	// Err is the transport's error; errors.As finds the *net.DNSError in it.
	Err error
	// serviceHost is the base URL's host: Host differs from it when the
	// name that does not exist is a proxy's.
	serviceHost string
	forms       []string // the secret's forms, redacted from Error and Hint
}

// hostNotFoundError builds the error for a request whose host does not
// exist: dnsErr is the DNS answer found in err, the transport's error.
func (c *Client) hostNotFoundError(method, path string, attempts int, dnsErr *net.DNSError, err error) *HostNotFoundError {
	e := &HostNotFoundError{
		Method: method, Path: path, Host: strings.TrimSuffix(dnsErr.Name, "."), Attempts: attempts, Err: err,
		serviceHost: c.host, forms: c.forms,
	}
	if e.Host == "" {
		e.Host = c.host
	}
	if !e.viaProxy() {
		e.Hub = c.hub
	}
	return e
}

// viaProxy reports whether Host is not the service's host: the name that
// does not exist is then a proxy's.
func (e *HostNotFoundError) viaProxy() bool {
	return e.serviceHost != "" && !strings.EqualFold(e.Host, e.serviceHost)
}

// Error names the host and the hub, if any, says DNS does not know the
// host, and what to check.
func (e *HostNotFoundError) Error() string {
	reason := "no such host"
	if d := hostNotFound(e.Err); d != nil && d.Err != "" {
		reason = d.Err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: the host %s", e.Method, e.Path, e.Host)
	if e.Hub != "" {
		fmt.Fprintf(&b, " of hub %q", e.Hub)
	}
	fmt.Fprintf(&b, " does not exist (DNS: %s", reason)
	if e.Attempts > 1 {
		fmt.Fprintf(&b, ", on attempt %d", e.Attempts)
	}
	b.WriteString(")")
	switch {
	case e.viaProxy():
		fmt.Fprintf(&b, "; it is not the service's host %s but a proxy's: check the proxy settings", e.serviceHost)
	case e.Hub != "":
		b.WriteString(": check the hub, which must be the region the token was issued on, such as us1, us2, eu1 or ca3")
	default:
		b.WriteString(": check the base URL")
	}
	return Redact(b.String(), e.forms)
}

// Hint says which setting to check: the hub, the base URL or the proxy.
func (e *HostNotFoundError) Hint() string {
	var h string
	switch {
	case e.viaProxy():
		h = fmt.Sprintf("the host %s is the proxy's, not the service's: check the HTTPS_PROXY, HTTP_PROXY and NO_PROXY environment variables", e.Host)
	case e.Hub != "":
		h = fmt.Sprintf("check hub or the %s environment variable: hub %q gives the host %s, which does not exist; "+
			"set the hub the token was issued on, such as us1, us2, eu1 or ca3 (or base_url for a deployment at another address)", EnvHub, e.Hub, e.Host)
	default:
		h = fmt.Sprintf("check base_url or the %s environment variable: its host %s does not exist", EnvBaseURL, e.Host)
	}
	return Redact(h, e.forms)
}

func (e *HostNotFoundError) Unwrap() error { return e.Err }

// JobMaybeCreatedError reports that a request that creates a job reached
// the service but its answer was lost (connection dropped, timeout, a
// gateway error), so the service may have created and started the job. The
// request was not retried, so that the same data is never imported twice.
type JobMaybeCreatedError struct {
	TemplateID string
	Err        error
}

func (e *JobMaybeCreatedError) Error() string {
	return fmt.Sprintf("a job from template %s may have been created: the request reached the service but its answer was lost (%v). "+
		"It was not retried, so that the data is not imported twice. Look for the job in the service's ETL job history "+
		"(the template's lastRunTime shows when a job last started) before starting it again", e.TemplateID, e.Err)
}

func (e *JobMaybeCreatedError) Unwrap() error { return e.Err }

// StatusCode returns the HTTP status of an *APIError in err's chain, or 0.
func StatusCode(err error) int {
	var e *APIError
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

// IsNotFound reports whether err's chain holds an *APIError with status 404.
func IsNotFound(err error) bool { return StatusCode(err) == http.StatusNotFound }

// Attempts returns how many requests the failed call of err made (0 when
// its chain holds neither an *APIError nor a *RequestError), and whether
// its failure is one a read is retried for: no answer, or an answer the
// retry policy retries (retryableStatus).
func Attempts(err error) (n int, retryable bool) {
	var ae *APIError
	var re *RequestError
	switch {
	case errors.As(err, &ae):
		return ae.Attempts, retryableStatus(ae.StatusCode)
	case errors.As(err, &re):
		return re.Attempts, true
	}
	return 0, false
}

// uploadAborted reports whether err's chain holds an error that stops an
// upload for good, the request aborted before its body is complete and
// never retried: a FileUpload reader's error whose AbortsUpload returns
// true, such as internal/localfile's ChangedError.
func uploadAborted(err error) bool {
	var aborts interface{ AbortsUpload() bool }
	return errors.As(err, &aborts) && aborts.AbortsUpload()
}
