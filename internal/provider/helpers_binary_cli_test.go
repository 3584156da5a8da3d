package provider

// Test helpers that run the CLI as a user does, with the provider binary
// built from this tree installed by terraform init (from a filesystem
// mirror) and run as the CLI's child process, rather than served in the
// test's process: the provider then runs in the
// configuration's directory, keeps its journal in .terraform, and a
// terraform killed mid-apply leaves its provider process orphaned, as a
// cancelled CI runner does. The tests of killed applies need all three.
// Also the CLI a test drives itself (actionsCLI: -invoke, outputs, a
// waiting apply), its version, and its state read back (parseShowJSON).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/httpstate"
	"github.com/etl-provider/terraform-provider-etl/internal/orphans"
)

var (
	providerBinOnce sync.Once
	providerBinDir  string
	errProviderBin  error
)

// mirrorVersion is the version the provider is installed as from the
// test's filesystem mirror (the configuration asks for none).
const mirrorVersion = "0.0.1"

// providerBinary builds the provider once per test binary into a
// filesystem mirror (under .cache) and returns the mirror's directory.
func providerBinary(t *testing.T) string {
	t.Helper()
	providerBinOnce.Do(func() {
		// In the repository's cache (git-ignored), shared by every test of
		// the package: go build is quick when nothing changed.
		root, _ := filepath.Abs(filepath.Join("..", ".."))
		dir := filepath.Join(root, ".cache", "acc-provider")
		if d := os.Getenv("ETL_CACHE_DIR"); d != "" {
			dir = filepath.Join(d, "acc-provider")
		}
		bin := filepath.Join(dir, "registry.terraform.io", "etl-provider", "etl", mirrorVersion, runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-etl_v"+mirrorVersion)
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			errProviderBin = fmt.Errorf("go build: %w\n%s", err, out)
			return
		}
		providerBinDir = dir
	})
	if errProviderBin != nil {
		t.Fatal(errProviderBin)
	}
	return providerBinDir
}

// binaryCLI is a CLI in a directory of its own, with the built provider as
// its child, against the emulator e, and a remote state on st (nil: a
// local state file).
type binaryCLI struct {
	tf, dir string
	env     []string
	e       *testEmulator
	st      *httpstate.Server
}

// newBinaryCLI writes testdata/<config>/main.tf, the provider block, the
// backend (remote: an http backend on a state server of its own) and a
// dev_overrides CLI configuration, then runs init. It skips without a CLI
// to drive, and where the provider process cannot be told from its CLI's.
func newBinaryCLI(t *testing.T, config string, e *testEmulator, remote bool) *binaryCLI {
	t.Helper()
	requireTFAcc(t) // drives the CLI itself, not through resource.Test
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		t.Skip("TF_ACC_TERRAFORM_PATH names no CLI to drive")
	}
	if runtime.GOOS != "linux" {
		t.Skip("finding the orphaned provider processes to stop them reads /proc")
	}
	bin := providerBinary(t)
	c := &binaryCLI{tf: tf, dir: t.TempDir(), e: e}
	b, err := os.ReadFile(filepath.Join("testdata", config, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, c.dir, "main.tf", b)
	writeFile(t, c.dir, "provider.tf", []byte(`terraform {
  required_providers {
    etl = { source = "registry.terraform.io/etl-provider/etl" }
  }
}
`+e.providerConfig()))
	if remote {
		c.st = httpstate.Start()
		t.Cleanup(c.st.Close)
		u := c.st.URL("state")
		writeFile(t, c.dir, "backend.tf", fmt.Appendf(nil, "terraform {\n  backend \"http\" {\n    address        = %q\n    lock_address   = %q\n    unlock_address = %q\n  }\n}\n", u, u, u))
	}
	cliConfig := filepath.Join(c.dir, ".terraformrc")
	writeFile(t, c.dir, ".terraformrc", fmt.Appendf(nil, "provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", bin))
	c.env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	t.Cleanup(func() {
		orphans.Stop(c.dir, func(exe string) bool { return filepath.Base(exe) == "terraform-provider-etl_v"+mirrorVersion })
	})
	if out, err := c.run("init", "-no-color", "-input=false"); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	return c
}

