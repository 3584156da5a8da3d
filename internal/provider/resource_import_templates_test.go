package provider

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// Concurrent lookups of one template by one client share one request; a
// failed read is not kept; another client reads for itself; without a
// cache, each lookup reads.
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
	r := &importResource{jobRunner: jobRunner{client: newClient(), templates: newTemplateCache()}}
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
	if _, err := (&importResource{jobRunner: jobRunner{client: newClient(), templates: r.templates}}).template(ctx, emulator.TwoStepTemplateID); err != nil {
		t.Fatal(err)
	}
	if n := e.Requests(emulator.EndpointGetTemplate); n != 4 {
		t.Errorf("%d requests, want 4: another client reads for itself", n)
	}
	uncached := &importResource{jobRunner: jobRunner{client: r.client}}
	for range 2 {
		if _, err := uncached.template(ctx, emulator.TwoStepTemplateID); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.Requests(emulator.EndpointGetTemplate); n != 6 {
		t.Errorf("%d requests, want 6: without a cache, each lookup reads", n)
	}
}

// A cache keeps at most templateCacheSize templates: the one read first
// goes first, and is read again when asked for.
func TestTemplateCache_bound(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{Instant: true})
	c := testClient(t, e)
	tc := newTemplateCache()
	ids := make([]string, templateCacheSize+1)
	for i := range ids {
		ids[i] = fmt.Sprintf("%d", 640000000000000000+i)
		_, _ = tc.get(ctx, c, ids[i]) // unknown ids: not kept
	}
	for range 2 {
		for _, id := range []string{emulator.TwoStepTemplateID, emulator.GLActualsTemplateID} {
			if _, err := tc.get(ctx, c, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(tc.m) != 2 || len(tc.order) != 2 {
		t.Fatalf("the cache keeps %d templates (%d in order) after failed reads, want the 2 read", len(tc.m), len(tc.order))
	}
	tc.m, tc.order = map[templateKey]*templateEntry{}, nil
	for i := range templateCacheSize {
		tc.m[templateKey{c, ids[i]}] = &templateEntry{done: make(chan struct{})}
		tc.order = append(tc.order, templateKey{c, ids[i]})
	}
	before := e.Requests(emulator.EndpointGetTemplate)
	if _, err := tc.get(ctx, c, emulator.TwoStepTemplateID); err != nil {
		t.Fatal(err)
	}
	if _, kept := tc.m[templateKey{c, ids[0]}]; kept || len(tc.m) != templateCacheSize || e.Requests(emulator.EndpointGetTemplate) != before+1 {
		t.Fatalf("a full cache keeps %d templates, the first kept: %v; want %d, the first gone", len(tc.m), kept, templateCacheSize)
	}
}
