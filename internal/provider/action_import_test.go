package provider

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// The etl_import action through the plugin protocol, in process, as
// Terraform 1.14+ drives it: validate, plan, invoke (a stream of progress
// events, then the diagnostics). These tests need no Terraform CLI.

func (h *protoHarness) actionType() tftypes.Object {
	h.t.Helper()
	s, err := h.srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		h.t.Fatal(err)
	}
	a, ok := s.ActionSchemas["etl_import"]
	if !ok {
		h.t.Fatalf("no etl_import action in the provider's schema: %v", s.ActionSchemas)
	}
	return a.Schema.ValueType().(tftypes.Object)
}

// actions is the server's action RPCs.
func (h *protoHarness) actions() tfprotov6.ActionServer {
	h.t.Helper()
	a, ok := h.srv.(tfprotov6.ActionServer)
	if !ok {
		h.t.Fatal("the provider server serves no actions")
	}
	return a
}

func (h *protoHarness) actionConfig(cfg map[string]any) *tfprotov6.DynamicValue {
	typ := h.actionType()
	return dynamic(h.t, typ, tfValue(h.t, typ, cfg))
}

// planAction validates and plans an invocation, as Terraform does first.
func (h *protoHarness) planAction(cfg map[string]any) []*tfprotov6.Diagnostic {
	ctx := context.Background()
	v, err := h.actions().ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: "etl_import", Config: h.actionConfig(cfg)})
	if err != nil {
		h.t.Fatal(err)
	}
	if hasError(v.Diagnostics) {
		return v.Diagnostics
	}
	p, err := h.actions().PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: "etl_import", Config: h.actionConfig(cfg)})
	if err != nil {
		h.t.Fatal(err)
	}
	return append(v.Diagnostics, p.Diagnostics...)
}

// invokeAction plans, then invokes; it returns the progress messages and
// the diagnostics.
func (h *protoHarness) invokeAction(cfg map[string]any) ([]string, []*tfprotov6.Diagnostic) {
	if d := h.planAction(cfg); hasError(d) {
		return nil, d
	}
	return h.invokeOnly(cfg)
}

// invokeOnly invokes, without the plan that Terraform makes first; it
// returns the progress messages and the diagnostics.
func (h *protoHarness) invokeOnly(cfg map[string]any) ([]string, []*tfprotov6.Diagnostic) {
	stream, err := h.actions().InvokeAction(context.Background(), &tfprotov6.InvokeActionRequest{ActionType: "etl_import", Config: h.actionConfig(cfg)})
	if err != nil {
		h.t.Fatal(err)
	}
	var progress []string
	var diags []*tfprotov6.Diagnostic
	completed := 0
	for ev := range stream.Events {
		switch e := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			progress = append(progress, e.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			completed++
			diags = e.Diagnostics
		}
	}
	if completed != 1 {
		h.t.Fatalf("%d completed events, want 1", completed)
	}
	return progress, diags
}

// Each invocation starts one new job with exactly the file's bytes, and
// reports what it sends, the job id, the submit, each status and the end.
func TestImportActionInvokeFile(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{RunTime: 300 * time.Millisecond})
	h := harnessFor(t, e)
	p, raw := writeTestFile(t, t.TempDir(), "gl.psv", "PSV", "UTF-16", testRows)
	cfg := map[string]any{"template_id": emulator.GLActualsTemplateID, "file": map[string]any{"path": p, "encoding": "UTF-16"},
		"submit": true, "wait_for_completion": true}
	for i := 1; i <= 2; i++ {
		progress, diags := h.invokeAction(cfg)
		if hasError(diags) {
			t.Fatalf("invocation %d:\n%s", i, describe(diags))
		}
		jobs := e.Jobs()
		if len(jobs) != i {
			t.Fatalf("after invocation %d: %d jobs, want %d", i, len(jobs), i)
		}
		job := jobs[i-1]
		u := job.Upload
		if u == nil || u.SHA256 != sha256Hex(raw) || u.Bytes != int64(len(raw)) || u.FileName != "gl.psv" || u.Format != "PSV" || u.Encoding != "UTF-16" || u.RowCount != 2 {
			t.Fatalf("invocation %d: upload %+v, want the file's %d bytes (SHA-256 %s)", i, u, len(raw), sha256Hex(raw))
		}
		if job.Status != emulator.StatusCompleted {
			t.Errorf("job %s is %s, want COMPLETED", job.ID, job.Status)
		}
		for _, want := range []string{
			fmt.Sprintf(`^Starting an import job from template %s with the file gl\.psv: 2 data rows, %d bytes, SHA-256 %s$`, emulator.GLActualsTemplateID, len(raw), sha256Hex(raw)),
			fmt.Sprintf(`^Import job %s started: RUNNING$`, job.ID),
			fmt.Sprintf(`^Import job %s submitted: SUBMITTED$`, job.ID),
			fmt.Sprintf(`^Import job %s ended: COMPLETED$`, job.ID),
			fmt.Sprintf(`^Import job %s sent the file gl\.psv: 2 data rows, %d bytes$`, job.ID, len(raw)),
		} {
			if !hasMessage(progress, want) {
				t.Errorf("invocation %d: no progress message matching %s in %q", i, want, progress)
			}
		}
	}
}

