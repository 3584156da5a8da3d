package provider

import (
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// tuning is how often the provider polls a job and reports its progress,
// and the largest JSON body of rows it sends: each provider holds its own
// (tests give theirs shorter intervals, and a lower limit), and hands it
// to its job runners. A zero field is the default.
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
	// dataBodyLimit is the largest JSON body of start with data the
	// provider sends: the service's limit, etl.MaxDataBodyBytes (25 MB).
	// Rows over it are sent as a CSV file. Acceptance tests lower it to
	// cross it with kilobytes of rows instead of megabytes; the tests of
	// etl.DataUpload.Payload cross the real one.
	dataBodyLimit int64
}

// defaultTuning is the provider's own.
var defaultTuning = tuning{
	pollInitial:         etl.DefaultPollInitial,
	pollMax:             etl.DefaultPollMax,
	progressEvery:       10 * time.Second,
	uploadProgressEvery: 2 * time.Second,
	dataBodyLimit:       etl.MaxDataBodyBytes,
}

// orDefaults is t with defaultTuning's value for each field t leaves zero.
func (t tuning) orDefaults() tuning {
	d := defaultTuning
	return tuning{positiveOr(t.pollInitial, d.pollInitial), positiveOr(t.pollMax, d.pollMax), positiveOr(t.progressEvery, d.progressEvery),
		positiveOr(t.uploadProgressEvery, d.uploadProgressEvery), positiveOr(t.dataBodyLimit, d.dataBodyLimit)}
}

// positiveOr is v when it is above zero, else d.
func positiveOr[T time.Duration | int64](v, d T) T {
	if v > 0 {
		return v
	}
	return d
}

// bodyLimit is t's dataBodyLimit, or the default.
func (t tuning) bodyLimit() int64 { return t.orDefaults().dataBodyLimit }
