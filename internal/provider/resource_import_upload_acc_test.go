package provider

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// TestAccImport_rowsOverLimitSentAsCSV: rows whose JSON body would exceed
// the limit of start with data (25 MB; lowered to 64 KiB for the test, in
// the provider and the emulator alike: etl's TestPayload crosses the real
// one) are sent as a UTF-8 CSV file through start with file, with a
// warning; content_sha256 is the hash of that CSV at plan and in state.
func TestAccImport_rowsOverLimitSentAsCSV(t *testing.T) {
	e := newTestEmulator(t, lowerDataBodyLimit(emulator.Options{Instant: true}))
	const addr = "etl_import.big"
	const nRows, cellLen = 27, 4000 // 108 KB of cells: over the lowered limit
	rows := [][]string{{"Account", "Amount", "Memo, long"}}
	for i := range nRows {
		rows = append(rows, []string{fmt.Sprint(4000 + i), fmt.Sprintf("%0*d", cellLen, i), `say "hi"`})
	}
	if size := (etl.DataUpload{Rows: rows}).Size(); size <= testDataBodyLimit {
		t.Fatalf("test rows encode to %d bytes: not over the limit", size)
	}
	// The CSV expected, written independently with encoding/csv.
	var want bytes.Buffer
	w := csv.NewWriter(&want)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	sum := sha256Hex(want.Bytes())
	spy := &spyServer{provider: lowLimitProvider}
	vars := e.configVariables(config.Variables{
		"template_id": config.StringVariable(emulator.GLActualsTemplateID),
		"n_rows":      config.IntegerVariable(nRows),
		"cell_len":    config.IntegerVariable(cellLen),
	})
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: spyFactories(spy),
			ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
			ConfigVariables:          vars,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sum)),
				},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sum)),
				expectUpload(e, addr, emulator.Upload{Kind: "file", Format: "CSV", Encoding: "UTF-8", FileName: etl.CSVFileName,
					Header: rows[0], RowCount: nRows, Rows: rows[1:3], SHA256: sum, Bytes: int64(want.Len())}),
				checkEmulator(addr, func(map[string]any) error {
					if n := e.Requests(emulator.EndpointStartWithData); n != 0 {
						return fmt.Errorf("%d start-with-data requests, want none", n)
					}
					ws := spy.warnings(rowsAsFileSummary)
					if len(ws) == 0 {
						return errors.New("no plan warning that the rows are sent as a CSV file")
					}
					if !strings.Contains(ws[0], "sent instead as a UTF-8 CSV file") || !strings.Contains(ws[0], "25") {
						return fmt.Errorf("warning detail %q", ws[0])
					}
					return nil
				}),
			},
		}},
	})
}

// TestAccImport_fileChangedAfterPlanAborts: the file changes between plan
// and apply. It is read once at apply, hashed while it is sent, and the
// upload is aborted before its last bytes: no job, no retry.
func TestAccImport_fileChangedAfterPlanAborts(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	// Big enough to be sent in several reads.
	content := repeatCSV("Account,Amount", "4000,100", 200000)
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	spy := &spyServer{beforeApply: func() {
		// Same size, one byte changed near the end.
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		c := make([]byte, 1)
		off := int64(len(content) - 3)
		if _, err := f.ReadAt(c, off); err != nil {
			t.Error(err)
		}
		c[0] = '0' + (c[0]-'0'+1)%10
		if _, err := f.WriteAt(c, off); err != nil {
			t.Error(err)
		}
	}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: spyFactories(spy),
		Steps: []resource.TestStep{{
			Config: e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "gl" {
  template_id = %q
  file = {
    path = %q
  }
}
`, emulator.GLActualsTemplateID, p),
			ExpectError: errRe("Data changed since plan"),
		}},
	})
	if n := len(e.Jobs()); n != 0 {
		t.Errorf("%d jobs on the emulator, want none", n)
	}
	if n := e.Requests(emulator.EndpointStartWithFile); n != 1 {
		t.Errorf("%d start-with-file requests, want exactly 1 (never retried)", n)
	}
}
