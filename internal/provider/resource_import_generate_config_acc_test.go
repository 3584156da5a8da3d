package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// terraform plan -generate-config-out for an adopted job cannot describe
// its data (the service does not return a job's template or data): the
// generated block leaves template_id null, Terraform refuses the plan, and
// no job starts. The resource page says so and shows the configuration to
// write instead. This test pins that behaviour, so that the page stays true.
func TestAccImport_generateConfigOut(t *testing.T) {
	// This test drives the Terraform CLI itself, not through resource.Test:
	// nothing else skips it without TF_ACC.
	requireTFAcc(t)
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		t.Skip("TF_ACC_TERRAFORM_PATH names no CLI")
	}
	e := newTestEmulator(t, emulator.Options{Instant: true})
	jobID := startJob(t, e, emulator.GLActualsTemplateID, [][]string{{"Account", "Amount"}, {"4000", "1"}})
	c := newCLI(t, tf)
	c.write(t, e.providerConfig()+`
import {
  to       = etl_import.adopted
  id       = "`+jobID+`"
  provider = etl
}
`)
	out, err := c.run("plan", "-no-color", "-input=false", "-generate-config-out=generated.tf")
	t.Logf("terraform plan -generate-config-out:\n%s", out)
	b, rerr := os.ReadFile(filepath.Join(c.dir, "generated.tf"))
	if rerr != nil {
		t.Fatalf("no generated configuration: %v", rerr)
	}
	gen := string(b)
	t.Logf("generated.tf:\n%s", gen)
	if !strings.Contains(gen, `resource "etl_import" "adopted"`) || !strings.Contains(gen, "template_id") {
		t.Fatalf("the generated block is not the etl_import's: %s", gen)
	}
	if err == nil {
		t.Fatal("the plan with the generated configuration succeeded: the resource page says it fails; update it")
	}
	if !strings.Contains(out, "template_id") {
		t.Errorf("the failure does not name template_id:\n%s", out)
	}
	if n := len(e.Jobs()); n != 1 {
		t.Errorf("%d jobs, want the 1 adopted: generating configuration must start none", n)
	}
}
