package etl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
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

// checkRetry is the retry policy (retryablehttp's CheckRetry).
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
		var aborted *UploadAbortedError
		if errors.As(err, &aborted) || !retryableNetError(err) {
			return false, nil
		}
		if kind == kindCreate {
			// Only when nothing reached the service in full.
			return at == nil || !at.wrote.Load(), nil
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
// capped at max, on any answer that is retried.
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
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