func TestImportActionInvokeRows(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	h := harnessFor(t, e)
	rows := [][]string{{"Account", "Amount"}, {"4000", "1"}, {"4010", "Zürich & <co>"}}
	body := rowsBody(t, rows)
	progress, diags := h.invokeAction(map[string]any{"template_id": emulator.GLActualsTemplateID, "rows": rows})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	jobs := e.Jobs()
	if len(jobs) != 1 || jobs[0].Upload == nil || jobs[0].Upload.Kind != "data" || jobs[0].Upload.SHA256 != sha256Hex(body) || jobs[0].Upload.Bytes != int64(len(body)) {
		t.Fatalf("jobs %+v, want one with the rows' JSON body (SHA-256 %s)", jobs, sha256Hex(body))
	}
	if !hasMessage(progress, fmt.Sprintf(`with the rows \(as a JSON body\): 2 data rows, %d bytes, SHA-256 %s$`, len(body), sha256Hex(body))) ||
		!hasMessage(progress, `not waiting for it \(wait_for_completion is false\)$`) ||
		!hasMessage(progress, fmt.Sprintf(`^Import job [0-9]+ sent the rows \(as a JSON body\): 2 data rows, %d bytes$`, len(body))) {
		t.Errorf("progress %q", progress)
	}
	if n := e.Requests(emulator.EndpointSubmitJob); n != 0 {
		t.Errorf("%d submits, want none (submit defaults to false)", n)
	}
}

// A job that ends in ERROR fails the invocation, naming the job and its
// status; nothing is kept, and the error says so.
func TestImportActionInvokeFailedJob(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	h := harnessFor(t, e)
	progress, diags := h.invokeAction(map[string]any{"template_id": emulator.GLActualsTemplateID,
		"rows": [][]string{{"Account", "Value"}, {"4000", "1"}}, "wait_for_completion": true})
	jobs := e.Jobs()
	if len(jobs) != 1 || jobs[0].Status != emulator.StatusError {
		t.Fatalf("jobs %+v, want one in ERROR", jobs)
	}
	id := jobs[0].ID
	if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError ||
		diags[0].Summary != "Import job "+id+" ended with status ERROR" || !strings.Contains(diags[0].Detail, actionWording.afterFailure) {
		t.Errorf("diagnostics:\n%s", describe(diags))
	}
	if !hasMessage(progress, "^Import job "+id+" ended: ERROR$") {
		t.Errorf("progress %q", progress)
	}
}

// While waiting, each status the job passes through is reported: a job
// queued behind another job of its model runs, then completes.
func TestImportActionReportsStatusWhileWaiting(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{RunTime: 300 * time.Millisecond})
	h := harnessFor(t, e)
	startJob(t, e, emulator.GLActualsTemplateID, glRows) // runs first
	progress, diags := h.invokeAction(map[string]any{"template_id": emulator.GLActualsTemplateID, "rows": glRows, "wait_for_completion": true})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	id := e.Jobs()[1].ID
	for _, want := range []string{"^Import job " + id + " started: QUEUED$", "^Import job " + id + " is RUNNING$", "^Import job " + id + " ended: COMPLETED$"} {
		if !hasMessage(progress, want) {
			t.Errorf("no progress message matching %s in %q", want, progress)
		}
	}
}

