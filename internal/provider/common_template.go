package provider

import (
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// A template read from the service (through the client's cache,
// etl.Client.CachedTemplate) as importjob's rules read it.

// templateOf is t as importjob's rules read it.
func templateOf(t *etl.Template) importjob.Template {
	out := importjob.Template{ID: t.ID, Name: t.Name, ModelID: t.ModelID, ModelName: t.ModelName, Steps: make([]importjob.Step, len(t.Steps))}
	for i, s := range t.Steps {
		out.Steps[i] = importjob.Step{Name: s.StepName, InputID: s.InputID, DataType: s.DataType}
	}
	return out
}
