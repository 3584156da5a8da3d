package provider

// The provider servers terraform-plugin-testing runs: the provider in
// process, and the same behind a spy that records the plans' diagnostics
// and can act just before an apply (spyServer, diagSpy), or a provider
// without data facts, as an earlier release was.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// testTuning polls and reports sooner than a user's provider: the
// emulator finishes jobs in milliseconds.
var testTuning = tuning{pollInitial: 20 * time.Millisecond, pollMax: 250 * time.Millisecond, progressEvery: 50 * time.Millisecond}

// testProvider is a provider of its own server, tuned for the tests.
func testProvider() provider.Provider { return newServer("test", testTuning).Provider() }

// lowLimitProvider is testProvider with the start-with-data limit lowered
// to testDataBodyLimit: it sends rows over 64 KiB as a CSV file.
func lowLimitProvider() provider.Provider {
	t := testTuning
	t.dataBodyLimit = testDataBodyLimit
	return newServer("test", t).Provider()
}

// testAccProtoV6ProviderFactories serves the provider in process.
var testAccProtoV6ProviderFactories = factoriesOf(testProvider())

// factoriesOf serves p in process.
func factoriesOf(p provider.Provider) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){"etl": providerserver.NewProtocol6WithError(p)}
}

// spyServer wraps the provider server: it records the diagnostics of plans
// (Terraform's test harness does not expose warnings) and can act just
// before an apply reaches the provider.
type spyServer struct {
	tfprotov6.ProviderServer
	// provider is the provider served (nil: testProvider).
	provider    func() provider.Provider
	mu          sync.Mutex
	planDiags   []*tfprotov6.Diagnostic
	beforeApply func()
}

// PlanResourceChange plans through the provider and records the
// diagnostics of the plan.
func (s *spyServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.mu.Lock()
		s.planDiags = append(s.planDiags, resp.Diagnostics...)
		s.mu.Unlock()
	}
	return resp, err
}

// ApplyResourceChange runs beforeApply, when set, then applies through
// the provider.
func (s *spyServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	if s.beforeApply != nil {
		s.beforeApply()
	}
	return s.ProviderServer.ApplyResourceChange(ctx, req)
}

// warnings returns the details of the plan warnings whose summary is
// summary, in the order they came.
func (s *spyServer) warnings(summary string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, d := range s.planDiags {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == summary {
			out = append(out, d.Detail)
		}
	}
	return out
}

// spyFactories serves the provider in process behind spy.
func spyFactories(spy *spyServer) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"etl": func() (tfprotov6.ProviderServer, error) {
			p := testProvider
			if spy.provider != nil {
				p = spy.provider
			}
			srv, err := providerserver.NewProtocol6WithError(p())()
			spy.ProviderServer = srv
			return spy, err
		},
	}
}

// withoutFactsFactories serve etl_import as it was before it had columns,
// row_count and size_bytes: they stay null, and the private record of the
// file's hash holds no counts.
var withoutFactsFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"etl": providerserver.NewProtocol6WithError(&providerWithoutFacts{etlProvider: testProvider().(*etlProvider)}),
}

// diagSpy records the diagnostics of every read, plan and apply (the test
// harness shows errors only).
type diagSpy struct {
	tfprotov6.ProviderServer
	mu    sync.Mutex
	diags []*tfprotov6.Diagnostic
}

// count is how many warnings with summary the spy saw.
func (s *diagSpy) count(summary string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, d := range s.diags {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == summary {
			n++
		}
	}
	return n
}

func (s *diagSpy) record(d []*tfprotov6.Diagnostic) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.diags = append(s.diags, d...)
}

func (s *diagSpy) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		s.record(resp.Diagnostics)
	}
	return resp, err
}

func (s *diagSpy) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.record(resp.Diagnostics)
	}
	return resp, err
}

func (s *diagSpy) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		s.record(resp.Diagnostics)
	}
	return resp, err
}

// warning returns the detail of the last warning titled summary, or "".
func (s *diagSpy) warning(summary string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.diags) - 1; i >= 0; i-- {
		if d := s.diags[i]; d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == summary {
			return d.Detail
		}
	}
	return ""
}

func (s *diagSpy) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"etl": func() (tfprotov6.ProviderServer, error) {
			srv, err := providerserver.NewProtocol6WithError(testProvider())()
			s.ProviderServer = srv
			return s, err
		},
	}
}

// expectWarning checks that a warning titled summary was given, holding
// every string of want.
func (s *diagSpy) expectWarning(summary func() string, want ...string) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		d := s.warning(summary())
		if d == "" {
			resp.Error = fmt.Errorf("no warning %q", summary())
			return
		}
		for _, w := range want {
			if !strings.Contains(d, w) {
				resp.Error = fmt.Errorf("warning %q: %q does not say %q", summary(), d, w)
				return
			}
		}
	})
}

// providerWithoutFacts is the provider whose etl_import has no data facts.
type providerWithoutFacts struct{ *etlProvider }
