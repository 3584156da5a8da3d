package explore

// cliArgs is the CLI commands operation s runs, for target address a; arg
// is an import's job id (a shell variable in a reproducer) or a
// workspace's name. other-dir's commands run in the second directory.
func cliArgs(s step, a, arg string) [][]string {
	switch s.Name {
	case "apply", "other-dir":
		args := [][]string{{"apply", "-auto-approve", "-input=false"}}
		if s.Name == "other-dir" {
			args = append(args, []string{"destroy", "-auto-approve", "-input=false"})
		}
		return args
	case "plan-apply":
		return [][]string{{"plan", "-input=false", "-out=tfplan"}, {"apply", "-input=false", "tfplan"}}
	case "replace":
		return [][]string{{"apply", "-auto-approve", "-input=false", "-replace=" + a}}
	case "taint", "untaint":
		return [][]string{{s.Name, a}}
	case "refresh":
		return [][]string{{"apply", "-refresh-only", "-auto-approve", "-input=false"}}
	case "import", "adopt":
		return [][]string{{"state", "rm", a}, {"import", "-input=false", a, arg}}
	case "destroy":
		return [][]string{{"destroy", "-auto-approve", "-input=false"}}
	case "workspace-new":
		return [][]string{{"workspace", "new", arg}}
	case "workspace-select":
		return [][]string{{"workspace", "select", arg}}
	}
	return nil
}

// faultNote says what a fault does, for a reproducer's comments.
var faultNote = map[string]string{
	"hang":            "every job this apply starts stays RUNNING (or SUBMITTED) until the next step, when it COMPLETES: the wait times out",
	"hang-error":      "every job this apply starts stays RUNNING until the next step, then a tainted one ends in ERROR (others COMPLETE)",
	"429-start":       "the next two starts (with file, with data) are answered 429",
	"503-get":         "the next two reads of a job are answered 503",
	"503-submit":      "the next two submits are answered 503",
	"purge":           "the service forgets the job (its history purged): it answers 404 for it from now on",
	"end-orphan":      "the service ends a job the killed apply left (or forgets it)",
	"end-job":         "the service ends the instance's job, held RUNNING since the last apply, with this status: a user cancelled it, its data was refused, or it expired",
	"delete-template": "the template is deleted on the service: it answers 404 for it, its jobs stay",
	"kill-upload":     "terraform is SIGKILLed while an upload is in flight (the explorer let the first uploads through, waited for their answers, and held the next one, which never reached the service)",
	"kill-wait":       "terraform is SIGKILLed while the provider waits for a job (the explorer held every job this apply started RUNNING, and killed 300 ms after the first status poll)",
	"kill-provider":   "the provider process alone is SIGKILLed while it waits for a job (held RUNNING, as for kill-wait); terraform then fails by itself",
	"interrupt":       "terraform gets SIGINT (Ctrl-C) while the provider waits for a job (held RUNNING, as for kill-wait)",
}
