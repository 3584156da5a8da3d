package provider

import (
	"context"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

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
