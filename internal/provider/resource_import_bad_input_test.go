package provider

import (
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The bad-input table drives the provider through the plugin protocol, in
// process and without Terraform: the framework runs every validator, plan
// modifier, ValidateConfig and ModifyPlan as it does under Terraform, and
// each diagnostic comes back with its attribute path.

// badInput is one row of the table: run returns the diagnostics; the
// first error must be on path (""= none) with every string in its text.
type badInput struct {
	name string
	run  func(t *testing.T) []*tfprotov6.Diagnostic
	path string
	has  []string
}

func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string { return writeFile(t, dir, name, b) }
	good := write("good.csv", []byte("Account,Amount\n4000,1\n"))
	empty := write("empty.csv", nil)
	noHeader := write("noheader.csv", []byte("\nAccount,Amount\n4000,1\n"))
	noExt := write("gl.data", []byte("Account,Amount\n4000,1\n"))
	latin := write("latin.csv", []byte("Account,City\n4000,Montr\xe9al\n"))
	odd16 := write("odd.csv", []byte("\xff\xfeA\x00,\x00B\x00\n\x00x"))
	undefined := write("undef.csv", []byte("Account,Amount\n4000,\x81\n"))
	wide := write("wide.csv", []byte("Account,Amount\n4000,1\n4010,2,3\n"))
	narrow := write("narrow.csv", []byte("Account,Amount,City\n4000,1,x\n4010,2\n"))
	pipes := write("pipes.csv", []byte("Account|Amount\n4000|1\n"))
	quote := write("quote.csv", []byte("Account,Amount\n4000,\"1\"x\n"))
	folder := filepath.Join(dir, "folder.csv")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	unreadable := filepath.Join(good, "inside.csv") // a path through a file: stat fails with "not a directory"
	pemFile := write("notpem.pem", []byte("not a certificate"))

	base := func() map[string]any {
		return map[string]any{"base_url": "http://127.0.0.1:1", "token_id": "1.1", "token_secret": "s3cret"}
	}
	with := func(m map[string]any, kv ...any) map[string]any {
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(m, kv[i].(string))
				continue
			}
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	provider := func(cfg map[string]any) func(t *testing.T) []*tfprotov6.Diagnostic {
		return func(t *testing.T) []*tfprotov6.Diagnostic {
			t.Setenv(EnvHub, "")
			t.Setenv(EnvBaseURL, "")
			t.Setenv(EnvTokenID, "")
			t.Setenv(EnvTokenSecret, "")
			t.Setenv(EnvCACertFile, "")
			return newProtoHarness(t).configure(cfg)
		}
	}
	plan := func(cfg map[string]any) func(t *testing.T) []*tfprotov6.Diagnostic {
		return func(t *testing.T) []*tfprotov6.Diagnostic {
			cfg["template_id"] = emulator.GLActualsTemplateID
			_, d := newProtoHarness(t).planImport(cfg)
			return d
		}
	}
	file := func(kv ...any) map[string]any {
		f := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			f[kv[i].(string)] = kv[i+1]
		}
		return map[string]any{"file": f}
	}
	// service answers: a configured provider against an emulator whose
	// endpoint answers status with body.
	service := func(e emulator.Endpoint, status int, body string, op string) func(t *testing.T) []*tfprotov6.Diagnostic {
		return func(t *testing.T) []*tfprotov6.Diagnostic {
			em := newTestEmulator(t, emulator.Options{Instant: true})
			h := newProtoHarness(t)
			secret := emulator.DefaultTokenSecret
			if status == http.StatusUnauthorized {
				secret = "0123456789abcdef0123456789abcdef" // a token of another hub
			} else if status != 0 {
				em.InjectFault(emulator.Fault{Endpoint: e, Status: status, Body: body})
			}
			if d := h.configure(map[string]any{"base_url": em.URL, "token_id": emulator.DefaultTokenID, "token_secret": secret, "max_retries": 0}); hasError(d) {
				return d
			}
			switch op {
			case "list":
				return h.readTemplates()
			case "file":
				return h.applyImport(map[string]any{"template_id": emulator.GLActualsTemplateID, "file": map[string]any{"path": good}})
			case "rows":
				return h.applyImport(map[string]any{"template_id": emulator.GLActualsTemplateID, "rows": [][]string{{"Account", "Amount"}, {"4000", "1"}}})
			case "unknown template":
				return h.applyImport(map[string]any{"template_id": unknownTemplateID, "rows": [][]string{{"Account", "Amount"}, {"4000", "1"}}})
			}
			t.Fatalf("op %q", op)
			return nil
		}
	}

	cases := []badInput{
		// Provider settings.
		{"hub and base_url missing", provider(with(base(), "base_url", nil)), "hub", []string{"ETL_HUB", "base_url"}},
		{"hub malformed", provider(with(base(), "base_url", nil, "hub", "US 2")), "hub", []string{`"US 2"`, "lower-case", "us2"}},
		{"base_url not a URL", provider(with(base(), "base_url", "us2.vena.io")), "base_url", []string{"not an absolute", "https://us2.vena.io"}},
		{"base_url plain http to a remote host", provider(with(base(), "base_url", "http://etl.example.com")), "base_url", []string{"plain http", "use https"}},
		{"token_id missing", provider(with(base(), "token_id", nil)), "token_id", []string{"ETL_TOKEN_ID"}},
		{"token_secret missing", provider(with(base(), "token_secret", nil)), "token_secret", []string{"ETL_TOKEN_SECRET"}},
		{"max_retries negative", provider(with(base(), "max_retries", -1)), "max_retries", []string{"at least 0"}},
		{"retry_wait_min without unit", provider(with(base(), "retry_wait_min", "5")), "retry_wait_min", []string{"not a duration", `"500ms"`}},
		{"retry_wait_max below retry_wait_min", provider(with(base(), "retry_wait_min", "10s", "retry_wait_max", "1s")), "retry_wait_max", []string{"shorter than retry_wait_min"}},
		{"request_timeout zero", provider(with(base(), "request_timeout", "0s")), "request_timeout", []string{"longer than zero"}},
		{"ca_cert_pem not PEM", provider(with(base(), "ca_cert_pem", "hello")), "ca_cert_pem", []string{"no PEM certificate", "BEGIN CERTIFICATE"}},
		{"ca_cert_file missing", provider(with(base(), "ca_cert_file", filepath.Join(dir, "none.pem"))), "ca_cert_file", []string{"cannot be read", EnvCACertFile}},
		{"ca_cert_file not PEM", provider(with(base(), "ca_cert_file", pemFile)), "ca_cert_file", []string{"no PEM certificate"}},

		// file.
		{"file missing", plan(file("path", filepath.Join(dir, "missing.csv"))), "file.path", []string{"does not exist", "path.module"}},
		{"file is a directory", plan(file("path", folder)), "file.path", []string{"is a directory", "must name a file"}},
		{"file unreadable", plan(file("path", unreadable)), "file.path", []string{"cannot be read"}},
		{"file empty", plan(file("path", empty)), "file.path", []string{"is empty", "header row"}},
		{"file without header", plan(file("path", noHeader)), "file.path", []string{"line 1 is empty", "remove the empty line"}},
		{"unknown extension without format", plan(file("path", noExt)), "file.format", []string{"file.format is required", "CSV", "PSV", "TDF"}},
		{"inline content without format", plan(file("content", "Account,Amount\n4000,1\n")), "file.format", []string{"file.format is required for inline"}},
		{"latin-1 bytes declared UTF-8", plan(file("path", latin)), "file.encoding", []string{"line 2", "0xE9", `"Windows Latin-1"`}},
		{"odd-length UTF-16", plan(file("path", odd16, "encoding", "UTF-16")), "file.encoding", []string{"odd number of bytes"}},
		{"undefined Windows Latin-1 byte", plan(file("path", undefined, "encoding", "Windows Latin-1")), "file.encoding", []string{"line 2", "0x81", "undefined"}},
		{"content not representable in Latin-1", plan(file("content", "Account\nΩ\n", "format", "CSV", "encoding", "Windows Latin-1")), "file.content", []string{"U+03A9", "line 2", `"UTF-8"`}},
		{"row wider than the header", plan(file("path", wide)), "file.path", []string{"line 3 has 3 fields but the header has 2", "quote a field"}},
		{"row narrower than the header", plan(file("path", narrow)), "file.path", []string{"line 3 has 2 fields but the header has 3"}},
		{"inline row narrower", plan(file("content", "A,B\n1\n", "format", "CSV")), "file.content", []string{"line 2 has 1 field but the header has 2"}},
		{"delimiter does not match the format", plan(file("path", pipes)), "file.format", []string{"looks like PSV", `"PSV"`}},
		{"broken quoting", plan(file("path", quote)), "file.path", []string{"line 2", "closing quote", "doubled"}},
		{"both path and content", plan(file("path", good, "content", "A\n1\n")), "file.path", []string{"only one", "file.path", "file.content"}},
		{"neither path nor content", plan(file("format", "CSV")), "file.path", []string{"one (and only one)", "file.path", "file.content"}},
		{"encoding misspelt", plan(file("path", good, "encoding", "utf-8")), "file.encoding", []string{"UTF-8", "Windows Latin-1"}},

		// rows.
		{"rows empty", plan(map[string]any{"rows": [][]string{}}), "rows", []string{"rows is empty", "header row"}},
		{"rows with an empty header", plan(map[string]any{"rows": [][]string{{}}}), "rows[0]", []string{"no column names"}},
		{"rows header with a blank name", plan(map[string]any{"rows": [][]string{{"Account", ""}, {"1", "2"}}}), "rows[0][1]", []string{"has no name"}},
		{"rows ragged", plan(map[string]any{"rows": [][]string{{"Account", "Amount"}, {"1", "2"}, {"3"}}}), "rows[2]", []string{"rows[2] has 1 cells but the header row (rows[0]) has 2"}},
		{"file and rows together", plan(map[string]any{"file": map[string]any{"path": good}, "rows": [][]string{{"A"}, {"1"}}}), "file", []string{"Exactly one", "[file,rows,rows_wo,inputs]"}},
		{"neither file nor rows", plan(map[string]any{}), "", []string{"file", "rows"}},

		// Import ids.
		{"import id too short", func(t *testing.T) []*tfprotov6.Diagnostic { return newProtoHarness(t).importID("12345") }, "", []string{`"12345" is not a job id`, "18 or 19"}},
		{"import id with letters", func(t *testing.T) []*tfprotov6.Diagnostic {
			return newProtoHarness(t).importID("64010187428868916x")
		}, "", []string{"18 or 19 decimal digits"}},
		{"import id of 20 digits", func(t *testing.T) []*tfprotov6.Diagnostic {
			return newProtoHarness(t).importID("64010187428868916012")
		}, "", []string{"not a job id"}},

		// Service answers.
		{"401 token of another hub", service("", http.StatusUnauthorized, "", "list"), "", []string{"401", "token id and secret", "hub"}},
		{"403 missing permission", service(emulator.EndpointStartWithFile, http.StatusForbidden, `{"message":"user lacks Update Model on model Finance Plan"}`, "file"), "", []string{"403", "Update Model on model Finance Plan", "permission", "No job was created"}},
		{"404 unknown template", service("", 404, "", "unknown template"), "", []string{"404", "check the template or job id"}},
		{"406 refused Accept", service(emulator.EndpointListTemplates, http.StatusNotAcceptable, `{"message":"Accept header not supported"}`, "list"), "", []string{"406", "Accept header", "client bug"}},
		{"413 body too large", service(emulator.EndpointStartWithData, http.StatusRequestEntityTooLarge, "request entity too large", "rows"), "", []string{"413", "request entity too large", "use file.path"}},
		{"422 malformed upload", service(emulator.EndpointStartWithFile, http.StatusUnprocessableEntity, `{"message":"missing metadata part"}`, "file"), "", []string{"422", "missing metadata part", "partName"}},
		{"503 until retries run out", func(t *testing.T) []*tfprotov6.Diagnostic {
			em := newTestEmulator(t, emulator.Options{Instant: true})
			em.InjectFault(emulator.Fault{Endpoint: emulator.EndpointListTemplates, Status: http.StatusServiceUnavailable})
			h := newProtoHarness(t)
			if d := h.configure(map[string]any{"base_url": em.URL, "token_id": emulator.DefaultTokenID, "token_secret": emulator.DefaultTokenSecret,
				"max_retries": 2, "retry_wait_min": "1ms", "retry_wait_max": "5ms"}); hasError(d) {
				return d
			}
			return h.readTemplates()
		}, "", []string{"503", "injected fault", "3 attempts", "made 3 times", "raise max_retries"}},
	}
	if len(cases) < 30 {
		t.Fatalf("only %d bad inputs", len(cases))
	}
	paths := map[string]int{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			first := expectFirstError(t, c.run(t), c.path, c.has...)
			text := first.Summary + ": " + first.Detail
			t.Logf("%s @%s", text, attrPath(first.Attribute))
			if strings.Contains(text, emulator.DefaultTokenSecret) || strings.Contains(text, "s3cret") {
				t.Errorf("the secret is in the diagnostic: %q", text)
			}
		})
		paths[c.path]++
	}
	t.Logf("%d bad inputs; attribute paths: %v", len(cases), slices.Sorted(maps.Keys(paths)))
}
