package provider

// What the resource's diagnostics say of a job that failed after it
// started: it stays in the state, and what the next apply does with it
// (its jobRunner's runnerWording).

// resourceWording is the etl_import resource's.
var resourceWording = runnerWording{
	afterFailure:    keptInState,
	afterEnded:      keptEnded,
	keptFailed:      keptFailed,
	afterIncomplete: keptIncomplete,
	timeoutSetting:  "timeouts.create",
	maybeCreated:    adoptAdvice,
	createAgain:     "Apply again to create the job and load the inputs.",
}

// adoptAdvice holds what to do after the resource's request to start a
// job lost its answer: look for the job and adopt it, else apply again.
const adoptAdvice = "Look for the job in the service's own application (its ETL jobs). If it exists, adopt it instead of starting another: " +
	"terraform import etl_import.<name> <job id> (or an import block with that id), then apply. " +
	"If it does not, apply again."

// keptInState ends the error of a job that failed after it was started
// with all its data: what the next apply does with it (resume).
const keptInState = "The job stays in the Terraform state (marked tainted). Run terraform apply again, as it is, with no untaint: " +
	"it resumes this job instead of starting another (it submits the job if it was never submitted, and waits for it while it runs), " +
	"so the data is imported once. Only a job that ended in ERROR, CANCELLED or EXPIRED without importing is replaced by a new job. " +
	"The plan shows the tainted job as replaced; the apply's warning names the job it resumed. Destroying it never deletes imported data."

// keptEnded ends the error of a job that ended in ERROR, CANCELLED or
// EXPIRED: it imported nothing, so the next apply replaces it.
const keptEnded = "The job stays in the Terraform state, marked tainted. It imported nothing, so the next terraform apply replaces it with a new job " +
	"that imports the data: find why it failed in the job's details in the service's own application and fix that first (the data, the template or the model), " +
	"or the new job fails the same way. To keep the failed job in the state instead, set keep_failed = true and run terraform untaint with this resource's address. " +
	"Destroying it never deletes imported data."

// keptFailed ends the warning of a job that ended in ERROR, CANCELLED or
// EXPIRED while keep_failed is true: it stays, and no apply replaces it.
const keptFailed = "keep_failed is true, so the job stays in the Terraform state and no apply replaces it. " +
	"To import the data with a new job, set keep_failed = false (the next plan replaces the job), or run: " + replaceCommand + "."

// keptIncomplete ends the error of a job whose inputs were not all loaded.
const keptIncomplete = "The job stays in the Terraform state, marked tainted. It never received all its data, so Terraform never submits it: " +
	"the next terraform apply replaces it with a new job that loads every input. Destroying it never deletes imported data."
