//go:build explore

package explore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// setup is what every sequence shares: the CLI, the provider built once
// (and the previous release, for the upgrade steps), and CLI
// configurations whose dev_overrides point at them, with a filesystem
// mirror for terraform init.
type setup struct {
	Root, CLI, Provider, CLIConfig string
	OldCLIConfig                   string           // the previous release's ("": not available)
	Exes                           []string         // the provider binaries (resolved), to find orphaned processes
	Tofu                           bool             // the CLI is OpenTofu (its version says so)
	Emulator                       emulator.Options // with EXPLORE_EMULATOR_RULES
}

// newSetup resolves EXPLORE_CLI (default, terraform-next, tofu, or a
// path), and builds the provider from EXPLORE_PROVIDER_DIR (default: the
// repository) unless EXPLORE_PROVIDER_BIN names a binary; and the previous
// release (previousRelease).
func newSetup(t *testing.T) setup {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	s := setup{Root: root, Provider: envOr("EXPLORE_PROVIDER_DIR", root)}
	s.CLI = resolveCLI(t, root, envOr("EXPLORE_CLI", "default"))
	tmp := t.TempDir()
	bin, exe := filepath.Join(tmp, "bin"), filepath.Join(tmp, "bin", "terraform-provider-etl")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if pb := os.Getenv("EXPLORE_PROVIDER_BIN"); pb != "" {
		s.Provider = pb
		link(t, pb, exe)
	} else {
		mustRun(t, s.Provider, "go", "build", "-o", exe, ".")
	}
	mirror := filepath.Join(tmp, "mirror")
	for _, a := range providerAddrs {
		link(t, exe, filepath.Join(mirror, a, mirrorVersion, runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-etl_v"+mirrorVersion))
	}
	s.CLIConfig = writeCLIConfig(t, filepath.Join(tmp, "cli.tfrc"), bin, mirror)
	s.Exes = append(s.Exes, resolved(exe))
	if old := previousRelease(t, root); old != "" {
		oldExe := filepath.Join(tmp, "bin-old", "terraform-provider-etl")
		link(t, old, oldExe)
		s.OldCLIConfig = writeCLIConfig(t, filepath.Join(tmp, "cli-old.tfrc"), filepath.Dir(oldExe), mirror)
		s.Exes = append(s.Exes, resolved(old))
	}
	s.Emulator = emulatorOptions(t, os.Getenv("EXPLORE_EMULATOR_RULES"))
	return s
}

// link makes a symbolic link at path to target, and its directory.
func link(t *testing.T, target, path string) {
	t.Helper()
	abs, err := filepath.Abs(target)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o755)
	}
	if err == nil {
		err = os.Symlink(abs, path)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// resolved is path with its symbolic links resolved.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// writeCLIConfig writes cliConfigText(bin, mirror) to path.
func writeCLIConfig(t *testing.T, path, bin, mirror string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(cliConfigText(bin, mirror)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// emulatorOptions is the emulator's options: jobs run 30ms, required
// columns are not checked, and the rules
// no public source shows take the choices spec names, as
// ETL_TEST_EMULATOR_RULES does for the acceptance tests (such as
// "conflict-status=400,required-columns=off").
func emulatorOptions(t *testing.T, spec string) emulator.Options {
	// Required columns off: the data set of one column (no Amount) must
	// complete.
	opts := emulator.Options{RunTime: 30 * time.Millisecond, RequiredColumns: emulator.RequiredColumnsOff}
	for _, kv := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' }) {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		switch k {
		case "conflict-status":
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("EXPLORE_EMULATOR_RULES: conflict-status %q is not a number", v)
			}
			opts.ConflictStatus = n
		case "submit-missing-inputs":
			opts.SubmitMissingInputs = emulator.MissingInputs(v)
		case "missing-metadata":
			opts.MissingMetadata = emulator.MissingMetadata(v)
		case "required-columns":
			opts.RequiredColumns = emulator.RequiredColumnsRule(v)
		default:
			t.Fatalf("EXPLORE_EMULATOR_RULES: unknown rule %q", k)
		}
	}
	return opts
}

// resolveCLI is the path of the CLI that name picks.
func resolveCLI(t *testing.T, root, name string) string {
	script := map[string]string{"default": "terraform-bin.sh", "terraform-next": "terraform-next-bin.sh", "tofu": "tofu-bin.sh"}[name]
	if script == "" {
		return name
	}
	return strings.TrimSpace(mustRun(t, root, filepath.Join(root, "scripts", script)))
}

// mustRun runs a setup command, failing the test if it fails; it returns stdout.
func mustRun(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s%s", name, args, err, out.String(), errb.String())
	}
	return out.String()
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// command is the CLI with args in dir, with the emulator at url and the
// CLI configuration cliConfig.
func (s setup) command(ctx context.Context, cliConfig, dir, url string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, s.CLI, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"ETL_BASE_URL="+url, "ETL_TOKEN_ID=1112140681100620800.1", "ETL_TOKEN_SECRET=5f4dcc3b5aa765d61d8327deb882cf99")
	return cmd
}

// cli runs the CLI in dir with the emulator at url and the CLI
// configuration cliConfig; it returns the combined output and whether the
// command failed.
func (s setup) cli(cliConfig, dir, url string, args ...string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	out, err := s.command(ctx, cliConfig, dir, url, args...).CombinedOutput()
	return timedOut(ctx, ansi.ReplaceAllString(string(out), "")), err != nil
}

// cliTimeout bounds one command of the CLI: an apply here takes seconds,
// its waits 6 s at most.
const cliTimeout = 2 * time.Minute

// cliTimedOutNote ends the output of a command the explorer SIGKILLed
// because it ran over cliTimeout: what that command left (an empty state
// file, jobs) is not the provider's doing, and the check says so.
const cliTimedOutNote = "explore: the CLI ran over its time limit, and the explorer SIGKILLed it"

// timedOut is out, with cliTimedOutNote when ctx ran out.
func timedOut(ctx context.Context, out string) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return out + "\n" + cliTimedOutNote + "\n"
	}
	return out
}

// ansi matches the colour codes of the CLI's output.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// previousRelease is the provider binary of the previous release, built
// once from `git archive` of its commit into the cache
// (.cache/explore/provider-<commit>/); "" (logged) when the commit is not
// in the repository (a shallow clone) or does not build: then no sequence
// upgrades.
func previousRelease(t *testing.T, root string) string {
	t.Helper()
	commit := envOr("EXPLORE_PREVIOUS", previousCommit)
	dir := filepath.Join(envOr("ETL_CACHE_DIR", filepath.Join(root, ".cache")), "explore", "provider-"+commit)
	bin := filepath.Join(dir, "terraform-provider-etl")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := exec.Command("git", "-C", root, "cat-file", "-e", commit+"^{commit}").Run(); err != nil {
		t.Logf("the previous release (commit %s) is not in the repository (a shallow clone?): no upgrade steps", commit)
		return ""
	}
	src := t.TempDir()
	script := fmt.Sprintf("set -o pipefail; git -C %q archive %q | tar -x -C %q", root, commit, src)
	steps := [][]string{{"bash", "-c", script}, {"go", "build", "-o", bin, "."}}
	for _, args := range steps {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Logf("the previous release (commit %s) does not build, no upgrade steps: %v\n%s", commit, err, out)
			return ""
		}
	}
	return bin
}
