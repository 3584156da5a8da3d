package emulator

import (
	"crypto/subtle"
	"fmt"
	"mime"
	"net/http"
	"strings"
)

// checkAuth answers 401 unless the request carries the token as HTTP Basic
// credentials.
func (s *Server) checkAuth(r *http.Request) *apiError {
	user, pass, hasAuth := r.BasicAuth()
	if hasAuth {
		u := subtle.ConstantTimeCompare([]byte(user), s.tokenID)
		p := subtle.ConstantTimeCompare([]byte(pass), s.secret)
		if u&p == 1 {
			return nil
		}
	}
	msg := "missing HTTP Basic credentials: send the application token id as user name and its secret as password"
	if hasAuth {
		msg = "invalid application token id or secret"
	}
	return &apiError{status: http.StatusUnauthorized, message: msg,
		header: map[string]string{"WWW-Authenticate": `Basic realm="ETL", charset="UTF-8"`}}
}

// checkAccept answers 406 unless the Accept header (if any) accepts one of
// */*, application/json or text/csv.
func checkAccept(r *http.Request) *apiError {
	if values := r.Header.Values("Accept"); !acceptable(values) {
		return errorf(http.StatusNotAcceptable, "Accept header %q accepts none of */*, application/json, text/csv", strings.Join(values, ", "))
	}
	return nil
}

// acceptable reports whether the Accept header values (if any) accept one of
// */*, application/json or text/csv.
func acceptable(values []string) bool {
	present := false
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			present = true
			mt, params, err := mime.ParseMediaType(item)
			if err != nil {
				continue
			}
			if q, ok := params["q"]; ok && qZero(q) {
				continue
			}
			switch mt {
			case "*/*", "application/*", "application/json", "text/*", "text/csv":
				return true
			}
		}
	}
	return !present
}

// qZero reports whether a q value is zero (or unparsable, which counts as
// not acceptable).
func qZero(q string) bool {
	var f float64
	if _, err := fmt.Sscanf(q, "%g", &f); err != nil {
		return true
	}
	return f <= 0
}

// mediaType returns the lower-cased media type of the Content-Type header,
// "" when absent, and ok=false when present but unparsable.
func mediaType(r *http.Request) (mt string, params map[string]string, ok bool) {
	ct := r.Header.Get("Content-Type")
	if strings.TrimSpace(ct) == "" {
		return "", nil, true
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", nil, false
	}
	return mt, params, true
}

// checkNoBodyType enforces that submit and cancel carry no Content-Type or
// application/json.
func checkNoBodyType(r *http.Request) *apiError {
	mt, _, ok := mediaType(r)
	if !ok || (mt != "" && mt != "application/json") {
		return errorf(http.StatusUnsupportedMediaType, "unsupported Content-Type %q: send application/json or none", r.Header.Get("Content-Type"))
	}
	return nil
}
