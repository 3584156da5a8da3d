package provider

// No secret leaves the process, through Terraform: the token secret, the
// HTTP Basic value built from it and every escaped form of either
// (etl.SecretForms) never appear in the TF_LOG=TRACE log, the state, the
// plan, the working directory or any error message, on success, on the
// error paths and when the service echoes the credentials back. The unit
// tests of the masking are in provider_secrets_test.go.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// scanForSecrets fails the test when any secret appears in s.
func scanForSecrets(t *testing.T, where, s string, secrets []string) int {
	t.Helper()
	found := 0
	for _, sec := range secrets {
		if n := strings.Count(s, sec); n > 0 {
			t.Errorf("%s holds a secret (%d times, %.6s...)", where, n, sec)
			found += n
		}
	}
	return found
}

// The token secret and the HTTP Basic value built from it never appear in
// the logs (TF_LOG=TRACE, the CLI's and the provider's), the state, the
// plan or the error messages, on success and on the error paths: 401, 404,
// a start whose answer was lost, a base_url that refuses connections.
func TestAccSecrets_neverLeak(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "trace.log")
	workDir := filepath.Join(dir, "work")
	if err := os.Mkdir(workDir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	t.Setenv("TF_ACC_PERSIST_WORKING_DIR", "1")
	clearEnv(t)

	wrongSecret := "0123456789abcdef0123456789abcdef"
	basic := func(secret string) string {
		return base64.StdEncoding.EncodeToString([]byte(emulator.DefaultTokenID + ":" + secret))
	}
	secrets := []string{emulator.DefaultTokenSecret, basic(emulator.DefaultTokenSecret), wrongSecret, basic(wrongSecret)}
	// Every form of either secret: each base64 alphabet, the Basic value,
	// URL and JSON escapes.
	secrets = append(secrets, etl.SecretForms(emulator.DefaultTokenID, emulator.DefaultTokenSecret)...)
	secrets = append(secrets, etl.SecretForms(emulator.DefaultTokenID, wrongSecret)...)

	e := newTestEmulator(t, emulator.Options{Instant: true})
	csvPath := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	// The secret comes from the environment, as in CI: then nothing in
	// the working directory or the test harness's own log holds it, and
	// every file and log line can be scanned.
	useSecret := func(secret string) func() { return func() { t.Setenv(EnvTokenSecret, secret) } }
	prov := func(baseURL string) string {
		return fmt.Sprintf(`
provider "etl" {
  base_url       = %q
  token_id       = %q
  max_retries    = 1
  retry_wait_min = "1ms"
  retry_wait_max = "10ms"
}
`, baseURL, emulator.DefaultTokenID)
	}
	imp := func(name, template string) string {
		return fmt.Sprintf(`
resource "etl_import" %q {
  template_id = %q
  file = {
    path = %q
  }
  submit              = true
  wait_for_completion = true
}
`, name, template, csvPath)
	}
	good := prov(e.URL) + imp("ok", emulator.GLActualsTemplateID) + "\ndata \"etl_templates\" \"all\" {}\n"

	var errs []string
	expected := []*regexp.Regexp{
		errRe(`(?s)401.*token id and secret.*hub`),
		errRe(`(?s)404.*template or job id`),
		errRe(`(?s)Import job may have been created.*terraform import`),
		errRe(`(?s)connection refused|no answer`),
	}
	noSecretsInPlan := planCheckFunc(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
		b, _ := json.Marshal(req.Plan)
		if !strings.Contains(string(b), "content_sha256") {
			resp.Error = fmt.Errorf("the plan has no etl_import: the scan proves nothing")
		}
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				resp.Error = fmt.Errorf("the plan holds a secret")
			}
		}
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		WorkingDir:               workDir,
		ErrorCheck: func(err error) error {
			errs = append(errs, err.Error())
			return nil
		},
		Steps: []resource.TestStep{
			{
				PreConfig:        useSecret(emulator.DefaultTokenSecret),
				Config:           good,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{noSecretsInPlan}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("etl_import.ok", tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
					stateHasNoSecrets(secrets),
				},
			},
			// 401: a token of another hub.
			{PreConfig: useSecret(wrongSecret), Config: prov(e.URL) + "\ndata \"etl_templates\" \"all\" {}\n"},
			// 404: an unknown template.
			{PreConfig: useSecret(emulator.DefaultTokenSecret), Config: good + imp("missing", unknownTemplateID)},
			// A start whose answer is lost: the job may have been created.
			{
				PreConfig: func() {
					e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 1, DropAfterHandling: true})
				},
				Config: good + imp("lost", emulator.GLActualsTemplateID),
			},
			// A base_url nothing listens on.
			{Config: prov("http://127.0.0.1:1") + "\ndata \"etl_templates\" \"all\" {}\n"},
			{Config: good},
		},
		CheckDestroy: func(*terraform.State) error { return nil },
	})

	if len(errs) != len(expected) {
		t.Fatalf("%d steps failed, want %d:\n%s", len(errs), len(expected), strings.Join(errs, "\n---\n"))
	}
	for i, re := range expected {
		if !re.MatchString(errs[i]) {
			t.Errorf("error %d does not match %s:\n%s", i+1, re, errs[i])
		}
		scanForSecrets(t, fmt.Sprintf("error message %d", i+1), errs[i], secrets)
	}

	logBytes, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	logs := string(logBytes)
	// The log must really hold the provider's and the CLI's trace lines,
	// the credentials' neighbourhood included, or the scan proves nothing.
	for _, want := range []string{"etl request", "etl response", "[TRACE]", "tf_rpc", "401"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the trace log (%d bytes) has no %q: is logging captured?", len(logs), want)
		}
	}
	leaks := scanForSecrets(t, "the TF_LOG=TRACE log", logs, secrets)

	files := 0
	err = filepath.WalkDir(workDir, func(p string, d fs.DirEntry, err error) error {
		// Regular files only: the working directory links to testdata/ (a directory).
		if err != nil || !d.Type().IsRegular() || strings.Contains(p, string(filepath.Separator)+".terraform"+string(filepath.Separator)) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(p, "tfstate") {
			files++
		}
		leaks += scanForSecrets(t, p, string(b), secrets)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Error("no state file found in the working directory")
	}
	t.Logf("secret scan: %d bytes of trace log, %d state files, %d error messages; %d leaks", len(logs), files, len(errs), leaks)
}

