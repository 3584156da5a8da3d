package explore

import "strings"

// cliCrash says that the CLI crashed, with its panic's line, when out
// holds a crash of the CLI itself (Terraform 1.16.0 crashed so while its
// state held an object with no status, and left the state file empty);
// "" otherwise.
func cliCrash(out string) string {
	if !strings.Contains(out, "TERRAFORM CRASH") && !strings.Contains(out, "OpenTofu crashed") {
		return ""
	}
	panicLine := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "panic: ") {
			panicLine = ": " + strings.TrimSpace(l)
			break
		}
	}
	return "the CLI crashed (its own panic; output.txt holds its stack)" + panicLine
}
