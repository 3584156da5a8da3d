package provider

// A protocol harness: the provider served in process and driven through
// the plugin protocol (tfprotov6) as Terraform drives it, without the
// CLI; values built from Go values; one against a test's emulator
// (harnessFor); and helpers to read and assert on the diagnostics it
// answers.

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// protoHarness is one provider server, configured or not.
type protoHarness struct {
	t   *testing.T
	srv tfprotov6.ProviderServer
}

// newProtoHarness serves the provider for the test, not configured, and
// reads its schema first, as Terraform does.
func newProtoHarness(t *testing.T) *protoHarness {
	t.Helper()
	return newProtoHarnessOf(t, testProvider())
}

// newProtoHarnessOf serves provider p for the test, as newProtoHarness.
func newProtoHarnessOf(t *testing.T, p fwprovider.Provider) *protoHarness {
	t.Helper()
	srv, err := providerserver.NewProtocol6WithError(p)()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	return &protoHarness{t: t, srv: srv}
}

// providerType is the Terraform type of the provider block.
func providerType() tftypes.Object {
	var resp fwprovider.SchemaResponse
	(&etlProvider{}).Schema(context.Background(), fwprovider.SchemaRequest{}, &resp)
	return resp.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
}

// importType is the Terraform type of an etl_import resource.
func importType() tftypes.Object {
	var resp resource.SchemaResponse
	(&importResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return resp.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
}

// tfValue builds a value of type typ from Go values: nil is null; string,
// bool, int, []string, [][]string, map[string]any (objects; attributes
// left out are null) and tftypes.Value as they are.
func tfValue(t *testing.T, typ tftypes.Type, v any) tftypes.Value {
	t.Helper()
	switch x := v.(type) {
	case nil:
		return tftypes.NewValue(typ, nil)
	case tftypes.Value:
		return x
	case string, bool:
		return tftypes.NewValue(typ, x)
	case int:
		return tftypes.NewValue(typ, x)
	case [][]string:
		lt := typ.(tftypes.List)
		rows := make([]tftypes.Value, len(x))
		for i, r := range x {
			rows[i] = tfValue(t, lt.ElementType, r)
		}
		return tftypes.NewValue(typ, rows)
	case []string:
		lt := typ.(tftypes.List)
		cells := make([]tftypes.Value, len(x))
		for i, c := range x {
			cells[i] = tftypes.NewValue(lt.ElementType, c)
		}
		return tftypes.NewValue(typ, cells)
	case map[string]any:
		ot := typ.(tftypes.Object)
		vals := map[string]tftypes.Value{}
		for name, at := range ot.AttributeTypes {
			vals[name] = tfValue(t, at, x[name])
		}
		for name := range x {
			if _, ok := ot.AttributeTypes[name]; !ok {
				t.Fatalf("no attribute %q", name)
			}
		}
		return tftypes.NewValue(typ, vals)
	}
	t.Fatalf("tfValue: unsupported %T", v)
	return tftypes.Value{}
}

// dynamic encodes v, of type typ, as a protocol value.
func dynamic(t *testing.T, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// configure runs ValidateProviderConfig then ConfigureProvider.
func (h *protoHarness) configure(cfg map[string]any) []*tfprotov6.Diagnostic {
	ctx := context.Background()
	typ := providerType()
	dv := dynamic(h.t, typ, tfValue(h.t, typ, cfg))
	v, err := h.srv.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: dv})
	if err != nil {
		h.t.Fatal(err)
	}
	if hasError(v.Diagnostics) {
		return v.Diagnostics
	}
	c, err := h.srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: dv, TerraformVersion: "1.11.4"})
	if err != nil {
		h.t.Fatal(err)
	}
	return c.Diagnostics
}

// planImport validates and plans the creation of an etl_import.
func (h *protoHarness) planImport(cfg map[string]any) (*tfprotov6.PlanResourceChangeResponse, []*tfprotov6.Diagnostic) {
	ctx := context.Background()
	typ := importType()
	val := tfValue(h.t, typ, cfg)
	dv := dynamic(h.t, typ, val)
	v, err := h.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "etl_import", Config: dv,
		ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true}})
	if err != nil {
		h.t.Fatal(err)
	}
	if hasError(v.Diagnostics) {
		return nil, v.Diagnostics
	}
	p, err := h.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: "etl_import", Config: dv, ProposedNewState: dv, PriorState: dynamic(h.t, typ, tftypes.NewValue(typ, nil)),
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return p, p.Diagnostics
}

