package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// content_sha256 lives in users' state: a changed byte in how inline
// content or rows are encoded would plan a new job (a second import) for
// every existing etl_import. These goldens pin the hashes the provider
// plans today; a test that fails here is a breaking change, not a test to
// update. The content goldens equal independent encodings (the bytes as
// Go strings, unicode/utf16 with a BOM, charmap.Windows1252); the JSON and
// CSV goldens differ from encoding/json and encoding/csv where the etl
// encoders do by design (U+2028 and U+2029 written as they are; a cell
// ending in a space quoted).

// goldenText exercises what an encoder may get wrong: CRLF and LF, quotes,
// a delimiter inside quotes, a tab, non-ASCII Latin letters, the euro sign
// and other Windows-1252 characters in 0x80-0x9F, and a trailing newline.
const goldenText = "Account,Amount,City\r\n4000,\"1,5\",Montréal\n4010,-20,\"say \"\"hi\"\"\"\n4020,3\t,Zürich € „x“ ™ ÿ\n"

// goldenTextUTF16 adds characters outside the BMP (surrogate pairs in
// UTF-16) and a character Windows-1252 cannot represent.
const goldenTextUTF16 = goldenText + "4030,4,😀 Ω 中\n"

// TestContentSHA256Golden: the content_sha256 planned for inline content
// in each encoding and for rows (sent as JSON).
func TestContentSHA256Golden(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		m    importModel
		want string
	}{
		{"content UTF-8", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: goldenFile(t, goldenTextUTF16, "CSV", "UTF-8")},
			"542233c49002a0943859f7b25af9217d9f483b215ffbb3b62c55b94f193ea0db"},
		{"content UTF-16", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: goldenFile(t, goldenTextUTF16, "CSV", "UTF-16")},
			"062737aa77a1c6df0435a2b81d1e5485cf00d193fc2840c1a37ca30fd6c5745b"},
		{"content Windows Latin-1", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: goldenFile(t, goldenText, "CSV", "Windows Latin-1")},
			"107f80dfece6a147229d19b77794677f4c3f37a4bc7d2742a99eff246cd4dc04"},
		{"content PSV UTF-8", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}),
			File: goldenFile(t, strings.ReplaceAll("A,B\n1,2\n", ",", "|"), "PSV", "UTF-8")},
			"fc86f9438942e593639cc8d59691e3975f7d40ba7ce4ba5d107ee74d539c9538"},
		{"path, the same bytes as content UTF-8", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: goldenPath(t, goldenTextUTF16)},
			"542233c49002a0943859f7b25af9217d9f483b215ffbb3b62c55b94f193ea0db"},
		{"rows JSON", importModel{Rows: goldenRowsList(t, goldenRows), File: types.ObjectNull(fileAttrTypes)},
			"76f5ecdd0117fa289aaf32e26d85f92541fef0fecb9cf3adf196cf3550573493"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, d := planContentHash(ctx, tc.m.spec(), writeOnlyData{}, nil, etl.MaxDataBodyBytes)
			if d.HasError() || got.IsUnknown() || got.IsNull() {
				t.Fatalf("planContentHash: %v %v", got, d)
			}
			if got.ValueString() != tc.want {
				t.Errorf("content_sha256 %s, want %s: the bytes sent for this input changed, which would replace users' imports", got.ValueString(), tc.want)
			}
		})
	}
}

// Each warning of a plan of a live object names the job, and says what
// is done and what to run.
func TestWarnChange(t *testing.T) {
	const id = "640101874288689170"
	state := importModel{ID: types.StringValue(id), Status: types.StringValue("EXPIRED"), TemplateID: types.StringValue("640101874288689152")}
	for _, tc := range []struct {
		w               importjob.Warning
		at              path.Path
		summary, detail string
	}{
		{importjob.WarnSubmitGone, path.Root("submit"), "Import job " + id + " cannot be submitted", "terraform apply -replace="},
		{importjob.WarnSubmitReplaces, path.Root("submit"), "Turning submit on replaces import job " + id, "EXPIRED: it was never submitted"},
		{importjob.WarnRehashed, path.Root("inputs"), "Template input ids changed; the job is kept", "job " + id + " was loaded"},
	} {
		var diags diag.Diagnostics
		warnChange(tc.w, state, state, &diags)
		if len(diags) != 1 || diags.WarningsCount() != 1 {
			t.Fatalf("warning %d: %v", tc.w, diags)
		}
		w, ok := diags[0].(diag.DiagnosticWithPath)
		if !ok || !w.Path().Equal(tc.at) || w.Summary() != tc.summary || !strings.Contains(w.Detail(), tc.detail) {
			t.Errorf("warning %d: %q at %v: %q", tc.w, diags[0].Summary(), tc.at, diags[0].Detail())
		}
	}
}

