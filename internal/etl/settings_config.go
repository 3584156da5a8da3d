package etl

import (
	"fmt"
	"os"
	"time"
)

// Settings are a client's settings as its user gave them, each read from
// where it was set (such as an attribute, else its environment variable),
// before they are checked: Config checks them into the client's Config.
type Settings struct {
	Hub, TokenID, TokenSecret, BaseURL string
	// MaxRetries is nil when not set: DefaultMaxRetries.
	MaxRetries *int
	// RetryWaitMin, RetryWaitMax and RequestTimeout are durations as
	// written (ParseSettingDuration); nil when not set: their defaults.
	RetryWaitMin, RetryWaitMax, RequestTimeout *string
	// CACertPEM holds certificates as PEM text; nil when not set.
	CACertPEM *string
	// CACertFile names a file of PEM certificates, read when CACertPEM is
	// nil; "" for none.
	CACertFile string
}

// SettingProblem is a setting that is missing or not usable: Setting names
// it as its user writes it, such as "retry_wait_max"; Summary and Detail
// say what is wrong, where the value came from and what to do.
type SettingProblem struct {
	Setting, Summary, Detail string
}

// settingProblems gathers the problems Config finds, in order.
type settingProblems []SettingProblem

// invalid adds the problem of a setting whose value is not usable.
func (ps *settingProblems) invalid(setting, detail string) {
	*ps = append(*ps, SettingProblem{Setting: setting, Summary: "Invalid " + setting, Detail: detail})
}

// missing adds the problem of a required setting that is not set.
func (ps *settingProblems) missing(setting, detail string) {
	*ps = append(*ps, SettingProblem{Setting: setting, Summary: "Missing " + setting, Detail: detail})
}

// Config checks s and returns the client's Config, less its user agent
// and log, with every problem found: the durations over their defaults,
// the extra certificate authorities, max_retries, then the service (the
// hub or the base URL, and both halves of the token).
func (s Settings) Config() (Config, []SettingProblem) {
	var ps settingProblems
	c := Config{
		Hub: s.Hub, TokenID: s.TokenID, TokenSecret: s.TokenSecret, BaseURL: s.BaseURL, MaxRetries: DefaultMaxRetries,
		RetryWaitMin: DefaultRetryWaitMin, RetryWaitMax: DefaultRetryWaitMax, RequestTimeout: DefaultRequestTimeout,
	}
	s.durations(&c, &ps)
	s.caCert(&c, &ps)
	if s.MaxRetries != nil {
		c.MaxRetries = *s.MaxRetries
		if c.MaxRetries < 0 {
			ps.invalid("max_retries", "max_retries must be 0 or more.")
		}
	}
	checkService(c, &ps)
	return c, ps
}

// durations parses into c the retry waits and the request timeout that
// are set, over their defaults, and requires retry_wait_max to be at least
// retry_wait_min.
func (s Settings) durations(c *Config, ps *settingProblems) {
	for _, d := range []struct {
		name string
		v    *string
		into *time.Duration
	}{
		{"retry_wait_min", s.RetryWaitMin, &c.RetryWaitMin},
		{"retry_wait_max", s.RetryWaitMax, &c.RetryWaitMax},
		{"request_timeout", s.RequestTimeout, &c.RequestTimeout},
	} {
		if d.v == nil {
			continue
		}
		v, problem := ParseSettingDuration(d.name, *d.v)
		if problem != "" {
			ps.invalid(d.name, problem)
			continue
		}
		*d.into = v
	}
	if c.RetryWaitMax < c.RetryWaitMin {
		ps.invalid("retry_wait_max",
			fmt.Sprintf("retry_wait_max (%s) is shorter than retry_wait_min (%s): set retry_wait_max to at least retry_wait_min.", c.RetryWaitMax, c.RetryWaitMin))
	}
}

// caCert reads into c the extra certificate authorities: ca_cert_pem, else
// the file named by ca_cert_file or its environment variable.
func (s Settings) caCert(c *Config, ps *settingProblems) {
	if s.CACertPEM != nil {
		c.CACertPEM = []byte(*s.CACertPEM)
		if problem := PEMProblem(c.CACertPEM); problem != "" {
			ps.invalid("ca_cert_pem", problem)
		}
		return
	}
	if s.CACertFile == "" {
		return
	}
	b, err := os.ReadFile(s.CACertFile)
	switch {
	case err != nil:
		ps.invalid("ca_cert_file",
			fmt.Sprintf("The CA certificate file %q (from the ca_cert_file attribute or the %s environment variable) cannot be read: %s.", s.CACertFile, EnvCACertFile, err))
	case !hasPEMCertificate(b):
		ps.invalid("ca_cert_file",
			fmt.Sprintf("The CA certificate file %q (from the ca_cert_file attribute or the %s environment variable) holds no PEM certificate: it must hold the certificate authority's certificate as PEM text (\"-----BEGIN CERTIFICATE-----\" ...).", s.CACertFile, EnvCACertFile))
	default:
		c.CACertPEM = b
	}
}

// checkService requires of c the hub or base_url, each valid when set,
// and both halves of the token.
func checkService(c Config, ps *settingProblems) {
	switch {
	case c.Hub == "" && c.BaseURL == "":
		ps.missing("hub",
			"The provider needs the hub (region) the token was issued on, such as us2: set the hub attribute or the "+EnvHub+
				" environment variable (or set base_url / "+EnvBaseURL+" to give the service address directly).")
	case c.Hub != "":
		if problem := HubProblem(c.Hub); problem != "" {
			ps.invalid("hub", problem)
		}
	}
	if c.BaseURL != "" {
		if problem := BaseURLProblem(c.BaseURL); problem != "" {
			ps.invalid("base_url", problem)
		}
	}
	if c.TokenID == "" {
		ps.missing("token_id",
			"The provider needs the application token's id: set the token_id attribute or the "+EnvTokenID+" environment variable.")
	}
	if c.TokenSecret == "" {
		ps.missing("token_secret",
			"The provider needs the application token's secret: set the token_secret attribute or the "+EnvTokenSecret+" environment variable.")
	}
}
