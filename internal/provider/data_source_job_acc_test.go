package provider

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// etl_job reads a job started by another resource (and one started
// outside Terraform) as the service reports it; a malformed id fails the
// plan, and an unknown one is an error on id.
func TestAccJobDataSource(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true}) // jobs final at once: the records compared do not move
	outside := startJob(t, e, emulator.HeadcountTemplateID, [][]string{{"Employee", "Department"}, {"e1", "d1"}})
	vars := e.configVariables(config.Variables{
		"template_id":    config.StringVariable(emulator.GLActualsTemplateID),
		"outside_job_id": config.StringVariable(outside),
	})
	// sameAsEmulator compares the data source's attributes with the
	// emulator's record of the job.
	sameAsEmulator := func(addr string) statecheck.StateCheck {
		return checkEmulator(addr, func(v map[string]any) error {
			id, _ := v["id"].(string)
			job, ok := e.Job(id)
			if !ok {
				return fmt.Errorf("%s: job %q not on the emulator", addr, id)
			}
			want := map[string]string{
				"name": job.Name, "status": job.Status, "model_id": job.ModelID, "model_name": job.ModelName, "user_name": job.UserName,
				"created_date": strconv.FormatInt(job.Created.UnixMilli(), 10), "updated_date": strconv.FormatInt(job.Updated.UnixMilli(), 10),
			}
			for k, w := range want {
				if got := fmt.Sprint(v[k]); got != w {
					return fmt.Errorf("%s.%s = %s, the emulator has %s", addr, k, got, w)
				}
			}
			return nil
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigStateChecks: []statecheck.StateCheck{
					sameAsEmulator("data.etl_job.gl"),
					sameAsEmulator("data.etl_job.outside"),
					checkEmulator("data.etl_job.gl", func(v map[string]any) error {
						if v["status"] != "COMPLETED" || v["model_name"] != "Finance Plan" || v["name"] != "GL Actuals" {
							return fmt.Errorf("etl_job of the resource's job: %v", v)
						}
						if jobs, _ := e.Stats(); jobs != 2 {
							return fmt.Errorf("%d jobs, want 2: reading a job starts none", jobs)
						}
						return nil
					}),
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Config:                   e.providerConfig() + `data "etl_job" "x" { id = "12345" }`,
				ExpectError:              errRe(`Invalid id(.|\n)*"12345" is not a job id(.|\n)*18 or 19`),
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Config:                   e.providerConfig() + `data "etl_job" "x" { id = "1140000000000009999" }`,
				ExpectError:              errRe(`Import job not found(.|\n)*does not know job 1140000000000009999`),
			},
		},
	})
}
