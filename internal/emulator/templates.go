package emulator

import (
	"net/http"
	"slices"
	"time"
)

// Step is one step of a template; InputID names the job input a file is
// loaded into with PUT /jobs/{jobId}/inputs/{inputId}/file.
type Step struct {
	StepName, DataType, InputID string
	// RequiredColumns are the header columns data loaded into this step
	// must contain, else the job ends in ERROR; nil means the template's
	// RequiredColumns. (An invented rule: see Template.RequiredColumns.)
	RequiredColumns []string
}

// Template is an import template the emulator serves.
type Template struct {
	ID, Name, ModelID, ModelName string
	LastRunTime                  *int64 // epoch ms, nil = never run; updated when a job starts from it
	Steps                        []Step
	// RequiredColumns are the header columns a job's data must contain,
	// else the job ends in ERROR. Invented: no source shows how the
	// service matches columns; this is a test device for the ERROR path.
	RequiredColumns []string
}

// requiredFor returns the columns data loaded into input inputID must
// contain: the step's own, else the template's.
func (t *Template) requiredFor(inputID string) []string {
	for _, st := range t.Steps {
		if st.InputID == inputID && st.RequiredColumns != nil {
			return st.RequiredColumns
		}
	}
	return t.RequiredColumns
}

// requiredFor returns the columns data loaded into input inputID of
// template t must contain, a copy of them; none with
// Options.RequiredColumns off.
func (s *Server) requiredFor(t *Template, inputID string) []string {
	if s.opts.RequiredColumns == RequiredColumnsOff {
		return nil
	}
	return slices.Clone(t.requiredFor(inputID))
}

// firstInput returns the input id of the template's first step, "" when it
// has none: start with file or data loads that input.
func (t *Template) firstInput() string {
	if len(t.Steps) == 0 {
		return ""
	}
	return t.Steps[0].InputID
}

// The ids of DefaultTemplates and of their input steps, for tests and
// examples that name a template.
const (
	// GLActualsTemplateID is "GL Actuals" in Finance Plan: one input step,
	// columns Account and Amount.
	GLActualsTemplateID = "640101874288689152"
	// GLActualsInputID is the input of GLActualsTemplateID's step "Load GL".
	GLActualsInputID = "640101874288689153"
	// HeadcountTemplateID is "Headcount" in Finance Plan: one input step,
	// columns Employee and Department, and a lastRunTime already set.
	HeadcountTemplateID = "640101874288689154"
	// HeadcountInputID is the input of HeadcountTemplateID's step "Load
	// Headcount".
	HeadcountInputID = "640101874288689155"
	// SalesVolumesTemplateID is "Sales Volumes" in Sales Model: one input
	// step, columns Product and Units.
	SalesVolumesTemplateID = "640101874288689156"
	// SalesVolumesInputID is the input of SalesVolumesTemplateID's step
	// "Load Volumes".
	SalesVolumesInputID = "640101874288689157"
	// SalesGLActualsTemplateID is the second "GL Actuals", in Sales Model:
	// one input step, columns Account and Amount.
	SalesGLActualsTemplateID = "640101874288689158"
	// SalesGLActualsInputID is the input of SalesGLActualsTemplateID's step
	// "Load GL".
	SalesGLActualsInputID = "640101874288689159"

	// TwoStepTemplateID is "Actuals and Rates" in Finance Plan: two input
	// steps.
	TwoStepTemplateID = "640101874288689160"
	// TwoStepActualsInputID is the input of step "Load Actuals": columns
	// Account and Amount.
	TwoStepActualsInputID = "640101874288689161"
	// TwoStepRatesInputID is the input of step "Load Rates": columns
	// Currency and Rate.
	TwoStepRatesInputID = "640101874288689162"
	// NoStepTemplateID is "Recalculate" in Finance Plan: no input steps.
	NoStepTemplateID = "640101874288689163"
	// SameStepNameTemplateID is "Twin Loads" in Sales Model: two input
	// steps both named "Load", columns Product and Units.
	SameStepNameTemplateID = "640101874288689164"
	// SameStepNameFirstInputID is the input of the first "Load" step.
	SameStepNameFirstInputID = "640101874288689165"
	// SameStepNameSecondInputID is the input of the second "Load" step.
	SameStepNameSecondInputID = "640101874288689166"
)

