package importjob

import (
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// TestWasSubmitted: the statuses a job reaches only through a submit (or
// a start), and those of a job never submitted that can no longer be.
func TestWasSubmitted(t *testing.T) {
	submitted := map[jobstatus.JobStatus]bool{jobstatus.StatusSubmitted: true, jobstatus.StatusWaiting: true, jobstatus.StatusCompleted: true, jobstatus.StatusError: true}
	for _, s := range jobstatus.AllStatuses {
		if got := WasSubmitted(s); got != submitted[s] {
			t.Errorf("WasSubmitted(%s) = %v, want %v", s, got, submitted[s])
		}
		if got, want := EndedUnsubmitted(s), s == jobstatus.StatusCancelled || s == jobstatus.StatusExpired; got != want {
			t.Errorf("EndedUnsubmitted(%s) = %v, want %v", s, got, want)
		}
	}
	if WasSubmitted("SOMETHING_NEW") || EndedUnsubmitted("SOMETHING_NEW") {
		t.Error("a status the service does not document counts as neither")
	}
}
