package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// Default timeouts of etl_import.
const (
	defaultCreateTimeout = 30 * time.Minute
	defaultDeleteTimeout = 5 * time.Minute
)

// Polling of wait_for_completion: the first wait, doubled after every poll
// up to the cap. Variables so that tests can shorten them.
var (
	pollInitialInterval = 100 * time.Millisecond
	pollMaxInterval     = 10 * time.Second
)

var (
	_ resource.ResourceWithConfigure        = (*importResource)(nil)
	_ resource.ResourceWithImportState      = (*importResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*importResource)(nil)
	_ resource.ResourceWithConfigValidators = (*importResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*importResource)(nil)
)

func newImportResource() resource.Resource { return &importResource{} }

type importResource struct{ client *etl.Client }

type importModel struct {
	ID                types.String   `tfsdk:"id"`
	TemplateID        types.String   `tfsdk:"template_id"`
	File              types.Object   `tfsdk:"file"`
	Rows              types.List     `tfsdk:"rows"`
	Submit            types.Bool     `tfsdk:"submit"`
	WaitForCompletion types.Bool     `tfsdk:"wait_for_completion"`
	CancelOnDestroy   types.Bool     `tfsdk:"cancel_on_destroy"`
	ContentSHA256     types.String   `tfsdk:"content_sha256"`
	Status            types.String   `tfsdk:"status"`
	Name              types.String   `tfsdk:"name"`
	ModelID           types.String   `tfsdk:"model_id"`
	ModelName         types.String   `tfsdk:"model_name"`
	UserName          types.String   `tfsdk:"user_name"`
	CreatedDate       types.Int64    `tfsdk:"created_date"`
	UpdatedDate       types.Int64    `tfsdk:"updated_date"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
}

type fileModel struct {
	Path     types.String `tfsdk:"path"`
	Content  types.String `tfsdk:"content"`
	Format   types.String `tfsdk:"format"`
	Encoding types.String `tfsdk:"encoding"`
	Name     types.String `tfsdk:"name"`
	PartName types.String `tfsdk:"part_name"`
}

var fileAttrTypes = map[string]attr.Type{
	"path": types.StringType, "content": types.StringType, "format": types.StringType,
	"encoding": types.StringType, "name": types.StringType, "part_name": types.StringType,
}

func stringsOf[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

func (r *importResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_import"
}

func (r *importResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := replaceUnlessAdopting{}
	formats := stringsOf(etl.FileFormats)
	encodings := stringsOf(etl.Encodings)
	resp.Schema = schema.Schema{
		MarkdownDescription: "Starts an import (ETL) job from a template with a flat file or with rows, optionally submits it and waits for it to finish. " +
			"Each `etl_import` is one job: changing the data (or anything else that defines the job) starts a new job. " +
			"Destroying the resource never deletes imported data: the service cannot undo an import.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The job id: 18 or 19 decimal digits.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"template_id": schema.StringAttribute{
				MarkdownDescription: "The id of the template the job is created from, such as `data.etl_template.gl.id`. Changing it starts a new job.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers:       []planmodifier.String{replace},
			},
			"file": schema.SingleNestedAttribute{
				MarkdownDescription: "A flat file to import (start with file). Exactly one of `file` and `rows` must be set; " +
					"in `file`, exactly one of `path` and `content`. Changing any of its attributes, or the file's bytes, starts a new job.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"path": schema.StringAttribute{
						MarkdownDescription: "Path of the file to send, such as `\"${path.module}/data/gl.csv\"`. Its bytes are sent as they are (they must already be in `encoding`) " +
							"and streamed, never loaded whole into memory. The file must exist at plan time unless the path is unknown until apply. " +
							"At plan time, in the same read that hashes it, its first 64 MiB are checked against `format` and `encoding` (bytes valid in the encoding, " +
							"a header row first, every row as wide as the header, RFC 4180 quoting, the format's delimiter): a problem fails the plan with its line number. " +
							"A larger file is hashed whole but only its first 64 MiB are checked.",
						Optional: true,
						Validators: []validator.String{
							stringvalidator.LengthAtLeast(1),
							stringvalidator.ExactlyOneOf(path.MatchRoot("file").AtName("path"), path.MatchRoot("file").AtName("content")),
						},
						PlanModifiers: []planmodifier.String{replace},
					},
					"content": schema.StringAttribute{
						MarkdownDescription: "Inline file content, as text. It is encoded to `encoding` before it is sent (UTF-16 little-endian with a byte order mark; " +
							"Windows Latin-1 fails at plan time on a character it cannot represent).",
						Optional:      true,
						Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
						PlanModifiers: []planmodifier.String{replace},
					},
					"format": schema.StringAttribute{
						MarkdownDescription: "The delimited format: `CSV` (comma), `PSV` (pipe) or `TDF` (tab). Defaults from the extension of `path` (or `name`): " +
							"`.csv`, `.psv`, `.tsv`/`.tdf`/`.tab`; required when the extension gives none.",
						Optional:      true,
						Computed:      true,
						Validators:    []validator.String{stringvalidator.OneOf(formats...)},
						PlanModifiers: []planmodifier.String{fileDefault{attribute: "format"}, replace},
					},
					"encoding": schema.StringAttribute{
						MarkdownDescription: "The character encoding, spelled exactly as the service does: `UTF-8`, `UTF-16` or `Windows Latin-1`. Defaults to `UTF-8`.",
						Optional:            true,
						Computed:            true,
						Default:             stringdefault.StaticString(string(etl.EncodingUTF8)),
						Validators:          []validator.String{stringvalidator.OneOf(encodings...)},
						PlanModifiers:       []planmodifier.String{replace},
					},
					"name": schema.StringAttribute{
						MarkdownDescription: "The file name sent to the service (`fileName`). Defaults to the base name of `path`, or `data.csv`, `data.psv` or `data.tsv` for `content`.",
						Optional:            true,
						Computed:            true,
						Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
						PlanModifiers:       []planmodifier.String{fileDefault{attribute: "name"}, replace},
					},
					"part_name": schema.StringAttribute{
						MarkdownDescription: "The name of the multipart form part that carries the file (`partName`). Defaults to `file`.",
						Optional:            true,
						Computed:            true,
						Default:             stringdefault.StaticString("file"),
						Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
						PlanModifiers:       []planmodifier.String{replace},
					},
				},
			},
			"rows": schema.ListAttribute{
				MarkdownDescription: "Rows to import (start with data), header row of column names first, such as `[[\"Account\", \"Amount\"], [\"4000\", \"100\"]]`. " +
					"Every row must have as many cells as the header. Numbers are sent as strings. Rows whose JSON body would exceed the service's 25 MB limit are sent instead as a UTF-8 CSV file through start with file, with a warning; `content_sha256` is then the hash of that CSV. Changing the rows starts a new job.",
				ElementType:   types.ListType{ElemType: types.StringType},
				Optional:      true,
				Validators:    []validator.List{rowsValidator{}},
				PlanModifiers: []planmodifier.List{replace},
			},
			"submit": schema.BoolAttribute{
				MarkdownDescription: "Whether to submit the job after starting it. Defaults to `false`. Changing it starts a new job.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				PlanModifiers:       []planmodifier.Bool{replace},
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Whether to wait until the job reaches a final status (polling with backoff, bounded by `timeouts.create`). " +
					"`COMPLETED` succeeds; `ERROR`, `CANCELLED` and `EXPIRED` fail the apply, and the job stays in state, tainted. Defaults to `false`. Changing it updates in place.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"cancel_on_destroy": schema.BoolAttribute{
				MarkdownDescription: "Whether destroying the resource first cancels the job when it has not reached a final status. Defaults to `false`. Changing it updates in place.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"content_sha256": schema.StringAttribute{
				MarkdownDescription: "SHA-256 (hex) of exactly the bytes sent: the file's bytes, the encoded `content`, or the JSON body of `rows` (the CSV file, for rows over the 25 MB limit). " +
					"Computed at plan time, so an edited file plans a new job; unknown at plan time only when the path is.",
				Computed: true,
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The job's status as last read: `EDITING`, `NOT_STARTED`, `SUBMITTED`, `RUNNING`, `WAITING`, `QUEUED`, `COMPLETED`, `ERROR`, `CANCELLED` or `EXPIRED`.",
				Computed:            true,
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The job's name (the template's name).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"model_id": schema.StringAttribute{
				MarkdownDescription: "The id of the model the job imports into.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"model_name": schema.StringAttribute{
				MarkdownDescription: "The name of the model the job imports into.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"user_name": schema.StringAttribute{
				MarkdownDescription: "The display name of the user who owns the job.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_date": schema.Int64Attribute{
				MarkdownDescription: "When the job was created, in milliseconds since the Unix epoch.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"updated_date": schema.Int64Attribute{
				MarkdownDescription: "When the job was last updated, in milliseconds since the Unix epoch; null when the service gives none.",
				Computed:            true,
			},
			"timeouts": timeoutsAttribute(ctx),
		},
	}
}