// applyImport plans and applies the creation of an etl_import.
func (h *protoHarness) applyImport(cfg map[string]any) []*tfprotov6.Diagnostic {
	p, diags := h.planImport(cfg)
	if hasError(diags) {
		return diags
	}
	typ := importType()
	a, err := h.srv.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: "etl_import", Config: dynamic(h.t, typ, tfValue(h.t, typ, cfg)), PlannedState: p.PlannedState,
		PriorState: dynamic(h.t, typ, tftypes.NewValue(typ, nil)),
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return a.Diagnostics
}

// readTemplates reads the etl_templates data source without a filter.
func (h *protoHarness) readTemplates() []*tfprotov6.Diagnostic {
	ctx := context.Background()
	schema, err := h.srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		h.t.Fatal(err)
	}
	typ := schema.DataSourceSchemas["etl_templates"].ValueType()
	r, err := h.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "etl_templates", Config: dynamic(h.t, typ, tfValue(h.t, typ, map[string]any{}))})
	if err != nil {
		h.t.Fatal(err)
	}
	return r.Diagnostics
}

// importID imports an etl_import by job id, as terraform import does.
func (h *protoHarness) importID(id string) []*tfprotov6.Diagnostic {
	r, err := h.srv.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{TypeName: "etl_import", ID: id})
	if err != nil {
		h.t.Fatal(err)
	}
	return r.Diagnostics
}

// hasError reports whether any of diags is an error.
func hasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// attrPath renders a protocol attribute path as file.path or rows[2].
func attrPath(p *tftypes.AttributePath) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range p.Steps() {
		switch x := s.(type) {
		case tftypes.AttributeName:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(string(x))
		case tftypes.ElementKeyInt:
			fmt.Fprintf(&b, "[%d]", int64(x))
		case tftypes.ElementKeyString:
			fmt.Fprintf(&b, "[%q]", string(x))
		}
	}
	return b.String()
}

// expectFirstError fails the test unless diags hold an error; the first
// error must be on the attribute at (attrPath's form) and contain each of
// has in its summary and detail. It returns that error.
func expectFirstError(t *testing.T, diags []*tfprotov6.Diagnostic, at string, has ...string) *tfprotov6.Diagnostic {
	t.Helper()
	for _, d := range diags {
		if d.Severity != tfprotov6.DiagnosticSeverityError {
			continue
		}
		if got := attrPath(d.Attribute); got != at {
			t.Errorf("error on %q, want %q:\n%s", got, at, describe(diags))
		}
		text := d.Summary + ": " + d.Detail
		for _, s := range has {
			if !strings.Contains(text, s) {
				t.Errorf("%q does not contain %q", text, s)
			}
		}
		return d
	}
	t.Fatalf("no error:\n%s", describe(diags))
	return nil
}

// describe renders diags one a line: severity, summary, attribute
// (attrPath's form) and detail.
func describe(diags []*tfprotov6.Diagnostic) string {
	var out []string
	for _, d := range diags {
		out = append(out, fmt.Sprintf("[%s] %s @%s: %s", d.Severity, d.Summary, attrPath(d.Attribute), d.Detail))
	}
	return strings.Join(out, "\n")
}

// harnessFor is a provider server configured for the emulator e.
func harnessFor(t *testing.T, e *testEmulator) *protoHarness {
	t.Helper()
	return harnessWith(t, e, testTuning)
}

// harnessWith is harnessFor with a provider tuned as tn says.
func harnessWith(t *testing.T, e *testEmulator, tn tuning) *protoHarness {
	t.Helper()
	h := newProtoHarnessOf(t, newServer("test", tn).Provider())
	if d := h.configure(map[string]any{"base_url": e.URL, "token_id": emulator.DefaultTokenID, "token_secret": emulator.DefaultTokenSecret}); hasError(d) {
		t.Fatal(describe(d))
	}
	return h
}

// hasMessage reports whether a message matches the pattern.
func hasMessage(msgs []string, pattern string) bool {
	re := regexp.MustCompile(pattern)
	for _, m := range msgs {
		if re.MatchString(m) {
			return true
		}
	}
	return false
}

func importSchema(t *testing.T) schema.Schema {
	t.Helper()
	var resp resource.SchemaResponse
	(&importResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return resp.Schema
}

func diagsAt(diags []*tfprotov6.Diagnostic, sev tfprotov6.DiagnosticSeverity, summary string) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, d := range diags {
		if d.Severity == sev && d.Summary == summary {
			out = append(out, d)
		}
	}
	return out
}
