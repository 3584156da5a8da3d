package provider

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// togetherCount is how many imports of togetherConfig time out at once.
const togetherCount = 4

// togetherConfig is togetherCount imports of rows of their own, each
// submitted and waited for until createTimeout.
func togetherConfig(e *testEmulator, createTimeout string) string {
	return e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "gl" {
  count               = %d
  template_id         = %q
  rows                = [["Account", "Amount"], ["4000", tostring(count.index)]]
  submit              = true
  wait_for_completion = true
  timeouts = {
    create = %q
  }
}
`, togetherCount, emulator.GLActualsTemplateID, createTimeout)
}

// Imports whose waits time out together fail the apply with their jobs
// kept (tainted), and the next plain apply resumes every one of them. On
// Terraform 1.16 (1.16.0 to 1.16.4) the apply must not crash: its failed
// creates leave an object with no status in its working state for a
// moment, and a snapshot another instance's apply takes then panics ("has
// status ObjectStatus(0), which cannot be saved in state") and leaves the
// local state file empty (without the provider's response gate: 1.16.0 in
// one apply of three, two imports at once; 1.16.4 in 5 runs of 30).
func TestAccResume_timedOutTogether(t *testing.T) {
	clock := &testClock{}
	e := newTestEmulator(t, emulator.Options{RunTime: time.Hour, Now: clock.Now})
	sums := make([]string, togetherCount)
	for i := range sums {
		sums[i] = sha256Hex(rowsBody(t, [][]string{{"Account", "Amount"}, {"4000", fmt.Sprint(i)}}))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectJobCount(t, e, togetherCount),
		Steps: []resource.TestStep{
			{Config: togetherConfig(e, "1s"), ExpectError: regexp.MustCompile(`Timed out waiting for import job`)},
			{
				PreConfig:         func() { clock.advance(2 * time.Hour) },
				Config:            togetherConfig(e, "1s"),
				ConfigStateChecks: append(completedAll(togetherCount), jobsAre(e, sums...)),
			},
			{Config: togetherConfig(e, "1s"), PlanOnly: true},
		},
	})
}

// completedAll checks that each of etl_import.gl's n instances holds a
// COMPLETED job.
func completedAll(n int) []statecheck.StateCheck {
	out := make([]statecheck.StateCheck, n)
	for i := range out {
		out[i] = statecheck.ExpectKnownValue(fmt.Sprintf("etl_import.gl[%d]", i), tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED"))
	}
	return out
}
