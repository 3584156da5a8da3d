package explore

import "strings"

// cliCrash says that the CLI crashed, with its panic's line, when out
// holds a crash of the CLI itself (Terraform 1.16.0 to 1.16.4 crash so
// while their state holds an object with no status, and leave the state
// file empty);
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