// timeoutsAttribute is the timeouts attribute, with descriptions.
func timeoutsAttribute(ctx context.Context) schema.Attribute {
	a := timeouts.Attributes(ctx, timeouts.Opts{
		Create: true,
		Delete: true,
		CreateDescription: "How long creating may take, the upload and `wait_for_completion` included, such as `\"30m\"` or `\"2h\"`. " +
			"Also bounds waiting after an in-place change to `wait_for_completion`. Defaults to `30m`.",
		DeleteDescription: "How long cancelling the job (`cancel_on_destroy`) may take. Defaults to `5m`.",
	})
	if sn, ok := a.(schema.SingleNestedAttribute); ok {
		sn.MarkdownDescription = "Time limits of the job's operations, as Go durations."
		return sn
	}
	return a
}

func (r *importResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *importResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.ExactlyOneOf(path.MatchRoot("file"), path.MatchRoot("rows")),
	}
}

// ValidateConfig reports, when the values are known, a file whose format
// cannot be derived and inline content that the encoding cannot represent.
func (r *importResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var fileObj types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("file"), &fileObj)...)
	if resp.Diagnostics.HasError() || fileObj.IsNull() || fileObj.IsUnknown() {
		return
	}
	var f fileModel
	resp.Diagnostics.Append(fileObj.As(ctx, &f, basetypes.ObjectAsOptions{})...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(checkFileConfig(f)...)
}

