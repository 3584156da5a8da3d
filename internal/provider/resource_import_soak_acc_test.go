package provider

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// Soak sizes: files, rows, and how many of each are submitted.
const (
	soakFiles     = 120
	soakRows      = 90
	soakSubmitted = 40 // of each kind
)

// TestAccSoak applies one configuration of soakFiles+soakRows etl_import
// resources while the emulator answers about a third of all requests with
// 429 or 503. The apply must succeed with exactly one job per resource,
// each holding the bytes the resource's content_sha256 names. It runs only
// with ETL_SOAK=1 (make soak).
func TestAccSoak(t *testing.T) {
	// resource.Test skips without TF_ACC too, but only after the setup
	// below has written every soak file: skip before it.
	requireTFAcc(t)
	if os.Getenv("ETL_SOAK") == "" {
		t.Skip("the soak runs with ETL_SOAK=1 (make soak)")
	}
	var faults, requests atomic.Int64
	e := newTestEmulator(t, emulator.Options{Instant: true, Logf: func(format string, args ...any) {
		requests.Add(1)
		if strings.Contains(fmt.Sprintf(format, args...), "[fault") {
			faults.Add(1)
		}
	}})
	// 0.17 + 0.83*0.2 = 0.336 of all requests.
	e.InjectFault(emulator.Fault{Probability: 0.17, Status: 429, RetryAfter: "0"})
	e.InjectFault(emulator.Fault{Probability: 0.2, Status: 503})

	dir := t.TempDir()
	var cfg strings.Builder
	fmt.Fprintf(&cfg, `
provider "etl" {
  base_url       = %q
  token_id       = %q
  token_secret   = %q
  max_retries    = 15
  retry_wait_min = "2ms"
  retry_wait_max = "50ms"
}
`, e.URL, emulator.DefaultTokenID, emulator.DefaultTokenSecret)
	for i := range soakFiles {
		rows := [][]string{{"Account", "Amount", "Note"}}
		for r := range 1 + i%7 {
			rows = append(rows, []string{fmt.Sprint(4000 + r), fmt.Sprintf("%d.%02d", i*r, i%100), fmt.Sprintf("file %d, row %d", i, r)})
		}
		p := writeFile(t, dir, fmt.Sprintf("gl_%03d.csv", i), []byte(delimited(rows, "CSV")))
		fmt.Fprintf(&cfg, `
resource "etl_import" "file_%03d" {
  template_id = %q
  file = {
    path = %q
  }
  submit = %t
}
`, i, emulator.GLActualsTemplateID, p, i < soakSubmitted)
	}
	for i := range soakRows {
		fmt.Fprintf(&cfg, `
resource "etl_import" "rows_%03d" {
  template_id = %q
  rows        = [["Employee", "Department"], ["emp-%d", "dept-%d"], ["emp-%d-b", "Zoë"]]
  submit      = %t
}
`, i, emulator.HeadcountTemplateID, i, i%9, i, i < soakSubmitted)
	}
	total := soakFiles + soakRows
	start := time.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: cfg.String(),
			Check: func(s *terraform.State) error {
				jobs := e.Jobs()
				if len(jobs) != total {
					return fmt.Errorf("the emulator holds %d jobs for %d resources", len(jobs), total)
				}
				seen := map[string]string{}
				for addr, rs := range s.RootModule().Resources {
					if rs.Type != "etl_import" {
						continue
					}
					id := rs.Primary.ID
					if other, dup := seen[id]; dup {
						return fmt.Errorf("%s and %s share job %s", addr, other, id)
					}
					seen[id] = addr
					job, ok := e.Job(id)
					if !ok {
						return fmt.Errorf("%s: job %s not on the emulator", addr, id)
					}
					if job.Upload == nil || job.Upload.SHA256 != rs.Primary.Attributes["content_sha256"] {
						return fmt.Errorf("%s: job %s received bytes that do not hash to content_sha256 %s", addr, id, rs.Primary.Attributes["content_sha256"])
					}
				}
				if len(seen) != total {
					return fmt.Errorf("%d resources in state, want %d", len(seen), total)
				}
				return nil
			},
		}},
	})
	t.Logf("soak: %d etl_import resources (%d files, %d rows, %d submitted), %d requests, %d faults injected (%.0f%%), %d jobs, 0 duplicates, %s",
		total, soakFiles, soakRows, 2*soakSubmitted, requests.Load(), faults.Load(), 100*float64(faults.Load())/float64(max(requests.Load(), 1)), len(e.Jobs()), time.Since(start).Round(time.Second))
}
