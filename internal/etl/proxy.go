package etl

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpproxy"
)

// proxyVars are the environment variables that name the proxy for the
// requests of a scheme, in the order net/http reads them: the first one
// set wins.
var proxyVars = map[string][]string{
	"https": {"HTTPS_PROXY", "https_proxy"},
	"http":  {"HTTP_PROXY", "http_proxy"},
}

// ProxyError is a proxy environment variable (HTTPS_PROXY, https_proxy,
// HTTP_PROXY or http_proxy) whose value is not a proxy URL, met by a
// request it would have served: net/http would ignore the value, or read
// it as another host, and the request would fail for a reason that hides
// the variable. Nothing was sent. Error and Hint mask the value's
// user:password and redact every form of the token secret.
type ProxyError struct {
	Method string // the request's, e.g. "GET"; "" until a request meets it
	Path   string // e.g. "/api/public/v1/etl/templates"
	// Variable is the variable's name, e.g. "HTTPS_PROXY".
	Variable string
	// Value is the variable's value with whatever stands between its
	// scheme and the last "@" (user:password) replaced by REDACTED.
	Value string
	// Reason is why the value is not a proxy URL, e.g. "missing ']' in host".
	Reason string
	forms  []string // the secret's forms and the value's user:password
}

// Error names the variable, its (masked) value and why it is not a proxy
// URL.
func (e *ProxyError) Error() string {
	msg := fmt.Sprintf("the environment variable %s=%q is not a proxy URL (%s)", e.Variable, e.Value, e.Reason)
	if e.Method != "" {
		msg = fmt.Sprintf("%s %s: %s, so the request was not sent", e.Method, e.Path, msg)
	}
	return Redact(msg, e.forms)
}

// Hint says how to fix the variable.
func (e *ProxyError) Hint() string {
	return fmt.Sprintf("set %s to a proxy URL such as http://proxy.example.com:3128 (with credentials: "+
		"http://user:password@proxy.example.com:3128), or unset it to connect directly; NO_PROXY lists the hosts reached without a proxy", e.Variable)
}

// at returns a copy of e for the request method path.
func (e *ProxyError) at(method, path string) *ProxyError {
	c := *e
	c.Method, c.Path = method, path
	return &c
}

// proxyFromEnvironment returns the Proxy function of the client's own
// transport: the proxy the environment (read with getenv) names for a
// request, as net/http's ProxyFromEnvironment does (golang.org/x/net's
// httpproxy: HTTPS_PROXY or https_proxy for https, HTTP_PROXY or
// http_proxy for http, NO_PROXY or no_proxy, no proxy for localhost and
// loopback), read when the client is made. Only a value that is not a
// proxy URL is treated otherwise: a request it would serve fails with a
// *ProxyError, where net/http ignores the value or reads it as another
// host. forms are the secret's forms, redacted from the error.
func proxyFromEnvironment(getenv func(string) string, forms []string) func(*http.Request) (*url.URL, error) {
	bad := map[string]*ProxyError{}
	cfg := httpproxy.Config{
		HTTPSProxy: checkedProxy(getenv, "https", bad, forms),
		HTTPProxy:  checkedProxy(getenv, "http", bad, forms),
		NoProxy:    getenv("NO_PROXY"),
		CGI:        getenv("REQUEST_METHOD") != "",
	}
	if cfg.NoProxy == "" {
		cfg.NoProxy = getenv("no_proxy")
	}
	proxy := cfg.ProxyFunc()
	return func(req *http.Request) (*url.URL, error) {
		u, err := proxy(req.URL)
		if u != nil && bad[u.Host] != nil {
			return nil, bad[u.Host]
		}
		return u, err
	}
}

// checkedProxy returns the value of scheme's proxy variable as
// httpproxy.Config takes it, or, when it is not a proxy URL, a stand-in
// URL whose host keys the variable's *ProxyError in bad, so that the
// requests the proxy would serve, and those only, meet the error.
func checkedProxy(getenv func(string) string, scheme string, bad map[string]*ProxyError, forms []string) string {
	var name, value string
	for _, name = range proxyVars[scheme] {
		if value = getenv(name); value != "" {
			break
		}
	}
	if value == "" {
		return ""
	}
	userinfo := userinfoOf(value)
	reason := proxyURLProblem(value)
	if reason == "" {
		return value
	}
	standIn := "bad-" + scheme + "-proxy.invalid"
	bad[standIn] = &ProxyError{
		Variable: name, Value: displayURL(value), Reason: Redact(reason, userinfo),
		forms: append(append([]string{}, userinfo...), forms...),
	}
	return "http://" + standIn
}

// proxyURLProblem says why v is not a proxy URL, or "" when it is one: an
// absolute URL with a host, or a host[:port] that is one once "http://"
// is prepended (as net/http reads it), with the scheme http, https,
// socks5 or socks5h. A value that names a scheme ("://") is not given a
// second one, so that "http://[::1" is refused instead of read as the
// host "http".
func proxyURLProblem(v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Scheme == "" || u.Host == "" {
		if strings.Contains(v, "://") {
			if err != nil {
				return urlReason(err)
			}
			return "no host after the scheme"
		}
		if u, err = url.Parse("http://" + v); err != nil {
			return urlReason(err)
		}
	}
	switch u.Scheme {
	case "http", "https", "socks5", "socks5h":
	default:
		return fmt.Sprintf("the scheme %q is none of http, https, socks5 or socks5h", u.Scheme)
	}
	if u.Hostname() == "" {
		return "no host"
	}
	return ""
}

// urlReason is the reason of a url.Parse error, without the URL it quotes
// (which may hold credentials).
func urlReason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// userinfoOf returns, for Redact, what stands between raw's scheme and its
// last "@" (its user:password), and the password alone when it is long
// enough not to mask unrelated text; nil when raw has no "@".
func userinfoOf(raw string) []string {
	if i := strings.Index(raw, "://"); i >= 0 {
		raw = raw[i+3:]
	}
	at := strings.LastIndex(raw, "@")
	if at <= 0 {
		return nil
	}
	forms := []string{raw[:at]}
	if _, pass, ok := strings.Cut(raw[:at], ":"); ok && len(pass) >= 4 {
		forms = append(forms, pass)
	}
	return forms
}
