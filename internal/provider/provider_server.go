package provider

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// Server is what one provider process holds for the providers it serves
// (the process main.go runs serves one): the journal of started jobs,
// opened on first use in the journal directory of the configuration
// Terraform runs (journalDir), and the gate that spaces etl_import's
// responses (responseGate). main.go calls Closed once Terraform has closed
// the provider.
type Server struct {
	version string
	tuning  tuning
	gate    *responseGate

	mu      sync.Mutex
	journal *importjob.Journal
}

// NewServer returns the server of the provider of the given version.
func NewServer(version string) *Server { return newServer(version, defaultTuning) }

// newServer returns a server whose providers poll and report as t says.
func newServer(version string, t tuning) *Server {
	return &Server{version: version, tuning: t, gate: &responseGate{spacing: responseSpacing, now: time.Now, sleep: time.Sleep}}
}

// Provider returns a provider that s serves (providerserver.Serve's
// constructor).
func (s *Server) Provider() provider.Provider { return &etlProvider{server: s} }

// openJournal returns the server's journal, opening it on first use.
func (s *Server) openJournal(ctx context.Context) *importjob.Journal {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal == nil {
		s.journal = openJournal(ctx, journalDir(os.Getenv))
	}
	return s.journal
}

// Closed is called once the provider server has stopped because Terraform
// closed the provider at the end of its operation (not when the process
// is killed): the jobs the creates returned as usual are the CLI's to
// record in the state it writes now, and leave the journal
// (importjob.Journal.Close).
func (s *Server) Closed() {
	s.mu.Lock()
	j := s.journal
	s.mu.Unlock()
	if j != nil {
		_ = j.Close() // nobody is left to hear of it; the next apply settles what stays
	}
}

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