// checkFileConfig holds the cross-attribute checks of a file block.
func checkFileConfig(f fileModel) diag.Diagnostics {
	var diags diag.Diagnostics
	if f.Format.IsNull() {
		if v, known := deriveFileDefault("format", f.Path, f.Name, f.Format); known && v == "" {
			var detail string
			switch {
			case !f.Path.IsNull():
				detail = fmt.Sprintf("file.format is required: the extension of %q does not give a format. ", f.Path.ValueString())
			case !f.Name.IsNull():
				detail = fmt.Sprintf("file.format is required: the extension of the name %q does not give a format. ", f.Name.ValueString())
			default:
				detail = "file.format is required for inline content (or set file.name with an extension that gives the format). "
			}
			diags.AddAttributeError(filePath("format"), "Missing file format",
				detail+"Set file.format to CSV (comma separated), PSV (pipe separated) or TDF (tab separated); "+
					"the extensions .csv, .psv, .tsv, .tdf and .tab give it automatically.")
		}
	}
	if !f.Content.IsNull() && !f.Content.IsUnknown() && !f.Encoding.IsUnknown() {
		enc := etl.EncodingUTF8
		if !f.Encoding.IsNull() {
			enc = etl.Encoding(f.Encoding.ValueString())
		}
		if validEncodingName(enc) {
			if _, err := encodeContent(f.Content.ValueString(), enc); err != nil {
				diags.AddAttributeError(filePath("content"), "Content not representable in the encoding",
					fmt.Sprintf("file.content cannot be encoded as %s: %s.", enc, err))
			}
		}
	}
	return diags
}

