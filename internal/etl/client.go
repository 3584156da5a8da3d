package etl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
)

// APIPath is the path prefix of every ETL endpoint under the base URL.
const APIPath = "/api/public/v1/etl"

// Defaults applied by New to zero (or, for MaxRetries, negative) settings.
const (
	// DefaultRequestTimeout is the wait for the response headers when
	// Config.RequestTimeout is zero.
	DefaultRequestTimeout = 5 * time.Minute
	// DefaultMaxRetries is the number of retries when Config.MaxRetries is
	// negative.
	DefaultMaxRetries = 4
	// DefaultRetryWaitMin is the first backoff step when
	// Config.RetryWaitMin is zero.
	DefaultRetryWaitMin = 500 * time.Millisecond
	// DefaultRetryWaitMax caps the backoff and Retry-After when
	// Config.RetryWaitMax is zero.
	DefaultRetryWaitMax = 30 * time.Second
)

// LogFunc receives the client's log lines: level is "trace", "debug" or
// "warn". Fields never hold the token secret or the Authorization header.
type LogFunc func(ctx context.Context, level, msg string, fields map[string]any)

// Config configures a Client. New validates it.
type Config struct {
	// Hub is the service region, such as "us2": lower-case letters and
	// digits. Required unless BaseURL is set.
	Hub string
	// BaseURL overrides https://{hub}.vena.io. Plain http is allowed only
	// for loopback hosts (the emulator, tests).
	BaseURL string
	// TokenID and TokenSecret are the application token, sent as HTTP Basic
	// user name and password. Both are required.
	TokenID     string
	TokenSecret string
	// UserAgent is sent with every request, e.g. "terraform-provider-etl/1.0.0".
	UserAgent string
	// RequestTimeout bounds the wait for the response headers once a request
	// has been written (an upload may take longer than this to send).
	RequestTimeout time.Duration
	// MaxRetries is the number of retries after the first attempt; a
	// negative value means DefaultMaxRetries, zero means none.
	MaxRetries int
	// RetryWaitMin and RetryWaitMax bound the exponential backoff, and
	// RetryWaitMax caps how long a Retry-After header is honoured.
	RetryWaitMin, RetryWaitMax time.Duration
	// Transport replaces the default pooled transport (tests, proxies).
	// RequestTimeout and CACertPEM are then the caller's business.
	Transport http.RoundTripper
	// CACertPEM adds trusted certificate authorities (PEM) to the system
	// pool. Certificate verification is never turned off.
	CACertPEM []byte
	// Log receives request and response log lines; nil discards them.
	Log LogFunc
}

// Client talks to the ETL import API. It is safe for concurrent use and
// reuses connections.
type Client struct {
	baseURL   string
	host      string // the base URL's host name, without the port
	hub       string // the hub the base URL was built from; "" for an explicit base URL
	tokenID   string
	secret    string
	forms     []string // SecretForms of the token, for every message and log line
	userAgent string
	logf      LogFunc
	http      *retryablehttp.Client
	templates templateCache // CachedTemplate's
}

// New validates cfg (the hub or base URL, and both halves of the token),
// fills in the defaults of the settings left zero, and returns a client
// with its own pooled transport unless cfg.Transport is set.
func New(cfg Config) (*Client, error) {
	base, err := resolveBaseURL(cfg.Hub, cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.TokenID == "" {
		return nil, errors.New("token id is empty: set the application token's id")
	}
	if cfg.TokenSecret == "" {
		return nil, errors.New("token secret is empty: set the application token's secret")
	}
	cfg = withDefaults(cfg)
	forms := SecretForms(cfg.TokenID, cfg.TokenSecret)
	transport := cfg.Transport
	if transport == nil {
		if transport, err = newTransport(cfg.RequestTimeout, cfg.CACertPEM, forms); err != nil {
			return nil, err
		}
	}
	u, _ := url.Parse(base) // resolveBaseURL parsed it
	c := &Client{
		baseURL:   base,
		host:      u.Hostname(),
		tokenID:   cfg.TokenID,
		secret:    cfg.TokenSecret,
		forms:     forms,
		userAgent: cfg.UserAgent,
		logf:      cfg.Log,
	}
	if cfg.BaseURL == "" { // a hub beside a base URL names no host
		c.hub = cfg.Hub
	}
	c.http = c.newRetryClient(transport, cfg)
	return c, nil
}

// withDefaults fills in the settings left zero (MaxRetries: negative), the
// user agent and a log that discards, and raises RetryWaitMax to at least
// RetryWaitMin.
func withDefaults(cfg Config) Config {
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.RetryWaitMin <= 0 {
		cfg.RetryWaitMin = DefaultRetryWaitMin
	}
	if cfg.RetryWaitMax <= 0 {
		cfg.RetryWaitMax = DefaultRetryWaitMax
	}
	cfg.RetryWaitMax = max(cfg.RetryWaitMax, cfg.RetryWaitMin)
	if cfg.UserAgent == "" {
		cfg.UserAgent = "terraform-provider-etl"
	}
	if cfg.Log == nil {
		cfg.Log = func(context.Context, string, string, map[string]any) {}
	}
	return cfg
}

// newTransport builds the default transport: pooled connections, a bound
// on the wait for response headers, the extra CAs, if any, added to the
// system pool, and the proxy the environment names, read now, a variable
// that is not a proxy URL reported by name (proxy.go; forms are redacted
// from that error).
func newTransport(requestTimeout time.Duration, caPEM []byte, forms []string) (*http.Transport, error) {
	t := cleanhttp.DefaultPooledTransport()
	t.Proxy = proxyFromEnvironment(os.Getenv, forms)
	t.ResponseHeaderTimeout = requestTimeout
	// Many imports run in parallel against one host.
	t.MaxIdleConnsPerHost = 64
	// Large uploads: fewer, bigger writes.
	t.WriteBufferSize = 256 << 10
	t.ReadBufferSize = 64 << 10
	if len(caPEM) > 0 {
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(caPEM) {
			return nil, errors.New("CA certificate: no PEM certificate found in the given data")
		}
		t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return t, nil
}

// newRetryClient wires the retry policy (retry.go) and the attempt
// tracking (transport.go) into go-retryablehttp.
func (c *Client) newRetryClient(transport http.RoundTripper, cfg Config) *retryablehttp.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{
		Transport: transport,
		// Never follow a redirect: it could carry the credentials elsewhere,
		// and a redirected POST would not be what the caller meant.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	rc.Logger = nil
	rc.RetryMax = cfg.MaxRetries
	rc.RetryWaitMin = cfg.RetryWaitMin
	rc.RetryWaitMax = cfg.RetryWaitMax
	rc.CheckRetry = checkRetry
	rc.Backoff = backoff
	rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	rc.RequestLogHook = c.beforeAttempt
	return rc
}

// BaseURL returns the service address the client talks to (no trailing slash).
func (c *Client) BaseURL() string { return c.baseURL }

// debug sends a debug line to the configured LogFunc (log).
func (c *Client) debug(ctx context.Context, msg string, fields map[string]any) {
	c.log(ctx, "debug", msg, fields)
}

// log sends a line of level ("trace", "debug" or "warn") to the
// configured LogFunc with every form of the secret redacted from the
// message and from each string or error field.
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
	if h := u.Hostname(); u.Scheme == "http" && !strings.EqualFold(h, "localhost") && !net.ParseIP(h).IsLoopback() {
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
