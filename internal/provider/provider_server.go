package provider

import (
	"context"
	"os"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/provider"

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
	return &Server{version: version, tuning: t, gate: newResponseGate()}
}

// Provider returns a provider that s serves (providerserver.Serve's
// constructor).
func (s *Server) Provider() provider.Provider { return &etlProvider{version: s.version, server: s} }

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
