package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/config"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// identityCLI: resource identities need Terraform 1.12 or OpenTofu 1.12;
// the suite runs these tests on Terraform 1.16 and OpenTofu 1.12.6.
var identityCLI = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// expectJobID checks that addr's identity is {id = the job id}, the id in
// its state.
func expectJobID(addr string, id func() string) statecheck.StateCheck {
	return stateCheckFunc(func(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		c := statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{"id": knownvalue.StringExact(id())})
		c.CheckState(ctx, req, resp)
	})
}

// Import by identity adopts the job exactly as import by id does: no job
// starts, the identity is {id}, and the next plan is empty. A created job
// has its identity too.
func TestAccIdentity_importAndCreate(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	rows := [][]string{{"Account", "Amount"}, {"4000", "12"}}
	jobID := startJob(t, e, emulator.GLActualsTemplateID, rows)
	vars := e.configVariables(config.Variables{
		"template_id": config.StringVariable(emulator.GLActualsTemplateID),
		"job_id":      config.StringVariable(jobID),
	})
	tfresource.ParallelTest(t, tfresource.TestCase{
		TerraformVersionChecks: identityCLI,
		CheckDestroy:           expectJobCount(t, e, 2),
		Steps: []tfresource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("etl_import.adopted", plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("etl_import.adopted", tfjsonpath.New("id"), knownvalue.StringExact(jobID)),
					statecheck.ExpectKnownValue("etl_import.adopted", tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex(rowsBody(t, rows)))),
					expectJobID("etl_import.adopted", func() string { return jobID }),
					expectJobID("etl_import.created", func() string { return e.Jobs()[1].ID }),
					stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
						if n := len(e.Jobs()); n != 2 {
							resp.Error = fmt.Errorf("%d jobs, want 2: the one adopted (no job started for it) and the one created", n)
						}
					}),
				},
			},
			{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, ConfigDirectory: withProvider(t, config.TestNameDirectory()), ConfigVariables: vars, PlanOnly: true},
		},
	})
}

// A state written before etl_import had an identity gains one at its next
// refresh, with no job started and an empty plan.
func TestAccIdentity_upgradeFromStateWithout(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	config := e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "gl" {
  template_id = %q
  rows        = [["Account", "Amount"], ["4000", "1"]]
}
`, emulator.GLActualsTemplateID)
	tfresource.ParallelTest(t, tfresource.TestCase{
		TerraformVersionChecks: identityCLI,
		CheckDestroy:           expectJobCount(t, e, 1),
		Steps: []tfresource.TestStep{
			{
				ProtoV6ProviderFactories: withoutIdentityFactories,
				Config:                   config,
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
					for _, r := range req.State.Values.RootModule.Resources {
						if r.Address == resumeAddr && len(r.IdentityValues) != 0 {
							resp.Error = fmt.Errorf("the provider without identities wrote one: %v", r.IdentityValues)
						}
					}
				})},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Config:                   config,
				ConfigPlanChecks:         tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks:        []statecheck.StateCheck{expectJobID(resumeAddr, func() string { return e.Jobs()[0].ID })},
			},
		},
	})
}

// withoutIdentityFactories serve the provider as it was before etl_import
// had an identity.
var withoutIdentityFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"etl": providerserver.NewProtocol6WithError(&providerWithoutIdentity{etlProvider: testProvider().(*etlProvider)}),
}

// providerWithoutIdentity is the provider whose etl_import has no identity
// schema.
type providerWithoutIdentity struct{ *etlProvider }

// Resources serves etl_import without its identity.
func (p *providerWithoutIdentity) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &importWithoutIdentity{importResource: &importResource{}} }}
}

// importWithoutIdentity is etl_import with IdentitySchema hidden: the two
// embedded types both have it, so neither is promoted.
type importWithoutIdentity struct {
	*importResource
	hideIdentitySchema //nolint:unused // its method is never called: it only hides the embedded one
}

// hideIdentitySchema has an IdentitySchema method only to make the
// embedding one ambiguous.
type hideIdentitySchema struct{} //nolint:unused // see importWithoutIdentity

// IdentitySchema is never called (see importWithoutIdentity).
func (hideIdentitySchema) IdentitySchema( //nolint:unused // see importWithoutIdentity
	context.Context, resource.IdentitySchemaRequest, *resource.IdentitySchemaResponse) {
}
