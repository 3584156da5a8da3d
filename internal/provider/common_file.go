package provider

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The file block the resource, each of its inputs and the action share:
// its model (fileModel, of the schema's types fileAttrTypes), where its
// attributes are (filePath), its inline text (inline); its schema
// (fileAttribute, of which each input's file, inputFileAttribute, and the
// action's, in its Schema, are made), with the plan modifiers of its
// defaults (fileDefault); its defaults, each rule once (withDefaults); and
// the checks of its configuration (checkFileConfig) and of its bytes
// (checkTarget, readFileRecord, checkContent).

// fileModel is a file block: the resource's, an input's, or the action's
// (read into it, configuredFile).
type fileModel struct {
	Path     types.String `tfsdk:"path"`
	Content  types.String `tfsdk:"content"`
	Format   types.String `tfsdk:"format"`
	Encoding types.String `tfsdk:"encoding"`
	Name     types.String `tfsdk:"name"`
	PartName types.String `tfsdk:"part_name"`

	// ContentWO is null in plan and state: see writeOnlyData.
	ContentWO types.String `tfsdk:"content_wo"`
}

// fileAttrTypes are the types of the file attribute, as its schema has
// them.
var fileAttrTypes = func() map[string]attr.Type {
	t, ok := fileAttribute().GetType().(types.ObjectType)
	if !ok {
		panic(fmt.Sprintf("the file attribute's type is %T, not an object", fileAttribute().GetType()))
	}
	return t.AttrTypes
}()

// filePath is the path of a nested file attribute.
func filePath(name string) path.Path { return path.Root("file").AtName(name) }

// fileFrom reads the file block; nil when it is null or unknown.
func fileFrom(ctx context.Context, obj types.Object) (*fileModel, diag.Diagnostics) {
	if obj.IsNull() || obj.IsUnknown() {
		return nil, nil
	}
	var f fileModel
	diags := obj.As(ctx, &f, basetypes.ObjectAsOptions{})
	if diags.HasError() {
		return nil, diags
	}
	return &f, diags
}

// inline returns the file block's inline text, content or content_wo, and
// the name of the attribute that holds it.
func (f fileModel) inline() (types.String, string) {
	if f.Content.IsNull() && !f.ContentWO.IsNull() {
		return f.ContentWO, "content_wo"
	}
	return f.Content, "content"
}

// exactlyOneData says which attributes hold the data: the same words in
// each of them.
const exactlyOneData = "Exactly one of `file`, `rows`, `rows_wo` and `inputs` is set."

// fileAttribute is the file block: a flat file to send, by path or inline.
func fileAttribute() schema.Attribute {
	formats := stringsOf(flatfile.Formats)
	encodings := stringsOf(flatfile.Encodings)
	return schema.SingleNestedAttribute{
		MarkdownDescription: "A delimited file to upload, by `path` or inline. " + exactlyOneData + " In `file`, exactly one of `path`, `content` and `content_wo` is set.",
		Optional:            true,
		Attributes: map[string]schema.Attribute{
			"path": schema.StringAttribute{
				MarkdownDescription: "Path of the file to upload, such as `\"${path.module}/data/gl.csv\"`: read and checked at plan time, streamed at apply. " +
					"Another path to the same bytes starts no job.",
				Optional:   true,
				Validators: fileSourceValidators("content", "content_wo"),
			},
			"content": schema.StringAttribute{
				MarkdownDescription: "The file's content inline, encoded to `encoding` before it is sent.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"content_wo": schema.StringAttribute{ // file.content, write-only
				MarkdownDescription: "The file's content inline, as `content`, kept out of the state. " + writeOnlyNote,
				Optional:            true,
				WriteOnly:           true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"format": schema.StringAttribute{
				MarkdownDescription: "`CSV`, `PSV` or `TDF`. Defaults from the extension of `path` or `name` (`.csv`, `.psv`, `.tsv`, `.tdf`, `.tab`). Changing it starts a new job.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{stringvalidator.OneOf(formats...)},
				PlanModifiers:       []planmodifier.String{formatDefault},
			},
			"encoding": schema.StringAttribute{
				MarkdownDescription: "`UTF-8`, `UTF-16` or `Windows Latin-1`: a file's bytes must already be in it. Defaults to `UTF-8`. Changing it starts a new job.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(string(defaultEncoding)),
				Validators:          []validator.String{stringvalidator.OneOf(encodings...)},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The file name sent to the service. Defaults to the base name of `path`, else `data.csv` (`.psv`, `.tsv`).",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1), partHeaderValidator},
				PlanModifiers:       []planmodifier.String{nameDefault},
			},
			"part_name": schema.StringAttribute{
				MarkdownDescription: "The name of the multipart part that carries the file. Defaults to `file`.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(etl.DefaultPartName),
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1), partHeaderValidator},
			},
		},
	}
}