func TestImportActionInvokeNotConfigured(t *testing.T) {
	_, diags := newProtoHarness(t).invokeAction(map[string]any{"template_id": emulator.GLActualsTemplateID, "rows": [][]string{{"A"}, {"1"}}})
	if !hasError(diags) || diags[0].Summary != "Provider not configured" {
		t.Errorf("diagnostics:\n%s", describe(diags))
	}
}

// The file is checked again at invoke, as a plan checks it: a file made
// ragged after the plan fails the invocation on file.path, and nothing is
// sent.
func TestImportActionChecksAtInvoke(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	h := harnessFor(t, e)
	p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n4000,1\n"))
	cfg := map[string]any{"template_id": emulator.GLActualsTemplateID, "file": map[string]any{"path": p}}
	if d := h.planAction(cfg); hasError(d) {
		t.Fatal(describe(d))
	}
	writeFile(t, filepath.Dir(p), "gl.csv", []byte("Account,Amount\n4000,1,2\n"))
	_, diags := h.invokeOnly(cfg)
	expectFirstError(t, diags, "file.path", "line 2 has 3 fields")
	if n := len(e.Jobs()); n != 0 {
		t.Fatalf("%d jobs started, want 0", n)
	}
}

// The etl_import action with inputs, through the plugin protocol: the
// resource's rules and plan-time checks, one job per invocation (create,
// a PUT per input in the template's step order, submit), progress per
// input, and a failed load that cancels the job.

// actionInputs builds the action's inputs value: key -> {"file": {...}}
// or {"rows": [][]string}.
func (h *protoHarness) actionInputs(ins map[string]map[string]any) tftypes.Value {
	h.t.Helper()
	mt := h.actionType().AttributeTypes["inputs"].(tftypes.Map)
	vals := map[string]tftypes.Value{}
	for k, in := range ins {
		vals[k] = tfValue(h.t, mt.ElementType, in)
	}
	return tftypes.NewValue(mt, vals)
}

// inOrder requires a progress message matching each pattern, in this
// order (each after the one before).
func inOrder(t *testing.T, progress []string, patterns ...string) {
	t.Helper()
	from := 0
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		i := slices.IndexFunc(progress[from:], re.MatchString)
		if i < 0 {
			t.Errorf("no progress message matching %s after message %d in:\n%s", p, from, strings.Join(progress, "\n"))
			return
		}
		from += i + 1
	}
}

