package provider

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
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
