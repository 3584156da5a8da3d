package provider

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// csvEncodeVersionCheck skips a test that calls a provider-defined
// function on a CLI without them: Terraform before 1.8, OpenTofu before
// 1.7 (its first release with provider-defined functions).
type csvEncodeVersionCheck struct{}

// CheckTerraformVersion skips below Terraform 1.8 (OpenTofu 1.7), saying
// why.
func (csvEncodeVersionCheck) CheckTerraformVersion(ctx context.Context, req tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	check := tfversion.SkipBelow(tfversion.Version1_8_0)
	if isOpenTofu(os.Getenv("TF_ACC_TERRAFORM_PATH")) {
		check = tfversion.SkipBelow(tfversion.Version1_7_0)
	}
	check.CheckTerraformVersion(ctx, req, resp)
	if resp.Skip != "" {
		resp.Skip = "provider-defined functions (provider::etl::csv_encode) need Terraform 1.8 or later or OpenTofu 1.7 or later: " + resp.Skip
	}
}

// TestCSVEncodeVersionCheck: the check skips below Terraform 1.8
// saying why, and lets 1.8 and later run.
func TestCSVEncodeVersionCheck(t *testing.T) {
	t.Setenv("TF_ACC_TERRAFORM_PATH", "") // not OpenTofu
	for v, skip := range map[string]bool{"1.7.5": true, "1.8.0": false, "1.16.4": false} {
		var resp tfversion.CheckTerraformVersionResponse
		csvEncodeVersionCheck{}.CheckTerraformVersion(context.Background(),
			tfversion.CheckTerraformVersionRequest{TerraformVersion: version.Must(version.NewVersion(v))}, &resp)
		if (resp.Skip != "") != skip || resp.Error != nil {
			t.Errorf("Terraform %s: skip %q, error %v; want skip %v", v, resp.Skip, resp.Error, skip)
		}
		if skip && !strings.Contains(resp.Skip, "provider-defined functions") {
			t.Errorf("Terraform %s: skip %q does not say why", v, resp.Skip)
		}
	}
}

// csvEncodeHCLString writes s as an HCL quoted string: the escapes HCL
// knows, and "${" and "%{" doubled so that they are not templates.
func csvEncodeHCLString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		case (r == '$' || r == '%') && strings.HasPrefix(s[i+1:], "{"):
			b.WriteRune(r)
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// csvEncodeHCLRows writes rows as an HCL list of lists of strings.
func csvEncodeHCLRows(rows [][]string) string {
	var b strings.Builder
	b.WriteString("[\n")
	for _, r := range rows {
		b.WriteString("    [")
		for j, c := range r {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(csvEncodeHCLString(c))
		}
		b.WriteString("],\n")
	}
	b.WriteString("  ]")
	return b.String()
}

// expectOutputIsUploadBytes asserts the output is the bytes the emulator
// received for the resource's job, byte for byte: the output's SHA-256
// and length are the upload's (the emulator records those, not the
// bytes). With hashed, the output is already the SHA-256 (sha256() of the
// text in HCL), compared with the upload's.
func expectOutputIsUploadBytes(e *testEmulator, output, addr string, hashed bool) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
			resp.Error = fmt.Errorf("no state")
			return
		}
		o, ok := req.State.Values.Outputs[output]
		if !ok {
			resp.Error = fmt.Errorf("no output %q", output)
			return
		}
		text, ok := o.Value.(string)
		if !ok {
			resp.Error = fmt.Errorf("output %q is %T, want a string", output, o.Value)
			return
		}
		var id string
		for _, r := range req.State.Values.RootModule.Resources {
			if r.Address == addr {
				id, _ = r.AttributeValues["id"].(string)
			}
		}
		job, ok := e.Job(id)
		if !ok || job.Upload == nil {
			resp.Error = fmt.Errorf("%s: job %q with an upload not on the emulator", addr, id)
			return
		}
		u := job.Upload
		if hashed {
			if text != u.SHA256 {
				resp.Error = fmt.Errorf("output %q is %s, the emulator received %d bytes for %s with SHA-256 %s", output, text, u.Bytes, addr, u.SHA256)
			}
			return
		}
		if sum := sha256Hex([]byte(text)); sum != u.SHA256 || int64(len(text)) != u.Bytes {
			resp.Error = fmt.Errorf("output %q is %d bytes with SHA-256 %s, the emulator received %d bytes for %s with SHA-256 %s",
				output, len(text), sum, u.Bytes, addr, u.SHA256)
		}
	})
}

