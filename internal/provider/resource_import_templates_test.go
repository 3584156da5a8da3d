package provider

import (
	"context"
	"sync"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// Concurrent lookups of one template by one client share one request; a
// failed read is not kept; another client reads for itself.
func TestTemplateCache(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{Instant: true})
	newClient := func() *etl.Client {
		c, err := etl.New(etl.Config{BaseURL: e.URL, TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	r := &importResource{jobRunner: jobRunner{client: newClient()}}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tmpl, err := r.template(ctx, emulator.TwoStepTemplateID)
			if err != nil || len(tmpl.Steps) != 2 || tmpl.Steps[1].InputID != emulator.TwoStepRatesInputID {
				t.Errorf("template: %+v, %v", tmpl, err)
			}
		}()
	}
	wg.Wait()
	if n := e.Requests(emulator.EndpointGetTemplate); n != 1 {
		t.Errorf("%d requests for 20 lookups, want 1", n)
	}
	for range 2 {
		if _, err := r.template(ctx, unknownTemplateID); !etl.IsNotFound(err) {
			t.Errorf("unknown template: %v", err)
		}
	}
	if n := e.Requests(emulator.EndpointGetTemplate); n != 3 {
		t.Errorf("%d requests, want 3: a failed read is read again", n)
	}
	if _, err := (&importResource{jobRunner: jobRunner{client: newClient()}}).template(ctx, emulator.TwoStepTemplateID); err != nil {
		t.Fatal(err)
	}
	if n := e.Requests(emulator.EndpointGetTemplate); n != 4 {
		t.Errorf("%d requests, want 4: another client reads for itself", n)
	}
}
