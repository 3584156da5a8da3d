package etl

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sync"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

func TestEmulatorTemplates(t *testing.T) {
	_, c := startEmulator(t, emulator.Options{})
	ctx := context.Background()
	list, err := c.ListTemplates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(emulator.DefaultTemplates()) || list[0].ID != emulator.GLActualsTemplateID || list[0].Name != "GL Actuals" || list[0].ModelName != "Finance Plan" {
		t.Fatalf("templates = %+v", list)
	}
	if list[0].LastRunTime != nil || list[1].LastRunTime == nil || *list[1].LastRunTime != 1700000000000 {
		t.Fatalf("lastRunTime: %v %v", list[0].LastRunTime, list[1].LastRunTime)
	}
	if len(list[0].Steps) != 0 {
		t.Fatalf("list must not carry steps: %+v", list[0].Steps)
	}
	tpl, err := c.GetTemplate(ctx, emulator.GLActualsTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tpl.Steps) != 1 || tpl.Steps[0].InputID != emulator.GLActualsInputID || tpl.Steps[0].StepName == "" {
		t.Fatalf("steps = %+v", tpl.Steps)
	}
	_, err = c.GetTemplate(ctx, "999")
	if !IsNotFound(err) {
		t.Fatalf("unknown template: %v", err)
	}
}

// Concurrent lookups of one template by one client share one request; a
// failed read is not kept; another client reads for itself.
func TestCachedTemplate(t *testing.T) {
	ctx := context.Background()
	srv, c := startEmulator(t, emulator.Options{Instant: true})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			tmpl, err := c.CachedTemplate(ctx, emulator.TwoStepTemplateID)
			if err != nil || len(tmpl.Steps) != 2 || tmpl.Steps[1].InputID != emulator.TwoStepRatesInputID {
				t.Errorf("template: %+v, %v", tmpl, err)
			}
		})
	}
	wg.Wait()
	if n := srv.Requests(emulator.EndpointGetTemplate); n != 1 {
		t.Errorf("%d requests for 20 lookups, want 1", n)
	}
	const unknown = "640101874288689999"
	for range 2 {
		if _, err := c.CachedTemplate(ctx, unknown); !IsNotFound(err) {
			t.Errorf("unknown template: %v", err)
		}
	}
	if n := srv.Requests(emulator.EndpointGetTemplate); n != 3 {
		t.Errorf("%d requests, want 3: a failed read is read again", n)
	}
	other, err := New(Config{BaseURL: c.BaseURL(), TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.CachedTemplate(ctx, emulator.TwoStepTemplateID); err != nil {
		t.Fatal(err)
	}
	if n := srv.Requests(emulator.EndpointGetTemplate); n != 4 {
		t.Errorf("%d requests, want 4: another client reads for itself", n)
	}
	for range 2 {
		if _, err := c.GetTemplate(ctx, emulator.TwoStepTemplateID); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Requests(emulator.EndpointGetTemplate); n != 6 {
		t.Errorf("%d requests, want 6: GetTemplate reads each time", n)
	}
}

// A client's cache keeps at most templateCacheSize templates: the one read
// first goes first, and is read again when asked for.
func TestCachedTemplate_bound(t *testing.T) {
	ctx := context.Background()
	srv, c := startEmulator(t, emulator.Options{Instant: true})
	ids := make([]string, templateCacheSize+1)
	for i := range ids {
		ids[i] = fmt.Sprintf("%d", 640000000000000000+i)
		_, _ = c.CachedTemplate(ctx, ids[i]) // unknown ids: not kept
	}
	for range 2 {
		for _, id := range []string{emulator.TwoStepTemplateID, emulator.GLActualsTemplateID} {
			if _, err := c.CachedTemplate(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	tc := &c.templates
	if len(tc.m) != 2 || len(tc.order) != 2 {
		t.Fatalf("the cache keeps %d templates (%d in order) after failed reads, want the 2 read", len(tc.m), len(tc.order))
	}
	tc.m, tc.order = map[string]*templateEntry{}, nil
	for i := range templateCacheSize {
		tc.m[ids[i]] = &templateEntry{done: make(chan struct{})}
		tc.order = append(tc.order, ids[i])
	}
	before := srv.Requests(emulator.EndpointGetTemplate)
	if _, err := c.CachedTemplate(ctx, emulator.TwoStepTemplateID); err != nil {
		t.Fatal(err)
	}
	if _, kept := tc.m[ids[0]]; kept || len(tc.m) != templateCacheSize || srv.Requests(emulator.EndpointGetTemplate) != before+1 {
		t.Fatalf("a full cache keeps %d templates, the first kept: %v; want %d, the first gone", len(tc.m), kept, templateCacheSize)
	}
}

// The emulator's models.
const (
	modelFinance = "600000000000000001"
	modelSales   = "600000000000000002"
)

// emulatorTemplates are the emulator's templates as ListTemplates returns
// them.
func emulatorTemplates() []Template {
	var all []Template
	for _, t := range emulator.DefaultTemplates() {
		all = append(all, Template{ID: t.ID, Name: t.Name, ModelID: t.ModelID, ModelName: t.ModelName})
	}
	return all
}

// idsOf are the ids of ts, in order.
func idsOf(ts []Template) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

func TestFilterTemplates(t *testing.T) {
	all := emulatorTemplates()
	cases := []struct {
		f    TemplateFilter
		want []string
	}{
		{TemplateFilter{}, []string{emulator.GLActualsTemplateID, emulator.HeadcountTemplateID, emulator.SalesVolumesTemplateID, emulator.SalesGLActualsTemplateID,
			emulator.TwoStepTemplateID, emulator.NoStepTemplateID, emulator.SameStepNameTemplateID}},
		{TemplateFilter{Name: "GL Actuals"}, []string{emulator.GLActualsTemplateID, emulator.SalesGLActualsTemplateID}},
		{TemplateFilter{Name: "GL Actuals", ModelName: "Sales Model"}, []string{emulator.SalesGLActualsTemplateID}},
		{TemplateFilter{ModelID: modelFinance}, []string{emulator.GLActualsTemplateID, emulator.HeadcountTemplateID, emulator.TwoStepTemplateID, emulator.NoStepTemplateID}},
		{TemplateFilter{NameRegex: regexp.MustCompile("^S"), ModelID: modelSales}, []string{emulator.SalesVolumesTemplateID}},
		{TemplateFilter{Name: "Payroll"}, nil},
	}
	for _, tc := range cases {
		if got := idsOf(FilterTemplates(all, tc.f)); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
		}
	}
	if len(all) != len(emulator.DefaultTemplates()) || all[0].ID != emulator.GLActualsTemplateID {
		t.Error("filtering changed the list it filtered")
	}
}