// What was unknown at plan must be the job's at apply: a difference fails
// on the attribute, before anything is sent.
func TestCheckUnchangedAtApply(t *testing.T) {
	ctx := context.Background()
	file := func(format, enc string) types.Object {
		obj, d := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{
			Path: types.StringValue("/data/gl.csv"), Content: types.StringNull(), Format: types.StringValue(format),
			Encoding: types.StringValue(enc), Name: types.StringValue("gl.csv"), PartName: types.StringValue("file"),
		})
		if d.HasError() {
			t.Fatal(d)
		}
		return obj
	}
	state := importModel{ID: types.StringValue("640101874288689170"), TemplateID: types.StringValue(emulator.GLActualsTemplateID),
		ContentSHA256: types.StringValue("aa"), File: file("CSV", "UTF-8")}
	with := func(f func(*importModel)) importModel { m := state; f(&m); return m }
	cases := []struct {
		name string
		plan importModel
		at   path.Path
	}{
		{"other bytes", with(func(m *importModel) { m.ContentSHA256 = types.StringValue("bb") }), path.Root("content_sha256")},
		{"other template", with(func(m *importModel) { m.TemplateID = types.StringValue(emulator.HeadcountTemplateID) }), path.Root("template_id")},
		{"other format", with(func(m *importModel) { m.File = file("PSV", "UTF-8") }), filePath("format")},
		{"other encoding", with(func(m *importModel) { m.File = file("CSV", "UTF-16") }), filePath("encoding")},
	}
	for _, tc := range cases {
		var diags diag.Diagnostics
		checkUnchangedAtApply(ctx, state, tc.plan, false, &diags)
		assertAttrError(t, diags, tc.at, "640101874288689170", "Nothing was sent", "run terraform apply again")
	}
	var diags diag.Diagnostics
	checkUnchangedAtApply(ctx, state, with(func(m *importModel) { m.File = file("CSV", "UTF-8") }), false, &diags)
	if diags.HasError() {
		t.Errorf("the same job: %v", diags)
	}
	// A hash the plan recorded anew for the same data (new input ids) is
	// not a change; another template still is.
	checkUnchangedAtApply(ctx, state, cases[0].plan, true, &diags)
	if diags.HasError() {
		t.Errorf("rehashed: %v", diags)
	}
	checkUnchangedAtApply(ctx, state, cases[1].plan, true, &diags)
	assertAttrError(t, diags, path.Root("template_id"), "Nothing was sent")
}

func TestSubmitTurnedOn(t *testing.T) {
	on, off, null := types.BoolValue(true), types.BoolValue(false), types.BoolNull()
	for _, tc := range []struct {
		state, plan types.Bool
		want        bool
	}{
		{off, on, true}, {on, on, false}, {on, off, false}, {null, on, false}, {off, types.BoolUnknown(), false},
	} {
		if got := submitTurnedOn(importModel{Submit: tc.state}, importModel{Submit: tc.plan}); got != tc.want {
			t.Errorf("%s -> %s: %v, want %v", tc.state, tc.plan, got, tc.want)
		}
	}
}

// A switch between file, rows and inputs is a new job: the spec's kind
// tells them apart.
func TestSpecKind(t *testing.T) {
	nullMap := types.MapNull(types.ObjectType{AttrTypes: inputAttrTypes})
	rows := importModel{File: types.ObjectNull(fileAttrTypes), Inputs: nullMap}
	file := importModel{File: types.ObjectUnknown(fileAttrTypes), Inputs: nullMap}
	inputs := importModel{File: types.ObjectNull(fileAttrTypes), Inputs: types.MapValueMust(types.ObjectType{AttrTypes: inputAttrTypes}, nil)}
	for m, want := range map[*importModel]string{&rows: "rows", &file: "file", &inputs: "inputs"} {
		if got := m.spec().kind(); got != want {
			t.Errorf("kind = %s, want %s", got, want)
		}
	}
}

