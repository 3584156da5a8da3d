package provider

import (
	"sync"
	"time"
)

// responseSpacing is how long the responses of etl_import's creates,
// updates and deletes are kept apart from a create's that fails with its
// job kept (see responseGate).
const responseSpacing = 200 * time.Millisecond

// responseGate spaces out, in this process, a create that fails with an
// object (a wait cut short: the job stays in the state, tainted, for the
// next apply to resume) from the other responses. Terraform 1.16 (1.16.0
// to 1.16.4) writes such an object into its working state with no status for a moment,
// between two writes of its taint (hashicorp/terraform 504af32830,
// "Actions on_failure modes"); a snapshot of the state that another
// instance's apply takes in that moment panics ("has status
// ObjectStatus(0), which cannot be saved in state") and leaves a local
// state file empty. Four imports whose waits timed out together crashed
// Terraform 1.16.0 in 3 applies of 6, and 1.16.4 in 5 of 30 (none of 20
// gated); earlier versions and OpenTofu write the taint once. Spaced out, no other response is being processed in
// that moment; the cost is responseSpacing per failed create, and nothing
// while none fails.
type responseGate struct {
	mu                sync.Mutex
	spacing           time.Duration
	now               func() time.Time
	sleep             func(time.Duration)
	lastAny, lastFail time.Time
}

// pass returns when a response may leave: any response waits until
// spacing after the last create that failed with an object, and such a
// create (failedWithObject) until spacing after any response, even once
// its request is cancelled (the gate sees no context): at Ctrl-C,
// Terraform stops the provider, which cancels every request, and the
// creates cut short then fail with their objects together (4 of them
// crashed Terraform 1.16.0 in 3 applies of 3). The wait is at most
// spacing per failed create. A nil gate spaces nothing.
func (g *responseGate) pass(failedWithObject bool) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	until := g.lastFail.Add(g.spacing)
	if after := g.lastAny.Add(g.spacing); failedWithObject && after.After(until) {
		until = after
	}
	if d := until.Sub(g.now()); d > 0 {
		g.sleep(d)
	}
	g.lastAny = g.now()
	if failedWithObject {
		g.lastFail = g.lastAny
	}
}
