package importjob

import "fmt"

// An etl_import imported by the id of its job adopts its configuration at
// the next apply, without starting a job. A job carries no template id: it
// adopts only the configuration whose template_id is a template of the
// job's name (the template's name) and model.

// Adopting reports whether a plan or an apply of a live object is an
// imported job adopting its configuration rather than a change of the job:
// the job was imported by id and has not adopted a configuration yet
// (imported: the mark the import leaves until the first apply), and its
// state holds no template yet (templateInState false: nothing to compare a
// change with). Such a plan checks the job's template and plans no change
// (Change is never planned for it).
func Adopting(imported, templateInState bool) bool { return imported && !templateInState }

// ImportedJob is a job imported by id, as its state reads it.
type ImportedJob struct {
	ID, Name, ModelID, ModelName string
}

// AdoptionMismatch says how job differs from the template t it is to
// adopt, naming both, or "" when it belongs to it. A name the service left
// empty is not compared.
func AdoptionMismatch(job ImportedJob, t Template) string {
	if job.ModelID == t.ModelID && (job.Name == "" || job.Name == t.Name) {
		return ""
	}
	return fmt.Sprintf("The imported job %s is %q of model %q (%s), but template_id %s is the template %q of model %q (%s): "+
		"the job was not started from this template. Nothing was changed and no job was started. "+
		"Set template_id to the template the job was started from (a job's name is its template's name), "+
		"or remove the import to start a new job from template %s instead.",
		job.ID, job.Name, job.ModelName, job.ModelID,
		t.ID, t.Name, t.ModelName, t.ModelID, t.ID)
}
