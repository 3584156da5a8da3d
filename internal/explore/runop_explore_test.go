//go:build explore

package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// result is what one operation did.
type result struct {
	step  step // as run: a kill the model cannot follow is taken off
	e     expect
	o     observed
	out   string
	err   error
	kp    *killPlan // a kill's plan
	fired bool      // the kill fired
	extra []string  // other-dir's mismatches after its check (its destroy)
}

// op runs operation st: releases the hung jobs (releasesFirst),
// asks the model, writes the configuration, arms the fault or the kill,
// runs the CLI, and observes the state and the emulator's jobs.
func (r *run) op(n int, st step) result {
	if releasesFirst(st.Name) {
		r.px.release(r.m.releases())
	}
	if isKill(st.Fault) && !r.m.killable() {
		st.Fault = ""
	}
	res := result{step: st}
	a := r.m.target(st)
	switch {
	case isKill(st.Fault):
		kp, e := r.m.opKill(st)
		res.kp, res.e = &kp, e
	case r.old: // the previous release's step: its plan, to take what it left (scene)
		kp, e := r.m.opPlanned(st, st.Fault)
		res.kp, res.e = &kp, e
	default:
		res.e = r.m.op(st)
	}
	switch {
	case res.e.Skip:
		return res
	case st.Name == "other-dir":
		return r.otherDir(res)
	case st.Name == "adopt":
		r.ids[n] = res.e.Arg
	}
	if res.err = writeConfig(r.dir, r.m.cfg); res.err != nil {
		return res
	}
	before := len(r.srv.Jobs())
	r.prepare(st, res.e, a)
	trig := arm(r.px, r.srv, st, before)
	res.out, res.o.Failed, res.fired = r.commands(st, a, res.e, trig)
	r.px.disarm()
	r.srv.ClearFaults()
	if isKill(st.Fault) {
		if os.Getenv("EXPLORE_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "DEBUG %s fired=%t failed=%t jobs %d->%d kp.Max=%d\n%s\n", st, res.fired, res.o.Failed, before, len(r.srv.Jobs()), res.kp.Max, res.out)
		}
		if res.err = r.afterKill(); res.err != nil {
			return res
		}
	}
	res.o.State, res.o.Triggers, res.err = r.readState(r.dir, "main", r.m.ws)
	res.o.Jobs, res.o.Before = r.srv.Jobs(), before
	return res
}

// prepare does to the service what a step asks before its commands: the
// purge of the target's job, the end of a journal's job or of the
// target's, the deletion of a template.
func (r *run) prepare(st step, e expect, a string) {
	switch {
	case st.Name == "purge":
		r.srv.PurgeJob(e.Keep[a])
	case st.Name == "end-orphan" && e.End.Status == "PURGED":
		r.srv.PurgeJob(e.End.Job)
	case st.Name == "end-orphan" || st.Name == "end-job":
		r.px.release([]release{e.End})
	case st.Name == "delete-template":
		r.srv.DeleteTemplate(templates[st.Value%len(templates)])
	}
}

// commands runs the CLI commands of st (the last one with its kill);
// it returns their output, whether one failed, and whether the kill fired.
func (r *run) commands(st step, a string, e expect, trig <-chan struct{}) (string, bool, bool) {
	args := cliArgs(st, a, e.Arg)
	if st.Name == "adopt" && !e.InState {
		args = args[1:] // nothing to state rm
	}
	var out strings.Builder
	for i, arg := range args {
		var text string
		var failed, fired bool
		if isKill(st.Fault) && i == len(args)-1 {
			text, failed, fired = r.cliKill(r.dir, arg, st.Fault, trig)
		} else {
			text, failed = r.cli(r.dir, arg...)
		}
		out.WriteString("$ " + strings.Join(arg, " ") + "\n" + text)
		if failed {
			return out.String(), true, fired
		}
	}
	return out.String(), false, false
}

// afterKill does what a user does after a killed apply: a remote state's
// lock, left behind, is dropped (terraform force-unlock); a local state
// file found empty is restored (restoreState).
func (r *run) afterKill() error {
	if r.st != nil {
		r.st.Unlock("main")
		return nil
	}
	restored, err := restoreState(r.dir, r.m.ws)
	if restored && r.fig != nil {
		r.fig.Restores++
	}
	return err
}

// arm sets up the fault or the kill of step st; the channel (nil: none)
// fires when a kill's moment comes.
func arm(px *proxy, srv *emulator.Server, st step, before int) <-chan struct{} {
	burst := func(status int, es ...emulator.Endpoint) {
		for _, e := range es {
			srv.InjectFault(emulator.Fault{Endpoint: e, Count: 2, Status: status})
		}
	}
	switch st.Fault {
	case "hang", "hang-error":
		px.setHang(true, before)
	case "kill-wait", "kill-provider", "interrupt":
		px.setHang(true, before)
		return px.armKill("poll", 0)
	case "kill-upload":
		return px.armKill("upload", st.Value)
	case "429-start":
		burst(429, emulator.EndpointStartWithFile, emulator.EndpointStartWithData)
	case "503-get":
		burst(503, emulator.EndpointGetJob, emulator.EndpointGetJobStatus)
	case "503-submit":
		burst(503, emulator.EndpointSubmitJob)
	}
	return nil
}

// otherDir applies the configuration in a second directory (other/, its
// own state and data directory, the same service), observes it for the
// check, then destroys it once its jobs ended; a failed destroy or a
// state left is a mismatch.
func (r *run) otherDir(res result) result {
	dir := filepath.Join(r.base, "other")
	defer os.RemoveAll(dir)
	if res.err = r.initDir(dir, "other"); res.err != nil {
		return res
	}
	before := len(r.srv.Jobs())
	var out strings.Builder
	for i, args := range cliArgs(res.step, "", "") {
		text, failed := r.cli(dir, args...)
		fmt.Fprintf(&out, "$ (other-dir) %s\n%s", strings.Join(args, " "), text)
		state, _, err := r.readState(dir, "other", "default")
		switch {
		case err != nil:
			res.err = err
			return res
		case i == 0:
			res.o = observed{Failed: failed, State: state, Jobs: r.srv.Jobs(), Before: before}
			r.waitFinal(before)
		case failed:
			res.extra = append(res.extra, "terraform destroy failed")
		case len(state) > 0:
			res.extra = append(res.extra, fmt.Sprintf("the state still holds %d instances after terraform destroy", len(state)))
		}
	}
	res.out = out.String()
	return res
}

// waitFinal waits (2 s at most) until the jobs started from before on
// ended, so that a destroy with cancel_on_destroy cancels none.
func (r *run) waitFinal(before int) {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		jobs := r.srv.Jobs()
		open := false
		for _, j := range jobs[min(before, len(jobs)):] {
			open = open || !emulator.IsFinal(j.Status)
		}
		if !open {
			return
		}
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
