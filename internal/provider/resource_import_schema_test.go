package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// An import is an event: what replaces the job is its definition
// (importSpec.definition, planJobChange), never an attribute's own plan modifier,
// so that what forces a replacement and what a resumed wait is matched on
// cannot drift apart.
func TestImportSchemaHasNoReplaceModifiers(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&importResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	check := func(name string, a schema.Attribute) {
		var descs []string
		switch a := a.(type) {
		case schema.StringAttribute:
			for _, m := range a.PlanModifiers {
				descs = append(descs, m.Description(ctx))
			}
		case schema.BoolAttribute:
			for _, m := range a.PlanModifiers {
				descs = append(descs, m.Description(ctx))
			}
		case schema.ListAttribute:
			for _, m := range a.PlanModifiers {
				descs = append(descs, m.Description(ctx))
			}
		}
		for _, d := range descs {
			if strings.Contains(strings.ToLower(d), "replace") {
				t.Errorf("%s has a plan modifier that replaces the job: %q", name, d)
			}
		}
	}
	for name, a := range resp.Schema.Attributes {
		check(name, a)
	}
	file := resp.Schema.Attributes["file"].(schema.SingleNestedAttribute)
	for name, a := range file.Attributes {
		check("file."+name, a)
	}
}

func TestWriteOnlySchema(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&importResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	rows, ok := resp.Schema.Attributes["rows_wo"].(schema.ListAttribute)
	if !ok || !rows.WriteOnly || !rows.Optional || rows.Computed || len(rows.PlanModifiers) != 0 || len(rows.Validators) != 1 {
		t.Errorf("rows_wo: %+v; want optional, write-only, the rows validator and no plan modifier", rows)
	}
	file := resp.Schema.Attributes["file"].(schema.SingleNestedAttribute)
	content, ok := file.Attributes["content_wo"].(schema.StringAttribute)
	if !ok || !content.WriteOnly || !content.Optional || content.Computed || len(content.PlanModifiers) != 0 {
		t.Errorf("file.content_wo: %+v; want optional, write-only and no plan modifier", content)
	}
	// path's exactly-one rule names the write-only twin.
	var rules []string
	for _, v := range file.Attributes["path"].(schema.StringAttribute).Validators {
		rules = append(rules, v.Description(ctx))
	}
	if s := strings.Join(rules, " "); !strings.Contains(s, "[content content_wo]") {
		t.Errorf("file.path validators %q do not name content and content_wo", s)
	}
	if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
		t.Fatalf("schema: %v", diags)
	}
}

