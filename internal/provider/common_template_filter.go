package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// templateFilter narrows templates by model and name; an empty field (a
// nil NameRegex) lets every template through.
type templateFilter struct {
	ModelID, ModelName, Name string
	NameRegex                *regexp.Regexp
}

// match reports whether t passes every field of f that is set: the same
// model id, model name and name, and NameRegex matching within the name.
func (f templateFilter) match(t etl.Template) bool {
	return (f.ModelID == "" || t.ModelID == f.ModelID) &&
		(f.ModelName == "" || t.ModelName == f.ModelName) &&
		(f.Name == "" || t.Name == f.Name) &&
		(f.NameRegex == nil || f.NameRegex.MatchString(t.Name))
}

// describe renders a lookup by name for a diagnostic, such as
// name "GL", model_name "Finance"; it leaves NameRegex out, which a
// lookup by name does not use.
func (f templateFilter) describe() string {
	s := fmt.Sprintf("name %q", f.Name)
	if f.ModelID != "" {
		s += fmt.Sprintf(", model_id %q", f.ModelID)
	}
	if f.ModelName != "" {
		s += fmt.Sprintf(", model_name %q", f.ModelName)
	}
	return s
}

// filterTemplates returns the templates f matches, in order.
func filterTemplates(ts []etl.Template, f templateFilter) []etl.Template {
	return slices.DeleteFunc(slices.Clone(ts), func(t etl.Template) bool { return !f.match(t) })
}

// describeTemplates lists templates as `name (id, model)`, one a line.
func describeTemplates(ts []etl.Template) string {
	lines := make([]string, 0, len(ts))
	for _, t := range ts {
		lines = append(lines, fmt.Sprintf("  - %s (%s, %s)", t.Name, t.ID, t.ModelName))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// lastRunTimeDescription describes last_run_time in both data sources.
const lastRunTimeDescription = "When a job of the template last ran, in milliseconds since the Unix epoch; null when it never ran."

// lastRunTime returns a template's last run time, null when it never ran.
func lastRunTime(t etl.Template) types.Int64 {
	if t.LastRunTime == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*t.LastRunTime)
}
