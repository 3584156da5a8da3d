package provider

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// envEmulatorRules names, for a whole test run, the emulator's choices for
// the rules no public source shows (emulator.Options), such as
// "conflict-status=400,required-columns=off": `make testacc-rules` runs the
// data-safety tests under each choice that is not the default, since the
// provider must depend on none of them. A test that sets a rule itself
// keeps its own.
const envEmulatorRules = "ETL_TEST_EMULATOR_RULES"

// withEnvRules fills in opts the rules ETL_TEST_EMULATOR_RULES chooses.
func withEnvRules(t *testing.T, opts emulator.Options) emulator.Options {
	t.Helper()
	spec := os.Getenv(envEmulatorRules)
	if spec == "" {
		return opts
	}
	for _, kv := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		switch k {
		case "conflict-status":
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("%s: conflict-status %q is not a number", envEmulatorRules, v)
			}
			if opts.ConflictStatus == 0 {
				opts.ConflictStatus = n
			}
		case "submit-missing-inputs":
			if opts.SubmitMissingInputs == "" {
				opts.SubmitMissingInputs = emulator.MissingInputs(v)
			}
		case "missing-metadata":
			if opts.MissingMetadata == "" {
				opts.MissingMetadata = emulator.MissingMetadata(v)
			}
		case "required-columns":
			if opts.RequiredColumns == "" {
				opts.RequiredColumns = emulator.RequiredColumnsRule(v)
			}
		default:
			t.Fatalf("%s: unknown rule %q", envEmulatorRules, k)
		}
	}
	t.Logf("emulator rules: %s", spec)
	return opts
}
