package provider

import "time"

// tuning is how often the provider polls a job and reports its progress:
// each provider holds its own (tests give theirs shorter ones), and hands
// it to its job runners. A zero field is the default.
type tuning struct {
	// pollInitial is the first wait between polls of a job's status
	// (wait_for_completion), doubled after every poll up to pollMax.
	pollInitial, pollMax time.Duration
	// progressEvery is how often an upload or a wait logs its progress at
	// INFO (visible with TF_LOG=INFO); the first line comes after one.
	progressEvery time.Duration
	// uploadProgressEvery is how often the action reports the bytes of a
	// file sent so far.
	uploadProgressEvery time.Duration
}

// defaultTuning is the provider's own.
var defaultTuning = tuning{
	pollInitial:         100 * time.Millisecond,
	pollMax:             10 * time.Second,
	progressEvery:       10 * time.Second,
	uploadProgressEvery: 2 * time.Second,
}

// orDefaults is t with defaultTuning's value for each field t leaves zero.
func (t tuning) orDefaults() tuning {
	pick := func(v, d time.Duration) time.Duration {
		if v > 0 {
			return v
		}
		return d
	}
	d := defaultTuning
	return tuning{pick(t.pollInitial, d.pollInitial), pick(t.pollMax, d.pollMax),
		pick(t.progressEvery, d.progressEvery), pick(t.uploadProgressEvery, d.uploadProgressEvery)}
}
