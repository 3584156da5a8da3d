package etl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"time"
)

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
