package provider

import (
	"context"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

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

// extensionFor is the extension of the default file name of inline content.
func extensionFor(f etl.FileFormat) string {
	switch f {
	case etl.FormatPSV:
		return "psv"
	case etl.FormatTDF:
		return "tsv"
	}
	return "csv"
}

// defaultFormat derives the file format from the extension of the path,
// else of the configured file name.
func defaultFormat(filePath, name string) (etl.FileFormat, bool) {
	if filePath != "" {
		if f, ok := etl.FormatFromExtension(filePath); ok {
			return f, true
		}
	}
	if name != "" {
		return etl.FormatFromExtension(name)
	}
	return "", false
}

// defaultName is the file name sent when none is configured: the base name
// of the path, or data.<ext> for inline content.
func defaultName(filePath string, format etl.FileFormat) string {
	if filePath != "" {
		return filepath.Base(filePath)
	}
	return "data." + extensionFor(format)
}

// deriveFileDefault computes the default of "format" or "name" from the
// configured values; known is false when it depends on an unknown value,
// and v is "" when no default can be derived.
func deriveFileDefault(attribute string, p, name, format types.String) (v string, known bool) {
	switch attribute {
	case "format":
		if p.IsUnknown() {
			return "", false
		}
		if f, ok := etl.FormatFromExtension(p.ValueString()); ok && !p.IsNull() {
			return string(f), true
		}
		if name.IsUnknown() {
			return "", false
		}
		if f, ok := defaultFormat("", name.ValueString()); ok {
			return string(f), true
		}
		return "", true
	default: // name
		if p.IsUnknown() {
			return "", false
		}
		if !p.IsNull() {
			return defaultName(p.ValueString(), ""), true
		}
		if format.IsUnknown() {
			return "", false
		}
		if format.IsNull() {
			return "", true
		}
		return defaultName("", etl.FileFormat(format.ValueString())), true
	}
}
