package etl

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// twoStepLoads are a file for each input of the emulator's two-step
// template, in its step order.
func twoStepLoads() []InputLoad {
	return []InputLoad{
		{InputID: emulator.TwoStepActualsInputID, File: fileOf([]byte("Account,Amount\n4000,1\n"), FormatCSV, EncodingUTF8, "actuals.csv")},
		{InputID: emulator.TwoStepRatesInputID, File: fileOf([]byte("Currency,Rate\nEUR,1.08\n"), FormatCSV, EncodingUTF8, "rates.csv")},
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
			*f = fileOf(rates, FormatCSV, EncodingUTF8, "usd.csv")
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
	ctx := context.Background()
	t.Run("cancelled", func(t *testing.T) {
		e, c := startEmulator(t, emulator.Options{})
		id := createTwoStep(t, c)
		e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointUploadJobFile, Count: 1, Status: http.StatusUnprocessableEntity})
		err := c.LoadInputs(ctx, id, twoStepLoads(), nil)
		var le *LoadError
		if !errors.As(err, &le) || le.Index != 0 || le.InputID != emulator.TwoStepActualsInputID || StatusCode(err) != http.StatusUnprocessableEntity ||
			le.CancelErr != nil || le.Cancelled == nil || le.Cancelled.Status != StatusCancelled {
			t.Fatalf("LoadInputs = %#v, want the first load's 422 and the job cancelled", err)
		}
		if n := e.Requests(emulator.EndpointUploadJobFile); n != 1 {
			t.Errorf("%d loads, want 1: none after the failed one", n)
		}
		if j, _ := e.Job(id); j.Status != emulator.StatusCancelled {
			t.Errorf("job %s, want CANCELLED", j.Status)
		}
	})
	t.Run("cancel fails too", func(t *testing.T) {
		e, c := startEmulator(t, emulator.Options{})
		id := createTwoStep(t, c)
		e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointUploadJobFile, Count: 1, Status: http.StatusUnprocessableEntity})
		e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointCancelJob, Count: 1, Status: http.StatusBadRequest})
		var le *LoadError
		if err := c.LoadInputs(ctx, id, twoStepLoads(), nil); !errors.As(err, &le) || le.Cancelled != nil || StatusCode(le.CancelErr) != http.StatusBadRequest {
			t.Fatalf("LoadInputs = %#v, want the cancel's 400", err)
		}
		if j, _ := e.Job(id); j.Status != emulator.StatusEditing {
			t.Errorf("job %s, want EDITING", j.Status)
		}
	})
	t.Run("time of its own", func(t *testing.T) {
		e, c := startEmulator(t, emulator.Options{})
		id := createTwoStep(t, c)
		ended, cancel := context.WithCancel(ctx)
		cancel()
		var le *LoadError
		if err := c.LoadInputs(ended, id, twoStepLoads(), nil); !errors.As(err, &le) || !errors.Is(err, context.Canceled) || le.Cancelled == nil {
			t.Fatalf("LoadInputs with its context ended = %#v, want the context's error and the job cancelled", err)
		}
		if j, _ := e.Job(id); j.Status != emulator.StatusCancelled {
			t.Errorf("job %s, want CANCELLED", j.Status)
		}
	})
}
