package emulator

import (
	"fmt"
	"math"
	"time"
)

// Validate returns an error naming the first field of o that a Server
// cannot honour, with its value: a negative RunTime or ExpireAfter (zero
// means the default), a negative MaxDataBytes, a ConflictStatus that is
// neither 0, 200 nor a 4xx status, or a rule's choice that is none of its
// choices ("" means the default). New panics with that error; call
// Validate first to report it instead.
func (o Options) Validate() error {
	if err := nonNegative("Options.RunTime", o.RunTime); err != nil {
		return err
	}
	if err := nonNegative("Options.ExpireAfter", o.ExpireAfter); err != nil {
		return err
	}
	if o.MaxDataBytes < 0 {
		return fmt.Errorf("emulator: Options.MaxDataBytes %d is negative: use a positive size, or 0 for 25 MiB", o.MaxDataBytes)
	}
	if s := o.ConflictStatus; s != 0 && s != ConflictUnchanged && (s < 400 || s > 499) {
		return fmt.Errorf("emulator: Options.ConflictStatus %d is neither a 4xx status nor 200", s)
	}
	if err := checkChoice("SubmitMissingInputs", o.SubmitMissingInputs, MissingInputsError, MissingInputsAccept); err != nil {
		return err
	}
	if err := checkChoice("MissingMetadata", o.MissingMetadata, MissingMetadataReject, MissingMetadataDefault); err != nil {
		return err
	}
	return checkChoice("RequiredColumns", o.RequiredColumns, RequiredColumnsOn, RequiredColumnsOff)
}

// Validate returns an error naming the first field of f that InjectFault
// cannot honour, with its value: a Probability that is NaN or outside
// 0..1, a negative Count or Latency, or a Status that is no HTTP status
// (0 aside). InjectFault panics with that error.
func (f Fault) Validate() error {
	if math.IsNaN(f.Probability) || f.Probability < 0 || f.Probability > 1 {
		return fmt.Errorf("emulator: Fault.Probability %v is not between 0 and 1", f.Probability)
	}
	if f.Count < 0 {
		return fmt.Errorf("emulator: Fault.Count %d is negative: use 0 for unlimited", f.Count)
	}
	if f.Status != 0 && (f.Status < 100 || f.Status > 599) {
		return fmt.Errorf("emulator: Fault.Status %d is not an HTTP status", f.Status)
	}
	return nonNegative("Fault.Latency", f.Latency)
}

// nonNegative refuses a negative duration d of the field name
// ("Options.RunTime").
func nonNegative(name string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("emulator: %s %v is negative: use a positive duration or 0", name, d)
	}
	return nil
}

// checkChoice refuses a value v of the option name that is neither empty,
// def nor other.
func checkChoice[T ~string](name string, v, def, other T) error {
	switch v {
	case "", def, other:
		return nil
	}
	return fmt.Errorf("emulator: Options.%s %q is not %q or %q", name, v, def, other)
}
