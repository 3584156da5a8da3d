package importjob

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Input is what one input of a job with inputs contributes to its
// content_sha256 (its input id, format, encoding and the SHA-256 of its
// bytes), with the step it loads: its name and position in the template's
// steps, which the hash does not cover (SameStepsNewIDs). The provider
// keeps a job's inputs in its private state as this JSON.
type Input struct {
	InputID  string `json:"input_id"`
	Format   string `json:"format"`
	Encoding string `json:"encoding"`
	SHA256   string `json:"sha256"`
	StepName string `json:"step_name"`
	Position int    `json:"position"`
}

// InputsHash is content_sha256 of a job with inputs: the SHA-256 of each
// input's id, format, encoding and SHA-256, a line each, the inputs in the
// order of their ids (the several-inputs guide's recipe). It covers which
// inputs are loaded and what each sends, not the keys nor the steps' names.
func InputsHash(inputs []Input) string {
	sorted := slices.SortedFunc(slices.Values(inputs), func(a, b Input) int { return strings.Compare(a.InputID, b.InputID) })
	h := sha256.New()
	for _, e := range sorted {
		fmt.Fprintf(h, "%s\n%s\n%s\n%s\n", e.InputID, e.Format, e.Encoding, e.SHA256)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// SameStepsNewIDs reports whether a job's prior content_sha256 (priorSum,
// of the inputs prior it was loaded with) is the hash of inputs now with
// only the input ids changed to the prior ones: every input loads a step
// of the same name, at the same position, with the same bytes, format and
// encoding, and only the template's input ids changed on the service. The
// service then imports the same way, and no new job starts
// (Change.NewInputIDsOnly).
func SameStepsNewIDs(prior, now []Input, priorSum string) bool {
	if prior == nil || len(prior) != len(now) {
		return false
	}
	old := make([]Input, len(now))
	for i, e := range now {
		j := slices.IndexFunc(prior, func(p Input) bool { return p.StepName == e.StepName && p.Position == e.Position })
		if j < 0 {
			return false
		}
		e.InputID = prior[j].InputID
		old[i] = e
	}
	return InputsHash(old) == priorSum
}