// The write-only attributes plan the hash their plain twins plan, and the
// plan holds neither value.
func TestWriteOnlyPlansTheSameHash(t *testing.T) {
	rows := [][]string{{"Account", "Amount"}, {"4000", "secret-cell-1"}}
	content := "Account,Amount\n4000,secret-cell-2\n"
	cases := []struct {
		name, secret string
		plain, wo    map[string]any
	}{
		{"rows", "secret-cell-1", map[string]any{"rows": rows}, map[string]any{"rows_wo": rows}},
		{"content", "secret-cell-2", map[string]any{"file": map[string]any{"content": content, "format": "CSV"}},
			map[string]any{"file": map[string]any{"content_wo": content, "format": "CSV"}}},
		{"content UTF-16", "secret-cell-2", map[string]any{"file": map[string]any{"content": content, "format": "CSV", "encoding": "UTF-16"}},
			map[string]any{"file": map[string]any{"content_wo": content, "format": "CSV", "encoding": "UTF-16"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newProtoHarness(t)
			tc.plain["template_id"], tc.wo["template_id"] = emulator.GLActualsTemplateID, emulator.GLActualsTemplateID
			plain, d := h.planImport(tc.plain)
			if hasError(d) {
				t.Fatal(describe(d))
			}
			wo, d := h.planImport(tc.wo)
			if hasError(d) {
				t.Fatal(describe(d))
			}
			want, got := plannedHash(t, plain.PlannedState), plannedHash(t, wo.PlannedState)
			if want == "" || got != want {
				t.Errorf("content_sha256 %q with the write-only attribute, %q with the plain one", got, want)
			}
			if bytes.Contains(wo.PlannedState.MsgPack, []byte(tc.secret)) {
				t.Error("the planned state holds the write-only value")
			}
		})
	}
}

func plannedHash(t *testing.T, dv *tfprotov6.DynamicValue) string {
	t.Helper()
	v, err := dv.Unmarshal(importType())
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	var s string
	if err := attrs["content_sha256"].As(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestWriteOnlyBadInputs(t *testing.T) {
	cases := []struct {
		name string
		cfg  map[string]any
		path string
		has  []string
	}{
		{"rows_wo ragged", map[string]any{"rows_wo": [][]string{{"Account", "Amount"}, {"1", "2"}, {"3"}}}, "rows_wo[2]", []string{"rows_wo[2] has 1 cells but the header row (rows_wo[0])"}},
		{"rows_wo empty", map[string]any{"rows_wo": [][]string{}}, "rows_wo", []string{"rows_wo is empty"}},
		{"rows and rows_wo", map[string]any{"rows": [][]string{{"A"}, {"1"}}, "rows_wo": [][]string{{"A"}, {"1"}}}, "rows", []string{"[file,rows,rows_wo,inputs]"}},
		{"content_wo not in Latin-1", map[string]any{"file": map[string]any{"content_wo": "Account\nΩ\n", "format": "CSV", "encoding": "Windows Latin-1"}},
			"file.content_wo", []string{"file.content_wo cannot be encoded", "line 2, column 1", "not shown"}},
		{"content_wo row narrower", map[string]any{"file": map[string]any{"content_wo": "A,B\n1\n", "format": "CSV"}},
			"file.content_wo", []string{"file.content_wo", "line 2 has 1 field but the header has 2"}},
		{"content_wo without format", map[string]any{"file": map[string]any{"content_wo": "A,B\n1,2\n"}}, "file.format", []string{"inline content"}},
		{"content and content_wo", map[string]any{"file": map[string]any{"content": "A\n1\n", "content_wo": "A\n1\n", "format": "CSV"}},
			"file.path", []string{"2 attributes specified", "file.content_wo"}},
		{"path and content_wo", map[string]any{"file": map[string]any{"path": "gl.csv", "content_wo": "A\n1\n"}},
			"file.path", []string{"2 attributes specified", "file.content_wo"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg["template_id"] = emulator.GLActualsTemplateID
			_, diags := newProtoHarness(t).planImport(tc.cfg)
			expectFirstError(t, diags, tc.path, tc.has...)
			// No diagnostic quotes a write-only value, in any form.
			for _, d := range diags {
				for _, secret := range []string{"Ω", "U+03A9", "03a9", "\\u03a9"} {
					if strings.Contains(strings.ToLower(d.Summary+d.Detail), strings.ToLower(secret)) {
						t.Errorf("a diagnostic quotes the write-only value (%s): %s: %s", secret, d.Summary, d.Detail)
					}
				}
			}
		})
	}
}

// A job that fails after it started leaves its record in state, and the
// framework does not null write-only values on that path: the provider
// must never have put them in the model it saves.
func TestWriteOnlyApplyKeepsNothing(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	h := newProtoHarness(t)
	if d := h.configure(map[string]any{"base_url": e.URL, "token_id": emulator.DefaultTokenID, "token_secret": emulator.DefaultTokenSecret}); hasError(d) {
		t.Fatal(describe(d))
	}
	for _, tc := range []struct {
		name   string
		cfg    map[string]any
		failed bool
	}{
		{"rows_wo completed", map[string]any{"rows_wo": [][]string{{"Account", "Amount"}, {"4000", "wo-secret-1"}}}, false},
		// "Amount" is a required column: the job ends in ERROR.
		{"rows_wo failed", map[string]any{"rows_wo": [][]string{{"Account", "Value"}, {"4000", "wo-secret-2"}}}, true},
		{"content_wo failed", map[string]any{"file": map[string]any{"content_wo": "Account,Value\n4000,wo-secret-3\n", "format": "CSV"}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg["template_id"] = emulator.GLActualsTemplateID
			tc.cfg["wait_for_completion"] = true
			a := applyWithState(t, h, tc.cfg)
			if hasError(a.Diagnostics) != tc.failed {
				t.Fatalf("failed %v, want %v:\n%s", hasError(a.Diagnostics), tc.failed, describe(a.Diagnostics))
			}
			if a.NewState == nil || !strings.Contains(string(a.NewState.MsgPack), "content_sha256") {
				t.Fatal("no state returned: the check proves nothing")
			}
			if bytes.Contains(a.NewState.MsgPack, []byte("wo-secret")) {
				t.Error("the state returned holds the write-only data")
			}
			jobs := e.Jobs()
			last := jobs[len(jobs)-1]
			if last.Upload == nil || last.Upload.SHA256 != plannedHash(t, a.NewState) {
				t.Errorf("the emulator's last job %+v did not receive the bytes the state's content_sha256 names", last)
			}
		})
	}
	if n := len(e.Jobs()); n != 3 {
		t.Errorf("%d jobs, want 3", n)
	}
}

// applyWithState plans and applies the creation of an etl_import and
// returns the apply's answer.
func applyWithState(t *testing.T, h *protoHarness, cfg map[string]any) *tfprotov6.ApplyResourceChangeResponse {
	t.Helper()
	p, d := h.planImport(cfg)
	if hasError(d) {
		t.Fatal(describe(d))
	}
	typ := importType()
	a, err := h.srv.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: "etl_import", Config: dynamic(t, typ, tfValue(t, typ, cfg)), PlannedState: p.PlannedState,
		PriorState: dynamic(t, typ, tftypes.NewValue(typ, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// inputs["key"].file.content_wo: the same meaning as content in an input,
// planned into content_sha256, sent as planned, and never in plan or state.
func TestWriteOnlyInInputs(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	h := harnessFor(t, e)
	content := "Account,Amount\n4000,wo-input-secret\n"
	cfg := func(attr string) map[string]any {
		return map[string]any{"template_id": emulator.TwoStepTemplateID, "inputs": inputsTF(t, map[string]map[string]any{
			"Load Actuals": {"file": map[string]any{attr: content, "format": "CSV"}},
			"Load Rates":   {"rows": [][]string{{"Currency", "Rate"}, {"EUR", "1.1"}}},
		})}
	}
	plain, d := h.planImport(cfg("content"))
	if hasError(d) {
		t.Fatal(describe(d))
	}
	wo, d := h.planImport(cfg("content_wo"))
	if hasError(d) {
		t.Fatal(describe(d))
	}
	want := plannedHash(t, plain.PlannedState)
	if got := plannedHash(t, wo.PlannedState); want == "" || got != want {
		t.Errorf("content_sha256 %q with content_wo, %q with content", got, want)
	}
	if bytes.Contains(wo.PlannedState.MsgPack, []byte("wo-input-secret")) {
		t.Error("the planned state holds the write-only value")
	}

	a := applyWithState(t, h, cfg("content_wo"))
	if hasError(a.Diagnostics) {
		t.Fatal(describe(a.Diagnostics))
	}
	if bytes.Contains(a.NewState.MsgPack, []byte("wo-input-secret")) {
		t.Error("the state holds the write-only value")
	}
	jobs := e.Jobs()
	if len(jobs) != 1 || jobs[0].Inputs[emulator.TwoStepActualsInputID] == nil || jobs[0].Inputs[emulator.TwoStepActualsInputID].SHA256 != sha256Hex([]byte(content)) {
		t.Fatalf("jobs %+v: want one whose actuals input received the content's bytes", jobs)
	}

	// Its problems are on the input's content_wo.
	bad := cfg("content_wo")
	bad["inputs"] = inputsTF(t, map[string]map[string]any{"Load Actuals": {"file": map[string]any{"content_wo": "A,B\n1\n", "format": "CSV"}}})
	_, d = h.planImport(bad)
	errs := diagsAt(d, tfprotov6.DiagnosticSeverityError, summaryRowWidth)
	if len(errs) != 1 || attrPath(errs[0].Attribute) != `inputs["Load Actuals"].file.content_wo` || !strings.Contains(errs[0].Detail, "file.content_wo") {
		t.Errorf("a ragged content_wo in an input:\n%s", describe(d))
	}
}
