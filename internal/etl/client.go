package etl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
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
	DefaultRequestTimeout = 5 * time.Minute
	DefaultMaxRetries     = 4
	DefaultRetryWaitMin   = 500 * time.Millisecond
	DefaultRetryWaitMax   = 30 * time.Second
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
	tokenID   string
	secret    string
	forms     []string // SecretForms of the token, for every message and log line
	userAgent string
	logf      LogFunc
	http      *retryablehttp.Client
}

var hubPattern = regexp.MustCompile(`^[a-z0-9]+$`)

// New validates cfg and returns a client.
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
	if cfg.RetryWaitMax < cfg.RetryWaitMin {
		cfg.RetryWaitMax = cfg.RetryWaitMin
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "terraform-provider-etl"
	}
	if cfg.Log == nil {
		cfg.Log = func(context.Context, string, string, map[string]any) {}
	}

	transport := cfg.Transport
	if transport == nil {
		t := cleanhttp.DefaultPooledTransport()
		t.ResponseHeaderTimeout = cfg.RequestTimeout
		// Many imports run in parallel against one host.
		t.MaxIdleConnsPerHost = 64
		// Large uploads: fewer, bigger writes.
		t.WriteBufferSize = 256 << 10
		t.ReadBufferSize = 64 << 10
		if len(cfg.CACertPEM) > 0 {
			pool, err := x509.SystemCertPool()
			if err != nil || pool == nil {
				pool = x509.NewCertPool()
			}
			if !pool.AppendCertsFromPEM(cfg.CACertPEM) {
				return nil, errors.New("CA certificate: no PEM certificate found in the given data")
			}
			t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
		}
		transport = t
	}

	c := &Client{
		baseURL:   base,
		tokenID:   cfg.TokenID,
		secret:    cfg.TokenSecret,
		forms:     SecretForms(cfg.TokenID, cfg.TokenSecret),
		userAgent: cfg.UserAgent,
		logf:      cfg.Log,
	}
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
	c.http = rc
	return c, nil
}

// BaseURL returns the service address the client talks to (no trailing slash).
func (c *Client) BaseURL() string { return c.baseURL }

func resolveBaseURL(hub, base string) (string, error) {
	if base == "" {
		if hub == "" {
			return "", errors.New("hub is empty: set the hub (region) such as us2, or a base URL")
		}
		if !hubPattern.MatchString(hub) {
			return "", fmt.Errorf("hub %q is not valid: use the lower-case region name such as us1, us2, eu1 or ca3", hub)
		}
		return "https://" + hub + ".vena.io", nil
	}
	if hub != "" && !hubPattern.MatchString(hub) {
		return "", fmt.Errorf("hub %q is not valid: use the lower-case region name such as us1, us2, eu1 or ca3", hub)
	}
	return ValidateBaseURL(base)
}

// ValidateBaseURL checks an explicit base URL and returns it without a
// trailing slash: an absolute http or https URL with a host and no query,
// fragment or credentials; plain http only for loopback hosts.
func ValidateBaseURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("base URL %q is not an absolute http(s) URL such as https://us2.vena.io", raw)
	}
	if u.User != nil {
		return "", errors.New("base URL must not carry credentials: set the token id and secret instead")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("base URL %q must not have a query or fragment", raw)
	}
	if u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return "", fmt.Errorf("base URL %q uses plain http to a host that is not loopback: use https (plain http is allowed only for localhost, 127.0.0.0/8 and ::1)", raw)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// IsLoopbackHost reports whether host is localhost or a loopback address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// jobIDPattern: job ids are decimal strings of 18 or 19 digits.
var jobIDPattern = regexp.MustCompile(`^[0-9]{18,19}$`)

// ValidJobID reports whether id has the shape of a job id: 18 or 19 digits.
func ValidJobID(id string) bool { return jobIDPattern.MatchString(id) }

// ListTemplates returns every template the token may use, in the service's order.
func (c *Client) ListTemplates(ctx context.Context) ([]Template, error) {
	var out []Template
	err := c.call(ctx, request{method: http.MethodGet, path: "/templates", kind: kindRead}, &out)
	return out, err
}

