package etl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// request describes one API call: its method and path, the retry policy
// its kind sets, and its body.
type request struct {
	method     string
	path       string // below APIPath
	kind       requestKind
	templateID string // for kindCreate errors
	body       *body  // nil: no body
}

// body is a request body that can be opened once per attempt: its
// Content-Type, its length when known, and open, which returns a fresh
// reader each time.
type body struct {
	contentType string
	size        int64 // -1: unknown (chunked)
	open        func() (io.ReadCloser, error)
}

// attempt tracks one call across its attempts; it travels in the request's
// context so that the retry policy can see it.
type attempt struct {
	kind    requestKind
	n       int         // attempts made so far
	wrote   atomic.Bool // the current attempt's request was fully written
	started time.Time   // start of the current attempt
	// earlierWritten: some attempt before the current one was written in
	// full (the service may have acted on it and lost its answer).
	earlierWritten bool
}

// attemptKey is the context key under which a call's *attempt travels.
type attemptKey struct{}

// attemptFrom returns the *attempt newRequest put in ctx, or nil when there
// is none.
func attemptFrom(ctx context.Context) *attempt {
	a, _ := ctx.Value(attemptKey{}).(*attempt)
	return a
}

// call performs the request with retries and decodes a 2xx answer into out
// (unless out is nil). Any other answer becomes an *APIError, or for a job
// creation whose fate is unknown, a *JobMaybeCreatedError.
func (c *Client) call(ctx context.Context, r request, out any) error {
	at := &attempt{kind: r.kind}
	req, err := c.newRequest(ctx, r, at)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	path := APIPath + r.path
	if err != nil {
		if resp != nil && resp.Body != nil {
			_ = resp.Body.Close()
		}
		c.debug(ctx, "etl request failed", map[string]any{
			"method": r.method, "path": path, "attempt": at.n, "error": err.Error(),
		})
		return c.transportError(ctx, r, at, err)
	}
	defer func() { _ = resp.Body.Close() }()

	c.debug(ctx, "etl response", map[string]any{
		"method": r.method, "path": path, "status": resp.StatusCode, "attempt": at.n,
		"duration_ms": time.Since(at.started).Milliseconds(),
	})
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// The answer's body (bounded) is kept, and the service's message in
		// it, with every form of the secret redacted. The message is
		// redacted after it is extracted too, since decoding JSON can
		// unescape a form the raw body hid.
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		body := Redact(string(raw), c.forms)
		apiErr := &APIError{Method: r.method, Path: path, StatusCode: resp.StatusCode, Message: cut(Redact(serviceMessage([]byte(body)), c.forms), maxErrorMessage),
			Body: body, Attempts: at.n, earlierWritten: at.earlierWritten}
		if r.kind == kindCreate && (resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusGatewayTimeout) {
			// A gateway answered: the service behind it may have acted.
			return &JobMaybeCreatedError{TemplateID: r.templateID, Err: apiErr}
		}
		return apiErr
	}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		return nil
	}
	const maxAnswer = 64 << 20 // a runaway answer cannot exhaust memory
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(out); err != nil {
		e := fmt.Errorf("%s %s: %d answer that is not the expected JSON: %w", r.method, path, resp.StatusCode, err)
		if r.kind == kindCreate {
			return &JobMaybeCreatedError{TemplateID: r.templateID, Err: e}
		}
		return e
	}
	return nil
}

// newRequest builds the retryable request of r: credentials, headers, the
// body reopened per attempt, and a trace that records in at whether each
// attempt's request was written in full.
func (c *Client) newRequest(ctx context.Context, r request, at *attempt) (*retryablehttp.Request, error) {
	trace := &httptrace.ClientTrace{
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err == nil {
				at.wrote.Store(true)
			}
		},
	}
	ctx = context.WithValue(httptrace.WithClientTrace(ctx, trace), attemptKey{}, at)
	var rawBody any
	if r.body != nil {
		open := r.body.open
		rawBody = retryablehttp.ReaderFunc(func() (io.Reader, error) { return open() })
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, c.baseURL+APIPath+r.path, rawBody)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.method, APIPath+r.path, err)
	}
	req.SetBasicAuth(c.tokenID, c.secret)
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if r.body != nil {
		req.Header.Set("Content-Type", r.body.contentType)
		req.ContentLength = r.body.size
	}
	return req, nil
}

// transportError turns a failure with no usable answer into the error the
// caller sees: the context's error when the caller gave up before the
// request was written in full; a *ProxyError when the proxy variable that
// serves the request is not a proxy URL, or a *HostNotFoundError when DNS
// says the host does not exist (nothing was sent in either case: a job
// creation cannot have reached the service); a *JobMaybeCreatedError when
// a job creation was written in full; otherwise a *RequestError.
func (c *Client) transportError(ctx context.Context, r request, at *attempt, err error) error {
	path := APIPath + r.path
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) && !at.wrote.Load() {
		return fmt.Errorf("%s %s: %w", r.method, path, ctxErr)
	}
	var proxyErr *ProxyError
	if errors.As(err, &proxyErr) {
		return proxyErr.at(r.method, path)
	}
	if dnsErr := hostNotFound(err); dnsErr != nil && !at.wrote.Load() {
		return c.hostNotFoundError(r.method, path, at.n, dnsErr, err)
	}
	re := &RequestError{Method: r.method, Path: path, Attempts: at.n, Err: err, forms: c.forms}
	if r.kind == kindCreate && at.wrote.Load() {
		return &JobMaybeCreatedError{TemplateID: r.templateID, Err: re}
	}
	return re
}

