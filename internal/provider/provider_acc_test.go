package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

func TestAccProviderConfig_fromAttributes(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			// hub is set too: base_url wins, hub is still validated.
			Config: fmt.Sprintf(`
provider "etl" {
  hub          = "us2"
  base_url     = %q
  token_id     = %q
  token_secret = %q
  max_retries  = 0
}

data "etl_templates" "all" {}
`, e.URL, emulator.DefaultTokenID, emulator.DefaultTokenSecret),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.etl_templates.all", tfjsonpath.New("templates"), knownvalue.ListSizeExact(len(emulator.DefaultTemplates()))),
			},
		}},
	})
}

func TestAccProviderConfig_fromEnvironment(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	t.Setenv(EnvBaseURL, e.URL)
	t.Setenv(EnvTokenID, emulator.DefaultTokenID)
	t.Setenv(EnvTokenSecret, emulator.DefaultTokenSecret)
	t.Setenv(EnvHub, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "etl" {}

data "etl_template" "headcount" {
  name = "Headcount"
}

resource "etl_import" "env" {
  template_id = data.etl_template.headcount.id
  rows        = [["Employee", "Department"], ["Zoë", "Finance"]]
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.etl_template.headcount", tfjsonpath.New("id"), knownvalue.StringExact(emulator.HeadcountTemplateID)),
				statecheck.ExpectKnownValue("etl_import.env", tfjsonpath.New("model_name"), knownvalue.StringExact("Finance Plan")),
				expectUpload(e, "etl_import.env", emulator.Upload{Kind: "data", Header: []string{"Employee", "Department"}, RowCount: 1}),
			},
		}},
	})
}

func TestAccProviderConfig_errors(t *testing.T) {
	clearEnv(t)
	e := newTestEmulator(t, emulator.Options{})
	ds := "\ndata \"etl_templates\" \"all\" {}\n"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Nothing set anywhere: each missing setting names its attribute and variable.
				Config:      `provider "etl" {}` + ds,
				ExpectError: errRe(`(?s)Missing hub.*ETL_HUB.*Missing token_id.*ETL_TOKEN_ID.*Missing token_secret.*ETL_TOKEN_SECRET`),
			},
			{
				Config:      `provider "etl" { hub = "US-2" }` + ds,
				PlanOnly:    true,
				ExpectError: errRe(`(?s)Invalid hub.*"US-2".*ETL_HUB`),
			},
			{
				PreConfig:   func() { t.Setenv(EnvHub, "Eu 1") },
				Config:      "provider \"etl\" {\n  token_id     = \"x\"\n  token_secret = \"y\"\n}\n" + ds,
				ExpectError: errRe(`(?s)Invalid hub.*"Eu 1".*ETL_HUB`),
			},
			{
				PreConfig:   func() { t.Setenv(EnvHub, "") },
				Config:      `provider "etl" { base_url = "ftp://example.com" }` + ds,
				PlanOnly:    true,
				ExpectError: errRe(`(?s)Invalid base_url.*ETL_BASE_URL`),
			},
			{
				Config:      `provider "etl" { base_url = "http://example.com" }` + ds,
				PlanOnly:    true,
				ExpectError: errRe(`(?s)Invalid base_url.*plain\s+http`),
			},
			{
				Config:      fmt.Sprintf("provider \"etl\" {\n  base_url    = %q\n  max_retries = -1\n}\n", e.URL) + ds,
				PlanOnly:    true,
				ExpectError: errRe(`(?s)max_retries.*at least 0`),
			},
			{
				// A wrong secret: the service's 401, with what to check.
				Config:      fmt.Sprintf("provider \"etl\" {\n  base_url     = %q\n  token_id     = %q\n  token_secret = \"wrong\"\n}\n", e.URL, emulator.DefaultTokenID) + ds,
				ExpectError: errRe(`(?s)Listing templates failed.*401.*hub`),
			},
			{
				Config: "provider \"etl\" {\n  hub          = \"us2\"\n  token_id     = \"x\"\n  token_secret = \"y\"\n}\n",
			},
		},
	})
}

// Settings that come from a resource are unknown at plan time: validation
// and Configure let them through, plans that need no client go on, and a
// data source says the provider is not configured.
func TestAccProviderConfig_unknownValues(t *testing.T) {
	p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n4000,1\n"))
	settings := `
resource "terraform_data" "settings" {
  input = { hub = "us2", token_id = "x", token_secret = "y" }
}

provider "etl" {
  hub          = terraform_data.settings.output.hub
  token_id     = terraform_data.settings.output.token_id
  token_secret = terraform_data.settings.output.token_secret
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: settings + fmt.Sprintf(`
resource "etl_import" "x" {
  template_id = %q
  file = {
    path = %q
  }
}
`, emulator.GLActualsTemplateID, p),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPreRefresh: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("etl_import.x", plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue("etl_import.x", tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte("Account,Amount\n4000,1\n")))),
					},
				},
			},
			{
				Config:      settings + "\ndata \"etl_templates\" \"all\" {}\n",
				PlanOnly:    true,
				ExpectError: errRe(`Provider not configured`),
			},
		},
	})
}

// TLS: https to the emulator fails without its certificate authority,
// with a diagnostic that names the certificate and the fix, and works
// with ca_cert_pem or ca_cert_file.
func TestAccTLS_caCert(t *testing.T) {
	t.Setenv(EnvCACertFile, "")
	ts, srv, certPEM, err := emulator.NewTLSServer(emulator.Options{Instant: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ts.Close)
	caFile := writeFile(t, t.TempDir(), "ca.pem", certPEM)
	cfg := func(extra string) string {
		return fmt.Sprintf(`
provider "etl" {
  base_url     = %q
  token_id     = %q
  token_secret = %q
  max_retries  = 2
%s
}

data "etl_templates" "all" {}

resource "etl_import" "x" {
  template_id = %q
  rows        = [["Account", "Amount"], ["4000", "1"]]
}
`, ts.URL, emulator.DefaultTokenID, emulator.DefaultTokenSecret, extra, emulator.GLActualsTemplateID)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      cfg(""),
				ExpectError: errRe(`(?s)Listing templates failed.*certificate.*not trusted.*ca_cert_pem`),
			},
			{
				Config: cfg(fmt.Sprintf("  ca_cert_pem = %q", string(certPEM))),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.etl_templates.all", tfjsonpath.New("templates"), knownvalue.ListSizeExact(len(emulator.DefaultTemplates()))),
					statecheck.ExpectKnownValue("etl_import.x", tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
				},
			},
			{
				Config: cfg(fmt.Sprintf("  ca_cert_file = %q", caFile)),
			},
		},
	})
	if jobs, _ := srv.Stats(); jobs != 1 {
		t.Errorf("%d jobs, want 1", jobs)
	}
}
