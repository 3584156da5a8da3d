package explore

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A reproducer of a sequence with the new steps: the kill as a command
// killed in the background, the adopted job's id, the workspace, the
// second directory, the upgrade; and a shell that parses it.
func TestRepro_kills(t *testing.T) {
	q := sequence{Seed: 9, Remote: false, Init: config{Blocks: []block{rows("r0", 0, true)}}, Steps: []step{
		{Kind: stepOp, Name: "apply", Fault: "kill-provider"}, {Kind: stepOp, Name: "upgrade"},
		{Kind: stepOp, Name: "replace", Fault: "kill-wait"}, {Kind: stepOp, Name: "adopt"},
		{Kind: stepOp, Name: "workspace-new"}, {Kind: stepOp, Name: "other-dir"}, {Kind: stepOp, Name: "apply", Fault: "interrupt"},
	}}
	dir := filepath.Join(t.TempDir(), "repro")
	f := failure{Seq: q, Problems: []string{"0 jobs started, 1 expected"}, CLI: "terraform", Root: "/repo", Provider: "/repo", IDs: map[int]string{3: "1140000000000000007"}, Previous: previousCommit}
	if err := writeRepro(dir, f); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	script := string(b)
	for _, want := range []string{
		"killed provider 'apply' '-auto-approve' '-input=false'",
		"killed KILL 'apply' '-auto-approve' '-input=false' '-replace=etl_import.r0[0]'",
		"killed INT 'apply'", "git -C \"$repo\" archive " + previousCommit, "export TF_CLI_CONFIG_FILE=\"$work/cli.tfrc\"",
		"id='1140000000000000007'", "run 'import' '-input=false' 'etl_import.r0[0]' \"$id\"", "run 'workspace' 'new' 'w1'",
		"cd \"$work/other\"", "run 'destroy' '-auto-approve' '-input=false'", "\"$cli\" init -input=false",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("run.sh lacks %s", want)
		}
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		if out, err := exec.Command(bash, "-n", filepath.Join(dir, "run.sh")).CombinedOutput(); err != nil {
			t.Errorf("bash -n run.sh: %v\n%s", err, out)
		}
	}
}

// A mismatch at the first step of a sequence that upgrades (CI's seed
// 1116 on Terraform 1.16) is cut before its upgrade step: its reproducer
// runs that step with the previous release all the same, and switches to
// the provider under test nowhere.
func TestRepro_previousReleaseBeforeItsUpgrade(t *testing.T) {
	q := sequence{Seed: 1181, Previous: true, Init: config{Blocks: []block{rows("r0", 0, false)}}, Steps: []step{opApply}}
	script := reproScript(t, failure{Seq: q, Problems: []string{"3 jobs started, 4 expected"}, CLI: "terraform", Root: "/repo", Provider: "/repo", Previous: "599e646"})
	before, _, found := strings.Cut(script, "# 1. apply")
	if !found || !strings.Contains(before, `export TF_CLI_CONFIG_FILE="$work/cli-old.tfrc"`) || strings.Contains(script, `export TF_CLI_CONFIG_FILE="$work/cli.tfrc"`+"\n") {
		t.Errorf("run.sh does not run step 1 with the previous release alone:\n%s", script)
	}
	if script = reproScript(t, failure{Seq: q, CLI: "terraform", Root: "/repo", Provider: "/repo"}); strings.Contains(script, "cli-old.tfrc") {
		t.Error("the previous release in a reproducer of steps it did not run")
	}
}

// A file gone is not in its step's directory, an unreadable one is a loop
// of symbolic links there, and run.sh's use takes data/ from the step
// alone; a template deleted is said in a comment.
func TestRepro_fileGoneAndTemplateDeleted(t *testing.T) {
	b := block{Name: "r0", Count: 1, Kind: kindPath, Dir: "a", Submit: true}
	q := sequence{Seed: 5, Init: config{Blocks: []block{b}}, Steps: []step{opApply,
		{Kind: stepEdit, Name: "file", Value: fileGone}, opApply,
		{Kind: stepEdit, Name: "file", Value: fileUnreadable}, {Kind: stepOp, Name: "delete-template"}, opDestroy}}
	dir := filepath.Join(t.TempDir(), "repro")
	if err := writeRepro(dir, failure{Seq: q, CLI: "terraform", Root: "/repo", Provider: "/repo"}); err != nil {
		t.Fatal(err)
	}
	data := func(step string) string { return filepath.Join(dir, step, "data", "a", "r0.csv") }
	if _, err := os.Stat(data("step-01")); err != nil {
		t.Errorf("step 1: %v", err)
	}
	if _, err := os.Lstat(data("step-03")); !os.IsNotExist(err) {
		t.Errorf("step 3, the file gone: %v", err)
	}
	if target, err := os.Readlink(data("step-06")); err != nil || target != "r0.csv.loop" {
		t.Errorf("step 6, the file unreadable: %q, %v", target, err)
	}
	script, _ := os.ReadFile(filepath.Join(dir, "run.sh"))
	for _, want := range []string{"use() { rm -rf main.tf data; ", "# 4. edit file r0=unreadable", "# 5. delete-template " + templates[0], faultNote["delete-template"]} {
		if !strings.Contains(string(script), want) {
			t.Errorf("run.sh lacks %q", want)
		}
	}
}

// reproScript writes f's reproducer and returns its run.sh.
func reproScript(t *testing.T, f failure) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repro")
	if err := writeRepro(dir, f); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
