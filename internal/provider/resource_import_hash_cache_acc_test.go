package provider

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The plan-time hash cache, end to end: the file's reads are counted
// (readsOf: plan-time hashing and sends), the emulator's record says which
// bytes were imported.

// TestAccHashCache_unchangedFileNotRead: a new import reads its file twice
// (the plan, and the send); the apply's plan and every later plan of the
// unchanged file read nothing.
func TestAccHashCache_unchangedFileNotRead(t *testing.T) {
	c := newCacheFixture(t, true)
	vars := c.vars(nil)
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				ConfigStateChecks:        []statecheck.StateCheck{c.imported(1), c.expectReads(2, "after the first apply (its plan, then the send)")},
			},
			{
				PreConfig:                func() { c.requireReads(2, "after the plans that follow the first apply") },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				PlanOnly:                 true,
			},
		},
	})
	c.requireReads(2, "after an unchanged plan")
	if n := len(c.e.Jobs()); n != 1 {
		t.Errorf("%d jobs, want 1", n)
	}
}

// TestAccHashCache_sameSizeEditsDetected: an edit that keeps the size and
// sets the modification time back is seen (the change time moved, or the
// inode), and the new bytes imported; a chmod makes the plan read the file
// again but changes nothing.
func TestAccHashCache_sameSizeEditsDetected(t *testing.T) {
	c := newCacheFixture(t, true)
	vars := c.vars(nil)
	replace := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(cachedAddr, plancheck.ResourceActionReplace)}}
	var second, third []byte
	var before int64
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, ConfigDirectory: withProvider(t, hashCacheDirectory), ConfigVariables: vars, ConfigStateChecks: []statecheck.StateCheck{c.imported(1)}},
			{
				PreConfig:                func() { second = c.edited(); c.rewrite(second, true) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				ConfigPlanChecks:         replace,
				ConfigStateChecks:        []statecheck.StateCheck{c.imported(2)},
			},
			{
				PreConfig: func() {
					time.Sleep(localfile.RacyMargin + 50*time.Millisecond) // the record of the second file is trusted
					third = c.edited()
					c.rewrite(third, false)
				},
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				ConfigPlanChecks:         replace,
				ConfigStateChecks:        []statecheck.StateCheck{c.imported(3)},
			},
			{
				PreConfig: func() {
					if err := os.Chmod(c.path, 0o640); err != nil {
						t.Fatal(err)
					}
					before = readsOf(c.abs)
				},
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				PlanOnly:                 true,
			},
		},
	})
	if readsOf(c.abs) <= before {
		t.Errorf("after a chmod, the plan did not read the file (%d reads)", readsOf(c.abs))
	}
	if n := len(c.e.Jobs()); n != 3 || second == nil || third == nil {
		t.Errorf("%d jobs, want 3", n)
	}
}

// TestAccHashCache_racyWindow: the file system reports timestamps in the
// future (as a file server whose clock is ahead does), frozen: every plan
// reads the file again, the apply's too, and a same-size edit that leaves
// the identity unchanged is imported.
func TestAccHashCache_racyWindow(t *testing.T) {
	c := newCacheFixture(t, false)
	freeze(t, c.abs, time.Now().Add(time.Hour))
	vars := c.vars(nil)
	var before int64
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				ConfigStateChecks:        []statecheck.StateCheck{c.imported(1), c.expectReads(3, "after the first apply (its plan, the apply's plan, the send)")},
			},
			{
				PreConfig:                func() { before = readsOf(c.abs) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				PlanOnly:                 true,
			},
			{
				PreConfig: func() {
					if readsOf(c.abs) <= before {
						t.Errorf("an unchanged plan in the racy window did not read the file")
					}
					_, id, _ := localfile.StatPath(c.path)
					c.rewrite(c.edited(), true)
					if _, now, _ := localfile.StatPath(c.path); now != id {
						t.Fatalf("the edit changed the identity %+v -> %+v: the test needs it unchanged", id, now)
					}
				},
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cachedAddr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{c.imported(2)},
			},
		},
	})
}

// TestAccHashCache_optOut: with hash_cache = false every plan reads the
// file, the apply's plan too, and nothing is written to the disk cache.
func TestAccHashCache_optOut(t *testing.T) {
	c := newCacheFixture(t, true)
	vars := c.vars(config.Variables{"hash_cache": config.BoolVariable(false)})
	var before int64
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				ConfigStateChecks:        []statecheck.StateCheck{c.imported(1), c.expectReads(3, "after the first apply (its plan, the apply's plan, the send)")},
			},
			{
				PreConfig: func() {
					if before = readsOf(c.abs); before <= 3 {
						t.Errorf("the plans after the first apply did not read the file (%d reads)", before)
					}
				},
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				PlanOnly:                 true,
			},
		},
	})
	if n := readsOf(c.abs); n <= before {
		t.Errorf("an unchanged plan with the cache off did not read the file (%d reads)", n)
	}
	if abs, id, ok := localfile.StatPath(c.path); !ok || localfile.UserDiskCache().Get(abs, id) != nil {
		t.Error("the cache is off but a record is on disk")
	}
}

// TestAccHashCache_envOptOut: ETL_HASH_CACHE=false turns the cache off as
// hash_cache = false does (not parallel: it sets the environment).
func TestAccHashCache_envOptOut(t *testing.T) {
	t.Setenv(EnvHashCache, "false")
	c := newCacheFixture(t, true)
	resource.Test(t, resource.TestCase{
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			ConfigDirectory:          withProvider(t, hashCacheDirectory),
			ConfigVariables:          c.vars(nil),
			ConfigStateChecks:        []statecheck.StateCheck{c.imported(1), c.expectReads(3, "after the first apply (its plan, the apply's plan, the send)")},
		}},
	})
}

// TestAccHashCache_inputsUnchangedNotRead: an input's file is cached on disk
// as the top-level file is: the first plan and the send read it, the
// apply's plan and a later plan of the unchanged file do not; an edit that
// keeps its size and modification time is seen and starts a new job.
func TestAccHashCache_inputsUnchangedNotRead(t *testing.T) {
	c := newCacheFixture(t, true)
	vars := twoStepVariables(c.e, "Load Actuals", c.path, nil)
	const addr = "etl_import.multi"
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				ConfigStateChecks: []statecheck.StateCheck{
					expectInputs(c.e, addr, map[string][]byte{emulator.TwoStepActualsInputID: c.content, emulator.TwoStepRatesInputID: []byte(delimited(ratesRows, "CSV"))}),
					c.expectReads(2, "after the first apply (its plan, then the send)"),
				},
			},
			{
				PreConfig:                func() { c.requireReads(2, "after the plans that follow the first apply") },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				PlanOnly:                 true,
			},
			{
				PreConfig:                func() { c.requireReads(2, "after an unchanged plan"); c.rewrite(c.edited(), true) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, twoStepDirectory),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
					// The edited content, as it is when the check runs.
					expectInputs(c.e, addr, map[string][]byte{emulator.TwoStepActualsInputID: c.content, emulator.TwoStepRatesInputID: []byte(delimited(ratesRows, "CSV"))}).CheckState(ctx, req, resp)
				})},
			},
		},
	})
	if n := len(c.e.Jobs()); n != 2 {
		t.Errorf("%d jobs, want 2 (the first import, and the edited file's)", n)
	}
}
