package importjob

import (
	"strings"
	"testing"
)

func TestAdopting(t *testing.T) {
	for _, c := range []struct{ imported, templateInState, want bool }{
		{true, false, true},   // imported, nothing adopted yet
		{true, true, false},   // a mark left behind: the state has a template to compare
		{false, false, false}, // a new object's plan is no adoption
		{false, true, false},
	} {
		if got := Adopting(c.imported, c.templateInState); got != c.want {
			t.Errorf("Adopting(%v, %v) = %v", c.imported, c.templateInState, got)
		}
	}
}

func TestAdoptionMismatch(t *testing.T) {
	const finance, sales = "6401018742886891", "6401018742886892"
	gl := Template{ID: "640101874288689160", Name: "GL Actuals", ModelID: finance, ModelName: "Finance Plan"}
	if p := AdoptionMismatch(ImportedJob{"1", "GL Actuals", finance, "Finance Plan"}, gl); p != "" {
		t.Errorf("the template's own job: %s", p)
	}
	if p := AdoptionMismatch(ImportedJob{"1", "", finance, "Finance Plan"}, gl); p != "" {
		t.Errorf("a job without a name, of the template's model: %s", p)
	}
	for _, job := range []ImportedJob{
		{"640101874288689170", "GL Actuals", sales, "Sales Model"}, // same name, other model
		{"640101874288689170", "Headcount", finance, "Finance Plan"},
		{"640101874288689170", "", sales, "Sales Model"},
	} {
		p := AdoptionMismatch(job, gl)
		for _, want := range []string{"640101874288689170", job.Name, job.ModelID, job.ModelName,
			gl.ID, `"GL Actuals"`, finance, "Finance Plan", "no job was started"} {
			if !strings.Contains(p, want) {
				t.Errorf("mismatch of %s: %q does not name %q", job.Name, p, want)
			}
		}
	}
}
