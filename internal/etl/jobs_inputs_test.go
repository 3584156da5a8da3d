package etl

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// twoStepLoads are a file for each input of the emulator's two-step
// template, in its step order.
func twoStepLoads() []InputLoad {
	return []InputLoad{
		{InputID: emulator.TwoStepActualsInputID, File: fileOf([]byte("Account,Amount\n4000,1\n"), flatfile.FormatCSV, flatfile.EncodingUTF8, "actuals.csv")},
		{InputID: emulator.TwoStepRatesInputID, File: fileOf([]byte("Currency,Rate\nEUR,1.08\n"), flatfile.FormatCSV, flatfile.EncodingUTF8, "rates.csv")},
	}
}

// createTwoStep creates a job of the two-step template.
func createTwoStep(t *testing.T, c *Client) string {
	t.Helper()
	job, err := c.CreateJob(context.Background(), emulator.TwoStepTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	return job.ID
}

// TestLoadInputs: each file goes to its input, in order, between before
// and the function it returns; the file before leaves is the one sent.
func TestLoadInputs(t *testing.T) {
	e, c := startEmulator(t, emulator.Options{})
	id := createTwoStep(t, c)
	var events []string
	before := func(i int, f *FileUpload) func() {
		events = append(events, "before "+twoStepLoads()[i].InputID)
		if i == 1 { // the rates sent in place of the file
			rates := []byte("Currency,Rate\nUSD,1\n")
			*f = fileOf(rates, flatfile.FormatCSV, flatfile.EncodingUTF8, "usd.csv")
		}
		return func() { events = append(events, "done") }
	}
	if err := c.LoadInputs(context.Background(), id, twoStepLoads(), before); err != nil {
		t.Fatal(err)
	}
	want := []string{"before " + emulator.TwoStepActualsInputID, "done", "before " + emulator.TwoStepRatesInputID, "done"}
	if len(events) != len(want) || events[0] != want[0] || events[1] != want[1] || events[2] != want[2] || events[3] != want[3] {
		t.Errorf("events %v, want %v", events, want)
	}
	j, _ := e.Job(id)
	if j.Status != emulator.StatusEditing || len(j.Inputs) != 2 || j.Inputs[emulator.TwoStepRatesInputID].SHA256 != sha([]byte("Currency,Rate\nUSD,1\n")) {
		t.Errorf("job %s with inputs %+v, want both loaded, the rates as before replaced them, and the job EDITING", j.Status, j.Inputs)
	}
	if err := c.LoadInputs(context.Background(), id, nil, nil); err != nil {
		t.Errorf("no loads: %v", err)
	}
}

// TestLoadInputs_fails: a failed load stops the loads and cancels the job,
// with time of its own; a cancel that fails too is said.
func TestLoadInputs_fails(t *testing.T) {
	loadFails := emulator.Fault{Endpoint: emulator.EndpointUploadJobFile, Count: 1, Status: http.StatusUnprocessableEntity}
	cancelFails := emulator.Fault{Endpoint: emulator.EndpointCancelJob, Count: 1, Status: http.StatusBadRequest}
	for _, c := range []struct {
		name   string
		faults []emulator.Fault
		ended  bool // the caller's context has ended before the loads
		want   func(le *LoadError) bool
		status string // the job's, after
	}{
		{"cancelled", []emulator.Fault{loadFails}, false, func(le *LoadError) bool {
			return le.Index == 0 && le.InputID == emulator.TwoStepActualsInputID && StatusCode(le) == http.StatusUnprocessableEntity &&
				le.CancelErr == nil && le.Cancelled != nil && le.Cancelled.Status == StatusCancelled
		}, emulator.StatusCancelled},
		{"cancel fails too", []emulator.Fault{loadFails, cancelFails}, false, func(le *LoadError) bool {
			return le.Cancelled == nil && StatusCode(le.CancelErr) == http.StatusBadRequest
		}, emulator.StatusEditing},
		{"time of its own", nil, true, func(le *LoadError) bool {
			return errors.Is(le, context.Canceled) && le.Cancelled != nil
		}, emulator.StatusCancelled},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, cl := startEmulator(t, emulator.Options{})
			id := createTwoStep(t, cl)
			for _, f := range c.faults {
				e.InjectFault(f)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.ended {
				cancel()
			}
			var le *LoadError
			if err := cl.LoadInputs(ctx, id, twoStepLoads(), nil); !errors.As(err, &le) || !c.want(le) {
				t.Fatalf("LoadInputs = %#v", err)
			}
			if n := e.Requests(emulator.EndpointUploadJobFile); n > 1 {
				t.Errorf("%d loads, want none after the failed one", n)
			}
			if j, _ := e.Job(id); j.Status != c.status {
				t.Errorf("job %s, want %s", j.Status, c.status)
			}
		})
	}
}
