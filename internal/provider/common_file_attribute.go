package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// The file block's schema: the resource's file (fileAttribute), of which
// each input's file (inputFileAttribute) and the action's
// (actionFileAttribute) are made, with the plan modifiers of its defaults
// (fileDefault) and its write-only content (contentWOAttribute).

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
			"content_wo": contentWOAttribute(),
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
// configured file block, by the one rule of common_file_defaults.go (withDefaults).
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

// contentWOAttribute is file.content_wo: file.content, write-only.
func contentWOAttribute() schema.Attribute {
	return schema.StringAttribute{
		MarkdownDescription: "The file's content inline, as `content`, kept out of the state. " + writeOnlyNote,
		Optional:            true,
		WriteOnly:           true,
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
	}
}

// fileSourceValidators are file.path's validators: not empty, and exactly
// one of path and the inline attributes named set.
func fileSourceValidators(inline ...string) []validator.String {
	return []validator.String{stringvalidator.LengthAtLeast(1), exactlyOneOfSiblings(inline)}
}