// DefaultTemplates returns the templates a Server serves when
// Options.Templates is nil. Two of them share the name "GL Actuals" on
// purpose (in different models). The first four have one input step each;
// then come a two-step template, one with no input steps, and one whose two
// steps share a step name.
func DefaultTemplates() []Template {
	return []Template{
		{ID: GLActualsTemplateID, Name: "GL Actuals", ModelID: "600000000000000001", ModelName: "Finance Plan",
			Steps:           []Step{{StepName: "Load GL", DataType: "Values", InputID: GLActualsInputID}},
			RequiredColumns: []string{"Account", "Amount"}},
		{ID: HeadcountTemplateID, Name: "Headcount", ModelID: "600000000000000001", ModelName: "Finance Plan",
			LastRunTime:     ptr64(1700000000000),
			Steps:           []Step{{StepName: "Load Headcount", DataType: "Values", InputID: HeadcountInputID}},
			RequiredColumns: []string{"Employee", "Department"}},
		{ID: SalesVolumesTemplateID, Name: "Sales Volumes", ModelID: "600000000000000002", ModelName: "Sales Model",
			Steps:           []Step{{StepName: "Load Volumes", DataType: "Values", InputID: SalesVolumesInputID}},
			RequiredColumns: []string{"Product", "Units"}},
		{ID: SalesGLActualsTemplateID, Name: "GL Actuals", ModelID: "600000000000000002", ModelName: "Sales Model",
			Steps:           []Step{{StepName: "Load GL", DataType: "Values", InputID: SalesGLActualsInputID}},
			RequiredColumns: []string{"Account", "Amount"}},
		{ID: TwoStepTemplateID, Name: "Actuals and Rates", ModelID: "600000000000000001", ModelName: "Finance Plan",
			Steps: []Step{
				{StepName: "Load Actuals", DataType: "Values", InputID: TwoStepActualsInputID, RequiredColumns: []string{"Account", "Amount"}},
				{StepName: "Load Rates", DataType: "Values", InputID: TwoStepRatesInputID, RequiredColumns: []string{"Currency", "Rate"}},
			}},
		{ID: NoStepTemplateID, Name: "Recalculate", ModelID: "600000000000000001", ModelName: "Finance Plan",
			Steps: []Step{}},
		{ID: SameStepNameTemplateID, Name: "Twin Loads", ModelID: "600000000000000002", ModelName: "Sales Model",
			Steps: []Step{
				{StepName: "Load", DataType: "Values", InputID: SameStepNameFirstInputID},
				{StepName: "Load", DataType: "Values", InputID: SameStepNameSecondInputID},
			},
			RequiredColumns: []string{"Product", "Units"}},
	}
}

// ptr64 returns a pointer to a copy of v.
func ptr64(v int64) *int64 { return &v }

// cloneTemplate returns a deep copy of t: lastRunTime, steps and every
// column list are its own.
func cloneTemplate(t Template) Template {
	if t.LastRunTime != nil {
		t.LastRunTime = ptr64(*t.LastRunTime)
	}
	t.Steps = slices.Clone(t.Steps)
	for i := range t.Steps {
		t.Steps[i].RequiredColumns = slices.Clone(t.Steps[i].RequiredColumns)
	}
	t.RequiredColumns = slices.Clone(t.RequiredColumns)
	return t
}

// stepJSON is a template step as the API answers it (RequiredColumns is
// the emulator's own and not sent).
type stepJSON struct {
	StepName string `json:"stepName"`
	DataType string `json:"dataType"`
	InputID  string `json:"inputId"`
}

// templateJSON is a template as the API answers it; Steps is nil, and
// left out, in a list of templates.
type templateJSON struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	LastRunTime *int64      `json:"lastRunTime"`
	ModelID     string      `json:"modelId"`
	ModelName   string      `json:"modelName"`
	Steps       *[]stepJSON `json:"steps,omitempty"`
}

// templateToJSON returns t as the API answers it, with its steps only when
// withSteps (GetTemplate, not ListTemplates).
func templateToJSON(t Template, withSteps bool) templateJSON {
	out := templateJSON{ID: t.ID, Name: t.Name, LastRunTime: t.LastRunTime, ModelID: t.ModelID, ModelName: t.ModelName}
	if withSteps {
		steps := make([]stepJSON, 0, len(t.Steps))
		for _, st := range t.Steps {
			steps = append(steps, stepJSON{StepName: st.StepName, DataType: st.DataType, InputID: st.InputID})
		}
		out.Steps = &steps
	}
	return out
}

// templateLocked returns template id itself, not a copy, and whether it
// exists; s.mu must be held.
func (s *Server) templateLocked(id string) (*Template, bool) {
	i, ok := s.tmplIndex[id]
	if !ok {
		return nil, false
	}
	return &s.templates[i], true
}

// lookupTemplate returns a copy of template id, or a 404 answer.
func (s *Server) lookupTemplate(id string) (Template, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.templateLocked(id)
	if !ok {
		return Template{}, errorf(http.StatusNotFound, "template %q not found", id)
	}
	return cloneTemplate(*t), nil
}

// Templates returns a snapshot of the templates, with their current
// lastRunTime.
func (s *Server) Templates() []Template {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Template, len(s.templates))
	for i, t := range s.templates {
		out[i] = cloneTemplate(t)
	}
	return out
}

// ranLocked records that a job of template t started or was submitted at
// now. s.mu must be held.
func (s *Server) ranLocked(t *Template, now time.Time) {
	t.LastRunTime = ptr64(now.UnixMilli())
}
