package etl

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Finding templates among those ListTemplates returns: by model and name
// (FilterTemplates), and the one template a lookup by name means
// (FindTemplate), whose failures list the candidates.

// TemplateFilter narrows templates by model and name; an empty field (a
// nil NameRegex) lets every template through.
type TemplateFilter struct {
	ModelID, ModelName, Name string
	NameRegex                *regexp.Regexp
}

// CompileNameRegexp compiles s, a filter of template names given as the
// setting name, as a Go (RE2) regular expression; for one that does not
// compile it returns what is wrong instead.
func CompileNameRegexp(name, s string) (*regexp.Regexp, string) {
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Sprintf("%s is not a valid regular expression (RE2 syntax, https://github.com/google/re2/wiki/Syntax): %s.", name, err)
	}
	return re, ""
}

// Match reports whether t passes every field of f that is set: the same
// model id, model name and name, and NameRegex matching within the name.
func (f TemplateFilter) Match(t Template) bool {
	return (f.ModelID == "" || t.ModelID == f.ModelID) &&
		(f.ModelName == "" || t.ModelName == f.ModelName) &&
		(f.Name == "" || t.Name == f.Name) &&
		(f.NameRegex == nil || f.NameRegex.MatchString(t.Name))
}

// String renders a lookup by name, such as name "GL", model_name
// "Finance"; it leaves NameRegex out, which a lookup by name does not use.
func (f TemplateFilter) String() string {
	s := fmt.Sprintf("name %q", f.Name)
	if f.ModelID != "" {
		s += fmt.Sprintf(", model_id %q", f.ModelID)
	}
	if f.ModelName != "" {
		s += fmt.Sprintf(", model_name %q", f.ModelName)
	}
	return s
}

// FilterTemplates returns the templates f matches, in order.
func FilterTemplates(ts []Template, f TemplateFilter) []Template {
	return slices.DeleteFunc(slices.Clone(ts), func(t Template) bool { return !f.Match(t) })
}

// DescribeTemplates lists templates as `name (id, model)`, one a line.
func DescribeTemplates(ts []Template) string {
	lines := make([]string, 0, len(ts))
	for _, t := range ts {
		lines = append(lines, fmt.Sprintf("  - %s (%s, %s)", t.Name, t.ID, t.ModelName))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// FindTemplate returns the one template of all that f, a lookup by name,
// matches; else a *TemplateNotFoundError or a *SeveralTemplatesError.
func FindTemplate(all []Template, f TemplateFilter) (Template, error) {
	found := FilterTemplates(all, f)
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		e := &TemplateNotFoundError{Filter: f, Candidates: FilterTemplates(all, TemplateFilter{Name: f.Name}), OtherModels: true}
		if len(e.Candidates) == 0 {
			e.Candidates, e.OtherModels = all, false
		}
		return Template{}, e
	}
	return Template{}, &SeveralTemplatesError{Filter: f, Found: found}
}

// TemplateNotFoundError is a lookup by name that no template matches.
// Candidates are the templates of that name in other models
// (OtherModels), else every template the token may use.
type TemplateNotFoundError struct {
	Filter      TemplateFilter
	Candidates  []Template
	OtherModels bool
}

func (e *TemplateNotFoundError) Error() string {
	msg := fmt.Sprintf("No template matches %s.", e.Filter)
	what := "templates this token may use"
	if e.OtherModels {
		what = "templates with that name in other models"
	}
	if len(e.Candidates) == 0 {
		return msg + " The token may use no template at all: check its permissions (Read Model)."
	}
	return msg + fmt.Sprintf(" The %s are:\n%s", what, DescribeTemplates(e.Candidates))
}

// SeveralTemplatesError is a lookup by name that several templates match
// (Found).
type SeveralTemplatesError struct {
	Filter TemplateFilter
	Found  []Template
}

func (e *SeveralTemplatesError) Error() string {
	return fmt.Sprintf("%d templates match %s; narrow the lookup with model_id or model_name, or use id. The candidates are:\n%s",
		len(e.Found), e.Filter, DescribeTemplates(e.Found))
}