// TestAccCSVEncodeFunction_fileContent: csv_encode in a configuration, as
// an output and as an etl_import's file.content. The output is the text
// the encoder writes for the rows (computed here with etl.DataUpload's
// WriteCSV), and exactly the bytes the emulator received for the file;
// csvdecode reads it back. (That the same bytes are what rows sent as a
// file are: TestAccCSVEncodeFunction_rowsSentAsFile.)
func TestAccCSVEncodeFunction_fileContent(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	rows := [][]string{
		{"Account", "Amount", "Memo"},
		{"4000", "100.50", "plain"},
		{"4010", "-20", "Memo, with a comma"},
		{"4020", "0", `say "hi"`},
		{"4030", "1", "line 1\nline 2"},
		{"4040", "2", "carriage\rreturn"},
		{"4050", "3", "crlf\r\nline"},
		{"4060", "4", "  spaces around  "},
		{"4070", "", ""},
		{"4080", "5", "Montréal, Zürich, 東京 🙂"},
		{"4090", "6", "${not} a %{template}"},
	}
	var want strings.Builder
	if _, err := (etl.DataUpload{Rows: rows}).WriteCSV(&want); err != nil {
		t.Fatal(err)
	}
	// csvdecode gives the data rows as objects keyed by the header; it
	// reads a "\r\n" inside a cell as "\n" (encoding/csv does).
	var decoded []knownvalue.Check
	for _, r := range rows[1:] {
		obj := map[string]knownvalue.Check{}
		for j, c := range r {
			obj[rows[0][j]] = knownvalue.StringExact(strings.ReplaceAll(c, "\r\n", "\n"))
		}
		decoded = append(decoded, knownvalue.ObjectExact(obj))
	}
	const addr = "etl_import.fixture"
	config := e.providerConfig() + fmt.Sprintf(`
locals {
  rows = %s
}

output "csv" {
  value = provider::etl::csv_encode(local.rows)
}

output "decoded" {
  value = csvdecode(provider::etl::csv_encode(local.rows))
}

resource "etl_import" "fixture" {
  template_id = %q
  file = {
    content = provider::etl::csv_encode(local.rows)
    name    = "data.csv"
  }
}
`, csvEncodeHCLRows(rows), emulator.GLActualsTemplateID)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{csvEncodeVersionCheck{}},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("csv", knownvalue.StringExact(want.String())),
				expectOutputIsUploadBytes(e, "csv", addr, false),
				statecheck.ExpectKnownOutputValue("decoded", knownvalue.ListExact(decoded)),
				expectUpload(e, addr, emulator.Upload{Kind: "file", Format: "CSV", Encoding: "UTF-8", FileName: "data.csv",
					Header: rows[0], RowCount: len(rows) - 1, SHA256: sha256Hex([]byte(want.String())), Bytes: int64(want.Len())}),
			},
		}},
	})
}

// TestAccCSVEncodeFunction_rowsSentAsFile: rows whose JSON body is over
// the limit of start with data (lowered to 64 KiB for the test, in the
// provider and the emulator alike), so that etl_import sends them as a CSV
// file; csv_encode of the same rows is those bytes: the output,
// sha256(csv_encode(rows)), is the SHA-256 of what the emulator received.
func TestAccCSVEncodeFunction_rowsSentAsFile(t *testing.T) {
	e := newTestEmulator(t, lowerDataBodyLimit(emulator.Options{Instant: true}))
	const addr = "etl_import.big"
	const nRows, cellLen = 27, 4000 // 108 KB of cells: over the lowered limit
	rows := [][]string{{"Account", "Amount", "Memo, long"}}
	for i := range nRows {
		rows = append(rows, []string{fmt.Sprint(4000 + i), fmt.Sprintf("%0*d", cellLen, i), fmt.Sprintf("say \"hi\",\r\n Zürich %d ", i)})
	}
	if size := (etl.DataUpload{Rows: rows}).Size(); size <= testDataBodyLimit {
		t.Fatalf("test rows encode to %d bytes: not over the limit", size)
	}
	var want strings.Builder
	if _, err := (etl.DataUpload{Rows: rows}).WriteCSV(&want); err != nil {
		t.Fatal(err)
	}
	sum := sha256Hex([]byte(want.String()))
	vars := e.configVariables(config.Variables{
		"template_id": config.StringVariable(emulator.GLActualsTemplateID),
		"n_rows":      config.IntegerVariable(nRows),
		"cell_len":    config.IntegerVariable(cellLen),
	})
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{csvEncodeVersionCheck{}},
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: factoriesOf(lowLimitProvider()),
			ConfigDirectory:          withProvider(t, config.TestNameDirectory()),
			ConfigVariables:          vars,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("csv_sha256", knownvalue.StringExact(sum)),
				expectOutputIsUploadBytes(e, "csv_sha256", addr, true),
				expectUpload(e, addr, emulator.Upload{Kind: "file", Format: "CSV", Encoding: "UTF-8", FileName: etl.CSVFileName,
					Header: rows[0], RowCount: nRows, SHA256: sum, Bytes: int64(want.Len())}),
				checkEmulator(addr, func(map[string]any) error {
					if n := e.Requests(emulator.EndpointStartWithData); n != 0 {
						return fmt.Errorf("%d start-with-data requests, want none: the rows were not sent as a file", n)
					}
					return nil
				}),
			},
		}},
	})
}

// TestAccCSVEncodeFunction_errors: Terraform reports the function's
// errors on its argument, naming the row.
func TestAccCSVEncodeFunction_errors(t *testing.T) {
	requireTFAcc(t) // its subtests are acceptance tests
	for name, c := range map[string]struct{ rows, want string }{
		"ragged":    {`[["Account", "Amount"], ["4000", "1"], ["4010"]]`, `rows\[2\] has 1 cells but the header row \(rows\[0\]\) has 2`},
		"null cell": {`[["Account", "Amount"], ["4000", null]]`, `rows\[1\]\[1\] is null`},
		"empty":     {`[]`, `rows is empty`},
	} {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks:   []tfversion.TerraformVersionCheck{csvEncodeVersionCheck{}},
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: fmt.Sprintf(`
output "csv" {
  value = provider::etl::csv_encode(%s)
}
`, c.rows),
					ExpectError: regexp.MustCompile(`(?s)Invalid value for "rows" parameter: ` + strings.ReplaceAll(c.want, " ", `\s+`)),
				}},
			})
		})
	}
}
