package etl

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
)

// Describe words a failed request's error for its user: the error, then
// what HintOf adds.
func Describe(err error) string { return err.Error() + "." + HintOf(err) }

// HintOf returns what a message adds after a failed request's error, each
// part a sentence with a leading space: the error's own hint (an
// *APIError's, a *HostNotFoundError's, a *ProxyError's), then what to do
// when the service's certificate is not trusted, or else how many attempts
// were made (attemptsNote); "" when there is nothing to add.
func HintOf(err error) string {
	hint := ""
	var h interface{ Hint() string }
	if errors.As(err, &h) {
		if s := h.Hint(); s != "" {
			hint = " Hint: " + s + "."
		}
	}
	if t := tlsHint(err); t != "" {
		return hint + t
	}
	return hint + attemptsNote(err)
}

// tlsHint says what to do when err is the service's certificate not being
// trusted; "" for any other error.
func tlsHint(err error) string {
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	if errors.As(err, &certErr) || errors.As(err, &unknownAuth) || errors.As(err, &hostErr) {
		return " Hint: the service's TLS certificate is not trusted (verification is never turned off): for a private deployment with its own certificate authority, " +
			"set ca_cert_pem, or ca_cert_file (" + EnvCACertFile + "), to that authority's PEM certificate; otherwise check base_url."
	}
	return ""
}

// attemptsNote says, after a request that was retried until it gave up,
// how many attempts were made and which settings bound them; after one
// attempt at a retryable failure (Attempts), why it was not retried; else
// "".
func attemptsNote(err error) string {
	switch attempts, retryable := Attempts(err); {
	case attempts > 1:
		return fmt.Sprintf(" The request was made %d times (the first attempt and %d retries) before giving up: raise max_retries or retry_wait_max to keep trying longer.", attempts, attempts-1)
	case attempts == 1 && retryable:
		return " The request was made once and not retried (max_retries is 0, or it could have started a job)."
	}
	return ""
}
