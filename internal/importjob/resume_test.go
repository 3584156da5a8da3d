package importjob

import (
	"slices"
	"testing"
)

func TestEntry_claimable(t *testing.T) {
	for _, c := range []struct {
		e    Entry
		want bool
	}{
		{Entry{}, true},
		{Entry{Held: true}, false},
		{Entry{RunAlive: true}, false},
		{Entry{HandedOver: true, RunAlive: true}, true},
	} {
		if got := c.e.Claimable(); got != c.want {
			t.Errorf("%+v.Claimable() = %v, want %v", c.e, got, c.want)
		}
	}
}

// A new object settles the oldest claimable entry of its key, whatever
// change it was for; a replacement only one of the same replaced job (or
// one handed over).
func TestSettle_claims(t *testing.T) {
	entries := []Entry{
		{Job: ref("held"), Key: "A", Held: true},
		killed("forP", "A", "P"),
		killed("new", "A", ""),
		{Job: ref("handed"), Key: "A", HandedOver: true, RunAlive: true},
	}
	for _, c := range []struct {
		create Create
		want   string
	}{
		{Create{Key: "A"}, "forP"},
		{Create{Key: "A", Replaces: ref("P")}, "forP"},
		{Create{Key: "A", Replaces: ref("Q")}, "handed"},
		{Create{Key: "B"}, ""},
		{Create{Key: ""}, ""},
	} {
		s := Settle(entries, c.create)
		got := ""
		if s.Claim != nil {
			got = s.Claim.Job.ID()
		}
		if got != c.want {
			t.Errorf("Settle(%+v) claims %q, want %q", c.create, got, c.want)
		}
	}
	if s := Settle([]Entry{entries[3]}, Create{Key: "A", Replaces: ref("T")}); s.Claim == nil {
		t.Error("a tainted object's replacement did not claim the job handed over")
	}
}

// A tainted object is planned as new: its replacement's create settles an
// entry of its key whatever its prior (explorer seed 31955 on OpenTofu:
// the plan said "will be resumed", the apply, told by the Delete that it
// replaced the tainted job, started a second job for the same data), after
// the tainted object's own entries; it still drops what a replacement of
// its job drops, and notes the entries left as a new object's create does.
func TestSettle_taintedReplacedAsNew(t *testing.T) {
	entries := []Entry{killed("forQ", "A", "Q"), killed("forT", "A", "T"), killed("otherForT", "B", "T"), killed("b", "B", "")}
	tainted := Create{Key: "A", Replaces: ref("T"), Tainted: true}
	if s := Settle(entries, tainted); s.Claim == nil || s.Claim.Job != ref("forT") {
		t.Errorf("Settle(%+v) claims %+v, want forT, the tainted job's own entry", tainted, s.Claim)
	}
	s := Settle(entries[:1], tainted)
	if s.Claim == nil || s.Claim.Job != ref("forQ") {
		t.Errorf("Settle(%+v) of forQ alone claims %+v, want forQ, as a new object's create", tainted, s.Claim)
	}
	if s := Settle(entries[:1], Create{Key: "A", Replaces: ref("T")}); s.Claim != nil {
		t.Errorf("a live object's replacement claims %+v, want nothing: forQ is another change's", s.Claim)
	}
	s = Settle(entries[2:], tainted)
	if len(s.Drops) != 1 || s.Drops[0].Entry.Job != ref("otherForT") || s.Drops[0].Reason != PriorReplaced || !slices.Equal(s.MayBe, refs("b")) {
		t.Errorf("Settle(%+v) of B's entries = %+v; want otherForT dropped (T replaced with other data), b noted", tainted, s)
	}
}

// The steps 1 to 3: job 1 (rows A) killed; the resource created
// anew with rows B (job 2) notes job 2 in job 1's entry; its replacement
// with rows A does not settle job 1 but drops it.
func TestSettle_editBackAfterKill(t *testing.T) {
	entries := []Entry{killed("1", "A", "")}
	s := Settle(entries, Create{Key: "B"})
	if s.Claim != nil || !slices.Equal(s.MayBe, refs("1")) {
		t.Fatalf("rows B: %+v; want no claim, job 1 noted", s)
	}
	entries[0].MayBe = refs("2")
	s = Settle(entries, Create{Key: "A", Replaces: ref("2")})
	if s.Claim != nil || len(s.Drops) != 1 || s.Drops[0].Reason != MovedOn {
		t.Fatalf("rows A again: %+v; want job 1 dropped (moved on), none claimed", s)
	}
}

// A replacement of P with other data drops the entry that was to replace
// P; entries of live runs and of other changes are left alone.
func TestSettle_drops(t *testing.T) {
	entries := []Entry{
		killed("toB", "B", "P"),
		{Job: ref("running"), Key: "B", Prior: ref("P"), RunAlive: true},
		killed("other", "B", "Q"),
	}
	s := Settle(entries, Create{Key: "C", Replaces: ref("P")})
	if s.Claim != nil || len(s.Drops) != 1 || s.Drops[0].Entry.Job != ref("toB") || s.Drops[0].Reason != PriorReplaced {
		t.Fatalf("Settle = %+v; want toB dropped alone", s)
	}
	if len(s.MayBe) != 0 {
		t.Fatalf("a replacement notes itself in %v; want nothing", s.MayBe)
	}
}

// A destroy drops the entries that were to replace its job, and those its
// object may be the resource of.
func TestDestroy(t *testing.T) {
	entries := []Entry{
		killed("toB", "B", "P"),
		{Job: ref("maybe"), Key: "A", MayBe: refs("P")},
		killed("other", "A", ""),
		{Job: ref("P"), Key: "A"},
	}
	drops := Destroy(entries, ref("P"))
	if len(drops) != 2 || drops[0].Reason != PriorDestroyed || drops[1].Reason != MovedOn {
		t.Fatalf("Destroy = %+v; want toB (prior destroyed) and maybe (moved on)", drops)
	}
}
