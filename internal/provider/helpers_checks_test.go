package provider

// Small assertions shared by the tests: expected-error patterns, one
// error on an attribute, a plan's prior job id, state and plan checks
// written as functions, and the provider's environment cleared; the jobs
// and inputs the emulator received, a CLI's output, no secret in a plan,
// and data facts.

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
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

// expectOutput requires each text in the CLI's output (which wraps lines:
// a space matches any white space).
func expectOutput(t *testing.T, out string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if !regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(s), " ", `\s+`)).MatchString(out) {
			t.Errorf("the output does not show %q:\n%s", s, out)
		}
	}
}

// expectJobInputs requires the job to have received exactly these bytes
// in each input, as files of these names.
func expectJobInputs(t *testing.T, job emulator.Job, want map[string][]byte, names map[string]string) {
	t.Helper()
	if len(job.Inputs) != len(want) {
		t.Errorf("job %s: %d inputs loaded, want %d", job.ID, len(job.Inputs), len(want))
	}
	for id, b := range want {
		u := job.Inputs[id]
		switch {
		case u == nil:
			t.Errorf("job %s: input %s not loaded", job.ID, id)
		case u.Kind != "file" || u.SHA256 != sha256Hex(b) || u.Bytes != int64(len(b)) || u.FileName != names[id]:
			t.Errorf("job %s: input %s received %+v, want the %d bytes of %s (SHA-256 %s)", job.ID, id, u, len(b), names[id], sha256Hex(b))
		}
	}
}

// jobsAre checks the emulator's record: exactly the jobs whose uploads
// have these SHA-256 sums, in any order (jobs Terraform creates at once
// may start in either order).
func jobsAre(e *testEmulator, sums ...string) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		resp.Error = checkJobs(e, sums...)
	})
}

func checkJobs(e *testEmulator, sums ...string) error {
	jobs := e.Jobs()
	if len(jobs) != len(sums) {
		return fmt.Errorf("the emulator holds %d jobs, want %d", len(jobs), len(sums))
	}
	got := make([]string, len(jobs))
	for i, j := range jobs {
		if j.Upload != nil {
			got[i] = j.Upload.SHA256
		}
	}
	want := slices.Clone(sums)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		return fmt.Errorf("the emulator's jobs received bytes with SHA-256 %v, want %v", got, want)
	}
	return nil
}

// sameJob checks that addr still holds the first job the emulator created.
func sameJob(e *testEmulator, addr string) statecheck.StateCheck {
	return checkEmulator(addr, func(v map[string]any) error {
		if jobs := e.Jobs(); len(jobs) == 0 || v["id"] != jobs[0].ID {
			return fmt.Errorf("%s holds job %v, want the first job", addr, v["id"])
		}
		return nil
	})
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Error(err)
	}
}

// expectInputs asserts the emulator's one job of addr received exactly
// these bytes in each input, and that content_sha256 is their hash.
func expectInputs(e *testEmulator, addr string, want map[string][]byte) statecheck.StateCheck {
	return checkEmulator(addr, func(v map[string]any) error {
		id, _ := v["id"].(string)
		job, ok := e.Job(id)
		if !ok {
			return fmt.Errorf("%s: job %q not on the emulator", addr, id)
		}
		if len(job.Inputs) != len(want) {
			return fmt.Errorf("%s: job %s has %d inputs loaded, want %d", addr, id, len(job.Inputs), len(want))
		}
		var entries [][4]string
		for inputID, b := range want {
			u := job.Inputs[inputID]
			switch {
			case u == nil:
				return fmt.Errorf("%s: input %s not loaded", addr, inputID)
			case u.SHA256 != sha256Hex(b) || u.Bytes != int64(len(b)):
				return fmt.Errorf("%s: input %s received %d bytes with SHA-256 %s, want %d bytes with %s", addr, inputID, u.Bytes, u.SHA256, len(b), sha256Hex(b))
			}
			entries = append(entries, [4]string{inputID, u.Format, u.Encoding, u.SHA256})
		}
		if sum, _ := v["content_sha256"].(string); sum != entryHash(entries...) {
			return fmt.Errorf("%s: content_sha256 %s, want %s (from the bytes received)", addr, sum, entryHash(entries...))
		}
		return nil
	})
}

// expectJobCount is a CheckDestroy that requires exactly n jobs on the
// emulator once everything is destroyed: a destroy starts none.
func expectJobCount(t *testing.T, e *testEmulator, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := len(e.Jobs()); got != n {
			return fmt.Errorf("%d jobs after destroy, want %d", got, n)
		}
		t.Logf("jobs: %d, submit requests: %d, cancel requests: %d", n, e.Requests(emulator.EndpointSubmitJob), e.Requests(emulator.EndpointCancelJob))
		return nil
	}
}

// planHoldsNone checks that no planned value holds any of the strings.
func planHoldsNone(secrets []string) plancheck.PlanCheck {
	return planCheckFunc(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
		b, _ := json.Marshal([]any{req.Plan.ResourceChanges, req.Plan.PlannedValues, req.Plan.PriorState})
		if !strings.Contains(string(b), "content_sha256") {
			resp.Error = fmt.Errorf("the plan has no etl_import: the scan proves nothing")
		}
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				resp.Error = fmt.Errorf("the plan holds the write-only value %q", s)
			}
		}
	})
}

// wantFacts fails t unless f holds columns (nil: null), rows and size.
func wantFacts(t *testing.T, f dataFacts, columns []string, rows, size int64) {
	t.Helper()
	wantCols := types.ListNull(types.StringType)
	if columns != nil {
		wantCols = stringList(columns)
	}
	if !f.Columns.Equal(wantCols) || !f.RowCount.Equal(types.Int64Value(rows)) || !f.SizeBytes.Equal(types.Int64Value(size)) {
		t.Errorf("facts %v %v %v, want %v %d %d", f.Columns, f.RowCount, f.SizeBytes, wantCols, rows, size)
	}
}

// equal reports whether f and o hold the same values.
func (f dataFacts) equal(o dataFacts) bool {
	return f.Columns.Equal(o.Columns) && f.RowCount.Equal(o.RowCount) && f.SizeBytes.Equal(o.SizeBytes)
}
