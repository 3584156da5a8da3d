package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func (r *importResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Starts an import (ETL) job from a template with a flat file or with rows (or, for a template with several input steps, with one of them per step), optionally submits it and waits for it to finish. " +
			"Each `etl_import` is one job, and an import cannot be undone: a new job starts only when what the service would import changes " +
			"(`template_id`, the bytes in `content_sha256`, `file.format`, `file.encoding`, the inputs loaded, or a switch between `file`, `rows` and `inputs`); every other change updates in place and starts no job. " +
			"Destroying the resource never deletes imported data: the service cannot undo an import.",
		Attributes: map[string]schema.Attribute{
			"template_id": schema.StringAttribute{
				MarkdownDescription: "The id of the template the job is created from, such as `data.etl_template.gl.id`. Changing it starts a new job. " +
					"On the first apply after an import, the job's name and model must be this template's.",
				Required:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"file":   fileAttribute(),
			"inputs": inputsAttribute(),
			"rows": schema.ListAttribute{
				MarkdownDescription: "Rows to import (start with data), header row of column names first, such as `[[\"Account\", \"Amount\"], [\"4000\", \"100\"]]`. " +
					"Every row must have as many cells as the header. Numbers are sent as strings. Rows whose JSON body would exceed the service's 25 MB limit are sent instead as a UTF-8 CSV file through start with file, with a warning; `content_sha256` is then the hash of that CSV. " +
					"Changing the rows changes the bytes sent, and starts a new job; switching between `rows` and `file` starts a new job. " + rowsCRLFNote +
					" A cell holding CR LF is a plan-time warning that names its row and column.",
				ElementType: types.ListType{ElemType: types.StringType},
				Optional:    true,
				Validators:  []validator.List{rowsValidator{}},
			},
			"rows_wo": rowsWOAttribute(),
			"submit": schema.BoolAttribute{
				MarkdownDescription: "Whether to submit the job after starting it. Defaults to `false` with `file` or `rows`, and to `true` with `inputs` " +
					"(a job with inputs runs only once submitted; one never submitted stays `EDITING` and expires, and an explicit `false` is a plan-time warning). " +
					"Turned on for an existing job that is not submitted yet, it submits that job in place (then waits, with `wait_for_completion`): no job starts. " +
					"Turned off, it is recorded and nothing is sent. Only a job in a final status (`COMPLETED`, `ERROR`, `CANCELLED`, `EXPIRED`) can no longer be submitted: " +
					"turning submit on then plans a replacement (a new job), with a warning that says why.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{submitDefault{}},
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Whether to wait until the job reaches a final status (polling with backoff, bounded by `timeouts.create`). " +
					"`COMPLETED` succeeds; `ERROR`, `CANCELLED` and `EXPIRED` fail the apply, and the job stays in state, tainted. Defaults to `false`. Changing it updates in place: no job starts.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"cancel_on_destroy": schema.BoolAttribute{
				MarkdownDescription: "Whether destroying the resource first cancels the job when it has not reached a final status. Defaults to `false`. Changing it updates in place: no job starts.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"content_sha256": schema.StringAttribute{
				MarkdownDescription: "SHA-256 (hex) of exactly the bytes sent: the file's bytes, the encoded `content`, or the JSON body of `rows` (the CSV file, for rows over the 25 MB limit). " +
					"Computed at plan time, so an edited file plans a new job, and the same bytes at another path or inline do not. " +
					"A file whose size, times and inode are those recorded with its hash is not read again (see the provider's `hash_cache`). " +
					"Unknown at plan time only when the path or rows are: the apply then compares it with the job's, and fails without starting a job when it differs (the next plan shows the replacement)." +
					inputsHashDescription,
				Computed: true,
			},
			"timeouts": timeoutsAttribute(ctx),
		},
	}
	maps.Copy(resp.Schema.Attributes, jobAttributes())
	maps.Copy(resp.Schema.Attributes, dataFactsAttributes())
}

// partHeaderDoc: what a name sent in the multipart header may hold.
const partHeaderDoc = "It is sent in a multipart header: control characters other than tab (such as a trailing CR LF) fail the plan; quotes and backslashes arrive as written."

