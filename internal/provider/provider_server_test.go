package provider

import (
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// TestTuningOrDefaults: a zero field is the default, a set one is kept;
// the start-with-data limit is the service's unless a test lowers it.
func TestTuningOrDefaults(t *testing.T) {
	if got := (tuning{}).orDefaults(); got != defaultTuning || got.dataBodyLimit != etl.MaxDataBodyBytes {
		t.Errorf("zero tuning: %+v, want %+v", got, defaultTuning)
	}
	set := tuning{pollInitial: time.Millisecond, pollMax: 2 * time.Millisecond, progressEvery: 3 * time.Millisecond,
		uploadProgressEvery: 4 * time.Millisecond, dataBodyLimit: 5}
	if got := set.orDefaults(); got != set || set.bodyLimit() != 5 {
		t.Errorf("set tuning: %+v, want %+v", got, set)
	}
	if got := (tuning{pollMax: time.Second}).orDefaults(); got.pollMax != time.Second || got.pollInitial != defaultTuning.pollInitial || got.bodyLimit() != etl.MaxDataBodyBytes {
		t.Errorf("one field set: %+v", got)
	}
}
