package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

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
