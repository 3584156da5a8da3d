package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The resource's and the action's wordings: each says its own, and the
// action's never speaks of a state it does not keep. Configure gives the
// resource its wording.
func TestJobRunnerWording(t *testing.T) {
	res, act := resourceWording, actionWording
	if res.afterFailure != keptInState || res.afterEnded != keptEnded || res.afterIncomplete != keptIncomplete || res.timeoutSetting != "timeouts.create" || res.maybeCreated != adoptAdvice {
		t.Error("the resource's wording changed")
	}
	if act.timeoutSetting != "timeouts.invoke" {
		t.Error("the action's wording names the resource's timeout")
	}
	for i, s := range []string{act.afterFailure, act.afterEnded, act.afterIncomplete, act.maybeCreated, act.createAgain} {
		if s == "" || strings.Contains(s, "state, marked tainted") || strings.Contains(s, "terraform import") || strings.Contains(s, "apply again") {
			t.Errorf("action wording %d speaks of the resource's state, or is empty: %q", i, s)
		}
	}
	r := &importResource{}
	var resp resource.ConfigureResponse
	r.Configure(context.Background(), resource.ConfigureRequest{}, &resp)
	if r.wording != resourceWording {
		t.Errorf("a configured resource's wording is %+v", r.wording)
	}
}

// statusSeen reports each change to a status still in progress, once.
func TestJobRunnerStatusSeen(t *testing.T) {
	if (&jobRunner{}).statusSeen("1", jobstatus.StatusRunning) != nil {
		t.Error("without progress, waiting needs no callback")
	}
	var got []string
	r := &jobRunner{progress: func(m string) { got = append(got, m) }}
	seen := r.statusSeen("7", jobstatus.StatusSubmitted)
	for _, s := range []jobstatus.JobStatus{jobstatus.StatusSubmitted, jobstatus.StatusQueued, jobstatus.StatusQueued, jobstatus.StatusRunning, jobstatus.StatusCompleted} {
		seen(s)
	}
	want := "Import job 7 is QUEUED|Import job 7 is RUNNING"
	if strings.Join(got, "|") != want {
		t.Errorf("reported %q, want %q", got, want)
	}
}

func TestJobRunnerWait(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{})
	r := &jobRunner{client: testClient(t, e), tuning: testTuning, wording: resourceWording}

	ok := &etl.Job{ID: startJob(t, e, emulator.GLActualsTemplateID, glRows), Status: jobstatus.StatusRunning}
	var d diag.Diagnostics
	got := r.wait(ctx, ok, time.Minute, false, &d)
	if d.HasError() || got.Status != jobstatus.StatusCompleted || got.ModelName != "Finance Plan" {
		t.Fatalf("completed job: %+v, %v", got, d)
	}

	failed := &etl.Job{ID: startJob(t, e, emulator.GLActualsTemplateID, [][]string{{"Account", "Value"}, {"4000", "1"}}), Status: jobstatus.StatusRunning}
	d = nil
	got = r.wait(ctx, failed, time.Minute, false, &d)
	if d.ErrorsCount() != 1 || got.Status != jobstatus.StatusError {
		t.Fatalf("failed job: %+v, %v", got, d)
	}
	if want := "Import job " + failed.ID + " ended with status ERROR"; d.Errors()[0].Summary() != want {
		t.Errorf("summary %q, want %q", d.Errors()[0].Summary(), want)
	}
	if !strings.Contains(d.Errors()[0].Detail(), keptEnded) || strings.Contains(d.Errors()[0].Detail(), keptInState) {
		t.Errorf("the resource's error of a job that ended in ERROR does not say the next apply replaces it: %s", d.Errors()[0].Detail())
	}

	// keep_failed: the same failure is a warning that the job stays.
	d = nil
	got = r.wait(ctx, failed, time.Minute, true, &d)
	if d.HasError() || d.WarningsCount() != 1 || got.Status != jobstatus.StatusError {
		t.Fatalf("failed job kept: %+v, %v", got, d)
	}
	if w := d.Warnings()[0]; w.Summary() != "Import job "+failed.ID+" ended with status ERROR" || !strings.Contains(w.Detail(), keptFailed) || strings.Contains(w.Detail(), keptEnded) {
		t.Errorf("the warning of a kept failed job does not say it stays: %s: %s", w.Summary(), w.Detail())
	}
}

// The action's runner words a failed job's error for the action.
func TestJobRunnerActionWaitWording(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{})
	r := &jobRunner{client: testClient(t, e), tuning: testTuning, wording: actionWording}
	failed := &etl.Job{ID: startJob(t, e, emulator.GLActualsTemplateID, [][]string{{"Account", "Value"}, {"4000", "1"}}), Status: jobstatus.StatusRunning}
	var d diag.Diagnostics
	r.wait(ctx, failed, time.Minute, false, &d)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), actionWording.afterFailure) || strings.Contains(d.Errors()[0].Detail(), keptEnded) {
		t.Fatalf("failed job: %v", d)
	}

	e.SetJobStatus(startJob(t, e, emulator.GLActualsTemplateID, glRows), emulator.StatusRunning)
	running := &etl.Job{ID: e.Jobs()[1].ID, Status: jobstatus.StatusRunning}
	wctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	d = nil
	r.wait(wctx, running, 50*time.Millisecond, false, &d)
	if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), "(timeouts.invoke). Raise timeouts.invoke, or set wait_for_completion = false") {
		t.Fatalf("timed out: %v", d)
	}
}

func TestPrepareUpload(t *testing.T) {
	ctx := context.Background()
	rows := [][]string{{"Account", "Amount"}, {"4000", "1"}}
	m := &importSpec{Rows: rowsValue(t, cells(rows[0]...), cells(rows[1]...)), File: types.ObjectNull(fileAttrTypes), ContentSHA256: types.StringUnknown()}
	up, d := prepareUpload(ctx, m, writeOnlyData{}, etl.MaxDataBodyBytes)
	if want, _ := (etl.DataUpload{Rows: rows}).SHA256(); d.HasError() || up.data == nil || up.file != nil || up.sum != want {
		t.Fatalf("rows: %+v, %v", up, d)
	}

	// The bytes planned are the bytes sent: a different planned hash stops
	// the upload with an error on the attribute that holds the data.
	if !up.checkPlanned(types.StringUnknown(), &d) || !up.checkPlanned(types.StringValue(up.sum), &d) || d.HasError() {
		t.Fatalf("planned hash unknown or equal: %v", d)
	}
	if up.checkPlanned(types.StringValue(localfile.HashBytes([]byte("other"))), &d) {
		t.Fatal("a different planned hash passed")
	}
	assertAttrError(t, d, path.Root("rows"), "changed between plan and apply", "Nothing was sent")

	obj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: types.StringNull(), Content: types.StringValue("A,B\n1,2\n"),
		Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-16"), Name: types.StringUnknown(), PartName: types.StringValue("file")})
	if diags.HasError() {
		t.Fatal(diags)
	}
	up, d = prepareUpload(ctx, &importSpec{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: obj, ContentSHA256: types.StringUnknown()}, writeOnlyData{}, etl.MaxDataBodyBytes)
	want, _ := etl.EncodeText("A,B\n1,2\n", flatfile.EncodingUTF16)
	if d.HasError() || up.file == nil || up.sum != localfile.HashBytes(want) || up.file.Size != int64(len(want)) || up.file.Input.FileName != "data.csv" {
		t.Fatalf("inline content: %+v, %v", up, d)
	}
}
