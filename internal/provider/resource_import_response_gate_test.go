package provider

import (
	"slices"
	"testing"
	"time"
)

// fakeGate is a responseGate on a clock that only its sleeps advance; it
// records each wait.
func fakeGate() (*responseGate, *[]time.Duration) {
	now := time.Unix(1000, 0)
	var waits []time.Duration
	g := &responseGate{spacing: 200 * time.Millisecond, now: func() time.Time { return now }}
	g.sleep = func(d time.Duration) {
		waits = append(waits, d)
		now = now.Add(d)
	}
	return g, &waits
}

func TestResponseGate(t *testing.T) {
	g, waits := fakeGate()
	g.pass(false) // successes pass at once, one after the other
	g.pass(false)
	if len(*waits) != 0 {
		t.Fatalf("waits after two successes = %v, want none", *waits)
	}
	g.pass(true) // a failed create with an object: spacing after the last response
	g.pass(true) // and after it, the next failed one
	g.pass(false)
	want := []time.Duration{200 * time.Millisecond, 200 * time.Millisecond, 200 * time.Millisecond}
	if !slices.Equal(*waits, want) {
		t.Fatalf("waits = %v, want %v", *waits, want)
	}
	g.now = func() time.Time { return time.Unix(1001, 0) } // a second later: nothing to wait for
	g.pass(true)
	g.now = func() time.Time { return time.Unix(1002, 0) }
	g.pass(true)
	if len(*waits) != 3 {
		t.Fatalf("waits after responses a second apart = %v, want no more", *waits)
	}
}

// At Ctrl-C, Terraform stops the provider and every request is cancelled:
// the creates cut short fail with their objects together, and must still
// leave spaced out (Terraform 1.16.0 crashed in 2 of 6 interrupted applies
// of 4 such creates, explorer seed 1855, while a cancelled request did not
// wait; 0 of 9 since).
// The gate sees no request's context: a cancelled one cannot cut its wait.
func TestResponseGate_cancelledStillWaits(t *testing.T) {
	g := &responseGate{spacing: 50 * time.Millisecond, now: time.Now, sleep: time.Sleep}
	start := time.Now()
	g.pass(true)
	g.pass(true) // waits the spacing, cancelled or not
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Fatalf("two failed creates of cancelled requests left %v apart, want at least 50ms", d)
	}
}
