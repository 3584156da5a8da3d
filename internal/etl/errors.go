package etl

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
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
// answer; it is not a *RequestError. Every form of the secret is redacted
// from Error and from the hosts and the hub.
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
	// ServiceHost is the base URL's host: Host differs from it when the
	// name that does not exist is a proxy's (ViaProxy).
	ServiceHost string
	forms       []string // the secret's forms, redacted from Error
}

// hostNotFoundError builds the error for a request whose host does not
// exist: dnsErr is the DNS answer found in err, the transport's error.
func (c *Client) hostNotFoundError(method, path string, attempts int, dnsErr *net.DNSError, err error) *HostNotFoundError {
	e := &HostNotFoundError{
		Method: method, Path: path, Host: Redact(strings.TrimSuffix(dnsErr.Name, "."), c.forms), Attempts: attempts, Err: err,
		ServiceHost: Redact(c.host, c.forms), forms: c.forms,
	}
	if e.Host == "" {
		e.Host = e.ServiceHost
	}
	if !e.ViaProxy() {
		e.Hub = Redact(c.hub, c.forms)
	}
	return e
}

// ViaProxy reports whether Host is not the service's host: the name that
// does not exist is then a proxy's.
func (e *HostNotFoundError) ViaProxy() bool {
	return e.ServiceHost != "" && !strings.EqualFold(e.Host, e.ServiceHost)
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
	case e.ViaProxy():
		fmt.Fprintf(&b, "; it is not the service's host %s but a proxy's: check the proxy settings", e.ServiceHost)
	case e.Hub != "":
		b.WriteString(": check the hub, which must be the region the token was issued on, such as us1, us2, eu1 or ca3")
	default:
		b.WriteString(": check the base URL")
	}
	return Redact(b.String(), e.forms)
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
		"It was not retried, so that the data is not imported twice. Look for the job in the service's own application "+
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

// redacted is the text Redact puts in place of every form of the secret in
// messages and log lines.
const redacted = "[redacted]"

// SecretForms returns every form in which the token secret could leak into
// an answer body, an error or a log line: the raw secret; "id:secret" and
// its base64 (standard, raw, URL-safe and raw URL-safe alphabets); the whole
// "Basic <base64>" Authorization value; the secret URL-encoded (query and
// path escaping); and each of those as it reads inside a JSON string. It
// holds no empty strings and no duplicates, longest first, and is empty
// when the secret is.
func SecretForms(tokenID, secret string) []string {
	if secret == "" {
		return nil
	}
	pair := []byte(tokenID + ":" + secret)
	base := []string{
		secret,
		tokenID + ":" + secret,
		url.QueryEscape(secret),
		url.PathEscape(secret),
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		b64 := enc.EncodeToString(pair)
		base = append(base, b64, "Basic "+b64)
	}
	forms := slices.Clone(base)
	for _, f := range base {
		for _, html := range []bool{false, true} {
			j := jsonEscaped(f, html)
			forms = append(forms, j, strings.ReplaceAll(j, "/", `\/`))
		}
	}
	forms = slices.DeleteFunc(forms, func(s string) bool { return s == "" })
	slices.SortFunc(forms, func(a, b string) int {
		if c := cmp.Compare(len(b), len(a)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(forms)
}

// jsonEscaped is s as it reads between the quotes of a JSON string, with or
// without the HTML escapes (\u0026 for '&' and so on) some encoders add.
func jsonEscaped(s string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(s); err != nil {
		return s
	}
	j := bytes.TrimSpace(b.Bytes())
	return string(j[1 : len(j)-1])
}

// Redact replaces each of forms in s with "[redacted]", longest form first
// (so that a form containing another is replaced whole). It is the one
// redaction path: every answer body, error message and log field the client
// produces passes through it.
func Redact(s string, forms []string) string {
	if len(forms) == 0 || s == "" {
		return s
	}
	longestFirst := func(a, b string) int { return cmp.Compare(len(b), len(a)) }
	if !slices.IsSortedFunc(forms, longestFirst) {
		forms = slices.Clone(forms)
		slices.SortStableFunc(forms, longestFirst)
	}
	for _, f := range forms {
		if f != "" {
			s = strings.ReplaceAll(s, f, redacted)
		}
	}
	return s
}
