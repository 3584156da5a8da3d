package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

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