// run runs the CLI with args in c's directory.
func (c *binaryCLI) run(args ...string) (string, error) {
	cmd := exec.Command(c.tf, args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// vars writes the values of main.tf's variables.
func (c *binaryCLI) vars(t *testing.T, v map[string]any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, c.dir, "terraform.tfvars.json", b)
}

// apply runs terraform apply; ok says whether it must succeed.
func (c *binaryCLI) apply(t *testing.T, ok bool) string {
	t.Helper()
	out, err := c.run("apply", "-auto-approve", "-no-color", "-input=false")
	if (err == nil) != ok {
		t.Fatalf("terraform apply: error %v, want success %v\n%s", err, ok, out)
	}
	return out
}

// applyKilled starts terraform apply and SIGKILLs terraform alone once
// ready says so (polled every 20ms, for a minute at most), as a cancelled
// CI runner does; its provider process lives on, orphaned. A remote
// state's lock, left behind, is then dropped (terraform force-unlock).
func (c *binaryCLI) applyKilled(t *testing.T, ready func() bool) string {
	t.Helper()
	cmd := exec.Command(c.tf, "apply", "-auto-approve", "-no-color", "-input=false")
	cmd.Dir, cmd.Env = c.dir, c.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); !ready(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the apply never reached the point to kill it at:\n%s", out.String())
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if c.st != nil {
		c.st.Unlock("state")
	}
	return out.String()
}

// state reads every etl_import in the state (terraform show -json reads
// a remote state too), by address.
func (c *binaryCLI) state(t *testing.T) map[string]stateJob {
	t.Helper()
	out, err := c.run("show", "-json")
	if err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, out)
	}
	return parseShowJSON(t, out)
}

// polled reports whether the emulator has n jobs and was asked for a job's
// status at least k times: a provider waits.
func polled(e *testEmulator, n, k int) func() bool {
	return func() bool {
		return len(e.Jobs()) >= n && e.Requests(emulator.EndpointGetJobStatus) >= k
	}
}

// journal lists the entries of the provider's journal in c's directory
// (the default workspace's).
func (c *binaryCLI) journal(t *testing.T) []string {
	t.Helper()
	des, err := os.ReadDir(filepath.Join(c.dir, ".terraform", journalDirName, "default"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		if strings.HasSuffix(de.Name(), ".job.json") {
			names = append(names, de.Name())
		}
	}
	return names
}

// cliVersionLine is the first line of the CLI's `version` output.
func cliVersionLine(tf string) string {
	if v, ok := cliVersions.Load(tf); ok {
		return v.(string)
	}
	out, _ := exec.Command(tf, "version").Output()
	line, _, _ := strings.Cut(string(out), "\n")
	cliVersions.Store(tf, line)
	return line
}

func isOpenTofu(tf string) bool { return tf != "" && strings.HasPrefix(cliVersionLine(tf), "OpenTofu") }

// actionsCLI runs the Terraform CLI in a directory of its own, attached to
// the provider served in this process.
type actionsCLI struct {
	tf, dir string
	env     []string
}

// newCLI serves the provider for the test and returns the CLI tf,
// attached to it, in a directory of its own.
func newCLI(t *testing.T, tf string) *actionsCLI {
	t.Helper()
	dir := t.TempDir()
	// The CLI configuration make gives, else an empty one: a configured
	// file that does not exist makes Terraform 1.16 warn on stdout, into
	// the JSON a test reads.
	cliConfig := os.Getenv("TF_CLI_CONFIG_FILE")
	if _, err := os.Stat(cliConfig); cliConfig == "" || err != nil {
		cliConfig = writeFile(t, dir, ".terraformrc", nil)
	}
	return &actionsCLI{tf: tf, dir: dir, env: append(os.Environ(), "TF_REATTACH_PROVIDERS="+serveProvider(t),
		"TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")}
}

// write writes the configuration, with the provider's address, and runs
// terraform init.
func (c *actionsCLI) write(t *testing.T, config string) {
	t.Helper()
	writeFile(t, c.dir, "main.tf", []byte(`terraform {
  required_providers {
    etl = { source = "registry.terraform.io/etl-provider/etl" }
  }
}
`+config))
	if out, err := c.run("init", "-no-color", "-input=false"); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	}
}

