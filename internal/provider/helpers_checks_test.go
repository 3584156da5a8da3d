package provider

// Small assertions shared by the tests: expected-error patterns, one
// error on an attribute, a plan's prior job id, state and plan checks
// written as functions, and the provider's environment cleared.

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// errRe compiles an expected-error pattern whose spaces match any run of
// white space: Terraform wraps diagnostic text at its own width.
func errRe(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(pattern, " ", `\s+`))
}

// clearEnv unsets the provider's environment variables for one test (not
// parallel: t.Setenv).
func clearEnv(t *testing.T) {
	for _, k := range []string{EnvHub, EnvTokenID, EnvTokenSecret, EnvBaseURL} {
		t.Setenv(k, "")
	}
}

// assertAttrError requires exactly one error, on the attribute, whose
// detail contains every string.
func assertAttrError(t *testing.T, d diag.Diagnostics, at path.Path, contains ...string) {
	t.Helper()
	if d.ErrorsCount() != 1 {
		t.Fatalf("want exactly one error on %s, got %v", at, d)
	}
	e := d.Errors()[0]
	wp, ok := e.(diag.DiagnosticWithPath)
	if !ok || !wp.Path().Equal(at) {
		t.Fatalf("error %q is not on %s", e.Summary(), at)
	}
	for _, s := range contains {
		if !strings.Contains(e.Detail(), s) {
			t.Errorf("error detail %q does not contain %q", e.Detail(), s)
		}
	}
}

// priorIDCheck is the plan check expectPriorID builds.
type priorIDCheck struct {
	addr string
	want func() string
}

// expectPriorID checks that the planned change of addr starts from the
// job id want returns.
func expectPriorID(addr string, want func() string) plancheck.PlanCheck {
	return priorIDCheck{addr, want}
}

// CheckPlan fails unless the planned change of c.addr starts from the
// job id c.want returns.
func (c priorIDCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		if got, want := before["id"], c.want(); got != want {
			resp.Error = fmt.Errorf("%s: prior job id %v, want %s", c.addr, got, want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: no planned change", c.addr)
}

// stateCheckFunc is a state check written as a function.
type stateCheckFunc func(context.Context, statecheck.CheckStateRequest, *statecheck.CheckStateResponse)

// CheckState calls f.
func (f stateCheckFunc) CheckState(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	f(ctx, req, resp)
}

// planCheckFunc is a plan check written as a function.
type planCheckFunc func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse)

// CheckPlan calls f.
func (f planCheckFunc) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	f(ctx, req, resp)
}
