package provider

// Helpers shared by the package's tests: the provider in process and
// through the plugin protocol, the emulator on loopback and checks against
// its record of jobs and bytes, test data (rows, files in every encoding,
// large CSV files) and small assertions.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// testAccProtoV6ProviderFactories serves the provider in process.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"etl": providerserver.NewProtocol6WithError(New("test")()),
}

func init() {
	// The emulator finishes jobs in milliseconds: poll often.
	pollInitialInterval = 20 * time.Millisecond
	pollMaxInterval = 250 * time.Millisecond
}

// testEmulator is an emulator served on loopback for one test.
type testEmulator struct {
	*emulator.Server
	URL string
}

func newTestEmulator(t *testing.T, opts emulator.Options) *testEmulator {
	t.Helper()
	if opts.RunTime == 0 && !opts.Instant {
		opts.RunTime = 50 * time.Millisecond
	}
	srv := emulator.New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &testEmulator{Server: srv, URL: ts.URL}
}

// providerConfig is the provider block pointing at the emulator.
func (e *testEmulator) providerConfig() string {
	return fmt.Sprintf(`
provider "etl" {
  base_url     = %q
  token_id     = %q
  token_secret = %q
  max_retries  = 1
}
`, e.URL, emulator.DefaultTokenID, emulator.DefaultTokenSecret)
}

// The models of the emulator's default templates (whose ids the emulator
// exports: emulator.GLActualsTemplateID and the others).
const (
	modelFinance = "600000000000000001"
	modelSales   = "600000000000000002"
)

// unknownTemplateID is a template id the emulator does not know.
const unknownTemplateID = "640101874288689999"

func testAccPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run with TF_ACC=1")
	}
}

// emulatorCheck is a state check that runs fn with the values of the
// resource's attributes, to assert on the emulator with them.
type emulatorCheck struct {
	addr string
	fn   func(values map[string]any) error
}

func (c emulatorCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		resp.Error = fmt.Errorf("no state")
		return
	}
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address == c.addr {
			resp.Error = c.fn(r.AttributeValues)
			return
		}
	}
	resp.Error = fmt.Errorf("%s not in state", c.addr)
}

// checkEmulator builds an emulatorCheck.
func checkEmulator(addr string, fn func(values map[string]any) error) statecheck.StateCheck {
	return emulatorCheck{addr: addr, fn: fn}
}

// expectUpload asserts the emulator's job for the resource received the
// expected upload, hashing to the state's content_sha256.
func expectUpload(e *testEmulator, addr string, want emulator.Upload) statecheck.StateCheck {
	return checkEmulator(addr, func(v map[string]any) error {
		id, _ := v["id"].(string)
		job, ok := e.Job(id)
		if !ok {
			return fmt.Errorf("%s: job %q not on the emulator", addr, id)
		}
		u := job.Upload
		if u == nil {
			return fmt.Errorf("%s: job %s has no upload", addr, id)
		}
		if sum, _ := v["content_sha256"].(string); u.SHA256 != sum {
			return fmt.Errorf("%s: emulator received bytes with SHA-256 %s, state content_sha256 is %s", addr, u.SHA256, sum)
		}
		if want.Kind != "" && u.Kind != want.Kind {
			return fmt.Errorf("%s: upload kind %q, want %q", addr, u.Kind, want.Kind)
		}
		if want.Format != "" && u.Format != want.Format {
			return fmt.Errorf("%s: format %q, want %q", addr, u.Format, want.Format)
		}
		if want.Encoding != "" && u.Encoding != want.Encoding {
			return fmt.Errorf("%s: encoding %q, want %q", addr, u.Encoding, want.Encoding)
		}
		if want.FileName != "" && u.FileName != want.FileName {
			return fmt.Errorf("%s: file name %q, want %q", addr, u.FileName, want.FileName)
		}
		if want.PartName != "" && u.PartName != want.PartName {
			return fmt.Errorf("%s: part name %q, want %q", addr, u.PartName, want.PartName)
		}
		if want.Header != nil && !slices.Equal(u.Header, want.Header) {
			return fmt.Errorf("%s: header %q, want %q", addr, u.Header, want.Header)
		}
		if u.RowCount != want.RowCount {
			return fmt.Errorf("%s: %d data rows, want %d", addr, u.RowCount, want.RowCount)
		}
		if want.SHA256 != "" && u.SHA256 != want.SHA256 {
			return fmt.Errorf("%s: SHA-256 %s, want %s", addr, u.SHA256, want.SHA256)
		}
		if want.Bytes != 0 && u.Bytes != want.Bytes {
			return fmt.Errorf("%s: %d bytes received, want %d", addr, u.Bytes, want.Bytes)
		}
		for i, row := range want.Rows {
			if i >= len(u.Rows) || !slices.Equal(u.Rows[i], row) {
				return fmt.Errorf("%s: data rows %q, want %q first", addr, u.Rows, want.Rows)
			}
		}
		return nil
	})
}

