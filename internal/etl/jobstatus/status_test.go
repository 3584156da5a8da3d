package jobstatus

import "testing"

func TestStatusClassification(t *testing.T) {
	final := map[JobStatus]bool{StatusCompleted: true, StatusError: true, StatusCancelled: true, StatusExpired: true}
	failed := map[JobStatus]bool{StatusError: true, StatusCancelled: true, StatusExpired: true}
	if len(AllStatuses) != 10 {
		t.Fatalf("AllStatuses has %d entries, want 10", len(AllStatuses))
	}
	for _, s := range AllStatuses {
		if s.Final() != final[s] || s.Failed() != failed[s] {
			t.Errorf("%s: Final=%v Failed=%v", s, s.Final(), s.Failed())
		}
	}
	if JobStatus("FAILED").Final() {
		t.Error("an unknown status must not count as final")
	}
}
