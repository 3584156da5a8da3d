//go:build explore

package explore

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// proxy serves the emulator, and makes jobs hang for the hang faults:
// while hanging, every job started from base on is forced RUNNING (and a
// submit of a hung job forced SUBMITTED), with no final status planned,
// until released.
type proxy struct {
	srv     *emulator.Server
	mu      sync.Mutex
	hanging bool
	base    int             // jobs before the hanging operation
	hung    map[string]bool // jobs hung, not released
}

func newProxy(srv *emulator.Server) *proxy { return &proxy{srv: srv, hung: map[string]bool{}} }

// setHang starts (with the number of jobs so far) or stops hanging new jobs.
func (p *proxy) setHang(on bool, base int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hanging, p.base = on, base
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
// a submit of a hung job, is answered only once its job is forced.
func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, emulator.BasePath+"/")
	seg := strings.Split(path, "/")
	start := len(seg) == 3 && seg[0] == "templates" && strings.HasPrefix(seg[2], "startWith")
	submit := len(seg) == 3 && seg[0] == "jobs" && seg[2] == "submit"
	p.mu.Lock()
	intercept := (start && p.hanging) || (submit && p.hung[seg[1]])
	p.mu.Unlock()
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

// hangNewLocked forces every job started since base, not final and not
// hung yet, RUNNING for good; p.mu is held.
func (p *proxy) hangNewLocked() {
	jobs := p.srv.Jobs()
	for _, j := range jobs[min(p.base, len(jobs)):] {
		if !p.hung[j.ID] && !emulator.IsFinal(j.Status) {
			p.hung[j.ID] = true
			p.srv.SetJobStatus(j.ID, emulator.StatusRunning)
		}
	}
}
