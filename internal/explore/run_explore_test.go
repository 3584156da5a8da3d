//go:build explore

package explore

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/httpstate"
	"github.com/etl-provider/terraform-provider-etl/internal/orphans"
)

// outcome is how a sequence ended: At is the step whose check failed (-1:
// none), with the mismatches and the notable lines of its output; IDs
// the jobs it adopted, by step, for the reproducer.
type outcome struct {
	At       int
	Problems []string
	Notes    []string
	Output   string // the CLI's whole output at the failing step
	IDs      map[int]string
}

// run is one sequence running: its emulator (behind the proxy), its
// directory (initialised, with the http backend on a state server of its
// own if remote), and the model.
type run struct {
	s    setup
	q    sequence
	fig  *figures // nil while shrinking
	m    *model
	srv  *emulator.Server
	px   *proxy
	ts   *httptest.Server
	st   *httpstate.Server // nil: a local state file
	base string            // main/ (the configuration's directory) and other/ (other-dir)
	dir  string
	old  bool // the previous release of the provider runs
	ids  map[int]string
}

// runSeq runs q with a new emulator in a new directory, checking each
// operation against the model; fig (nil while shrinking) counts steps.
func (s setup) runSeq(q sequence, fig *figures) outcome {
	r, err := s.newRun(q, fig)
	if err != nil {
		return outcome{At: 0, Problems: []string{err.Error()}}
	}
	defer r.close()
	for n, st := range q.Steps {
		switch {
		case st.Kind == stepEdit:
			r.m.cfg = applyEdit(r.m.cfg, st)
			fig.countStep(st, false)
			continue
		case st.Name == "upgrade":
			r.upgrade()
			fig.countStep(st, false)
			continue
		}
		res := r.op(n, st)
		fig.countStep(res.step, res.e.Skip)
		if res.err != nil {
			return outcome{At: n, Problems: []string{res.err.Error()}, Notes: notable(res.out), Output: res.out, IDs: r.ids}
		}
		if res.e.Skip {
			continue
		}
		if problems := r.verify(res); len(problems) > 0 {
			if strings.Contains(res.out, cliTimedOutNote) {
				problems = append([]string{cliTimedOutNote}, problems...)
			}
			if crash := cliCrash(res.out); crash != "" {
				problems = append([]string{crash}, problems...)
			}
			return outcome{At: n, Problems: problems, Notes: notable(res.out), Output: res.out, IDs: r.ids}
		}
	}
	return outcome{At: -1, IDs: r.ids}
}

// newRun starts what sequence q needs, and runs terraform init.
func (s setup) newRun(q sequence, fig *figures) (*run, error) {
	srv := emulator.New(s.Emulator)
	r := &run{s: s, q: q, fig: fig, srv: srv, px: newProxy(srv), m: newModel(q.Init), ids: map[int]string{}}
	r.ts = httptest.NewServer(r.px)
	base, err := os.MkdirTemp("", "explore-")
	if err != nil {
		r.ts.Close()
		return nil, err
	}
	r.base, r.dir = base, filepath.Join(base, "main")
	r.old = q.Previous && s.OldCLIConfig != ""
	r.m.remote, r.m.old, r.m.createTriggers = q.Remote, r.old, s.Tofu
	if q.Remote {
		r.st = httpstate.Start()
	}
	if err := r.initDir(r.dir, "main"); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// close stops what the sequence left running (the orphaned provider
// processes first) and removes its directories.
func (r *run) close() {
	orphans.Stop(r.base, func(exe string) bool { return contains(r.s.Exes, exe) })
	r.px.disarm()
	r.ts.Close()
	if r.st != nil {
		r.st.Close()
	}
	_ = os.RemoveAll(r.base)
}

// stateURL is the address of the state name on the state server ("": a
// local state file).
func (r *run) stateURL(name string) string {
	if r.st == nil {
		return ""
	}
	return r.st.URL(name)
}

// initDir writes the configuration and the backend into dir, then runs
// terraform init: the provider keeps its journal in .terraform.
func (r *run) initDir(dir, name string) error {
	if err := writeConfig(dir, r.m.cfg); err != nil {
		return err
	}
	if err := writeBackend(dir, r.stateURL(name)); err != nil {
		return err
	}
	if out, failed := r.cli(dir, "init", "-input=false", "-no-color"); failed {
		return errors.New("terraform init failed:\n" + out)
	}
	// Terraform 1.16 installs nothing for a provider under dev_overrides,
	// and with a local state makes no .terraform: the data directory a
	// user's init makes (installing the provider), where the journal lives.
	return os.MkdirAll(filepath.Join(dir, ".terraform"), 0o755)
}

// cliConfig is the CLI configuration of the provider that runs now.
func (r *run) cliConfig() string {
	if r.old {
		return r.s.OldCLIConfig
	}
	return r.s.CLIConfig
}

// cli runs the CLI in dir with the emulator and the provider that runs now.
func (r *run) cli(dir string, args ...string) (string, bool) {
	return r.s.cli(r.cliConfig(), dir, r.ts.URL, args...)
}

// upgrade switches from the previous release to the provider under test.
func (r *run) upgrade() {
	if r.old && r.fig != nil {
		r.fig.Upgrades++
	}
	r.old, r.m.old = false, false
}

// verify checks what an operation left, and the model learns from it: a
// kill that fired loosely, then from what it left; any other operation
// (a kill that did not fire is the apply it would have been) exactly; one
// the previous release ran only sets the scene (takeScene).
func (r *run) verify(res result) []string {
	if r.old { // the previous release's step sets the scene (scene_test.go)
		r.fig.countScene(r.q.Seed, res.step, r.m.takeScene(*res.kp, res.e, res.o, res.fired))
		return nil
	}
	o := res.o
	started := len(o.Jobs) - o.Before
	if res.kp != nil && res.fired {
		problems := checkKill(*res.kp, res.e, o)
		r.fig.countKill(res.step.Fault, started, res.kp.Max)
		if len(problems) == 0 {
			r.m.learnKill(*res.kp, o)
		}
		return problems
	}
	ids, problems := check(res.e, o)
	lo, hi := res.e.jobs()
	r.fig.countJobs(min(max(started, lo), hi), started)
	for _, p := range res.extra {
		problems = append(problems, fmt.Sprintf("other-dir: %s", p))
	}
	if len(problems) == 0 && !res.e.Other {
		r.m.learn(ids)
	}
	return problems
}

// writeBackend writes dir's backend.tf for the http backend at url, or
// removes it ("": a local state file).
func writeBackend(dir, url string) error {
	p := filepath.Join(dir, "backend.tf")
	if url == "" {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	return os.WriteFile(p, []byte(backendHCL(url)), 0o644)
}
