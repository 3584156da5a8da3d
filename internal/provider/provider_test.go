package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// The provider, its resource and its data sources: their type names, and
// schemas the framework accepts.
func TestProviderSchemas(t *testing.T) {
	ctx := context.Background()
	p := testProvider()
	var meta fwprovider.MetadataResponse
	p.Metadata(ctx, fwprovider.MetadataRequest{}, &meta)
	if meta.TypeName != "etl" || meta.Version != "test" {
		t.Fatalf("provider metadata %+v", meta)
	}
	var ps fwprovider.SchemaResponse
	p.Schema(ctx, fwprovider.SchemaRequest{}, &ps)
	if d := ps.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Errorf("provider schema: %v", d)
	}

	var names []string
	for _, newResource := range p.Resources(ctx) {
		r := newResource()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "etl"}, &m)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		if d := s.Schema.ValidateImplementation(ctx); d.HasError() {
			t.Errorf("%s schema: %v", m.TypeName, d)
		}
		names = append(names, m.TypeName)
	}
	for _, newDataSource := range p.DataSources(ctx) {
		ds := newDataSource()
		var m datasource.MetadataResponse
		ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "etl"}, &m)
		var s datasource.SchemaResponse
		ds.Schema(ctx, datasource.SchemaRequest{}, &s)
		if d := s.Schema.ValidateImplementation(ctx); d.HasError() {
			t.Errorf("%s schema: %v", m.TypeName, d)
		}
		names = append(names, m.TypeName)
	}
	if got := strings.Join(names, " "); got != "etl_import etl_templates etl_template etl_job" {
		t.Errorf("types %q", got)
	}
}

// A setting unknown until apply leaves the provider unconfigured, without
// an error; what needs the client then says so.
func TestConfigureWithUnknownSettings(t *testing.T) {
	for _, attr := range []string{"hub", "token_id", "token_secret", "base_url", "max_retries", "retry_wait_min", "retry_wait_max", "request_timeout", "ca_cert_pem", "ca_cert_file"} {
		t.Run(attr, func(t *testing.T) {
			clearEnv(t)
			t.Setenv(EnvCACertFile, "")
			// Nothing listens there: a provider configured by mistake fails at once.
			cfg := map[string]any{"base_url": "http://127.0.0.1:1", "token_id": "1.1", "token_secret": "s3cret", "max_retries": 0}
			cfg[attr] = tftypes.NewValue(providerType().AttributeTypes[attr], tftypes.UnknownValue)
			h := newProtoHarness(t)
			if d := h.configure(cfg); len(d) != 0 {
				t.Fatalf("configure: %s", describe(d))
			}
			d := h.readTemplates()
			if !hasError(d) || d[0].Summary != "Provider not configured" {
				t.Fatalf("read with an unconfigured provider: %s", describe(d))
			}
		})
	}
	// Known settings configure the client.
	e := newTestEmulator(t, emulator.Options{Instant: true})
	h := newProtoHarness(t)
	if d := h.configure(map[string]any{"base_url": e.URL, "token_id": emulator.DefaultTokenID, "token_secret": emulator.DefaultTokenSecret}); len(d) != 0 {
		t.Fatalf("configure: %s", describe(d))
	}
	if d := h.readTemplates(); len(d) != 0 {
		t.Fatalf("read with a configured provider: %s", describe(d))
	}
}

func TestResolveHashCache(t *testing.T) {
	cases := []struct {
		name string
		attr types.Bool
		env  string
		want bool
	}{
		{"default", types.BoolNull(), "", true},
		{"attribute off", types.BoolValue(false), "", false},
		{"attribute on, environment off", types.BoolValue(true), "0", true},
		{"attribute off, environment on", types.BoolValue(false), "true", false},
		{"environment 0", types.BoolNull(), "0", false},
		{"environment false", types.BoolNull(), "false", false},
		{"environment FALSE", types.BoolNull(), "FALSE", false},
		{"environment 1", types.BoolNull(), "1", true},
		{"attribute unknown, environment off", types.BoolUnknown(), "false", false},
	}
	for _, tc := range cases {
		got, d := resolveHashCache(tc.attr, func(k string) string {
			if k == EnvHashCache {
				return tc.env
			}
			return ""
		})
		if got != tc.want || d.HasError() {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, d, tc.want)
		}
	}
	on, d := resolveHashCache(types.BoolNull(), func(string) string { return "off" })
	if !on {
		t.Error("an invalid value turned the cache off")
	}
	assertAttrError(t, d, path.Root("hash_cache"), EnvHashCache, `"off"`, `"false" or "0"`)
}

func TestImportDataFrom(t *testing.T) {
	t.Setenv(EnvHashCache, "")
	c := &etl.Client{}
	var d diag.Diagnostics
	j := importjob.NewMemoryJournal(importjob.Self{})
	given := &importResourceData{runnerData: runnerData{client: c}, hashCache: false, journal: j}
	if got := importDataFrom(given, &d); got.client != c || got.hashCache || got.journal != j || d.HasError() {
		t.Errorf("configured: %+v, %v", got, d)
	}
	if got := importDataFrom(nil, &d); got.client != nil || !got.hashCache || got.journal != nil || d.HasError() {
		t.Errorf("not configured: %+v, %v", got, d)
	}
	if got := importDataFrom("other", &d); got.client != nil || !d.HasError() {
		t.Errorf("wrong type: %+v, %v", got, d)
	}
	// Before Configure, the environment decides.
	t.Setenv(EnvHashCache, "0")
	if got := importDataFrom(nil, &d); got.hashCache {
		t.Error("ETL_HASH_CACHE=0 left the cache on")
	}
}

// The action gets the client and what runs jobs with it; a data source
// the client alone.
func TestRunnerDataFrom(t *testing.T) {
	c := &etl.Client{}
	var d diag.Diagnostics
	if got := providerData[runnerData](runnerData{client: c, tuning: testTuning}, &d); got.client != c || got.tuning != testTuning || d.HasError() {
		t.Errorf("configured: %+v, %v", got, d)
	}
	if got := providerData[runnerData](nil, &d); got.client != nil || d.HasError() {
		t.Errorf("not configured: %+v, %v", got, d)
	}
	if got := providerData[runnerData](c, &d); got.client != nil || !d.HasError() {
		t.Errorf("a client alone: %+v, %v", got, d)
	}
}
