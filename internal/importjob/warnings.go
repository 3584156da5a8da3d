package importjob

import "fmt"

// Words says warning w of the plan of job jobID, whose state holds status,
// configured with template templateID: the attribute it is about (submit
// inputs or status), its summary and its detail. replace is the command that
// imports the data again with a new job, as the user runs it.
func (w Warning) Words(jobID, status, templateID, replace string) (attr, summary, detail string) {
	switch w {
	case WarnSubmitGone:
		return "submit", fmt.Sprintf("Import job %s cannot be submitted", jobID),
			fmt.Sprintf("The service no longer knows job %s (status %s), so it cannot be submitted: submit = true is recorded and nothing is sent. "+
				"To import the data again with a new job, run: %s.", jobID, status, replace)
	case WarnSubmitReplaces:
		return "submit", fmt.Sprintf("Turning submit on replaces import job %s", jobID),
			fmt.Sprintf("Job %s is %s: it was never submitted and can no longer be, and it ended without importing its data. "+
				"Turning submit on therefore plans its replacement: a new job that imports the data.", jobID, status)
	case WarnFailedReplaced:
		return "status", fmt.Sprintf("Import job %s ended with status %s: a new job is planned", jobID, status),
			fmt.Sprintf("Job %s ended with status %s, so the service imported none of its data (the reason is in the job's details in the service's own application). "+
				"This plan replaces it with one new job that imports the data of this configuration; fix the cause first, or the new job fails the same way. "+
				"To keep the failed job in the state instead, set keep_failed = true.", jobID, status)
	case WarnRehashed:
		return "inputs", "Template input ids changed; the job is kept",
			fmt.Sprintf("The input ids of template %s changed on the service since job %s was loaded, but its steps have the same names and order, "+
				"and each input has the same bytes, format and encoding: the service would import the same way, so no new job starts. "+
				"content_sha256 is recorded in place with the new input ids.", templateID, jobID)
	}
	return "", "", ""
}
