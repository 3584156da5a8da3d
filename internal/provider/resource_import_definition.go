package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// jobDefinition is what defines an import job: what the service would
// import (importSpec.definition says it). A change of any part plans a new
// job (planJobChange), an apply checks the parts that were unknown at plan
// (checkUnchangedAtApply), and a job handed over to a replacement is
// resumed only by a Create of the same definition (handsOver, key). Everything else about an
// etl_import updates in place.
type jobDefinition struct {
	// TemplateID is the template the job is created from.
	TemplateID types.String
	// Kind is the attribute that holds the data: file, rows or inputs
	// (importSpec.kind). Rows are sent as JSON, a file as a file.
	Kind string
	// ContentSHA256 is the hash of the bytes sent; for inputs it covers
	// each input's bytes, format and encoding (inputsHash).
	ContentSHA256 types.String
	// Format and Encoding are how the service reads a file (null for
	// rows and inputs, whose hash covers them).
	Format, Encoding types.String
}

// definitionPart is one part of a jobDefinition, with the attribute that
// holds it.
type definitionPart struct {
	at    path.Path
	value types.String
}

// parts lists the parts compared one by one: the kind is compared apart
// (a switch of kind changes which attribute holds the data).
func (d jobDefinition) parts() []definitionPart {
	return []definitionPart{
		{path.Root("template_id"), d.TemplateID},
		{path.Root("content_sha256"), d.ContentSHA256},
		{filePath("format"), d.Format},
		{filePath("encoding"), d.Encoding},
	}
}

// known reports whether every part is known (null parts are known).
func (d jobDefinition) known() bool {
	for _, p := range d.parts() {
		if p.value.IsUnknown() {
			return false
		}
	}
	return true
}

// key is the definition as one string, for matching a job handed over:
// equal keys define the same import. Only meaningful when known.
func (d jobDefinition) key() string {
	s := []string{d.Kind}
	for _, p := range d.parts() {
		s = append(s, p.value.ValueString())
	}
	return strings.Join(s, "\x00")
}

// changedParts lists the attributes whose part differs between prior and
// next where both are known, the kind first when the data moved to
// another attribute. Unknown parts are compared at apply.
func changedParts(prior, next jobDefinition) []path.Path {
	var changed []path.Path
	if prior.Kind != next.Kind {
		changed = append(changed, path.Root(next.Kind))
	}
	pp := prior.parts()
	for i, n := range next.parts() {
		p := pp[i]
		if p.value.IsUnknown() || n.value.IsUnknown() || p.value.Equal(n.value) {
			continue
		}
		if prior.Kind != next.Kind && n.at.String() != "template_id" {
			continue // the kind's change says it
		}
		changed = append(changed, n.at)
	}
	return changed
}
