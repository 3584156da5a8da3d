package etl

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
)

// hubPattern matches a valid hub name: lower-case ASCII letters and digits
// only, since the hub becomes the first label of the service's host name.
var hubPattern = regexp.MustCompile(`^[a-z0-9]+$`)

// CheckHub returns an error unless hub is a valid hub (region) name:
// lower-case letters and digits, such as us2. It is the one rule for a hub
// name, and its error says what to use.
func CheckHub(hub string) error {
	if !hubPattern.MatchString(hub) {
		return fmt.Errorf("hub %q is not valid: use the lower-case region name such as us1, us2, eu1 or ca3", hub)
	}
	return nil
}

// resolveBaseURL returns the base URL for the hub, or the explicit base URL
// once checked (a hub given beside it must still be valid).
func resolveBaseURL(hub, base string) (string, error) {
	if base == "" {
		if hub == "" {
			return "", errors.New("hub is empty: set the hub (region) such as us2, or a base URL")
		}
		if err := CheckHub(hub); err != nil {
			return "", err
		}
		return "https://" + hub + ".vena.io", nil
	}
	if hub != "" {
		if err := CheckHub(hub); err != nil {
			return "", err
		}
	}
	return ValidateBaseURL(base)
}

// hostOf returns the host name of a base URL resolveBaseURL accepted,
// without the port.
func hostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// ValidateBaseURL checks an explicit base URL and returns it without a
// trailing slash: an absolute http or https URL with a host and no query,
// fragment or credentials; plain http only for loopback hosts.
func ValidateBaseURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("base URL %q is not an absolute http(s) URL such as https://us2.vena.io", displayURL(raw))
	}
	if u.User != nil {
		return "", errors.New("base URL must not carry credentials: set the token id and secret instead")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("base URL %q must not have a query or fragment", displayURL(raw))
	}
	if u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return "", fmt.Errorf("base URL %q uses plain http to a host that is not loopback: use https (plain http is allowed only for localhost, 127.0.0.0/8 and ::1)", displayURL(raw))
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// displayURL is raw as an error may quote it: whatever stands between its
// scheme and the last "@" (credentials, when the URL carries any, in
// whatever spelling) is replaced by REDACTED, even where raw does not
// parse.
func displayURL(raw string) string {
	prefix, rest := "", raw
	if i := strings.Index(raw, "://"); i >= 0 {
		prefix, rest = raw[:i+3], raw[i+3:]
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		return prefix + "REDACTED@" + rest[at+1:]
	}
	return raw
}

// IsLoopbackHost reports whether host is localhost or a loopback address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
