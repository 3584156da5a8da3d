package etl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// requestKind decides the retry policy of a request.
type requestKind int

const (
	// kindRead: safe to repeat; retried on network errors, 429, 502, 503, 504.
	kindRead requestKind = iota
	// kindIdempotent: changes state but repeating it does no harm (submit,
	// cancel, replacing a job input); retried like a read.
	kindIdempotent
	// kindCreate: creates a job. Retried only when the service certainly
	// did not act: it answered 429 or 503, or the connection failed before
	// the request was written.
	kindCreate
)

// request is one API call.
type request struct {
	method     string
	path       string // below APIPath
	kind       requestKind
	templateID string // for kindCreate errors
	body       *body  // nil: no body
}

// body is a request body that can be opened once per attempt.
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

type attemptKey struct{}

func attemptFrom(ctx context.Context) *attempt {
	a, _ := ctx.Value(attemptKey{}).(*attempt)
	return a
}

// call performs the request with retries and decodes a 2xx answer into out
// (unless out is nil). Any other answer becomes an *APIError, or for a job
// creation whose fate is unknown, a *JobMaybeCreatedError.
func (c *Client) call(ctx context.Context, r request, out any) error {
	st := &attempt{kind: r.kind}
	trace := &httptrace.ClientTrace{
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err == nil {
				st.wrote.Store(true)
			}
		},
	}
	ctx = context.WithValue(httptrace.WithClientTrace(ctx, trace), attemptKey{}, st)

	var rawBody any
	if r.body != nil {
		open := r.body.open
		rawBody = retryablehttp.ReaderFunc(func() (io.Reader, error) { return open() })
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, c.baseURL+APIPath+r.path, rawBody)
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.method, APIPath+r.path, err)
	}
	req.SetBasicAuth(c.tokenID, c.secret)
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if r.body != nil {
		req.Header.Set("Content-Type", r.body.contentType)
		req.ContentLength = r.body.size
		if r.body.size < 0 {
			req.ContentLength = -1
		}
	}

	resp, err := c.http.Do(req)
	path := APIPath + r.path
	if err != nil {
		if resp != nil && resp.Body != nil {
			_ = resp.Body.Close()
		}
		c.log(ctx, "debug", "etl request failed", map[string]any{
			"method": r.method, "path": path, "attempt": st.n, "error": err.Error(),
		})
		return c.transportError(ctx, r, st, err)
	}
	defer func() { _ = resp.Body.Close() }()

	c.log(ctx, "debug", "etl response", map[string]any{
		"method": r.method, "path": path, "status": resp.StatusCode, "attempt": st.n,
		"duration_ms": time.Since(st.started).Milliseconds(),
	})

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := newAPIError(r.method, path, resp, st.n, c.forms)
		apiErr.earlierWritten = st.earlierWritten
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
	if err := decodeJSON(resp.Body, out); err != nil {
		e := fmt.Errorf("%s %s: %d answer that is not the expected JSON: %w", r.method, path, resp.StatusCode, err)
		if r.kind == kindCreate {
			return &JobMaybeCreatedError{TemplateID: r.templateID, Err: e}
		}
		return e
	}
	return nil
}

// transportError turns a failure with no usable answer into the error the
// caller sees.
func (c *Client) transportError(ctx context.Context, r request, st *attempt, err error) error {
	path := APIPath + r.path
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) && !st.wrote.Load() {
		return fmt.Errorf("%s %s: %w", r.method, path, ctxErr)
	}
	re := &RequestError{Method: r.method, Path: path, Attempts: st.n, Err: err, forms: c.forms}
	if r.kind == kindCreate && st.wrote.Load() {
		return &JobMaybeCreatedError{TemplateID: r.templateID, Err: re}
	}
	return re
}

// beforeAttempt runs before every attempt (retryablehttp's RequestLogHook).
func (c *Client) beforeAttempt(_ retryablehttp.Logger, req *http.Request, retry int) {
	st := attemptFrom(req.Context())
	if st == nil {
		return
	}
	st.n = retry + 1
	if st.wrote.Swap(false) {
		st.earlierWritten = true
	}
	st.started = time.Now()
	c.log(req.Context(), "debug", "etl request", map[string]any{
		"method": req.Method, "path": req.URL.Path, "attempt": st.n,
	})
}

// log sends a line to the configured LogFunc with every form of the secret
// redacted from the message and from each string or error field.
func (c *Client) log(ctx context.Context, level, msg string, fields map[string]any) {
	for k, v := range fields {
		switch t := v.(type) {
		case string:
			fields[k] = Redact(t, c.forms)
		case error:
			fields[k] = Redact(t.Error(), c.forms)
		}
	}
	c.logf(ctx, level, Redact(msg, c.forms), fields)
}

// checkRetry is the retry policy (retryablehttp's CheckRetry).
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	st := attemptFrom(ctx)
	kind := kindRead
	if st != nil {
		kind = st.kind
	}
	if err != nil {
		var aborted *UploadAbortedError
		if errors.As(err, &aborted) || !retryableNetError(err) {
			return false, nil
		}
		if kind == kindCreate {
			// Only when nothing reached the service in full.
			return st == nil || !st.wrote.Load(), nil
		}
		return true, nil
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true, nil
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return kind != kindCreate, nil
	}
	return false, nil
}

// retryableNetError: errors that a later attempt cannot fix are not retried.
func retryableNetError(err error) bool {
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &invalid):
		return false
	}
	return true
}

// backoff is exponential with jitter between half and the whole step,
// bounded by max; a Retry-After header (seconds or HTTP date) is honoured,
// capped at max.
func backoff(minWait, maxWait time.Duration, attemptNum int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			if d > maxWait {
				d = maxWait
			}
			return d
		}
	}
	step := minWait
	for i := 0; i < attemptNum && step < maxWait; i++ {
		step *= 2
	}
	if step > maxWait {
		step = maxWait
	}
	half := step / 2
	if half <= 0 {
		return step
	}
	return half + rand.N(step-half+1) //nolint:gosec // jitter needs no cryptographic randomness
}

// retryAfter parses a Retry-After value: delay-seconds or an HTTP date.
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
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}