// errRe compiles an expected-error pattern whose spaces match any run of
// white space: Terraform wraps diagnostic text at its own width.
func errRe(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(pattern, " ", `\s+`))
}

// clearEnv unsets the provider's environment variables for one test (not
// parallel: t.Setenv).
func clearEnv(t *testing.T) {
	for _, k := range []string{EnvHub, EnvTokenID, EnvTokenSecret, EnvBaseURL} {
		t.Setenv(k, "")
	}
}

// assertAttrError requires exactly one error, on the attribute, whose
// detail contains every string.
func assertAttrError(t *testing.T, d diag.Diagnostics, at path.Path, contains ...string) {
	t.Helper()
	if d.ErrorsCount() != 1 {
		t.Fatalf("want exactly one error on %s, got %v", at, d)
	}
	e := d.Errors()[0]
	wp, ok := e.(diag.DiagnosticWithPath)
	if !ok || !wp.Path().Equal(at) {
		t.Fatalf("error %q is not on %s", e.Summary(), at)
	}
	for _, s := range contains {
		if !strings.Contains(e.Detail(), s) {
			t.Errorf("error detail %q does not contain %q", e.Detail(), s)
		}
	}
}

func rowsValue(t *testing.T, rows ...[]attr.Value) types.List {
	t.Helper()
	elems := make([]attr.Value, len(rows))
	for i, r := range rows {
		if r == nil {
			elems[i] = types.ListNull(types.StringType)
			continue
		}
		l, d := types.ListValue(types.StringType, r)
		if d.HasError() {
			t.Fatal(d)
		}
		elems[i] = l
	}
	l, d := types.ListValue(types.ListType{ElemType: types.StringType}, elems)
	if d.HasError() {
		t.Fatal(d)
	}
	return l
}

func cells(ss ...string) []attr.Value {
	out := make([]attr.Value, len(ss))
	for i, s := range ss {
		out[i] = types.StringValue(s)
	}
	return out
}

// encodeTestText encodes text independently of the provider's code: UTF-16
// little-endian with a BOM, or one byte per rune for Windows Latin-1
// (the test texts stay within Latin-1).
func encodeTestText(t *testing.T, s string, enc string) []byte {
	t.Helper()
	switch enc {
	case "UTF-8":
		return []byte(s)
	case "UTF-16":
		out := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(s)) {
			out = append(out, byte(u), byte(u>>8))
		}
		return out
	case "Windows Latin-1":
		var out []byte
		for _, r := range s {
			if r > 0xFF || (r >= 0x80 && r < 0xA0) {
				t.Fatalf("test text rune %q is not in Latin-1", r)
			}
			out = append(out, byte(r))
		}
		return out
	}
	t.Fatalf("unknown encoding %q", enc)
	return nil
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

var testRows = [][]string{
	{"Account", "Amount", "City"},
	{"4000", "100.50", "Montréal"},
	{"4010", "-20", "Zürich"},
}

// delimited writes rows as a delimited file of the format (CSV, PSV or
// TDF) with encoding/csv, independently of the provider's code: "\n" line
// ends, and a cell quoted only when it must be.
func delimited(rows [][]string, format string) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Comma = map[string]rune{"CSV": ',', "PSV": '|', "TDF": '\t'}[format]
	if err := w.WriteAll(rows); err != nil {
		panic(err)
	}
	return b.String()
}

// repeatCSV is a large CSV file: a header line, then n copies of row.
func repeatCSV(header, row string, n int) []byte {
	b := make([]byte, 0, len(header)+1+n*(len(row)+1))
	b = append(append(b, header...), '\n')
	for range n {
		b = append(append(b, row...), '\n')
	}
	return b
}

