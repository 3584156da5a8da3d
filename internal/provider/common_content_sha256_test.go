package provider

import (
	"encoding/json"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// TestInputEntry: rows inputs are sent as CSV in UTF-8; an entry's hash is
// importjob's over its inputs, and its JSON (kept in private state) is the
// importjob.Input's alone, without the facts.
func TestInputEntry(t *testing.T) {
	if rowsInput.FileFormat != flatfile.FormatCSV || rowsInput.FileEncoding != flatfile.EncodingUTF8 {
		t.Errorf("rows inputs are sent as %+v, want CSV in UTF-8", rowsInput)
	}
	in := importjob.Input{InputID: "1", Format: "CSV", Encoding: "UTF-8", SHA256: sha256Hex([]byte("a")), StepName: "Load", Position: 2}
	facts := nullFacts()
	e := []inputEntry{{Input: in, facts: &facts}}
	if got, want := inputsHash(e), importjob.InputsHash([]importjob.Input{in}); got != want || len(inputsOf(e)) != 1 || inputsOf(e)[0] != in {
		t.Errorf("inputsHash %s, want %s", got, want)
	}
	got, _ := json.Marshal(e[0])
	want, _ := json.Marshal(in)
	if string(got) != string(want) || string(want) != `{"input_id":"1","format":"CSV","encoding":"UTF-8","sha256":"`+in.SHA256+`","step_name":"Load","position":2}` {
		t.Errorf("JSON %s, want %s", got, want)
	}
}
