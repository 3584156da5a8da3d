package importjob

import "testing"

// What a plan does when what lies outside its configuration cannot be
// read: an error only for a new object.
func TestPlanUnreadable(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Holding
		want Unreadable
	}{
		{"a new object fails at plan", HoldsNothing, Unreadable{}},
		{"a live object keeps its data and warns", HoldsLive, Unreadable{Warn: true, KeepPrior: true}},
		{"a replacement warns and its Delete refuses", HoldsReplaced, Unreadable{Warn: true, RefuseDelete: true}},
		{"a tainted object's replacement likewise", HoldsTainted, Unreadable{Warn: true, RefuseDelete: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PlanUnreadable(tc.h); got != tc.want {
				t.Errorf("PlanUnreadable(%d) = %+v, want %+v", tc.h, got, tc.want)
			}
		})
	}
}
