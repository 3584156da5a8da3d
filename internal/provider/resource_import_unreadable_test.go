package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// The note of a live object's plan says the job stays and destroy works;
// that of a replacement, that the apply fails before it destroys or starts
// anything. Both name the job.
func TestUnreadableNote(t *testing.T) {
	live := unreadableNote(importjob.HoldsLive, "42")
	for _, want := range []string{"Import job 42", "terraform destroy works", "fails with this error before it destroys or starts anything", "-replace"} {
		if !strings.Contains(live, want) {
			t.Errorf("live note %q lacks %q", live, want)
		}
	}
	for _, h := range []importjob.Holding{importjob.HoldsReplaced, importjob.HoldsTainted} {
		n := unreadableNote(h, "42")
		for _, want := range []string{"replaces import job 42", "the state keeps job 42", "terraform destroy works"} {
			if !strings.Contains(n, want) {
				t.Errorf("note of %d %q lacks %q", h, n, want)
			}
		}
	}
}

// A Delete fails with the problems its replacement's plan recorded, and
// only then.
func TestRefuseDelete(t *testing.T) {
	var diags diag.Diagnostics
	if refuseDelete(t.Context(), fakePrivate{}, "42", &diags) || diags.HasError() {
		t.Fatalf("refused with nothing recorded: %v", diags)
	}
	priv := fakePrivate{}
	setPrivateJSON(t.Context(), priv, privateRefuseDeleteKey, []refusal{{Summary: "File not found", Detail: "file.path: gone"}}, &diags)
	if !refuseDelete(t.Context(), priv, "42", &diags) {
		t.Fatal("not refused")
	}
	if diags.ErrorsCount() != 1 || diags[0].Summary() != "File not found" ||
		!strings.HasPrefix(diags[0].Detail(), "file.path: gone\n\n") || !strings.Contains(diags[0].Detail(), "Nothing was destroyed and no job was started: the state keeps job 42") {
		t.Errorf("diagnostics: %v", diags)
	}
}
