//go:build explore

package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// setup is what every sequence shares: the CLI, the provider built once,
// and a CLI configuration whose dev_overrides point at it.
type setup struct {
	Root, CLI, Provider, CLIConfig string
	Emulator                       emulator.Options // with EXPLORE_EMULATOR_RULES
}

// newSetup resolves EXPLORE_CLI (default, terraform-next, tofu, or a
// path), and builds the provider from EXPLORE_PROVIDER_DIR (default: the
// repository) unless EXPLORE_PROVIDER_BIN names a binary.
func newSetup(t *testing.T) setup {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	s := setup{Root: root, Provider: envOr("EXPLORE_PROVIDER_DIR", root)}
	s.CLI = resolveCLI(t, root, envOr("EXPLORE_CLI", "default"))
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if pb := os.Getenv("EXPLORE_PROVIDER_BIN"); pb != "" {
		s.Provider = pb
		if err := os.Symlink(pb, filepath.Join(bin, "terraform-provider-etl")); err != nil {
			t.Fatal(err)
		}
	} else {
		run(t, s.Provider, "go", "build", "-o", filepath.Join(bin, "terraform-provider-etl"), ".")
	}
	s.Emulator = emulatorOptions(t, os.Getenv("EXPLORE_EMULATOR_RULES"))
	s.CLIConfig = filepath.Join(bin, "..", "cli.tfrc")
	run(t, root, filepath.Join(root, "scripts", "cli-config.sh"), s.CLIConfig, bin)
	return s
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
	return strings.TrimSpace(run(t, root, filepath.Join(root, "scripts", script)))
}

// run runs a setup command, failing the test if it fails; it returns stdout.
func run(t *testing.T, dir, name string, args ...string) string {
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

// cli runs the CLI in dir with the emulator at url; it returns the
// combined output and whether the command failed.
func (s setup) cli(dir, url string, args ...string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.CLI, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+s.CLIConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"ETL_BASE_URL="+url, "ETL_TOKEN_ID=1112140681100620800.1", "ETL_TOKEN_SECRET=5f4dcc3b5aa765d61d8327deb882cf99")
	out, err := cmd.CombinedOutput()
	return ansi.ReplaceAllString(string(out), ""), err != nil
}

// ansi matches the colour codes of the CLI's output.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// tfState is the part of a state file the check reads.
type tfState struct {
	Resources []struct {
		Mode, Type, Name string
		Instances        []struct {
			IndexKey   any    `json:"index_key"`
			Status     string `json:"status"`
			Attributes struct {
				ID string `json:"id"`
			} `json:"attributes"`
		} `json:"instances"`
	} `json:"resources"`
}

// readState is the etl_import instances of dir's terraform.tfstate (the
// local backend's file, which `terraform show -json` also reads). A file
// caught empty or half written is read again, a few times.
func readState(dir string) (map[string]stateInst, error) {
	out := map[string]stateInst{}
	var st tfState
	for try := 0; ; try++ {
		b, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
		if os.IsNotExist(err) {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		if err = json.Unmarshal(b, &st); err == nil {
			break
		} else if try == 10 {
			return nil, fmt.Errorf("terraform.tfstate (%d bytes): %w", len(b), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, r := range st.Resources {
		if r.Mode != "managed" || r.Type != "etl_import" {
			continue
		}
		for _, in := range r.Instances {
			a := fmt.Sprintf("etl_import.%s[%v]", r.Name, in.IndexKey)
			out[a] = stateInst{ID: in.Attributes.ID, Tainted: in.Status == "tainted"}
		}
	}
	return out, nil
}
