//go:build explore

package explore

import (
	"net/http/httptest"
	"os"
	"strings"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// outcome is how a sequence ended: At is the step whose check failed (-1:
// none), with the mismatches and the notable lines of its output.
type outcome struct {
	At       int
	Problems []string
	Notes    []string
}

// runSeq runs q with a new emulator in a new directory, checking each
// operation against the model; fig (nil while shrinking) counts steps.
func (s setup) runSeq(q sequence, fig *figures) outcome {
	srv := emulator.New(s.Emulator)
	px := newProxy(srv)
	ts := httptest.NewServer(px)
	defer ts.Close()
	dir, err := os.MkdirTemp("", "explore-")
	if err != nil {
		return outcome{At: 0, Problems: []string{err.Error()}}
	}
	defer os.RemoveAll(dir)
	m := newModel(q.Init)
	for n, st := range q.Steps {
		if st.Kind == stepEdit {
			m.cfg = applyEdit(m.cfg, st)
			fig.countStep(st, false)
			continue
		}
		e, o, out, err := s.runOp(dir, ts.URL, m, px, srv, st)
		fig.countStep(st, e.Skip)
		if err != nil {
			return outcome{At: n, Problems: []string{err.Error()}, Notes: notable(out)}
		}
		if e.Skip {
			continue
		}
		ids, problems := check(e, o)
		fig.countJobs(len(e.New), len(o.Jobs)-o.Before)
		if len(problems) > 0 {
			return outcome{At: n, Problems: problems, Notes: notable(out)}
		}
		m.learn(ids)
	}
	return outcome{At: -1}
}

// runOp runs operation st: releases the hung jobs (not before a
// destroy), asks the model, writes the configuration, arms the fault,
// runs the CLI, and observes the state and the emulator's jobs.
func (s setup) runOp(dir, url string, m *model, px *proxy, srv *emulator.Server, st step) (expect, observed, string, error) {
	if st.Name != "destroy" {
		px.release(m.releases())
	}
	a := ""
	if st.Block < len(m.cfg.Blocks) {
		a = addr(m.cfg.Blocks[st.Block], st.Index)
	}
	e := m.op(st)
	if e.Skip {
		return e, observed{}, "", nil
	}
	if err := writeConfig(dir, m.cfg); err != nil {
		return e, observed{}, "", err
	}
	before := len(srv.Jobs())
	if st.Name == "purge" {
		srv.PurgeJob(e.Keep[a])
	}
	arm(px, srv, st.Fault, before)
	var out strings.Builder
	failed := false
	for _, args := range cliArgs(st, a, e.Keep[a]) {
		text, f := s.cli(dir, url, args...)
		out.WriteString("$ " + strings.Join(args, " ") + "\n" + text)
		if failed = f; failed {
			break
		}
	}
	px.setHang(false, 0)
	srv.ClearFaults()
	state, err := readState(dir)
	return e, observed{Failed: failed, State: state, Jobs: srv.Jobs(), Before: before}, out.String(), err
}

// arm sets up fault for the next operation.
func arm(px *proxy, srv *emulator.Server, fault string, before int) {
	burst := func(status int, es ...emulator.Endpoint) {
		for _, e := range es {
			srv.InjectFault(emulator.Fault{Endpoint: e, Count: 2, Status: status})
		}
	}
	switch fault {
	case "hang", "hang-error":
		px.setHang(true, before)
	case "429-start":
		burst(429, emulator.EndpointStartWithFile, emulator.EndpointStartWithData)
	case "503-get":
		burst(503, emulator.EndpointGetJob, emulator.EndpointGetJobStatus)
	case "503-submit":
		burst(503, emulator.EndpointSubmitJob)
	}
}

// notable is the lines of a CLI's output worth showing with a mismatch:
// the commands, the warnings and errors with their next line.
func notable(out string) []string {
	var keep []string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.Contains(l, "development overrides") {
			continue
		}
		if strings.HasPrefix(l, "$ ") || strings.Contains(l, "Warning: ") || strings.Contains(l, "Error: ") {
			keep = append(keep, strings.TrimSpace(l))
			if i+2 < len(lines) && !strings.HasPrefix(l, "$ ") {
				keep = append(keep, "  "+strings.TrimSpace(lines[i+2]))
			}
		}
	}
	return keep
}