// beforeAttempt runs before every attempt (retryablehttp's RequestLogHook):
// it numbers the attempt, records whether the previous one had been
// written in full (earlierWritten), resets the written flag, stamps the
// attempt's start and logs the request.
func (c *Client) beforeAttempt(_ retryablehttp.Logger, req *http.Request, retry int) {
	at := attemptFrom(req.Context())
	if at == nil {
		return
	}
	at.n = retry + 1
	if at.wrote.Swap(false) {
		at.earlierWritten = true
	}
	at.started = time.Now()
	c.debug(req.Context(), "etl request", map[string]any{
		"method": req.Method, "path": req.URL.Path, "attempt": at.n,
	})
}

// requestKind classifies a request by what repeating it risks, which
// decides its retry policy in checkRetry.
type requestKind int

const (
	// kindRead is a request that is safe to repeat; it is retried on
	// network errors, 429, 502, 503 and 504.
	kindRead requestKind = iota
	// kindIdempotent is a request that changes state but does no harm
	// repeated (submit, cancel, replacing a job input); it is retried like
	// a read.
	kindIdempotent
	// kindCreate is a request that creates a job. It is retried only when
	// the service certainly did not act: it answered 429 or 503, or the
	// connection failed before the request was written in full.
	kindCreate
)

// checkRetry is the retry policy (retryablehttp's CheckRetry): nothing is
// retried once ctx is done, after an aborted upload, a certificate error
// or a host name that does not exist; other network errors are (a
// temporary DNS failure among them), except for a kindCreate request
// written in full; 429 and 503 always are, 502 and 504 except for
// kindCreate.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	at := attemptFrom(ctx)
	kind := kindRead
	if at != nil {
		kind = at.kind
	}
	if err != nil {
		if uploadAborted(err) || !retryableNetError(err) {
			return false, nil
		}
		if kind == kindCreate {
			// Only when nothing reached the service in full.
			return at == nil || !at.wrote.Load(), nil
		}
		return true, nil
	}
	switch code := resp.StatusCode; {
	case code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable:
		return true, nil
	case retryableStatus(code):
		return kind != kindCreate, nil
	}
	return false, nil
}

// retryableStatus reports whether an answer with status code is retried
// (a read's, always; a kindCreate request's, only for 429 and 503): 429,
// 502, 503 and 504.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryableNetError reports whether a later attempt could fix err: false
// for certificate verification failures, a host name that does not exist
// (hostNotFound) and a proxy variable that is not a proxy URL
// (*ProxyError), true for everything else.
func retryableNetError(err error) bool {
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	var proxyErr *ProxyError
	switch {
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &invalid):
		return false
	case errors.As(err, &proxyErr):
		return false
	case hostNotFound(err) != nil:
		return false
	}
	return true
}

// hostNotFound returns the *net.DNSError in err's chain (through
// *url.Error and *net.OpError) when it says the host name does not exist
// (IsNotFound, NXDOMAIN), else nil. A DNS error that is also temporary or
// a timeout is not one: the resolver may answer otherwise later, so it is
// retried like any network error.
func hostNotFound(err error) *net.DNSError {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound && !dnsErr.IsTemporary && !dnsErr.IsTimeout {
		return dnsErr
	}
	return nil
}

// backoff returns the wait before retry attemptNum (retryablehttp's
// Backoff): a Retry-After header (seconds or HTTP date) on the answer,
// capped at maxWait, else minWait doubled per attempt up to maxWait, with
// jitter between half and the whole step.
//
// go-retryablehttp's own backoffs parse Retry-After too, but not the same
// way: only on 429 and 503 (a read retried on 502 or 504 would ignore it),
// uncapped, RFC 1123 dates only (http.ParseTime also takes the RFC 850 and
// asctime forms HTTP allows), and a zero delay cannot be told from a
// missing header. So the parsing stays here.
func backoff(minWait, maxWait time.Duration, attemptNum int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return min(d, maxWait)
		}
	}
	step := minWait
	for i := 0; i < attemptNum && step < maxWait; i++ {
		step *= 2
	}
	step = min(step, maxWait)
	half := step / 2
	if half <= 0 {
		return step
	}
	return half + rand.N(step-half+1) //nolint:gosec // jitter needs no cryptographic randomness
}

// retryAfter parses a Retry-After value, delay-seconds or an HTTP date, into
// the wait from now (never negative); ok is false when v is empty or
// neither.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
