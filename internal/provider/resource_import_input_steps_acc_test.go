package provider

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The template's input ids change on the service after the job was
// loaded, its steps keeping their names and order: the next plan records
// the new content_sha256 in place with a warning, and no job starts.
func TestAccExactlyOnce_inputIDsChanged(t *testing.T) {
	var renumbered atomic.Bool
	renumber := strings.NewReplacer(emulator.TwoStepActualsInputID, "740101874288689161", emulator.TwoStepRatesInputID, "740101874288689162")
	e := wrappedEmulator(t, emulator.Options{}, func(srv *emulator.Server, w http.ResponseWriter, r *http.Request) {
		if !renumbered.Load() || r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "/templates/") {
			srv.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		body := []byte(renumber.Replace(rec.Body.String()))
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(rec.Code)
		_, _ = bytes.NewReader(body).WriteTo(w)
	})
	vars := e.configVariables(config.Variables{"template_id": config.StringVariable(emulator.TwoStepTemplateID)})
	spy := &diagSpy{}
	oneJob := stateCheckFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		if n := len(e.Jobs()); n != 1 {
			resp.Error = fmt.Errorf("%d jobs, want 1", n)
		}
	})
	resource.ParallelTest(t, resource.TestCase{
		CheckDestroy: expectJobCount(t, e, 1),
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: spy.factories(), ConfigDirectory: withProvider(t, config.TestNameDirectory()), ConfigVariables: vars, ConfigStateChecks: []statecheck.StateCheck{oneJob}},
			{
				PreConfig:                func() { renumbered.Store(true) },
				ProtoV6ProviderFactories: spy.factories(),
				ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
				ConfigVariables:          vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resumeAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{oneJob, sameJob(e, resumeAddr),
					spy.expectWarning(func() string { return "Template input ids changed; the job is kept" }, "same names and order", "no new job starts")},
			},
			{ProtoV6ProviderFactories: spy.factories(), ConfigDirectory: withProvider(t, config.TestNameDirectory()), ConfigVariables: vars, PlanOnly: true},
		},
	})
}