// fileDefault plans the default of file.format or file.name from the
// configured file block, by the one rule of withDefaults.
// A default that depends on an unknown value is unknown; one that cannot
// be derived stays null (the resource's config validation reports it).
type fileDefault struct {
	description string
	of          func(fileModel) types.String
}

var (
	formatDefault = fileDefault{"Defaults to the format matching the extension of file.path (or file.name).",
		func(f fileModel) types.String { return f.Format }}
	nameDefault = fileDefault{"Defaults to the base name of file.path, or data.<ext> for inline content.",
		func(f fileModel) types.String { return f.Name }}
)

func (m fileDefault) Description(context.Context) string { return m.description }

func (m fileDefault) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m fileDefault) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.ConfigValue.IsNull() {
		return
	}
	var obj types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, req.Path.ParentPath(), &obj)...)
	f, diags := fileFrom(ctx, obj)
	resp.Diagnostics.Append(diags...)
	if f == nil || resp.Diagnostics.HasError() {
		return
	}
	resp.PlanValue = m.of(withDefaults(*f))
}

// fileSourceValidators are file.path's validators: not empty, and exactly
// one of path and the inline attributes named set.
func fileSourceValidators(inline ...string) []validator.String {
	return []validator.String{stringvalidator.LengthAtLeast(1), exactlyOneOfSiblings(inline)}
}

// defaultEncoding holds file.encoding's default. It and file.part_name's
// (etl.DefaultPartName) are the file block's defaults that are constants;
// withDefaults derives the others.
const defaultEncoding = flatfile.EncodingUTF8

// withDefaults returns f with its null format, name, encoding and
// part_name filled in: the format from the extension of path, else of
// name; the name from the base name of path, else data.<ext> of the
// format (inline content); UTF-8; "file". A default that depends on an
// unknown value is unknown; one that cannot be derived (a format no
// extension gives) stays null. Each rule is written here once: the
// schema's defaults, the plan modifiers, the configuration check, the
// plan-time file check and the apply all take their values from here.
func withDefaults(f fileModel) fileModel {
	if f.Format.IsNull() {
		f.Format = defaultFormat(f.Path, f.Name)
	}
	if f.Name.IsNull() {
		f.Name = defaultName(f.Path, f.Format)
	}
	if f.Encoding.IsNull() {
		f.Encoding = types.StringValue(string(defaultEncoding))
	}
	if f.PartName.IsNull() {
		f.PartName = types.StringValue(etl.DefaultPartName)
	}
	return f
}

// defaultFormat returns the format the extension of the path gives, else
// the one the extension of the name gives; unknown when the value it
// depends on is unknown, null when neither gives a format.
func defaultFormat(p, name types.String) types.String {
	for _, v := range []types.String{p, name} {
		if v.IsUnknown() {
			return types.StringUnknown()
		}
		if f, ok := flatfile.FormatFromExtension(v.ValueString()); ok && !v.IsNull() {
			return types.StringValue(string(f))
		}
	}
	return types.StringNull()
}

// defaultName returns the base name of the path, else data.<ext> of the
// format (flatfile.Format.Extension); unknown or null when the value it
// depends on is.
func defaultName(p, format types.String) types.String {
	switch {
	case p.IsUnknown():
		return types.StringUnknown()
	case !p.IsNull():
		return types.StringValue(filepath.Base(p.ValueString()))
	case format.IsUnknown() || format.IsNull():
		return format
	}
	return types.StringValue("data." + flatfile.Format(format.ValueString()).Extension())
}