// The plan's values read into importjob's import: a file's format and
// encoding are parts of its definition (rows have none); an unknown value,
// or a file unknown whole, is unknown there.
func TestImportOf(t *testing.T) {
	ctx := context.Background()
	null := types.StringNull()
	obj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: types.StringValue("a.csv"), Content: null, ContentWO: null,
		Format: types.StringValue("TDF"), Encoding: types.StringUnknown(), Name: null, PartName: null})
	if diags.HasError() {
		t.Fatal(diags)
	}
	m := importModel{TemplateID: types.StringValue("t"), ContentSHA256: types.StringValue("s"), File: obj, Inputs: types.MapNull(types.StringType)}
	imp, diags := importOf(ctx, m.spec())
	if diags.HasError() || imp.Kind != importjob.KindFile || imp.File.Format != importjob.Known("TDF") || imp.File.Encoding.Known || imp.File.Path.Text != "a.csv" {
		t.Fatalf("importOf(file) = %+v %+v, %v", imp, imp.File, diags)
	}
	m.File = types.ObjectUnknown(fileAttrTypes)
	if imp, _ = importOf(ctx, m.spec()); imp.Definition().Known() {
		t.Fatalf("a file unknown whole gives a known definition: %+v", imp.Definition())
	}
	m.File = types.ObjectNull(fileAttrTypes)
	d, _ := m.spec().definition(ctx)
	if d.Kind != importjob.KindRows || d.Format != importjob.Known("") || !d.Known() {
		t.Fatalf("definition(rows) = %+v", d)
	}
	m.ContentSHA256 = types.StringUnknown()
	if d, _ = m.spec().definition(ctx); d.Known() {
		t.Fatalf("definition with unknown bytes = %+v, want unknown", d)
	}
}

// Each part names its attribute; the kind, the attribute that now holds
// the data.
func TestPartPath(t *testing.T) {
	for part, want := range map[importjob.Part]path.Path{
		importjob.PartKind: path.Root("inputs"), importjob.PartTemplate: path.Root("template_id"), importjob.PartContent: path.Root("content_sha256"),
		importjob.PartFormat: filePath("format"), importjob.PartEncoding: filePath("encoding"),
	} {
		if got := partPath(part, importjob.KindInputs); !got.Equal(want) {
			t.Errorf("partPath(%d) = %s, want %s", part, got, want)
		}
	}
}

// The state Create returns keeps the planned model where the job reports
// another (with a warning naming both) or none (silently); a plan that
// knew no model leaves the job's.
func TestKeepPlannedModel(t *testing.T) {
	planned := importModel{ModelID: types.StringValue("1"), ModelName: types.StringValue("Finance")}
	for _, tc := range []struct {
		name      string
		p         importModel
		jobID     string
		jobName   string
		wantID    string
		wantKept  bool
		wantWarns int
	}{
		{"same", planned, "1", "Finance", "1", false, 0},
		{"another", planned, "2", "Sales", "1", true, 1},
		{"none reported", planned, "", "", "1", true, 0},
		{"nothing planned", importModel{ModelID: types.StringUnknown(), ModelName: types.StringUnknown()}, "2", "Sales", "2", false, 0},
	} {
		m := importModel{ModelID: types.StringValue(tc.jobID), ModelName: types.StringValue(tc.jobName)}
		var diags diag.Diagnostics
		kept := keepPlannedModel(tc.p, &m, "99", &diags)
		if kept != tc.wantKept || m.ModelID.ValueString() != tc.wantID || diags.WarningsCount() != tc.wantWarns {
			t.Errorf("%s: kept %v, model %s, %d warnings; want %v, %s, %d", tc.name, kept, m.ModelID, diags.WarningsCount(), tc.wantKept, tc.wantID, tc.wantWarns)
		}
	}
}
