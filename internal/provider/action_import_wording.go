package provider

// What the action's diagnostics say of a job that failed after it
// started: the action keeps nothing (its jobRunner's runnerWording).

// actionWording is the etl_import action's.
var actionWording = runnerWording{
	afterFailure: actionKeepsNothing,
	afterEnded:   actionKeepsNothing,
	afterIncomplete: "The etl_import action keeps nothing in state. The job never received all its data, so it is never submitted: " +
		"it stays on the service as it is (look it up by its id in the service's own application). Invoking the action again starts a new job that loads every input.",
	timeoutSetting: "timeouts.invoke",
	maybeCreated: "Look for the job in the service's own application (its ETL jobs) before invoking the action again: " +
		"if it exists, invoking again would import the data a second time. If it does not, invoke the action again.",
	createAgain: "Invoke the action again to create a job and load the inputs.",
}

// actionKeepsNothing ends the action's error of a job that failed after it
// started.
const actionKeepsNothing = "The etl_import action keeps nothing in state: the job stays on the service as it is " +
	"(look it up by its id in the service's own application). Invoking the action again starts a new job."
