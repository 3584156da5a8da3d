package etl

import (
	"strings"
	"testing"
)

// problemHas fails unless problem holds every one of want; no want means
// the value is good ("").
func problemHas(t *testing.T, what, problem string, want ...string) {
	t.Helper()
	if len(want) == 0 && problem != "" {
		t.Errorf("%s: unexpected %q", what, problem)
	}
	if len(want) > 0 && problem == "" {
		t.Errorf("%s: no problem, want one with %q", what, want)
	}
	for _, w := range want {
		if !strings.Contains(problem, w) {
			t.Errorf("%s: %q lacks %q", what, problem, w)
		}
	}
}

// A name the file part's header cannot carry is said with the setting's
// name, the value and the character's offset (CheckPartHeaderValue).
func TestPartHeaderProblem(t *testing.T) {
	for _, ok := range []string{"gl.csv", "my \"quoted\"\tname\\x.csv", "Montréal € 😀.csv"} {
		problemHas(t, ok, PartHeaderProblem("file.name", ok))
	}
	problemHas(t, "CR LF", PartHeaderProblem("file.name", "gl.csv\r\n"),
		`file.name "gl.csv\r\n" contains a carriage return (U+000D) at byte 6`, "header of the upload's file part")
}
