package explore

// cliArgs is the CLI commands operation s runs, for target address a; an
// import's job id is id (a shell variable in a reproducer).
func cliArgs(s step, a, id string) [][]string {
	switch s.Name {
	case "apply":
		return [][]string{{"apply", "-auto-approve", "-input=false"}}
	case "plan-apply":
		return [][]string{{"plan", "-input=false", "-out=tfplan"}, {"apply", "-input=false", "tfplan"}}
	case "replace":
		return [][]string{{"apply", "-auto-approve", "-input=false", "-replace=" + a}}
	case "taint", "untaint":
		return [][]string{{s.Name, a}}
	case "refresh":
		return [][]string{{"apply", "-refresh-only", "-auto-approve", "-input=false"}}
	case "import":
		return [][]string{{"state", "rm", a}, {"import", "-input=false", a, id}}
	case "destroy":
		return [][]string{{"destroy", "-auto-approve", "-input=false"}}
	}
	return nil
}

// faultNote says what a fault does, for a reproducer's comments.
var faultNote = map[string]string{
	"hang":       "every job this apply starts stays RUNNING (or SUBMITTED) until the next step, when it COMPLETES: the wait times out",
	"hang-error": "every job this apply starts stays RUNNING until the next step, then a tainted one ends in ERROR (others COMPLETE)",
	"429-start":  "the next two starts (with file, with data) are answered 429",
	"503-get":    "the next two reads of a job are answered 503",
	"503-submit": "the next two submits are answered 503",
	"purge":      "the service forgets the job (its history purged): it answers 404 for it from now on",
}
