package etl

import (
	"regexp"
	"slices"
)

// TemplateFilter narrows the templates ListTemplates returns by model and
// name; an empty field (a nil NameRegex) lets every template through.
type TemplateFilter struct {
	ModelID, ModelName, Name string
	NameRegex                *regexp.Regexp
}

// Match reports whether t passes every field of f that is set: the same
// model id, model name and name, and NameRegex matching within the name.
func (f TemplateFilter) Match(t Template) bool {
	return (f.ModelID == "" || t.ModelID == f.ModelID) &&
		(f.ModelName == "" || t.ModelName == f.ModelName) &&
		(f.Name == "" || t.Name == f.Name) &&
		(f.NameRegex == nil || f.NameRegex.MatchString(t.Name))
}

// FilterTemplates returns the templates f matches, in order.
func FilterTemplates(ts []Template, f TemplateFilter) []Template {
	return slices.DeleteFunc(slices.Clone(ts), func(t Template) bool { return !f.Match(t) })
}