// fileAttribute is the file block: a flat file to send, by path or inline.
func fileAttribute() schema.Attribute {
	formats := stringsOf(etl.FileFormats)
	encodings := stringsOf(etl.Encodings)
	return schema.SingleNestedAttribute{
		MarkdownDescription: "A flat file to import (start with file). Exactly one of `file`, `rows`, `rows_wo` and `inputs` must be set; " +
			"in `file`, exactly one of `path`, `content` and `content_wo`. A change of the bytes sent (`content_sha256`), of `format` or of `encoding` starts a new job; " +
			"`path`, `content` (or `content_wo`) versus `path` with the same bytes, `name` and `part_name` update in place and start no job.",
		Optional: true,
		Attributes: map[string]schema.Attribute{
			"path": schema.StringAttribute{
				MarkdownDescription: "Path of the file to send, such as `\"${path.module}/data/gl.csv\"`. Its bytes are sent as they are (they must already be in `encoding`) " +
					"and streamed, never loaded whole into memory. The file must exist at plan time unless the path is unknown until apply. " +
					"At plan time, in the same read that hashes it, its first 64 MiB are checked against `format` and `encoding` (bytes valid in the encoding, " +
					"a header row first, every row as wide as the header, RFC 4180 quoting, the format's delimiter): a problem fails the plan with its line number. " +
					"A larger file is hashed whole but only its first 64 MiB are checked. " +
					"Changing the path updates in place and starts no job when the bytes are the same (a moved file, another checkout directory).",
				Optional:   true,
				Validators: fileSourceValidators("content", "content_wo"),
			},
			"content": schema.StringAttribute{
				MarkdownDescription: "Inline file content, as text. It is encoded to `encoding` before it is sent (UTF-16 little-endian with a byte order mark; " +
					"Windows Latin-1 fails at plan time on a character it cannot represent). Switching between `content` and `path` with the same bytes updates in place and starts no job.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"content_wo": contentWOAttribute(),
			"format": schema.StringAttribute{
				MarkdownDescription: "The delimited format: `CSV` (comma), `PSV` (pipe) or `TDF` (tab). Defaults from the extension of `path` (or `name`): " +
					"`.csv`, `.psv`, `.tsv`/`.tdf`/`.tab`; required when the extension gives none. Changing it starts a new job.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{stringvalidator.OneOf(formats...)},
				PlanModifiers: []planmodifier.String{formatDefault},
			},
			"encoding": schema.StringAttribute{
				MarkdownDescription: "The character encoding, spelled exactly as the service does: `UTF-8`, `UTF-16` or `Windows Latin-1`. Defaults to `UTF-8`. Changing it starts a new job.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(string(defaultEncoding)),
				Validators:          []validator.String{stringvalidator.OneOf(encodings...)},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The file name sent to the service (`fileName`). Defaults to the base name of `path`, or `data.csv`, `data.psv` or `data.tsv` for `content`. " +
					partHeaderDoc + " Changing it updates in place: no job starts.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1), partHeaderValidator},
				PlanModifiers: []planmodifier.String{nameDefault},
			},
			"part_name": schema.StringAttribute{
				MarkdownDescription: "The name of the multipart form part that carries the file (`partName`). Defaults to `file`. " +
					partHeaderDoc + " Changing it updates in place: no job starts.",
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(defaultPartName),
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), partHeaderValidator},
			},
		},
	}
}

// jobAttributes are the job's id and what the service says of it.
func jobAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			MarkdownDescription: "The job id: 18 or 19 decimal digits.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"status": schema.StringAttribute{
			MarkdownDescription: "The job's status as last read: `EDITING`, `NOT_STARTED`, `SUBMITTED`, `RUNNING`, `WAITING`, `QUEUED`, `COMPLETED`, `ERROR`, `CANCELLED` or `EXPIRED`; " +
				"or " + statusNotFoundDoc,
			Computed: true,
		},
		"name": schema.StringAttribute{
			MarkdownDescription: "The job's name (the template's name).",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"model_id": schema.StringAttribute{
			MarkdownDescription: "The id of the model the job imports into. Known in the plan of a new job (a create or a replacement): the template's model, read when the plan is made, so a reviewer sees where the data goes. " +
				"Unknown there only while the provider's settings or the template cannot be read.",
			Computed:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"model_name": schema.StringAttribute{
			MarkdownDescription: "The name of the model the job imports into; known in the plan of a new job, like `model_id`.",
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
		sn.MarkdownDescription = "Time limits of the job's operations, as Go durations. Changing them updates in place: no job starts."
		return sn
	}
	return a
}

func stringsOf[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
