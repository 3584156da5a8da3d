package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// A destroy plan says, per etl_import, that its job's data stays in the
// model; with cancel_on_destroy and an unfinished job, that it is
// cancelled. A replacement the provider plans says it once, at apply, as
// -replace does (its plan said it too).
func TestAccDestroy_warns(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	spy := &diagSpy{}
	vars := func(amount string) config.Variables {
		return e.configVariables(config.Variables{
			"template_id": config.StringVariable(emulator.GLActualsTemplateID),
			"amount":      config.StringVariable(amount),
		})
	}
	warned := func(n int) error {
		id := e.Jobs()[n].ID
		d := spy.warning("Import job " + id + ": its data stays in the model")
		if !strings.Contains(d, "only removes job "+id) || !strings.Contains(d, "stays in the model") {
			return fmt.Errorf("no destroy warning for job %s: %q", id, d)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if n := len(e.Jobs()); n != 2 {
				return fmt.Errorf("%d jobs, want 2", n)
			}
			return warned(1)
		},
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: spy.factories(), ConfigDirectory: withProvider(t, config.TestNameDirectory()), ConfigVariables: vars("1")},
			{
				// Other rows: the plan replaces the job and says what
				// becomes of the old one.
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars("2"),
				Check: func(*terraform.State) error {
					id := e.Jobs()[0].ID
					if d := spy.warning("Import job " + id + ": its data stays in the model"); d != "" {
						return fmt.Errorf("the plan of the replacement warned of job %s as of a destroy: %q", id, d)
					}
					if n := spy.count("Import job " + id + " replaced: its data stays in the model"); n != 1 {
						return fmt.Errorf("%d warnings that job %s was replaced, want 1", n, id)
					}
					return nil
				},
			},
		},
	})
}
