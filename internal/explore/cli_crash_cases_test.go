package explore

import (
	"strings"
	"testing"
)

func TestCliCrash(t *testing.T) {
	crashed := "etl_import.r0[0]: Creating...\n\n!!!!! TERRAFORM CRASH !!!!!\n\nTerraform crashed!\n\npanic: Failed to serialize resource instance in state: Instance etl_import.r0[0] has status ObjectStatus(0), which cannot be saved in state.\ngoroutine 146 [running]:\n"
	got := cliCrash(crashed)
	if !strings.HasPrefix(got, "the CLI crashed") || !strings.Contains(got, "ObjectStatus(0)") {
		t.Errorf("cliCrash(a crash) = %q; want the crash named, with its panic's line", got)
	}
	for _, out := range []string{"", "Error: Timed out waiting for import job 1\n", "Apply complete! Resources: 1 added\n"} {
		if got := cliCrash(out); got != "" {
			t.Errorf("cliCrash(%q) = %q; want \"\"", out, got)
		}
	}
}
