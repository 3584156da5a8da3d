package emulator

import (
	"math"
	"strings"
	"testing"
	"time"
)

// panicOf returns what f panics with, or nil.
func panicOf(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// TestOptionsValidate: every value New cannot honour is refused, naming
// the field and the value, and New panics with the same message; the zero
// value and every default-meaning zero pass.
func TestOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{RunTime: -time.Second}, "Options.RunTime -1s is negative"},
		{Options{RunTime: -1}, "Options.RunTime -1ns is negative"},
		{Options{ExpireAfter: -time.Minute}, "Options.ExpireAfter -1m0s is negative"},
		{Options{MaxDataBytes: -5}, "Options.MaxDataBytes -5 is negative"},
		{Options{ConflictStatus: 500}, "Options.ConflictStatus 500"},
		{Options{SubmitMissingInputs: "ERROR"}, `Options.SubmitMissingInputs "ERROR"`},
		{Options{MissingMetadata: "accept"}, `Options.MissingMetadata "accept"`},
		{Options{RequiredColumns: "maybe"}, `Options.RequiredColumns "maybe"`},
	} {
		err := tc.o.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want an error with %q", tc.o, err, tc.want)
			continue
		}
		if p := panicOf(func() { New(tc.o) }); p != err.Error() {
			t.Errorf("New(%+v) panicked with %v, want %q", tc.o, p, err)
		}
	}
	for _, o := range []Options{{}, {RunTime: time.Nanosecond, ExpireAfter: time.Minute, MaxDataBytes: 1, ConflictStatus: 200},
		{ConflictStatus: 400, SubmitMissingInputs: MissingInputsAccept, MissingMetadata: MissingMetadataDefault, RequiredColumns: RequiredColumnsOff}} {
		if err := o.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v", o, err)
		}
	}
}

// TestFaultValidate: a fault rate that is NaN or outside 0..1 (and the
// other values a fault cannot honour) is refused, naming the field and the
// value, and InjectFault panics with the same message.
func TestFaultValidate(t *testing.T) {
	for _, tc := range []struct {
		f    Fault
		want string
	}{
		{Fault{Probability: math.NaN()}, "Fault.Probability NaN is not between 0 and 1"},
		{Fault{Probability: -0.1}, "Fault.Probability -0.1 is not between 0 and 1"},
		{Fault{Probability: 1.5}, "Fault.Probability 1.5 is not between 0 and 1"},
		{Fault{Probability: math.Inf(1)}, "Fault.Probability +Inf"},
		{Fault{Count: -1}, "Fault.Count -1 is negative"},
		{Fault{Status: 42}, "Fault.Status 42 is not an HTTP status"},
		{Fault{Latency: -time.Millisecond}, "Fault.Latency -1ms is negative"},
	} {
		err := tc.f.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want an error with %q", tc.f, err, tc.want)
			continue
		}
		srv := New(Options{})
		if p := panicOf(func() { srv.InjectFault(tc.f) }); p != err.Error() {
			t.Errorf("InjectFault(%+v) panicked with %v, want %q", tc.f, p, err)
		}
	}
	for _, f := range []Fault{{}, {Probability: 1, Status: 503}, {Probability: 0.5, Count: 2, Latency: time.Millisecond}} {
		if err := f.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v", f, err)
		}
	}
}