func validEncodingName(e etl.Encoding) bool {
	for _, v := range etl.Encodings {
		if v == e {
			return true
		}
	}
	return false
}

// ModifyPlan computes content_sha256 from the file or rows, reports file
// problems on their attribute, and plans a replacement when the bytes to
// send changed.
func (r *importResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan importModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	sum, diags := planContentHash(ctx, plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("content_sha256"), sum)...)
	if req.State.Raw.IsNull() {
		return
	}
	var prior types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("content_sha256"), &prior)...)
	if replaceDecision(ctx, false, false, prior, sum, req.Private) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("content_sha256"))
	}
}

// planContentHash returns the SHA-256 of the bytes the planned job would
// send, unknown when an input is unknown.
func planContentHash(ctx context.Context, m importModel) (types.String, diag.Diagnostics) {
	var diags diag.Diagnostics
	if !m.Rows.IsNull() {
		rows, known := rowsFrom(m.Rows)
		if !known {
			return types.StringUnknown(), diags
		}
		sum, asFile, size := rowsPayload(rows)
		if asFile {
			diags.AddAttributeWarning(path.Root("rows"), rowsAsFileSummary, rowsAsFileDetail(size))
		}
		return types.StringValue(sum), diags
	}
	if m.File.IsNull() || m.File.IsUnknown() {
		return types.StringUnknown(), diags
	}
	var f fileModel
	diags.Append(m.File.As(ctx, &f, basetypes.ObjectAsOptions{})...)
	if diags.HasError() {
		return types.StringUnknown(), diags
	}
	switch {
	case f.Path.IsUnknown():
		return types.StringUnknown(), diags
	case !f.Path.IsNull():
		// Hashed whole, its first fileCheckLimit bytes checked in the same read.
		sum, err := hashAndCheckFile(f, &diags)
		if err != nil {
			addFileError(&diags, err)
			return types.StringUnknown(), diags
		}
		return types.StringValue(sum), diags
	case f.Content.IsUnknown() || f.Encoding.IsUnknown() || f.Content.IsNull():
		return types.StringUnknown(), diags
	}
	b, err := encodeContent(f.Content.ValueString(), etl.Encoding(f.Encoding.ValueString()))
	if err != nil {
		diags.AddAttributeError(filePath("content"), "Content not representable in the encoding", fmt.Sprintf("file.content: %s.", err))
		return types.StringUnknown(), diags
	}
	checkContent(f, b, &diags)
	return types.StringValue(hashBytes(b)), diags
}

func addFileError(diags *diag.Diagnostics, err error) {
	var fp *fileProblem
	if errors.As(err, &fp) {
		diags.AddAttributeError(filePath("path"), fp.Summary, "file.path: "+fp.Detail)
		return
	}
	diags.AddAttributeError(filePath("path"), "File not readable", "file.path: "+err.Error())
}

// rowsFrom converts the rows attribute; known is false when a row or cell
// is unknown.
func rowsFrom(l types.List) ([][]string, bool) {
	if l.IsUnknown() {
		return nil, false
	}
	out := make([][]string, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		row, ok := e.(types.List)
		if !ok || row.IsUnknown() {
			return nil, false
		}
		cells := make([]string, 0, len(row.Elements()))
		for _, c := range row.Elements() {
			s, ok := c.(types.String)
			if !ok || s.IsUnknown() {
				return nil, false
			}
			cells = append(cells, s.ValueString())
		}
		out = append(out, cells)
	}
	return out, true
}

