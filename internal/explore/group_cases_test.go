package explore

import "testing"

// settleRange against the guide's rule of which create settles which
// entry, in every order the creates may run.
func TestSettleRange(t *testing.T) {
	d := defOf(rows("r0", 0, true))
	cases := []struct {
		name    string
		made    map[string]string // member -> its prior
		tainted int
		entries []*entry
		lo, hi  int
	}{
		{"a new object, an entry of a new object", map[string]string{"x": ""}, 0, []*entry{newEntry("E", d, "")}, 1, 1},
		{"a new object, an entry of a replacement", map[string]string{"x": ""}, 0, []*entry{newEntry("E", d, "P")}, 1, 1},
		{"a replacement of Q, an entry of a new object", map[string]string{"x": "Q"}, 0, []*entry{newEntry("E", d, "")}, 0, 0},
		{"a replacement of Q, an entry of Q's", map[string]string{"x": "Q"}, 0, []*entry{newEntry("E", d, "Q")}, 1, 1},
		{"a replacement of Q, an entry of Q's or a new object's", map[string]string{"x": "Q"}, 0, []*entry{newEntry("E", d, "", "Q")}, 0, 1},
		{"a tainted object and an entry: one or the other", map[string]string{"x": ""}, 1, []*entry{newEntry("E", d, "")}, 1, 1},
		{"a tainted object, a replacement of Q, an entry of a new object", map[string]string{"x": "", "y": "Q"}, 1,
			[]*entry{newEntry("E", d, "")}, 1, 2},
		{"a new object and a replacement of Q, an entry of a new object", map[string]string{"x": "", "y": "Q"}, 0,
			[]*entry{newEntry("E", d, "")}, 1, 1},
		{"two new objects, three entries", map[string]string{"x": "", "y": ""}, 0,
			[]*entry{newEntry("E1", d, ""), newEntry("E2", d, ""), newEntry("E3", d, "")}, 2, 2},
		{"an entry that may be gone", map[string]string{"x": ""}, 0, []*entry{{Job: "E", Def: d, Priors: map[string]bool{"": true}, Maybe: true}}, 0, 1},
		{"an entry another create drops, in either order", map[string]string{"x": ""}, 0,
			[]*entry{{Job: "E", Def: d, Priors: map[string]bool{"": true}, Drop: "z"}}, 0, 1},
		{"an entry its own create drops", map[string]string{"x": ""}, 0,
			[]*entry{{Job: "E", Def: d, Priors: map[string]bool{"": true}, Drop: "x"}}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newModel(config{})
			m.made = c.made
			lo, hi := m.settleRange(sortedKeys(c.made), c.tainted, c.entries)
			if lo != c.lo || hi != c.hi {
				t.Errorf("%d to %d resumed, want %d to %d", lo, hi, c.lo, c.hi)
			}
		})
	}
}
