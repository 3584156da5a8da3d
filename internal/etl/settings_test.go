package etl

import (
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// problemHas fails unless problem holds every one of want; no want means
// the value is good ("").
func problemHas(t *testing.T, what, problem string, want ...string) {
	t.Helper()
	if len(want) == 0 && problem != "" {
		t.Errorf("%s: unexpected %q", what, problem)
	}
	if len(want) > 0 && problem == "" {
		t.Errorf("%s: no problem, want one with %q", what, want)
	}
	for _, w := range want {
		if !strings.Contains(problem, w) {
			t.Errorf("%s: %q lacks %q", what, problem, w)
		}
	}
}

// A hub or base URL that is not usable is said with its value and where it
// may have come from: the setting or its environment variable.
func TestHubAndBaseURLProblems(t *testing.T) {
	for _, ok := range []string{"us2", "eu1"} {
		problemHas(t, ok, HubProblem(ok))
	}
	for _, bad := range []string{"US2", "us-2", "", "us 2", "eu1.vena.io"} {
		problemHas(t, bad, HubProblem(bad), `"`+bad+`"`, "hub attribute", EnvHub, "such as us1")
	}
	for _, ok := range []string{"https://us2.vena.io", "http://127.0.0.1:8080", "http://localhost:1/"} {
		problemHas(t, ok, BaseURLProblem(ok))
	}
	for _, bad := range []string{"us2.vena.io", "ftp://x", "http://example.com", "https://u:p@x.io", "https://x.io/?a=b"} {
		problemHas(t, bad, BaseURLProblem(bad), "The base_url", EnvBaseURL, "is not usable: ")
	}
}

// A duration setting is a positive Go duration with its unit.
func TestParseSettingDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"500ms": 500 * time.Millisecond, "2m": 2 * time.Minute, "1h30m": 90 * time.Minute} {
		if d, p := ParseSettingDuration("retry_wait_min", in); d != want || p != "" {
			t.Errorf("%q: %v %q, want %v", in, d, p, want)
		}
	}
	_, p := ParseSettingDuration("request_timeout", "90")
	problemHas(t, "90", p, `request_timeout: "90" is not a duration`, `"500ms"`, "units ms, s, m, h")
	for _, in := range []string{"0s", "-1s"} {
		d, p := ParseSettingDuration("retry_wait_max", in)
		problemHas(t, in, p, `retry_wait_max: "`+in+`" must be longer than zero.`)
		if d != 0 {
			t.Errorf("%q: %v with a problem", in, d)
		}
	}
}

// ca_cert_pem must hold a certificate that parses, not only its markers.
func TestPEMProblem(t *testing.T) {
	ts, _, certPEM, err := emulator.NewTLSServer(emulator.Options{Instant: true})
	if err != nil {
		t.Fatal(err)
	}
	ts.Close()
	problemHas(t, "a certificate", PEMProblem(certPEM))
	for _, bad := range []string{"", "hello", "-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n"} {
		problemHas(t, bad, PEMProblem([]byte(bad)), "ca_cert_pem holds no PEM certificate", "BEGIN CERTIFICATE", "ca_cert_file")
	}
}

// A name filter compiles as RE2, or says why not, naming its setting.
func TestCompileNameRegexp(t *testing.T) {
	for _, ok := range []string{"^GL ", "(?i)sales"} {
		re, p := CompileNameRegexp("name_regex", ok)
		if re == nil || re.String() != ok {
			t.Errorf("%q: %v", ok, re)
		}
		problemHas(t, ok, p)
	}
	for _, bad := range []string{"GL(", "a**"} {
		re, p := CompileNameRegexp("name_regex", bad)
		problemHas(t, bad, p, "name_regex is not a valid regular expression (RE2 syntax", "error parsing regexp")
		if re != nil {
			t.Errorf("%q: compiled", bad)
		}
	}
}

// A name the file part's header cannot carry is said with the setting's
// name, the value and the character's offset (CheckPartHeaderValue).
func TestPartHeaderProblem(t *testing.T) {
	for _, ok := range []string{"gl.csv", "my \"quoted\"\tname\\x.csv", "Montréal € 😀.csv"} {
		problemHas(t, ok, PartHeaderProblem("file.name", ok))
	}
	problemHas(t, "CR LF", PartHeaderProblem("file.name", "gl.csv\r\n"),
		`file.name "gl.csv\r\n" contains a carriage return (U+000D) at byte 6`, "header of the upload's file part")
}