// GetTemplate returns one template with its steps.
func (c *Client) GetTemplate(ctx context.Context, templateID string) (*Template, error) {
	var out Template
	if err := c.call(ctx, request{method: http.MethodGet, path: "/templates/" + url.PathEscape(templateID), kind: kindRead}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// StartWithFile creates a job from the template, uploads the file and starts
// the job, in one request. The file is streamed. The request is retried only
// when the service certainly did not act on it; see JobMaybeCreatedError.
func (c *Client) StartWithFile(ctx context.Context, templateID string, f FileUpload) (*Job, error) {
	body, err := newMultipartBody(f)
	if err != nil {
		return nil, err
	}
	var out Job
	err = c.call(ctx, request{
		method: http.MethodPost, path: "/templates/" + url.PathEscape(templateID) + "/startWithFile",
		kind: kindCreate, templateID: templateID, body: body,
	}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// StartWithData creates a job from the template with the rows as its data
// and starts it, in one request. The JSON body is limited to 25 MB
// (MaxDataBodyBytes); DataUpload.Size tells the size before sending.
func (c *Client) StartWithData(ctx context.Context, templateID string, d DataUpload) (*Job, error) {
	body, err := newJSONBody(d)
	if err != nil {
		return nil, err
	}
	var out Job
	err = c.call(ctx, request{
		method: http.MethodPost, path: "/templates/" + url.PathEscape(templateID) + "/startWithData",
		kind: kindCreate, templateID: templateID, body: body,
	}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateJob creates a job from the template without starting it (EDITING).
func (c *Client) CreateJob(ctx context.Context, templateID string) (*Job, error) {
	var out Job
	err := c.call(ctx, request{
		method: http.MethodPost, path: "/templates/" + url.PathEscape(templateID) + "/jobs",
		kind: kindCreate, templateID: templateID,
	}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// UploadJobFile loads a file into one input of a created job. Uploading the
// same file again replaces it, so the request is retried like a read.
func (c *Client) UploadJobFile(ctx context.Context, jobID, inputID string, f FileUpload) error {
	body, err := newMultipartBody(f)
	if err != nil {
		return err
	}
	return c.call(ctx, request{
		method: http.MethodPut, path: "/jobs/" + url.PathEscape(jobID) + "/inputs/" + url.PathEscape(inputID) + "/file",
		kind: kindIdempotent, body: body,
	}, nil)
}

// SubmitJob submits a job.
func (c *Client) SubmitJob(ctx context.Context, jobID string) (*Job, error) {
	return c.jobAction(ctx, jobID, "submit")
}

// CancelJob cancels a job that has not reached a final status.
func (c *Client) CancelJob(ctx context.Context, jobID string) (*Job, error) {
	return c.jobAction(ctx, jobID, "cancel")
}

func (c *Client) jobAction(ctx context.Context, jobID, action string) (*Job, error) {
	var out Job
	err := c.call(ctx, request{
		method: http.MethodPost, path: "/jobs/" + url.PathEscape(jobID) + "/" + action,
		kind: kindIdempotent, body: emptyJSONBody(),
	}, &out)
	if err == nil {
		return &out, nil
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.earlierWritten && apiErr.StatusCode >= 400 && apiErr.StatusCode <= 499 {
		// An earlier attempt reached the service and may have done it, then
		// lost its answer: the retry then finds the job past the action and
		// is refused, with whatever 4xx the service uses for that. Ask the
		// job itself rather than trust any particular status code.
		job, getErr := c.GetJob(ctx, jobID)
		if getErr == nil && actionTookEffect(action, job.Status) {
			c.log(ctx, "debug", "etl "+action+" was done by an earlier attempt whose answer was lost", map[string]any{
				"job_id": jobID, "status": string(job.Status), "refused_with": apiErr.StatusCode,
			})
			return job, nil
		}
	}
	return nil, err
}

// actionTookEffect: after a lost answer, does the job's status show that
// the action was done? A cancelled job was cancelled; a submitted job is
// SUBMITTED or has since finished.
func actionTookEffect(action string, s JobStatus) bool {
	if action == "cancel" {
		return s == StatusCancelled
	}
	return s == StatusSubmitted || s == StatusCompleted || s == StatusError
}

// GetJob returns a job.
func (c *Client) GetJob(ctx context.Context, jobID string) (*Job, error) {
	var out Job
	if err := c.call(ctx, request{method: http.MethodGet, path: "/jobs/" + url.PathEscape(jobID), kind: kindRead}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetJobStatus returns a job's status alone.
func (c *Client) GetJobStatus(ctx context.Context, jobID string) (JobStatus, error) {
	var out JobStatus
	err := c.call(ctx, request{method: http.MethodGet, path: "/jobs/" + url.PathEscape(jobID) + "/status", kind: kindRead}, &out)
	return out, err
}

// decodeJSON reads a success body into out, bounded so that a runaway answer
// cannot exhaust memory.
func decodeJSON(r io.Reader, out any) error {
	const maxAnswer = 64 << 20
	dec := json.NewDecoder(io.LimitReader(r, maxAnswer))
	return dec.Decode(out)
}
