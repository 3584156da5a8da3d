package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The configurations under testdata: the provider block they share, and
// the directories, variables and addresses several tests use.

// sharedProviderFile is the provider block the configurations under
// testdata share: its settings are variables (configVariables), filled
// with the URL and credentials of each test's emulator, and hash_cache
// where a test sets it (null otherwise: the setting left out).
const sharedProviderFile = "testdata/provider.tf"

// withProvider returns the configuration directory dir with the shared
// provider block beside its files, copied into a temporary directory, so
// that each directory under testdata holds its resources alone (as an
// example holds them beside its versions.tf).
func withProvider(t *testing.T, dir config.TestStepConfigFunc) config.TestStepConfigFunc {
	return func(req config.TestStepConfigRequest) string {
		src := dir.Exec(req)
		dst := t.TempDir()
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatalf("reading the configuration directory %s: %v", src, err)
		}
		for _, e := range entries {
			if !e.IsDir() {
				copyFile(t, filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()))
			}
		}
		copyFile(t, sharedProviderFile, filepath.Join(dst, "provider.tf"))
		return dst
	}
}

// copyFile copies the file src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// twoStepDirectory loads the two-step template: "Load Actuals" from the
// file var.actuals, "Load Rates" from ratesRows. Its variables are
// twoStepVariables. As with every configuration directory with a provider
// block, the provider factories go in each step, not in the TestCase.
var twoStepDirectory = config.StaticDirectory("testdata/two_step")

// twoStepVariables are the variables of twoStepDirectory: the "Load
// Actuals" step keyed by actualsKey, from the file at actuals, with vars
// (submit and wait, left out when not set).
func twoStepVariables(e *testEmulator, actualsKey, actuals string, vars config.Variables) config.Variables {
	v := e.configVariables(config.Variables{
		"actuals_key": config.StringVariable(actualsKey),
		"actuals":     config.StringVariable(actuals),
	})
	maps.Copy(v, vars)
	return v
}

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
// Its tests are acceptance tests: without TF_ACC they skip before writing
// or waiting anything.
func newCacheFixture(t *testing.T, old bool) *cacheFixture {
	requireTFAcc(t)
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

// fileReads counts, per absolute path, the whole reads of files in this
// test process: plan-time hashing and sends (localfile.ReadHook, set once
// for the package's tests).
var fileReads sync.Map // string -> *atomic.Int64

func init() {
	h := func(p string) {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		n, _ := fileReads.LoadOrStore(abs, new(atomic.Int64))
		n.(*atomic.Int64).Add(1) //nolint:forcetypeassert // only *atomic.Int64 is stored
	}
	localfile.ReadHook.Store(&h)
}

// readsOf returns how many times the file at abs was read whole.
func readsOf(abs string) int64 {
	if n, ok := fileReads.Load(abs); ok {
		return n.(*atomic.Int64).Load() //nolint:forcetypeassert // only *atomic.Int64 is stored
	}
	return 0
}

// expectReads asserts the file was read exactly n times so far.
func (c *cacheFixture) expectReads(n int64, what string) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		if got := readsOf(c.abs); got != n {
			resp.Error = fmt.Errorf("%s: the file was read %d times, want %d", what, got, n)
		}
	})
}

// requireReads fails the test unless the file was read n times so far.
func (c *cacheFixture) requireReads(n int64, what string) {
	c.t.Helper()
	if got := readsOf(c.abs); got != n {
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

// resumeAddr is the address every test here imports to.
const resumeAddr = "etl_import.gl"