// One invocation with a file and rows: one job created from the two-step
// template, one PUT per input with exactly its bytes in the template's
// step order, one submit (the default with inputs), COMPLETED; progress
// for each input before it loads. A second invocation starts a second job.
func TestImportActionInvokeInputs(t *testing.T) {
	e, wire := newLoggedEmulator(t, emulator.Options{})
	h := harnessFor(t, e)
	actuals, actualsRaw := writeTestFile(t, t.TempDir(), "actuals.psv", "PSV", "UTF-16", actualsRows)
	ratesCSV := []byte(delimited(ratesRows, "CSV"))
	cfg := map[string]any{
		"template_id": emulator.TwoStepTemplateID,
		"inputs": h.actionInputs(map[string]map[string]any{
			"Load Actuals": {"file": map[string]any{"path": actuals, "encoding": "UTF-16"}},
			"Load Rates":   {"rows": ratesRows},
		}),
		"wait_for_completion": true,
	}
	for i := 1; i <= 2; i++ {
		progress, diags := h.invokeAction(cfg)
		if hasError(diags) {
			t.Fatalf("invocation %d:\n%s", i, describe(diags))
		}
		jobs := e.Jobs()
		if len(jobs) != i {
			t.Fatalf("after invocation %d: %d jobs, want %d (one per invocation)", i, len(jobs), i)
		}
		job := jobs[i-1]
		if job.TemplateID != emulator.TwoStepTemplateID || job.Status != emulator.StatusCompleted {
			t.Errorf("invocation %d: job %+v, want a COMPLETED job of the two-step template", i, job)
		}
		expectJobInputs(t, job, map[string][]byte{emulator.TwoStepActualsInputID: actualsRaw, emulator.TwoStepRatesInputID: ratesCSV},
			map[string]string{emulator.TwoStepActualsInputID: "actuals.psv", emulator.TwoStepRatesInputID: "rows.csv"})
		if u := job.Inputs[emulator.TwoStepActualsInputID]; u != nil && (u.Format != "PSV" || u.Encoding != "UTF-16" || u.RowCount != 2) {
			t.Errorf("invocation %d: actuals %+v, want PSV in UTF-16 with 2 rows", i, u)
		}
		for ep, want := range map[emulator.Endpoint]int{emulator.EndpointCreateJob: i, emulator.EndpointUploadJobFile: 2 * i, emulator.EndpointSubmitJob: i,
			emulator.EndpointStartWithFile: 0, emulator.EndpointStartWithData: 0, emulator.EndpointCancelJob: 0} {
			if n := e.Requests(ep); n != want {
				t.Errorf("after invocation %d: %d %s requests, want %d", i, n, ep, want)
			}
		}
		inOrder(t, progress,
			fmt.Sprintf(`^Creating an import job from template %s to load 2 inputs$`, emulator.TwoStepTemplateID),
			fmt.Sprintf(`^Import job %s created: EDITING$`, job.ID),
			fmt.Sprintf(`^Loading step "Load Actuals" \(input %s\): 2 data rows, %d bytes$`, emulator.TwoStepActualsInputID, len(actualsRaw)),
			fmt.Sprintf(`^Loading step "Load Rates" \(input %s\): 2 data rows, %d bytes$`, emulator.TwoStepRatesInputID, len(ratesCSV)),
			fmt.Sprintf(`^Import job %s: 2 inputs loaded$`, job.ID),
			fmt.Sprintf(`^Import job %s submitted: SUBMITTED$`, job.ID),
			fmt.Sprintf(`^Import job %s ended: COMPLETED$`, job.ID),
			fmt.Sprintf(`^Import job %s sent step "Load Actuals": 2 data rows, %d bytes; step "Load Rates": 2 data rows, %d bytes$`, job.ID, len(actualsRaw), len(ratesCSV)))
	}
	jobs := e.Jobs()
	var want []string
	for _, j := range jobs {
		want = append(want,
			"POST /api/public/v1/etl/templates/"+emulator.TwoStepTemplateID+"/jobs -> 200",
			"PUT /api/public/v1/etl/jobs/"+j.ID+"/inputs/"+emulator.TwoStepActualsInputID+"/file -> 204",
			"PUT /api/public/v1/etl/jobs/"+j.ID+"/inputs/"+emulator.TwoStepRatesInputID+"/file -> 204",
			"POST /api/public/v1/etl/jobs/"+j.ID+"/submit -> 200")
	}
	if got := wire.writes(); !slices.Equal(got, want) {
		t.Errorf("requests that change something:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The inputs load in the template's step order, not in the order of their
// keys: here "640…162" (Load Rates, by input id) sorts before "Load
// Actuals". submit = true as configured.
func TestImportActionInputsStepOrder(t *testing.T) {
	e, wire := newLoggedEmulator(t, emulator.Options{Instant: true})
	h := harnessFor(t, e)
	actualsCSV := []byte(delimited(actualsRows, "CSV"))
	progress, diags := h.invokeAction(map[string]any{
		"template_id": emulator.TwoStepTemplateID,
		"inputs": h.actionInputs(map[string]map[string]any{
			emulator.TwoStepRatesInputID: {"rows": ratesRows},
			"Load Actuals":               {"file": map[string]any{"content": string(actualsCSV), "format": "CSV"}},
		}),
		"submit": true,
	})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	jobs := e.Jobs()
	if len(jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(jobs))
	}
	expectJobInputs(t, jobs[0], map[string][]byte{emulator.TwoStepActualsInputID: actualsCSV, emulator.TwoStepRatesInputID: []byte(delimited(ratesRows, "CSV"))},
		map[string]string{emulator.TwoStepActualsInputID: "data.csv", emulator.TwoStepRatesInputID: "rows.csv"})
	var puts []string
	for _, l := range wire.writes() {
		if strings.HasPrefix(l, "PUT ") {
			puts = append(puts, l)
		}
	}
	if len(puts) != 2 || !strings.Contains(puts[0], emulator.TwoStepActualsInputID) || !strings.Contains(puts[1], emulator.TwoStepRatesInputID) {
		t.Errorf("PUTs %q, want Load Actuals, then Load Rates", puts)
	}
	inOrder(t, progress, `^Loading step "Load Actuals" `, `^Loading step "Load Rates" `, `submitted: `, `not waiting for it \(wait_for_completion is false\)$`)
	if n := e.Requests(emulator.EndpointSubmitJob); n != 1 {
		t.Errorf("%d submits, want 1", n)
	}
}

// While a large input file loads, the bytes sent so far are reported,
// between that input's message and the next one's.
func TestImportActionInputsUploadProgress(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	fast := testTuning
	fast.uploadProgressEvery = time.Millisecond
	h := harnessWith(t, e, fast)
	raw := repeatCSV("Account,Amount", "4000,1.25", 800_000)
	p := writeFile(t, t.TempDir(), "big.csv", raw)
	progress, diags := h.invokeAction(map[string]any{"template_id": emulator.TwoStepTemplateID, "inputs": h.actionInputs(map[string]map[string]any{
		"Load Actuals": {"file": map[string]any{"path": p}},
		"Load Rates":   {"rows": ratesRows},
	})})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	inOrder(t, progress, `^Loading step "Load Actuals" `, fmt.Sprintf(`^Sent [0-9]+ of %d bytes of big\.csv \([0-9]+%%\)$`, len(raw)), `^Loading step "Load Rates" `)
	if u := e.Jobs()[0].Inputs[emulator.TwoStepActualsInputID]; u == nil || u.SHA256 != sha256Hex(raw) {
		t.Errorf("actuals %+v, want SHA-256 %s", u, sha256Hex(raw))
	}
}

// The inputs' plan-time checks are the resource's: each problem fails
// validation or the plan on the attribute to fix (a key on the key), and
// nothing is sent.
func TestImportActionInputsPlanChecks(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	h := harnessFor(t, e)
	dir := t.TempDir()
	good, _ := writeTestFile(t, dir, "actuals.csv", "CSV", "UTF-8", actualsRows)
	latin := writeFile(t, dir, "latin.csv", []byte("Account,Amount\n4000,Montr\xe9al\n"))
	wide := writeFile(t, dir, "wide.csv", []byte("Account,Amount\n4000,1\n4010,2,3\n"))
	noExt := writeFile(t, dir, "actuals.data", []byte("Account,Amount\n4000,1\n"))
	file := func(p string) map[string]any { return map[string]any{"file": map[string]any{"path": p}} }
	rates := map[string]any{"rows": ratesRows}
	cases := []struct {
		name   string
		inputs map[string]map[string]any
		extra  map[string]any
		path   string // "" = no error
		has    []string
	}{
		{"good inputs", map[string]map[string]any{"Load Actuals": file(good), "Load Rates": rates}, nil, "", nil},
		{"an unknown key", map[string]map[string]any{"Load Actual": file(good), "Load Rates": rates}, nil, `inputs["Load Actual"]`,
			[]string{"Unknown input step", `"Load Actual" is neither a step name nor an input id of template ` + emulator.TwoStepTemplateID, `"Load Actuals": input id ` + emulator.TwoStepActualsInputID}},
		{"two keys for one input", map[string]map[string]any{"Load Actuals": file(good), "Load Rates": rates, emulator.TwoStepRatesInputID: rates}, nil, `inputs["Load Rates"]`,
			[]string{"Input given twice", fmt.Sprintf(`%q and "Load Rates" both name the input %s`, emulator.TwoStepRatesInputID, emulator.TwoStepRatesInputID)}},
		{"file and rows in one input", map[string]map[string]any{"Load Actuals": {"file": map[string]any{"path": good}, "rows": actualsRows}, "Load Rates": rates}, nil,
			`inputs["Load Actuals"].file`, []string{"Invalid Attribute Combination", `inputs["Load Actuals"].rows`}},
		{"neither file nor rows in an input", map[string]map[string]any{"Load Actuals": {}, "Load Rates": rates}, nil,
			`inputs["Load Actuals"].file`, []string{"Invalid Attribute Combination", "No attribute specified"}},
		{"ragged rows", map[string]map[string]any{"Load Actuals": file(good), "Load Rates": {"rows": [][]string{{"Currency", "Rate"}, {"EUR"}}}}, nil,
			`inputs["Load Rates"].rows[1]`, []string{"has 1 cells"}},
		{"a file not in its encoding", map[string]map[string]any{"Load Actuals": file(latin), "Load Rates": rates}, nil,
			`inputs["Load Actuals"].file.encoding`, []string{`In inputs["Load Actuals"]`, "line 2", "0xE9"}},
		{"a file ragged", map[string]map[string]any{"Load Actuals": file(wide), "Load Rates": rates}, nil,
			`inputs["Load Actuals"].file.path`, []string{"line 3 has 3 fields but the header has 2"}},
		{"a missing file", map[string]map[string]any{"Load Actuals": file(filepath.Join(dir, "missing.csv")), "Load Rates": rates}, nil,
			`inputs["Load Actuals"].file.path`, []string{"does not exist"}},
		{"no format", map[string]map[string]any{"Load Actuals": file(noExt), "Load Rates": rates}, nil,
			`inputs["Load Actuals"].file.format`, []string{`In inputs["Load Actuals"]: file.format is required`}},
		{"inputs and rows", map[string]map[string]any{"Load Rates": rates}, map[string]any{"rows": ratesRows}, "rows", []string{"[file,rows,inputs]"}},
		{"waiting on a job never submitted", map[string]map[string]any{"Load Actuals": file(good), "Load Rates": rates},
			map[string]any{"submit": false, "wait_for_completion": true}, "wait_for_completion", []string{"Waiting on a job that is not submitted"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := map[string]any{"template_id": emulator.TwoStepTemplateID, "inputs": h.actionInputs(tc.inputs)}
			for k, v := range tc.extra {
				cfg[k] = v
			}
			diags := h.planAction(cfg)
			if tc.has == nil {
				if len(diags) != 0 {
					t.Fatalf("want no diagnostics:\n%s", describe(diags))
				}
				return
			}
			expectFirstError(t, diags, tc.path, tc.has...)
		})
	}
	if jobs, _ := e.Stats(); jobs != 0 || e.Requests(emulator.EndpointCreateJob) != 0 || e.Requests(emulator.EndpointUploadJobFile) != 0 {
		t.Errorf("a plan sent something: %d jobs, %d creates, %d uploads", jobs, e.Requests(emulator.EndpointCreateJob), e.Requests(emulator.EndpointUploadJobFile))
	}

	// Warnings: a step no input loads; submit = false.
	diags := h.planAction(map[string]any{"template_id": emulator.TwoStepTemplateID, "inputs": h.actionInputs(map[string]map[string]any{"Load Actuals": file(good)}), "submit": false})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	if ws := diagsAt(diags, tfprotov6.DiagnosticSeverityWarning, "Template steps without input"); len(ws) != 1 || !strings.Contains(ws[0].Detail, `"Load Rates" (input id `+emulator.TwoStepRatesInputID+`)`) {
		t.Errorf("want a warning naming the step not loaded:\n%s", describe(diags))
	}
	if ws := diagsAt(diags, tfprotov6.DiagnosticSeverityWarning, "Job will not be submitted"); len(ws) != 1 || attrPath(ws[0].Attribute) != "submit" {
		t.Errorf("want a warning on submit:\n%s", describe(diags))
	}

	// Without a client (the provider not configured during this plan),
	// keys cannot be resolved, but the data is still checked.
	diags = newProtoHarness(t).planAction(map[string]any{"template_id": emulator.TwoStepTemplateID, "inputs": h.actionInputs(map[string]map[string]any{"Load Actuals": file(wide)})})
	expectFirstError(t, diags, `inputs["Load Actuals"].file.path`, "line 3 has 3 fields")
}

// With submit = false, the job is created and loaded, but not submitted:
// it stays EDITING.
func TestImportActionInputsNotSubmitted(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	h := harnessFor(t, e)
	progress, diags := h.invokeAction(map[string]any{"template_id": emulator.TwoStepTemplateID, "submit": false,
		"inputs": h.actionInputs(map[string]map[string]any{"Load Actuals": {"rows": actualsRows}, "Load Rates": {"rows": ratesRows}})})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	jobs := e.Jobs()
	if len(jobs) != 1 || jobs[0].Status != emulator.StatusEditing || len(jobs[0].Inputs) != 2 || e.Requests(emulator.EndpointSubmitJob) != 0 {
		t.Fatalf("jobs %+v, %d submits: want one EDITING job with 2 inputs, not submitted", jobs, e.Requests(emulator.EndpointSubmitJob))
	}
	inOrder(t, progress, `^Import job [0-9]+: 2 inputs loaded$`, `^Import job [0-9]+ is EDITING; not waiting for it`)
}

// A load that fails cancels the job and fails the invocation, on the
// input's key, naming the job and the step; nothing else is sent, and
// nothing is kept.
func TestImportActionInputsLoadFails(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointUploadJobFile, Count: 1, Status: 422})
	h := harnessFor(t, e)
	progress, diags := h.invokeAction(map[string]any{"template_id": emulator.TwoStepTemplateID, "wait_for_completion": true,
		"inputs": h.actionInputs(map[string]map[string]any{"Load Actuals": {"rows": actualsRows}, "Load Rates": {"rows": ratesRows}})})
	jobs := e.Jobs()
	if len(jobs) != 1 || jobs[0].Status != emulator.StatusCancelled {
		t.Fatalf("jobs %+v, want one CANCELLED job", jobs)
	}
	id := jobs[0].ID
	d := expectFirstError(t, diags, `inputs["Load Actuals"]`, `Loading step "Load Actuals" into import job `+id+" failed",
		"created from template "+emulator.TwoStepTemplateID, "input id "+emulator.TwoStepActualsInputID, "422", "The job was cancelled (status CANCELLED)", actionWording.afterIncomplete)
	if strings.Contains(d.Detail, "tainted") {
		t.Errorf("the action's error speaks of the resource's state: %s", d.Detail)
	}
	for ep, want := range map[emulator.Endpoint]int{emulator.EndpointUploadJobFile: 1, emulator.EndpointCancelJob: 1, emulator.EndpointSubmitJob: 0} {
		if n := e.Requests(ep); n != want {
			t.Errorf("%d %s requests, want %d", n, ep, want)
		}
	}
	if hasMessage(progress, "Load Rates") || hasMessage(progress, "submitted") {
		t.Errorf("progress after the failed load: %q", progress)
	}
}