// writeFile writes b to name in dir and returns its path.
func writeFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeTestFile writes rows as a delimited file in the encoding and returns
// its path and bytes.
func writeTestFile(t *testing.T, dir, name, format, enc string, rows [][]string) (string, []byte) {
	t.Helper()
	raw := encodeTestText(t, delimited(rows, format), enc)
	return writeFile(t, dir, name, raw), raw
}

// rowsBody is the start-with-data JSON body, built independently of the client.
func rowsBody(t *testing.T, rows [][]string) []byte {
	t.Helper()
	type input struct {
		Data [][]string `json:"data"`
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Input input `json:"input"`
	}{input{rows}}); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// startJob starts a job on the emulator directly, as if outside Terraform.
func startJob(t *testing.T, e *testEmulator, templateID string, rows [][]string) string {
	t.Helper()
	c, err := etl.New(etl.Config{BaseURL: e.URL, TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret})
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.StartWithData(context.Background(), templateID, etl.DataUpload{Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	return job.ID
}

// expectPriorID checks that the planned change of addr starts from the
// job id want returns.
type priorIDCheck struct {
	addr string
	want func() string
}

func expectPriorID(addr string, want func() string) plancheck.PlanCheck {
	return priorIDCheck{addr, want}
}

func (c priorIDCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		if got, want := before["id"], c.want(); got != want {
			resp.Error = fmt.Errorf("%s: prior job id %v, want %s", c.addr, got, want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: no planned change", c.addr)
}

// spyServer wraps the provider server: it records the diagnostics of plans
// (Terraform's test harness does not expose warnings) and can act just
// before an apply reaches the provider.
type spyServer struct {
	tfprotov6.ProviderServer
	mu          sync.Mutex
	planDiags   []*tfprotov6.Diagnostic
	beforeApply func()
}

func (s *spyServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.mu.Lock()
		s.planDiags = append(s.planDiags, resp.Diagnostics...)
		s.mu.Unlock()
	}
	return resp, err
}

func (s *spyServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	if s.beforeApply != nil {
		s.beforeApply()
	}
	return s.ProviderServer.ApplyResourceChange(ctx, req)
}

func (s *spyServer) warnings(summary string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, d := range s.planDiags {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == summary {
			out = append(out, d.Detail)
		}
	}
	return out
}

func spyFactories(spy *spyServer) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"etl": func() (tfprotov6.ProviderServer, error) {
			srv, err := providerserver.NewProtocol6WithError(New("test")())()
			spy.ProviderServer = srv
			return spy, err
		},
	}
}

type stateCheckFunc func(context.Context, statecheck.CheckStateRequest, *statecheck.CheckStateResponse)

func (f stateCheckFunc) CheckState(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	f(ctx, req, resp)
}

type planCheckFunc func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse)

func (f planCheckFunc) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	f(ctx, req, resp)
}

// fakePrivate is a resource's private state, read and written in memory.
type fakePrivate map[string][]byte

func (f fakePrivate) GetKey(_ context.Context, k string) ([]byte, diag.Diagnostics) { return f[k], nil }

func (f fakePrivate) SetKey(_ context.Context, k string, v []byte) diag.Diagnostics {
	f[k] = v
	return nil
}

// protoHarness is one provider server, configured or not.
type protoHarness struct {
	t   *testing.T
	srv tfprotov6.ProviderServer
}

func newProtoHarness(t *testing.T) *protoHarness {
	t.Helper()
	srv, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	return &protoHarness{t: t, srv: srv}
}

func providerType() tftypes.Object {
	var resp fwprovider.SchemaResponse
	(&etlProvider{}).Schema(context.Background(), fwprovider.SchemaRequest{}, &resp)
	return resp.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
}

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

func (h *protoHarness) importID(id string) []*tfprotov6.Diagnostic {
	r, err := h.srv.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{TypeName: "etl_import", ID: id})
	if err != nil {
		h.t.Fatal(err)
	}
	return r.Diagnostics
}

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

func describe(diags []*tfprotov6.Diagnostic) string {
	var out []string
	for _, d := range diags {
		out = append(out, fmt.Sprintf("[%s] %s @%s: %s", d.Severity, d.Summary, attrPath(d.Attribute), d.Detail))
	}
	return strings.Join(out, "\n")
}
