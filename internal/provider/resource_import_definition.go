package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// The import as importjob reads it: what defines a job
// (importjob.Import.Definition) is the core's rule; here the framework's
// values are read into it, and its parts named by their attributes.

// valueOf is v as importjob reads it: known (null is a known "") or not.
func valueOf(v types.String) importjob.Value {
	if v.IsUnknown() {
		return importjob.Unknown()
	}
	return importjob.Known(v.ValueString())
}

// importOf is the import s describes, its values as the plan knows them.
func importOf(ctx context.Context, s importSpec) (importjob.Import, diag.Diagnostics) {
	imp := importjob.Import{Template: valueOf(s.TemplateID), Kind: s.kind(), ContentSHA256: valueOf(s.ContentSHA256)}
	switch imp.Kind {
	case importjob.KindRows:
		imp.WriteOnly = s.Rows.IsNull() // rows_wo: never in a plan or state
		return imp, nil
	case importjob.KindInputs:
		return imp, nil
	}
	f, diags := fileFrom(ctx, s.File)
	if f == nil {
		u := importjob.Unknown()
		imp.File = &importjob.File{Path: u, Name: u, PartName: u, Format: u, Encoding: u}
		return imp, diags
	}
	imp.File = &importjob.File{Path: valueOf(f.Path), Name: valueOf(f.Name), PartName: valueOf(f.PartName),
		Inline: f.Path.IsNull(), Format: valueOf(f.Format), Encoding: valueOf(f.Encoding)}
	imp.WriteOnly = f.Path.IsNull() && f.Content.IsNull() // content_wo
	return imp, diags
}

// definition is what defines the job s starts (importjob's rule).
func (s importSpec) definition(ctx context.Context) (importjob.Definition, diag.Diagnostics) {
	imp, diags := importOf(ctx, s)
	return imp.Definition(), diags
}

// partPath is the attribute that holds part of a definition whose data is
// of kind (the kind's own attribute: file, rows or inputs).
func partPath(part importjob.Part, kind string) path.Path {
	switch part {
	case importjob.PartKind:
		return path.Root(kind)
	case importjob.PartTemplate:
		return path.Root("template_id")
	case importjob.PartContent:
		return path.Root("content_sha256")
	case importjob.PartFormat:
		return filePath("format")
	}
	return filePath("encoding")
}