// resolveFile fills the file block's defaults once every value is known
// (at apply, values unknown at plan time are known) and returns it.
func resolveFile(ctx context.Context, m *importModel) (*fileModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	if m.File.IsNull() {
		return nil, diags
	}
	var f fileModel
	diags.Append(m.File.As(ctx, &f, basetypes.ObjectAsOptions{})...)
	if diags.HasError() {
		return nil, diags
	}
	if f.Encoding.IsNull() || f.Encoding.IsUnknown() {
		f.Encoding = types.StringValue(string(etl.EncodingUTF8))
	}
	if f.PartName.IsNull() || f.PartName.IsUnknown() {
		f.PartName = types.StringValue("file")
	}
	if f.Format.IsUnknown() || f.Format.IsNull() {
		v, _ := deriveFileDefault("format", f.Path, f.Name, types.StringNull())
		if v == "" {
			diags.Append(checkFileConfig(fileModel{Path: f.Path, Name: f.Name, Content: f.Content, Format: types.StringNull(), Encoding: f.Encoding})...)
			return nil, diags
		}
		f.Format = types.StringValue(v)
	}
	if f.Name.IsUnknown() || f.Name.IsNull() {
		v, _ := deriveFileDefault("name", f.Path, types.StringNull(), f.Format)
		f.Name = types.StringValue(v)
	}
	obj, d := types.ObjectValueFrom(ctx, fileAttrTypes, f)
	diags.Append(d...)
	m.File = obj
	return &f, diags
}

// preparedUpload is what Create sends: a file or rows, and the SHA-256 of
// the bytes.
type preparedUpload struct {
	file   *etl.FileUpload
	data   *etl.DataUpload
	sum    string
	closer io.Closer
	// rowsAsFile: rows too large for start with data, sent as a CSV file.
	rowsAsFile bool
}

func (p *preparedUpload) Close() {
	if p != nil && p.closer != nil {
		p.closer.Close()
	}
}

// prepareUpload builds the upload from known values.
func prepareUpload(ctx context.Context, m *importModel) (*preparedUpload, diag.Diagnostics) {
	var diags diag.Diagnostics
	if !m.Rows.IsNull() {
		rows, known := rowsFrom(m.Rows)
		if !known {
			diags.AddAttributeError(path.Root("rows"), "Rows not known", "rows still has unknown values at apply: this is a bug in the provider; please report it.")
		}
		if diags.HasError() {
			return nil, diags
		}
		sum, asFile, size := rowsPayload(rows)
		d := etl.DataUpload{Rows: rows}
		if asFile {
			if m.ContentSHA256.IsUnknown() || m.ContentSHA256.IsNull() { // else the plan warned
				diags.AddAttributeWarning(path.Root("rows"), rowsAsFileSummary, rowsAsFileDetail(size))
			}
			f := d.CSVFile()
			return &preparedUpload{file: &f, sum: sum, rowsAsFile: true}, diags
		}
		return &preparedUpload{data: &d, sum: sum}, diags
	}
	f, d := resolveFile(ctx, m)
	diags.Append(d...)
	if diags.HasError() {
		return nil, diags
	}
	if f == nil {
		diags.AddError("Nothing to import", "Set exactly one of file and rows.")
		return nil, diags
	}
	input := etl.FileInput{
		PartName:     f.PartName.ValueString(),
		FileFormat:   etl.FileFormat(f.Format.ValueString()),
		FileEncoding: etl.Encoding(f.Encoding.ValueString()),
		FileName:     f.Name.ValueString(),
	}
	if !f.Path.IsNull() {
		// With the planned hash, the file is checked while it is sent
		// (read once); see openImportFile.
		of, err := openImportFile(f.Path.ValueString(), m.ContentSHA256.ValueString())
		if err != nil {
			addFileError(&diags, err)
			return nil, diags
		}
		return &preparedUpload{
			file:   &etl.FileUpload{Input: input, Open: of.Open, Size: of.size},
			sum:    of.sum,
			closer: of,
		}, diags
	}
	b, err := encodeContent(f.Content.ValueString(), input.FileEncoding)
	if err != nil {
		diags.AddAttributeError(filePath("content"), "Content not representable in the encoding", fmt.Sprintf("file.content: %s.", err))
		return nil, diags
	}
	return &preparedUpload{file: &etl.FileUpload{Input: input, Open: bytesOpener(b), Size: int64(len(b))}, sum: hashBytes(b)}, diags
}