// stateHasNoSecrets fails when the state holds any of secrets, or holds
// no etl_import (then the scan proves nothing).
func stateHasNoSecrets(secrets []string) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		b, _ := json.Marshal(req.State)
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				resp.Error = fmt.Errorf("the state holds a secret")
				return
			}
		}
		if !strings.Contains(string(b), "content_sha256") {
			resp.Error = fmt.Errorf("the state has no etl_import: the scan proves nothing")
		}
	})
}

// A service error body that echoes the request's credentials (the
// Authorization header, "id:secret", the secret raw and URL-encoded) is
// shown redacted: no form of the secret (etl.SecretForms) in any error
// Terraform prints or in the TF_LOG=TRACE log, for a data source, a start,
// a refresh and a submit.
func TestAccSecrets_echoedInErrorBody(t *testing.T) {
	const secret = "s3cr/t+k&y=1 ü~\"x" // every escape differs from the raw secret
	dir := t.TempDir()
	logFile := filepath.Join(dir, "trace.log")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	clearEnv(t)
	t.Setenv(EnvTokenSecret, secret) // from the environment: nothing in the configuration holds it
	e := newTestEmulator(t, emulator.Options{TokenSecret: secret, RunTime: time.Hour})
	forms := etl.SecretForms(emulator.DefaultTokenID, secret)
	prov := fmt.Sprintf("provider \"etl\" {\n  base_url = %q\n  token_id = %q\n  max_retries = 0\n}\n", e.URL, emulator.DefaultTokenID)
	res := func(submit bool) string {
		return fmt.Sprintf("resource \"etl_import\" \"x\" {\n  template_id = %q\n  rows = [[\"Account\", \"Amount\"], [\"4000\", \"1\"]]\n  submit = %t\n}\n",
			emulator.GLActualsTemplateID, submit)
	}
	echo := func(ep emulator.Endpoint) func() {
		return func() { e.InjectFault(emulator.Fault{Endpoint: ep, Count: 1, EchoCredentials: true}) }
	}
	var errs []string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		ErrorCheck:               func(err error) error { errs = append(errs, err.Error()); return nil },
		CheckDestroy: func(*terraform.State) error {
			return checkJobs(e, sha256Hex(rowsBody(t, [][]string{{"Account", "Amount"}, {"4000", "1"}})))
		},
		Steps: []resource.TestStep{
			{PreConfig: echo(emulator.EndpointListTemplates), Config: prov + "data \"etl_templates\" \"all\" {}\n"},
			{PreConfig: echo(emulator.EndpointStartWithData), Config: prov + res(false)},
			{PreConfig: func() { check(t, checkJobs(e)) }, Config: prov + res(false)},
			{PreConfig: echo(emulator.EndpointGetJob), Config: prov + res(false)},
			{PreConfig: echo(emulator.EndpointSubmitJob), Config: prov + res(true)},
			{Config: prov + res(true), ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("etl_import.x", tfjsonpath.New("status"), knownvalue.StringExact("SUBMITTED")),
			}},
		},
	})
	wants := []*regexp.Regexp{
		errRe(`(?s)Listing templates failed.*500.*\[redacted\]`),
		errRe(`(?s)Starting an import job.*500.*\[redacted\]`),
		errRe(`(?s)Reading import job.*500.*\[redacted\]`),
		errRe(`(?s)Submitting import job.*500.*\[redacted\]`),
	}
	if len(errs) != len(wants) {
		t.Fatalf("%d steps failed, want %d:\n%s", len(errs), len(wants), strings.Join(errs, "\n---\n"))
	}
	leaks := 0
	for i, re := range wants {
		if !re.MatchString(errs[i]) {
			t.Errorf("error %d does not match %s:\n%s", i+1, re, errs[i])
		}
		leaks += scanForSecrets(t, fmt.Sprintf("error message %d", i+1), errs[i], forms)
	}
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logs), "etl response") {
		t.Errorf("the trace log (%d bytes) has no client lines: is logging captured?", len(logs))
	}
	leaks += scanForSecrets(t, "the TF_LOG=TRACE log", string(logs), forms)
	t.Logf("secret scan: %d forms, %d error messages, %d bytes of trace log; %d leaks; jobs: %d", len(forms), len(errs), len(logs), leaks, len(e.Jobs()))
}
