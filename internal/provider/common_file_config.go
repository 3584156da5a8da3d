package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

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
