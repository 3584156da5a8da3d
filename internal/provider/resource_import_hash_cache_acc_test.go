package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
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

const cachedAddr = "etl_import.gl"

// cacheFixture is one file to import and its configuration.
type cacheFixture struct {
	t       *testing.T
	e       *testEmulator
	path    string
	abs     string
	content []byte
}

// newCacheFixture writes a CSV of a few MiB (larger than smallFile: read
// through the tee to the checker); old: wait the racy window out first.
func newCacheFixture(t *testing.T, old bool) *cacheFixture {
	content := repeatCSV("Account,Amount", "4000,100", 300_000)
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	if old {
		time.Sleep(localfile.RacyMargin + 50*time.Millisecond)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return &cacheFixture{t: t, e: newTestEmulator(t, emulator.Options{Instant: true}), path: p, abs: abs, content: content}
}

// hashCacheDirectory is the import of a cacheFixture's file, with the
// variables c.vars gives. As with every configuration directory with a
// provider block, the provider factories go in each step.
var hashCacheDirectory = config.StaticDirectory("testdata/hash_cache")

// vars are the variables of hashCacheDirectory for c's file, with extra
// (hash_cache: the provider's setting, left out when not set).
func (c *cacheFixture) vars(extra config.Variables) config.Variables {
	v := c.e.configVariables(config.Variables{
		"template_id": config.StringVariable(emulator.GLActualsTemplateID),
		"path":        config.StringVariable(c.path),
	})
	maps.Copy(v, extra)
	return v
}

// expectReads asserts the file was read exactly n times so far.
func (c *cacheFixture) expectReads(n int64, what string) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		if got := localfile.Reads(c.abs); got != n {
			resp.Error = fmt.Errorf("%s: the file was read %d times, want %d", what, got, n)
		}
	})
}

// requireReads fails the test unless the file was read n times so far.
func (c *cacheFixture) requireReads(n int64, what string) {
	c.t.Helper()
	if got := localfile.Reads(c.abs); got != n {
		c.t.Errorf("%s: the file was read %d times, want %d", what, got, n)
	}
}

// imported asserts the resource's job received the file's current content,
// and how many jobs there are.
func (c *cacheFixture) imported(jobs int) statecheck.StateCheck {
	return checkEmulator(cachedAddr, func(v map[string]any) error {
		content := c.content
		if n := len(c.e.Jobs()); n != jobs {
			return fmt.Errorf("%d jobs on the emulator, want %d", n, jobs)
		}
		id, _ := v["id"].(string)
		job, ok := c.e.Job(id)
		if !ok || job.Upload == nil || job.Upload.SHA256 != sha256Hex(content) || job.Upload.Bytes != int64(len(content)) {
			return fmt.Errorf("job %s did not receive the file's bytes (SHA-256 %s): %+v", id, sha256Hex(content), job.Upload)
		}
		return nil
	})
}

// rewrite replaces the file's bytes by content of the same size, in place
// (inplace) or by renaming a new file over it, and sets its modification
// time back: only its change time (and inode) show the edit.
func (c *cacheFixture) rewrite(content []byte, inplace bool) {
	c.t.Helper()
	fi, err := os.Stat(c.path)
	if err != nil || int64(len(content)) != fi.Size() {
		c.t.Fatalf("rewrite: %v, %d bytes for a file of %d", err, len(content), fi.Size())
	}
	if inplace {
		err = os.WriteFile(c.path, content, 0o600)
	} else {
		tmp := c.path + ".new"
		if err = os.WriteFile(tmp, content, 0o600); err == nil {
			err = os.Rename(tmp, c.path)
		}
	}
	if err == nil {
		err = os.Chtimes(c.path, fi.ModTime(), fi.ModTime())
	}
	after, serr := os.Stat(c.path)
	if err != nil || serr != nil || !after.ModTime().Equal(fi.ModTime()) || after.Size() != fi.Size() {
		c.t.Fatalf("rewrite: %v, %v; modification time %v, want %v", err, serr, after.ModTime(), fi.ModTime())
	}
	c.content = content
}

// edited is the file's content with one digit changed near its end.
func (c *cacheFixture) edited() []byte {
	b := append([]byte(nil), c.content...)
	i := len(b) - 3
	b[i] = '0' + (b[i]-'0'+1)%10
	return b
}

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
					before = localfile.Reads(c.abs)
				},
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				PlanOnly:                 true,
			},
		},
	})
	if localfile.Reads(c.abs) <= before {
		t.Errorf("after a chmod, the plan did not read the file (%d reads)", localfile.Reads(c.abs))
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
				PreConfig:                func() { before = localfile.Reads(c.abs) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				ConfigDirectory:          withProvider(t, hashCacheDirectory),
				ConfigVariables:          vars,
				PlanOnly:                 true,
			},
			{
				PreConfig: func() {
					if localfile.Reads(c.abs) <= before {
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
					if before = localfile.Reads(c.abs); before <= 3 {
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
	if n := localfile.Reads(c.abs); n <= before {
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