// The inputs are checked again at invoke, as a plan checks them: a file
// made ragged after the plan fails the invocation on the input's path,
// before any job is created.
func TestImportActionInputsChecksAtInvoke(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	h := harnessFor(t, e)
	p := writeFile(t, t.TempDir(), "actuals.csv", []byte("Account,Amount\n4000,1\n"))
	cfg := map[string]any{"template_id": emulator.TwoStepTemplateID, "inputs": h.actionInputs(map[string]map[string]any{
		"Load Actuals": {"file": map[string]any{"path": p}}, "Load Rates": {"rows": ratesRows},
	})}
	if d := h.planAction(cfg); hasError(d) {
		t.Fatal(describe(d))
	}
	writeFile(t, filepath.Dir(p), "actuals.csv", []byte("Account,Amount\n4000,1,2\n"))
	_, diags := h.invokeOnly(cfg)
	expectFirstError(t, diags, `inputs["Load Actuals"].file.path`, "line 2 has 3 fields")
	if jobs, _ := e.Stats(); jobs != 0 || e.Requests(emulator.EndpointCreateJob) != 0 {
		t.Fatalf("%d jobs, %d creates, want none", jobs, e.Requests(emulator.EndpointCreateJob))
	}
}

// The action's plan-time checks are the resource's: each bad input fails
// validation or the plan, on the attribute to fix, before any job starts.
func TestImportActionPlanChecks(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.csv", []byte("Account,Amount\n4000,1\n"))
	wide := writeFile(t, dir, "wide.csv", []byte("Account,Amount\n4000,1\n4010,2,3\n"))
	latin := writeFile(t, dir, "latin.csv", []byte("Account,City\n4000,Montr\xe9al\n"))
	noExt := writeFile(t, dir, "gl.data", []byte("Account,Amount\n4000,1\n"))
	file := func(kv ...string) map[string]any {
		f := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			f[kv[i]] = kv[i+1]
		}
		return map[string]any{"file": f}
	}
	cases := []struct {
		name string
		cfg  map[string]any
		path string // "" = no error
		has  []string
	}{
		{"a good file", file("path", good), "", nil},
		{"good rows", map[string]any{"rows": [][]string{{"A"}, {"1"}}}, "", nil},
		{"a missing file", file("path", filepath.Join(dir, "missing.csv")), "file.path", []string{"does not exist"}},
		{"a row wider than the header", file("path", wide), "file.path", []string{"line 3 has 3 fields but the header has 2"}},
		{"bytes not in the encoding", file("path", latin), "file.encoding", []string{"line 2", "0xE9"}},
		{"no format", file("path", noExt), "file.format", []string{"file.format is required"}},
		{"content not in Latin-1", file("content", "A\nΩ\n", "format", "CSV", "encoding", "Windows Latin-1"), "file.content", []string{"U+03A9"}},
		{"content ragged", file("content", "A,B\n1\n", "format", "CSV"), "file.content", []string{"line 2 has 1 field"}},
		{"ragged rows", map[string]any{"rows": [][]string{{"A", "B"}, {"1"}}}, "rows[1]", []string{"rows[1] has 1 cells"}},
		{"file and rows", map[string]any{"file": map[string]any{"path": good}, "rows": [][]string{{"A"}, {"1"}}}, "file", []string{"[file,rows,inputs]"}},
		{"neither file nor rows", map[string]any{}, "", []string{"[file,rows,inputs]"}},
		{"path and content", file("path", good, "content", "A\n1\n"), "file.path", []string{"[file.path,file.content]"}},
		{"a bad timeout", map[string]any{"rows": [][]string{{"A"}, {"1"}}, "timeouts": map[string]any{"invoke": "5"}}, "timeouts.invoke", []string{`"5" must be a string containing a sequence of decimal numbers`}},
		{"a bad encoding name", file("path", good, "encoding", "utf-8"), "file.encoding", []string{"Windows Latin-1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg["template_id"] = emulator.GLActualsTemplateID
			diags := newProtoHarness(t).planAction(tc.cfg)
			if tc.has == nil {
				if len(diags) != 0 {
					t.Fatalf("want no diagnostics:\n%s", describe(diags))
				}
				return
			}
			expectFirstError(t, diags, tc.path, tc.has...)
		})
	}
}