func (c *actionsCLI) run(args ...string) (string, error) {
	cmd := exec.Command(c.tf, args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// invoke runs terraform apply -invoke=action.etl_import.<name>; ok says
// whether it must succeed or fail.
func (c *actionsCLI) invoke(t *testing.T, name string, ok bool) string {
	t.Helper()
	out, err := c.run("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.etl_import."+name)
	if (err == nil) != ok {
		t.Fatalf("terraform apply -invoke=action.etl_import.%s: error %v, want success %v\n%s", name, err, ok, out)
	}
	t.Logf("terraform apply -invoke=action.etl_import.%s:\n%s", name, out)
	return out
}

// startWaiting starts terraform with args and returns once its job runs
// on e and has been polled twice (the provider waits for it), with the
// command and its output so far.
func (c *actionsCLI) startWaiting(t *testing.T, e *testEmulator, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(c.tf, args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for len(e.Jobs()) == 0 || e.Requests(emulator.EndpointGetJobStatus) < 2 {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the apply never waited for a job:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cmd, &out
}

// stateJob is what the state holds of one etl_import.
type stateJob struct {
	ID, Status, Format, Encoding string
	Tainted                      bool
}

// parseShowJSON is every etl_import in the output of terraform show
// -json, by address.
func parseShowJSON(t *testing.T, out string) map[string]stateJob {
	t.Helper()
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string
					Type    string
					Tainted bool `json:"tainted"`
					Values  struct {
						ID     string `json:"id"`
						Status string `json:"status"`
						File   struct {
							Format   string `json:"format"`
							Encoding string `json:"encoding"`
						} `json:"file"`
					}
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, out)
	}
	jobs := map[string]stateJob{}
	for _, r := range doc.Values.RootModule.Resources {
		if r.Type == "etl_import" {
			v := r.Values
			jobs[r.Address] = stateJob{v.ID, v.Status, v.File.Format, v.File.Encoding, r.Tainted}
		}
	}
	return jobs
}

var cliVersions sync.Map // path -> the first line of `version`

// serveProvider serves the provider on loopback until the test ends, and
// returns the TF_REATTACH_PROVIDERS value that attaches Terraform to it.
func serveProvider(t *testing.T) string {
	t.Helper()
	const addr = "registry.terraform.io/etl-provider/etl"
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig)
	closed := make(chan struct{})
	go func() {
		err := tf6server.Serve(addr, func() tfprotov6.ProviderServer { return providerserver.NewProtocol6(testProvider())() },
			tf6server.WithDebug(ctx, reattach, closed), tf6server.WithGoPluginLogger(hclog.NewNullLogger()), tf6server.WithLoggingSink(t))
		if err != nil {
			t.Errorf("serving the provider: %v", err)
		}
	}()
	var rc *plugin.ReattachConfig
	select {
	case rc = <-reattach:
	case <-time.After(30 * time.Second):
		t.Fatal("the provider server did not start")
	}
	t.Cleanup(func() {
		cancel()
		<-closed
	})
	type reattachAddr struct{ Network, String string }
	b, err := json.Marshal(map[string]any{addr: struct {
		Protocol        string
		ProtocolVersion int
		Pid             int
		Test            bool
		Addr            reattachAddr
	}{string(rc.Protocol), rc.ProtocolVersion, rc.Pid, true, reattachAddr{rc.Addr.Network(), rc.Addr.String()}}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
