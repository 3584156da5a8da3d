package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// One file is one file, and the hash cache trusts only what it owns, end
// to end: the plan hashes, and the apply sends, the file the system opens
// by file.path, and a record another user could have written is not
// believed. The emulator's record says which bytes each job received.

const identityAddr = "etl_import.data"

// identityConfig imports the file at path into a job on e.
func identityConfig(e *testEmulator, path string) string {
	return e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "data" {
  template_id = %q
  file = {
    path = %q
  }
}
`, emulator.GLActualsTemplateID, path)
}

// jobsReceived asserts e holds one job per content, in order, each having
// received those bytes, and the resource's job is the last.
func jobsReceived(e *testEmulator, contents ...[]byte) statecheck.StateCheck {
	return checkEmulator(identityAddr, func(v map[string]any) error {
		jobs := e.Jobs()
		if len(jobs) != len(contents) {
			return fmt.Errorf("%d jobs on the emulator, want %d", len(jobs), len(contents))
		}
		for i, j := range jobs {
			if j.Upload == nil || j.Upload.SHA256 != sha256Hex(contents[i]) || j.Upload.Bytes != int64(len(contents[i])) {
				return fmt.Errorf("job %d (%s) received %+v, want %d bytes with SHA-256 %s", i+1, j.ID, j.Upload, len(contents[i]), sha256Hex(contents[i]))
			}
		}
		if id, _ := v["id"].(string); id != jobs[len(jobs)-1].ID {
			return fmt.Errorf("the resource's job is %s, want the last one, %s", id, jobs[len(jobs)-1].ID)
		}
		return nil
	})
}

// editInPlace rewrites the file at p with content of the same size and sets
// its modification time back: only its change time shows the edit.
func editInPlace(t *testing.T, p string, content []byte) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil || fi.Size() != int64(len(content)) {
		t.Fatalf("edit: %v, %d bytes for a file of %d", err, len(content), fi.Size())
	}
	if err := os.WriteFile(p, content, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if after, err := os.Stat(p); err != nil || !after.ModTime().Equal(fi.ModTime()) || after.Size() != fi.Size() {
		t.Fatalf("edit: %v; modification time %v, want %v", err, after.ModTime(), fi.ModTime())
	}
}

// identityContent is the CSV the tests import, and edited, the same with
// one digit changed (same size).
func identityContent() (content, edited []byte) {
	content = repeatCSV("Account,Amount", "4000,100", 2000)
	edited = append([]byte(nil), content...)
	edited[len(edited)-3] = '7'
	return content, edited
}

// replaced is the plan check of a replacement of the import.
var replaced = resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(identityAddr, plancheck.ResourceActionReplace)}}

// TestAccFileIdentity_symlinkDotDot: with work -> real/sub, file.path
// work/../data.csv is real/data.csv (as the system opens it), not
// ./data.csv (as the text cleans), although both have the same bytes and
// ./data.csv's hash is in the disk cache (another configuration imports
// it). An in-place edit of real/data.csv that keeps its size and
// modification time is seen: the plan replaces the import and the apply
// sends the edited bytes.
func TestAccFileIdentity_symlinkDotDot(t *testing.T) {
	requireTFAcc(t) // before the fixture's wait
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("real", "sub"), filepath.Join(dir, "work")); err != nil {
		t.Fatal(err)
	}
	content, edited := identityContent()
	realFile := writeFile(t, filepath.Join(dir, "real"), "data.csv", content)
	decoy := writeFile(t, dir, "data.csv", content)
	time.Sleep(localfile.RacyMargin + 50*time.Millisecond) // both files' records are trusted
	path := dir + "/work/../data.csv"
	if a, err := os.Stat(path); err != nil {
		t.Fatal(err)
	} else if b, _ := os.Stat(realFile); !os.SameFile(a, b) {
		t.Fatalf("%s is not real/data.csv to the system: the fixture is wrong", path)
	}

	// Another configuration imports ./data.csv: its hash, under its own
	// identity, is in the disk cache.
	other := newTestEmulator(t, emulator.Options{Instant: true})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:            identityConfig(other, decoy),
			ConfigStateChecks: []statecheck.StateCheck{jobsReceived(other, content)},
		}},
	})

	e := newTestEmulator(t, emulator.Options{Instant: true})
	config := identityConfig(e, path)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: []statecheck.StateCheck{jobsReceived(e, content)}},
			{
				PreConfig:         func() { editInPlace(t, realFile, edited) },
				Config:            config,
				ConfigPlanChecks:  replaced,
				ConfigStateChecks: []statecheck.StateCheck{jobsReceived(e, content, edited)},
			},
		},
	})
}

// TestAccFileIdentity_foreignCacheDir: the disk cache directory belongs to
// another user (uid 65534), who planted a record that says the file's
// edited content (its identity after the edit) has the old hash. The
// record is not believed: the plan reads the file, sees the edit, replaces
// the import, and the apply sends the edited bytes. Not parallel: the
// user's cache directory is this test's own (XDG_CACHE_HOME), read by the
// provider in this process.
func TestAccFileIdentity_foreignCacheDir(t *testing.T) {
	// resource.Test skips without TF_ACC too, but only after the setup
	// below has waited out the racy margin (2 s): skip before it.
	requireTFAcc(t)
	if os.Geteuid() != 0 {
		t.Skip("giving the cache directory to another user (chown) takes root")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	const otherUID = 65534
	content, edited := identityContent()
	p := writeFile(t, t.TempDir(), "data.csv", content)
	time.Sleep(localfile.RacyMargin + 50*time.Millisecond)
	e := newTestEmulator(t, emulator.Options{Instant: true})
	config := identityConfig(e, p)

	// plant writes, in our own cache, the record of the file as it is now
	// (after the edit) with the hash of its first content, then gives the
	// directory and its records to another user.
	plant := func() {
		base, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(base, "terraform-provider-etl", "file-hashes-v1")
		abs, before, ok := localfile.StatPath(p)
		if !ok {
			t.Fatal("no identity for the file")
		}
		first := localfile.UserDiskCache().Get(abs, before) // the first plan's record (with the provider's check key)
		if first == nil || first.SHA256 != sha256Hex(content) {
			t.Fatalf("no record of the first content in %s: %+v", dir, first)
		}
		editInPlace(t, p, edited)
		_, after, _ := localfile.StatPath(p)
		if after == before {
			t.Fatal("the edit did not change the file's identity")
		}
		planted := *first
		planted.ID = after
		planted.HashedAt = time.Now().Add(time.Minute).UnixNano() // past the racy window
		if !planted.Trusted(abs, after, first.Checked) {
			t.Fatalf("the planted record %+v would not be trusted in a directory of ours", planted)
		}
		localfile.UserDiskCache().Put(&planted)
		if got := localfile.UserDiskCache().Get(abs, after); got == nil || got.SHA256 != sha256Hex(content) {
			t.Fatalf("the record was not planted: %+v", got)
		}
		names, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		owned := []string{dir}
		for _, n := range names {
			owned = append(owned, filepath.Join(dir, n.Name()))
		}
		t.Cleanup(func() {
			for _, q := range owned {
				_ = os.Lchown(q, os.Getuid(), os.Getgid())
			}
		})
		for _, q := range owned {
			if err := os.Lchown(q, otherUID, otherUID); err != nil {
				t.Fatal(err)
			}
		}
		if ok, why := localfile.UserDiskCache().Trusted(); ok || !strings.Contains(why, "owned by") {
			t.Fatalf("Trusted = %v, %q for a directory of uid %d", ok, why, otherUID)
		}
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: []statecheck.StateCheck{jobsReceived(e, content)}},
			{
				PreConfig:         plant,
				Config:            config,
				ConfigPlanChecks:  replaced,
				ConfigStateChecks: []statecheck.StateCheck{jobsReceived(e, content, edited)},
			},
		},
	})
}