// reportSent sends how many bytes an attempt has read when that changes,
// each message once, and nothing after stop returns.
func TestReportSent(t *testing.T) {
	var mu sync.Mutex
	var got []string
	p := newActionProgress(context.Background(), func(e action.InvokeProgressEvent) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, e.Message)
	}, time.Millisecond)
	f := etl.BytesFile(etl.FileInput{FileName: "gl.csv"}, []byte("Account,Amount\n4000,1\n"))
	stop := p.reportSent(&f)
	waitFor := func(msg string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			mu.Lock()
			seen := len(got) > 0 && got[len(got)-1] == msg
			mu.Unlock()
			if seen {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("never sent %q; sent %q", msg, got)
			}
		}
	}
	waitFor("Sent 0 of 22 bytes of gl.csv (0%)")
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, make([]byte, 5)); err != nil {
		t.Fatal(err)
	}
	waitFor("Sent 5 of 22 bytes of gl.csv (22%)")
	if _, err := io.ReadAll(rc); err != nil {
		t.Fatal(err)
	}
	waitFor("Sent 22 of 22 bytes of gl.csv (100%)")
	time.Sleep(5 * time.Millisecond) // ticks that would repeat the last message
	stop()
	mu.Lock()
	sent := append([]string(nil), got...)
	mu.Unlock()
	if len(sent) != 3 {
		t.Errorf("sent %q, want each of the three messages once", sent)
	}
	rc, _ = f.Open() // a new attempt counts from zero, but nothing is sent now
	time.Sleep(10 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(sent) {
		t.Errorf("sent %q after stop", got[len(sent):])
	}
	rc.Close()
}

// A file too large to send in one progress interval reports the bytes
// sent as it goes.
func TestImportActionUploadProgress(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	fast := testTuning
	fast.uploadProgressEvery = time.Millisecond
	h := harnessWith(t, e, fast)
	raw := repeatCSV("Account,Amount", "4000,1.25", 800_000)
	p := writeFile(t, t.TempDir(), "big.csv", raw)
	progress, diags := h.invokeAction(map[string]any{"template_id": emulator.GLActualsTemplateID, "file": map[string]any{"path": p}})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	if !hasMessage(progress, fmt.Sprintf(`^Sent [0-9]+ of %d bytes of big\.csv \([0-9]+%%\)$`, len(raw))) {
		t.Errorf("no upload progress in %q", progress)
	}
	if u := e.Jobs()[0].Upload; u.SHA256 != sha256Hex(raw) {
		t.Errorf("upload SHA-256 %s, want %s", u.SHA256, sha256Hex(raw))
	}
}
