package provider

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// spyServer wraps the provider server: it records the diagnostics of plans
// (Terraform's test harness does not expose warnings) and can act just
// before an apply reaches the provider.
type spyServer struct {
	tfprotov6.ProviderServer
	mu          sync.Mutex
	planDiags   []*tfprotov6.Diagnostic
	beforeApply func()
}

func (s *spyServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.mu.Lock()
		s.planDiags = append(s.planDiags, resp.Diagnostics...)
		s.mu.Unlock()
	}
	return resp, err
}

func (s *spyServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	if s.beforeApply != nil {
		s.beforeApply()
	}
	return s.ProviderServer.ApplyResourceChange(ctx, req)
}

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

func spyFactories(spy *spyServer) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"etl": func() (tfprotov6.ProviderServer, error) {
			srv, err := providerserver.NewProtocol6WithError(New("test")())()
			spy.ProviderServer = srv
			return spy, err
		},
	}
}

// TestAccImport_rowsOverLimitSentAsCSV: rows whose JSON body would exceed
// 25 MB are sent as a UTF-8 CSV file through start with file, with a
// warning; content_sha256 is the hash of that CSV at plan and in state.
func TestAccImport_rowsOverLimitSentAsCSV(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	const addr = "etl_import.big"
	const nRows, cellLen = 270, 100000 // 27 MB of cells
	rows := [][]string{{"Account", "Amount", "Memo, long"}}
	for i := range nRows {
		rows = append(rows, []string{fmt.Sprint(4000 + i), fmt.Sprintf("%0*d", cellLen, i), `say "hi"`})
	}
	if size := (etl.DataUpload{Rows: rows}).Size(); size <= etl.MaxDataBodyBytes {
		t.Fatalf("test rows encode to %d bytes: not over the limit", size)
	}
	// The CSV expected, written independently with encoding/csv.
	var want bytes.Buffer
	w := csv.NewWriter(&want)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	sum := sha256Hex(want.Bytes())
	spy := &spyServer{}
	config := e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "big" {
  template_id = %q
  rows = concat(
    [["Account", "Amount", "Memo, long"]],
    [for i in range(%d) : [tostring(4000 + i), format("%%0%dd", i), "say \"hi\""]],
  )
}
`, tmplGLFinance, nRows, cellLen)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: spyFactories(spy),
		Steps: []resource.TestStep{{
			Config: config,
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
	dir := t.TempDir()
	p := filepath.Join(dir, "gl.csv")
	// Big enough to be sent in several reads.
	var b strings.Builder
	b.WriteString("Account,Amount\n")
	for i := range 200000 {
		fmt.Fprintf(&b, "%d,%d\n", 4000+i%1000, i)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	spy := &spyServer{beforeApply: func() {
		// Same size, one byte changed near the end.
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		c := make([]byte, 1)
		off := int64(b.Len() - 3)
		if _, err := f.ReadAt(c, off); err != nil {
			t.Error(err)
		}
		c[0] = '0' + (c[0]-'0'+1)%10
		if _, err := f.WriteAt(c, off); err != nil {
			t.Error(err)
		}
	}}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: spyFactories(spy),
		Steps: []resource.TestStep{{
			Config: e.providerConfig() + fmt.Sprintf(`
resource "etl_import" "gl" {
  template_id = %q
  file = {
    path = %q
  }
}
`, tmplGLFinance, p),
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

// TestVerifyingReaderWithholdsLastBytes: on a mismatch the reader never
// hands over the file's last bytes, so no complete body can be sent.
func TestVerifyingReaderWithholdsLastBytes(t *testing.T) {
	content := bytes.Repeat([]byte("4000,1\n"), 100000)
	p := filepath.Join(t.TempDir(), "gl.csv")
	if err := os.WriteFile(p, content, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want string
		ok   bool
	}{
		{"match", sha256Hex(content), true},
		{"mismatch", sha256Hex([]byte("other")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			of, err := openImportFile(p, tc.want)
			if err != nil {
				t.Fatal(err)
			}
			defer of.Close()
			rc, _ := of.Open()
			got, err := io.ReadAll(rc)
			if tc.ok {
				if err != nil || !bytes.Equal(got, content) {
					t.Fatalf("read %d bytes, %v", len(got), err)
				}
				return
			}
			var aborted *etl.UploadAbortedError
			if !errors.As(err, &aborted) {
				t.Fatalf("error %v, want an UploadAbortedError", err)
			}
			if len(got) >= len(content) {
				t.Fatalf("handed over %d of %d bytes: the last ones must be withheld", len(got), len(content))
			}
			if _, err2 := rc.Read(make([]byte, 10)); !errors.As(err2, &aborted) {
				t.Fatalf("the error is not sticky: %v", err2)
			}
		})
	}
	// A file that shrinks after it was opened fails too.
	of, err := openImportFile(p, sha256Hex(content))
	if err != nil {
		t.Fatal(err)
	}
	defer of.Close()
	if err := os.Truncate(p, int64(len(content)/2)); err != nil {
		t.Fatal(err)
	}
	rc, _ := of.Open()
	if _, err := io.ReadAll(rc); err == nil || !strings.Contains(err.Error(), "shrank") {
		t.Fatalf("shrunk file: %v", err)
	}
}

// TestRowsPayload: under the limit, the JSON body's hash; over it, the
// CSV's hash, flagged as a file.
func TestRowsPayload(t *testing.T) {
	small := [][]string{{"Account", "Amount"}, {"4000", "1"}}
	sum, asFile, _ := rowsPayload(small)
	if js, _ := hashRows(small); asFile || sum != js {
		t.Fatalf("small rows: %s %v", sum, asFile)
	}
	big := [][]string{{"Account", "Memo"}}
	cell := strings.Repeat("x", 1<<20)
	for range 26 {
		big = append(big, []string{"4000", cell})
	}
	sum, asFile, size := rowsPayload(big)
	var want bytes.Buffer
	_, _ = etl.DataUpload{Rows: big}.WriteCSV(&want)
	if !asFile || sum != sha256Hex(want.Bytes()) || size <= etl.MaxDataBodyBytes {
		t.Fatalf("big rows: %s %v %d", sum, asFile, size)
	}
}