func (r *importResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan importModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	timeout, d := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	up, d := prepareUpload(ctx, &plan)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	defer up.Close()
	if !plan.ContentSHA256.IsUnknown() && !plan.ContentSHA256.IsNull() && plan.ContentSHA256.ValueString() != up.sum {
		at := path.Root("rows")
		if up.file != nil {
			at = filePath("path")
		}
		resp.Diagnostics.AddAttributeError(at, "Data changed since plan",
			fmt.Sprintf("The data to import changed between plan and apply: its SHA-256 is now %s, the plan has %s. "+
				"Nothing was sent, so that data other than the planned data is never imported. Run terraform plan again.", up.sum, plan.ContentSHA256.ValueString()))
		return
	}
	plan.ContentSHA256 = types.StringValue(up.sum)

	templateID := plan.TemplateID.ValueString()
	var job *etl.Job
	var err error
	if up.file != nil {
		tflog.Debug(ctx, "starting import job with a file", map[string]any{"template_id": templateID, "file_name": up.file.Input.FileName, "size": up.file.Size, "sha256": up.sum, "rows_as_file": up.rowsAsFile})
		job, err = r.client.StartWithFile(ctx, templateID, *up.file)
	} else {
		tflog.Debug(ctx, "starting import job with rows", map[string]any{"template_id": templateID, "rows": len(up.data.Rows), "sha256": up.sum})
		job, err = r.client.StartWithData(ctx, templateID, *up.data)
	}
	var changed *changedError
	if errors.As(err, &changed) {
		resp.Diagnostics.AddAttributeError(filePath("path"), "Data changed since plan",
			fmt.Sprintf("The data to import changed between plan and apply: %s. "+
				"The request was aborted before the file's last bytes, so the service never received a complete upload and no job was created: "+
				"data other than the planned data is never imported. Run terraform plan again.", changed))
		return
	}
	if err != nil {
		addStartError(&resp.Diagnostics, templateID, err)
		return
	}

	// The job exists: record it before anything else can fail, so that a
	// later failure leaves it in state (tainted) rather than forgotten.
	applyJob(&plan, job)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}

	if plan.Submit.ValueBool() {
		sj, err := r.client.SubmitJob(ctx, job.ID)
		if etl.IsConflict(err) {
			// The job may have finished before it could be submitted:
			// then there is nothing left to submit.
			if cur, gerr := r.client.GetJob(ctx, job.ID); gerr == nil && cur.Status.Final() {
				tflog.Debug(ctx, "import job already final; not submitted", map[string]any{"job_id": job.ID, "status": string(cur.Status)})
				sj, err = cur, nil
			}
		}
		if err != nil {
			resp.Diagnostics.AddError(fmt.Sprintf("Submitting import job %s failed", job.ID),
				fmt.Sprintf("The job %s was started (status %s) and its data sent, but submitting it failed: %s.%s\n\n%s",
					job.ID, job.Status, err, hintOf(err), keptInState))
			return
		}
		applyJob(&plan, sj)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}

	if plan.WaitForCompletion.ValueBool() {
		r.waitAndRecord(ctx, &plan, timeout, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

const keptInState = "The job stays in the Terraform state, marked tainted: the next apply replaces it with a new job " +
	"(run terraform untaint first to keep it instead). Destroying it never deletes imported data."

// waitAndRecord polls the job until it is final (or the timeout), then
// reads it whole into m. Failures are diagnostics naming the job and status.
func (r *importResource) waitAndRecord(ctx context.Context, m *importModel, timeout time.Duration, diags *diag.Diagnostics) {
	jobID := m.ID.ValueString()
	status, err := waitForJob(ctx, r.client, jobID, etl.JobStatus(m.Status.ValueString()))
	if status != "" {
		m.Status = types.StringValue(string(status))
	}
	// Refresh the dates, even after a timeout (with a short context of its own).
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if job, gerr := r.client.GetJob(rctx, jobID); gerr == nil {
		applyJob(m, job)
		if err == nil {
			status = job.Status
		}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddError(fmt.Sprintf("Timed out waiting for import job %s", jobID),
			fmt.Sprintf("The job %s was still %s after %s (timeouts.create). Raise timeouts.create, or set wait_for_completion = false.\n\n%s",
				jobID, m.Status.ValueString(), timeout, keptInState))
	case err != nil:
		diags.AddError(fmt.Sprintf("Waiting for import job %s failed", jobID),
			fmt.Sprintf("Polling the status of job %s (last status %s) failed: %s.%s\n\n%s", jobID, m.Status.ValueString(), err, hintOf(err), keptInState))
	case status.Failed():
		diags.AddError(fmt.Sprintf("Import job %s ended with status %s", jobID, status),
			fmt.Sprintf("The job %s ended with status %s: the service did not import the data (check the job in the service's ETL job history for the reason, "+
				"such as a missing required column).\n\n%s", jobID, status, keptInState))
	}
}

// waitForJob polls the job's status with backoff until it is final or ctx
// ends, and returns the last status seen.
func waitForJob(ctx context.Context, c *etl.Client, jobID string, last etl.JobStatus) (etl.JobStatus, error) {
	interval := pollInitialInterval
	for {
		status, err := c.GetJobStatus(ctx, jobID)
		if err != nil {
			if ctx.Err() != nil {
				return last, ctx.Err()
			}
			return last, err
		}
		last = status
		tflog.Trace(ctx, "polled import job", map[string]any{"job_id": jobID, "status": string(status)})
		if status.Final() {
			return status, nil
		}
		t := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return last, ctx.Err()
		case <-t.C:
		}
		interval *= 2
		if interval > pollMaxInterval {
			interval = pollMaxInterval
		}
	}
}

func hintOf(err error) string {
	var ae *etl.APIError
	if errors.As(err, &ae) {
		if h := ae.Hint(); h != "" {
			return " Hint: " + h + "." + attemptsNote(err)
		}
	}
	return attemptsNote(err)
}

func addStartError(diags *diag.Diagnostics, templateID string, err error) {
	var maybe *etl.JobMaybeCreatedError
	if errors.As(err, &maybe) {
		diags.AddError("Import job may have been created",
			fmt.Sprintf("Starting a job from template %s: the request reached the service but its answer was lost (%v). "+
				"A job may have been created and may be importing the data. The request was not retried, so that the data is not imported twice, "+
				"and Terraform does not know the job's id.\n\n"+
				"Look for the job in the service's ETL job history. If it exists, adopt it instead of starting another: "+
				"terraform import etl_import.<name> <job id> (or an import block with that id), then apply. "+
				"If it does not, apply again.", templateID, maybe.Err))
		return
	}
	diags.AddError(fmt.Sprintf("Starting an import job from template %s failed", templateID),
		fmt.Sprintf("No job was created: %s.%s", err, hintOf(err)))
}

// applyJob copies the service's view of the job into the model.
func applyJob(m *importModel, j *etl.Job) {
	if j.ID != "" {
		m.ID = types.StringValue(j.ID)
	}
	m.Status = types.StringValue(string(j.Status))
	m.Name = types.StringValue(j.Name)
	m.ModelID = types.StringValue(j.ModelID)
	m.ModelName = types.StringValue(j.ModelName)
	m.UserName = types.StringValue(j.UserName)
	m.CreatedDate = types.Int64Value(j.CreatedDate)
	if j.UpdatedDate != nil {
		m.UpdatedDate = types.Int64Value(*j.UpdatedDate)
	} else {
		m.UpdatedDate = types.Int64Null()
	}
}

func (r *importResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state importModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		if state.Status.IsNull() { // just imported: nothing known yet
			notConfigured(&resp.Diagnostics)
		}
		// Otherwise keep the last known state: the provider's settings are
		// unknown during this plan.
		return
	}
	job, err := r.client.GetJob(ctx, state.ID.ValueString())
	if etl.IsNotFound(err) {
		resp.Diagnostics.AddWarning(fmt.Sprintf("Import job %s not found", state.ID.ValueString()),
			fmt.Sprintf("The service no longer knows job %s, so it was removed from the Terraform state; the next apply starts a new job. "+
				"Data it imported stays imported.", state.ID.ValueString()))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("Reading import job %s failed", state.ID.ValueString()), err.Error()+"."+hintOf(err))
		return
	}
	applyJob(&state, job)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *importResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan importModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	// Only behaviour settings change in place, or an imported job adopts its
	// configuration: no job is started. Values unknown at plan are filled.
	if !plan.File.IsNull() {
		_, d := resolveFile(ctx, &plan)
		resp.Diagnostics.Append(d...)
	}
	if plan.ContentSHA256.IsUnknown() {
		sum, d := planContentHash(ctx, plan)
		resp.Diagnostics.Append(d...)
		plan.ContentSHA256 = sum
	}
	if resp.Diagnostics.HasError() {
		return
	}
	jobID := plan.ID.ValueString()
	job, err := r.client.GetJob(ctx, jobID)
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("Reading import job %s failed", jobID), err.Error()+"."+hintOf(err))
		return
	}
	applyJob(&plan, job)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateAdoptedKey, nil)...)
	if plan.WaitForCompletion.ValueBool() && !job.Status.Final() && job.Status != etl.StatusEditing {
		timeout, d := plan.Timeouts.Create(ctx, defaultCreateTimeout)
		resp.Diagnostics.Append(d...)
		wctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		r.waitAndRecord(wctx, &plan, timeout, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *importResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state importModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !state.CancelOnDestroy.ValueBool() {
		return // the job and its data stay; Terraform forgets the job
	}
	if r.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	timeout, d := state.Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	jobID := state.ID.ValueString()
	status, err := r.client.GetJobStatus(ctx, jobID)
	if etl.IsNotFound(err) {
		return
	}
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("Reading the status of import job %s failed", jobID),
			fmt.Sprintf("cancel_on_destroy needs the job's status: %s.%s", err, hintOf(err)))
		return
	}
	if status.Final() {
		tflog.Debug(ctx, "import job already final; nothing to cancel", map[string]any{"job_id": jobID, "status": string(status)})
		return
	}
	if _, err := r.client.CancelJob(ctx, jobID); err != nil && !etl.IsConflict(err) && !etl.IsNotFound(err) {
		resp.Diagnostics.AddError(fmt.Sprintf("Cancelling import job %s failed", jobID),
			fmt.Sprintf("The job was %s; cancelling it failed: %s.%s", status, err, hintOf(err)))
		return
	}
	tflog.Info(ctx, "cancelled import job", map[string]any{"job_id": jobID, "status_before": string(status)})
}

// ImportState adopts an existing job by its id. The next apply takes the
// configuration over without starting a job.
func (r *importResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := strings.TrimSpace(req.ID)
	if !etl.ValidJobID(id) {
		resp.Diagnostics.AddError("Invalid job id",
			fmt.Sprintf("%q is not a job id: import an etl_import by the id of its job, 18 or 19 decimal digits such as 640101874288689160.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateAdoptedKey, privateAdoptedValue)...)
}
