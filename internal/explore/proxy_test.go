package explore

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// proxy serves the emulator, and makes jobs hang for the hang faults:
// while hanging, every job started from base on is forced RUNNING (and a
// submit of a hung job forced SUBMITTED), with no final status planned,
// until released. Armed for a kill, it fires its trigger when the moment
// comes: at the first status read of a hung job (a provider waits), or
// when an upload arrives after pass others went through and were
// answered; that upload is held, part of its body read, and never reaches
// the emulator.
type proxy struct {
	srv     *emulator.Server
	mu      sync.Mutex
	hanging bool
	base    int             // jobs before the hanging operation
	hung    map[string]bool // jobs hung, not released
	kill    string          // the armed kill's trigger: "upload", "poll" or ""
	pass    int             // uploads to let through before one is held
	passing int             // uploads let through and not answered yet
	fired   chan struct{}   // closed when the trigger fires
	unhold  chan struct{}   // closed by disarm: the uploads held end
}

func newProxy(srv *emulator.Server) *proxy { return &proxy{srv: srv, hung: map[string]bool{}} }

// setHang starts (with the number of jobs so far) or stops hanging new jobs.
func (p *proxy) setHang(on bool, base int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hanging, p.base = on, base
}

// armKill arms the trigger of a kill: "upload" (after pass uploads) or
// "poll"; the channel is closed when it fires.
func (p *proxy) armKill(trigger string, pass int) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kill, p.pass, p.fired, p.unhold = trigger, pass, make(chan struct{}), make(chan struct{})
	return p.fired
}

// disarm stops hanging new jobs and disarms the kill, ending the uploads held.
func (p *proxy) disarm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hanging, p.kill = false, ""
	if p.unhold != nil {
		close(p.unhold)
		p.unhold = nil
	}
}

// fireLocked fires the trigger, once; p.mu is held.
func (p *proxy) fireLocked() {
	select {
	case <-p.fired:
	default:
		close(p.fired)
	}
}

// release ends hung jobs with their status.
func (p *proxy) release(rs []release) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range rs {
		delete(p.hung, r.Job)
		p.srv.SetJobStatus(r.Job, r.Status)
	}
}

// ServeHTTP passes the request to the emulator; a start while hanging, or
// a submit of a hung job, is answered only once its job is forced; an
// upload a kill holds never reaches it.
func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, emulator.BasePath+"/")
	seg := strings.Split(path, "/")
	start := len(seg) == 3 && seg[0] == "templates" && strings.HasPrefix(seg[2], "startWith")
	submit := len(seg) == 3 && seg[0] == "jobs" && seg[2] == "submit"
	poll := r.Method == http.MethodGet && seg[0] == "jobs" && (len(seg) == 2 || len(seg) == 3 && seg[2] == "status")
	p.mu.Lock()
	hold, unhold := start && p.kill == "upload" && p.pass <= 0, p.unhold
	passed := start && p.kill == "upload" && !hold
	if start && p.kill == "upload" {
		p.pass--
	}
	if passed {
		p.passing++
	}
	if poll && p.kill == "poll" && p.hung[seg[1]] {
		p.fireLocked()
	}
	intercept := (start && p.hanging) || (submit && p.hung[seg[1]])
	p.mu.Unlock()
	if hold {
		p.hold(w, r, unhold)
		return
	}
	if passed {
		defer p.answered()
	}
	if !intercept {
		p.srv.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	p.srv.ServeHTTP(rec, r)
	p.mu.Lock()
	if start {
		p.hangNewLocked()
	} else if rec.Code < 300 {
		p.srv.SetJobStatus(seg[1], emulator.StatusSubmitted)
	}
	p.mu.Unlock()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// hangNewLocked forces every job started since base and not hung yet
// RUNNING for good; p.mu is held. Whatever its status: each start hangs
// its own job before it answers, so only the emulator's run time can have
// ended it, when more than that time passed before the proxy got the lock
// (a busy machine: CI's Terraform 1.16 run saw a job of a hung apply
// COMPLETE that way, its instance untainted).
func (p *proxy) hangNewLocked() {
	jobs := p.srv.Jobs()
	for _, j := range jobs[min(p.base, len(jobs)):] {
		if !p.hung[j.ID] {
			p.hung[j.ID] = true
			p.srv.SetJobStatus(j.ID, emulator.StatusRunning)
		}
	}
}

// hold reads part of an upload's body, fires the trigger once the uploads
// let through were answered (waitPassed), and waits for the client to go
// (killed) or the kill to be disarmed.
func (p *proxy) hold(w http.ResponseWriter, r *http.Request, unhold <-chan struct{}) {
	_, _ = io.CopyN(io.Discard, r.Body, max(r.ContentLength/2, 1))
	p.waitPassed(r.Context(), unhold)
	p.mu.Lock()
	p.fireLocked()
	p.mu.Unlock()
	select {
	case <-r.Context().Done():
	case <-unhold:
	}
	http.Error(w, "held by the explorer's kill", http.StatusServiceUnavailable)
}

// answered counts an upload let through as answered.
func (p *proxy) answered() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.passing--
}

// waitPassed waits until every upload let through was answered, or the
// held request or the kill ends. The creates run at once: without it, an
// upload let through could still be in the emulator when the next one is
// held, and the kill strike before its job's id reached the provider (no
// journal can hold a job whose answer never came; CI's Terraform 1.16
// run met it, seed 1147, on a busy machine).
func (p *proxy) waitPassed(ctx context.Context, unhold <-chan struct{}) {
	for {
		p.mu.Lock()
		n := p.passing
		p.mu.Unlock()
		if n <= 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-unhold:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}
