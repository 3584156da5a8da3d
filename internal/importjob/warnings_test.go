package importjob

import (
	"strings"
	"testing"
)

// TestWarningWords: each warning of a plan of a live object names the
// job, is about its attribute, and says what is done and what to run;
// NoWarning says nothing.
func TestWarningWords(t *testing.T) {
	for _, tc := range []struct {
		w                     Warning
		status                string
		attr, summary, detail string
	}{
		{WarnSubmitGone, "NOT_FOUND", "submit", "Import job 7 cannot be submitted", "no longer knows job 7 (status NOT_FOUND), so it cannot be submitted: submit = true is recorded and nothing is sent. To import the data again with a new job, run: replace it."},
		{WarnSubmitReplaces, "EXPIRED", "submit", "Turning submit on replaces import job 7", "Job 7 is EXPIRED: it was never submitted"},
		{WarnFailedReplaced, "ERROR", "status", "Import job 7 ended with status ERROR: a new job is planned", "Job 7 ended with status ERROR, so the service imported none of its data (the reason is in the job's details in the service's own application). This plan replaces it with one new job that imports the data of this configuration; fix the cause first, or the new job fails the same way. To keep the failed job in the state instead, set keep_failed = true."},
		{WarnRehashed, "COMPLETED", "inputs", "Template input ids changed; the job is kept", "The input ids of template t1 changed on the service since job 7 was loaded"},
	} {
		attr, summary, detail := tc.w.Words("7", tc.status, "t1", "replace it")
		if attr != tc.attr || summary != tc.summary || !strings.Contains(detail, tc.detail) {
			t.Errorf("warning %d: %q, %q, %q", tc.w, attr, summary, detail)
		}
	}
	if attr, summary, detail := NoWarning.Words("7", "", "t1", ""); attr+summary+detail != "" {
		t.Errorf("NoWarning says %q %q %q", attr, summary, detail)
	}
}
