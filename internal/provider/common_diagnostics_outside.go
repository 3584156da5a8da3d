package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// outsideError is an error found in what lies outside the configuration:
// a file it names that cannot be read or is not valid data, the template
// on the service. It is an error wherever it is added; the plan of an
// etl_import that holds a job reports it as a warning instead
// (importjob.PlanUnreadable, outsideAsWarnings).
type outsideError struct {
	at              path.Path
	summary, detail string
}

var _ diag.DiagnosticWithPath = outsideError{}

func (e outsideError) Severity() diag.Severity { return diag.SeverityError }
func (e outsideError) Summary() string         { return e.summary }
func (e outsideError) Detail() string          { return e.detail }
func (e outsideError) Path() path.Path         { return e.at }

// Equal reports whether o is the same error.
func (e outsideError) Equal(o diag.Diagnostic) bool {
	x, ok := o.(outsideError)
	return ok && x.summary == e.summary && x.detail == e.detail && x.at.Equal(e.at)
}

// addOutsideError adds an outsideError on the attribute at.
func addOutsideError(diags *diag.Diagnostics, at path.Path, summary, detail string) {
	diags.Append(outsideError{at: at, summary: summary, detail: detail})
}

// outsideErrors returns the outsideErrors among diags.
func outsideErrors(diags diag.Diagnostics) []outsideError {
	var out []outsideError
	for _, d := range diags {
		if e, ok := d.(outsideError); ok {
			out = append(out, e)
		}
	}
	return out
}

// outsideAsWarnings returns diags with each outsideError a warning on its
// attribute, its detail followed by note.
func outsideAsWarnings(diags diag.Diagnostics, note string) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(diags))
	for _, d := range diags {
		if e, ok := d.(outsideError); ok {
			out.AddAttributeWarning(e.at, e.summary, e.detail+"\n\n"+note)
			continue
		}
		out.Append(d)
	}
	return out
}