// resolveFile fills the file block's defaults at apply and returns it (nil
// for rows). Every configured value is known by then: a value still
// unknown is a default that depended on a value unknown at plan time, and
// is worked out again now.
func resolveFile(ctx context.Context, s *importSpec) (*fileModel, diag.Diagnostics) {
	f, diags := fileFrom(ctx, s.File)
	if f == nil || diags.HasError() {
		return nil, diags
	}
	for _, v := range []*types.String{&f.Format, &f.Name, &f.Encoding, &f.PartName} {
		if v.IsUnknown() {
			*v = types.StringNull()
		}
	}
	if withDefaults(*f).Format.IsNull() {
		diags.Append(checkFileConfig(*f)...)
		return nil, diags
	}
	*f = withDefaults(*f)
	obj, d := types.ObjectValueFrom(ctx, fileAttrTypes, *f)
	diags.Append(d...)
	s.File = obj
	return f, diags
}

// checkFileConfig holds the cross-attribute checks of a file block: a
// format that is neither set nor given by an extension, and inline content
// the encoding cannot represent.
func checkFileConfig(f fileModel) diag.Diagnostics {
	var diags diag.Diagnostics
	d := withDefaults(f)
	if d.Format.IsNull() {
		diags.AddAttributeError(filePath("format"), "Missing file format", missingFormatDetail(f)+
			"Set file.format to CSV (comma separated), PSV (pipe separated) or TDF (tab separated); "+
			"the extensions .csv, .psv, .tsv, .tdf and .tab give it automatically.")
	}
	if content, name := f.inline(); known(content) && known(d.Encoding) {
		enc := flatfile.Encoding(d.Encoding.ValueString())
		if enc.Known() {
			if _, err := etl.EncodeText(content.ValueString(), enc); err != nil {
				addContentError(&diags, name, enc, err)
			}
		}
	}
	return diags
}

// missingFormatDetail says why no format could be derived.
func missingFormatDetail(f fileModel) string {
	switch {
	case !f.Path.IsNull():
		return fmt.Sprintf("file.format is required: the extension of %q does not give a format. ", f.Path.ValueString())
	case !f.Name.IsNull():
		return fmt.Sprintf("file.format is required: the extension of the name %q does not give a format. ", f.Name.ValueString())
	}
	return "file.format is required for inline content (or set file.name with an extension that gives the format). "
}

// checkTarget returns the format and encoding, defaults filled in, that a
// file block's bytes are checked against (flatfile.TargetOf); false when either
// is unknown or not one the service knows, and the bytes then go
// unchecked.
func checkTarget(f fileModel) (flatfile.FileTarget, bool) {
	f = withDefaults(f)
	if !known(f.Format) || !known(f.Encoding) {
		return flatfile.FileTarget{}, false
	}
	return flatfile.TargetOf(f.Format.ValueString(), f.Encoding.ValueString())
}

// checkKey names what the plan-time check of f checks against, as a hash
// record keeps it (localfile.Record.Checked): flatfile.FileTarget.Key, or ""
// when it is not checked.
func checkKey(f fileModel) string {
	if t, ok := checkTarget(f); ok {
		return t.Key()
	}
	return ""
}

// readFileRecord reads the file at f.path whole, once (localfile.HashFile):
// its SHA-256 and identity, with a diagnostic for the first problem found
// in its first flatfile.FileCheckLimit bytes, and its rows and header row
// counted (the Record's Counts, under checkKey) when its format and
// encoding are known.
func readFileRecord(f fileModel, diags *diag.Diagnostics) (*localfile.Record, error) {
	p := f.Path.ValueString()
	var o localfile.HashOptions
	if t, ok := checkTarget(f); ok {
		o.Check, o.Limit = t.CheckHead, flatfile.FileCheckLimit
		if c, err := t.Counter(); err == nil {
			o.Counter = c
		}
	}
	r, checkErr, err := localfile.HashFile(p, o)
	if err != nil {
		return nil, err
	}
	addCheckDiagnostic(diags, "path", fmt.Sprintf("The file %q", p), checkErr)
	return r, nil
}

// checkContent checks encoded inline content b whole against f's format
// and encoding, and adds a diagnostic on file.content (or file.content_wo)
// for the first problem found; it checks nothing while they are unknown.
func checkContent(f fileModel, b []byte, diags *diag.Diagnostics) {
	t, ok := checkTarget(f)
	if !ok {
		return
	}
	_, name := f.inline()
	addCheckDiagnostic(diags, name, "file."+name, t.Check(b))
}
