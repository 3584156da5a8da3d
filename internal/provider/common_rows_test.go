package provider

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// TestRowsPayload: under the limit, the JSON body's hash; over it, the
// CSV's hash, flagged as a file.
func TestRowsPayload(t *testing.T) {
	small := [][]string{{"Account", "Amount"}, {"4000", "1"}}
	sum, asFile, _ := rowsPayload(small, etl.MaxDataBodyBytes)
	if js, _ := hashRows(small); asFile || sum != js {
		t.Fatalf("small rows: %s %v", sum, asFile)
	}
	big := [][]string{{"Account", "Memo"}}
	cell := strings.Repeat("x", 1<<20)
	for range 26 {
		big = append(big, []string{"4000", cell})
	}
	sum, asFile, size := rowsPayload(big, etl.MaxDataBodyBytes)
	var want bytes.Buffer
	_, _ = etl.DataUpload{Rows: big}.WriteCSV(&want)
	if !asFile || sum != sha256Hex(want.Bytes()) || size <= etl.MaxDataBodyBytes {
		t.Fatalf("big rows: %s %v %d", sum, asFile, size)
	}
}

// TestRowsCSVSHA256Golden: rows over the 25 MB JSON limit are sent as a
// CSV file and content_sha256 is that file's hash. The CSV encoding is
// pinned on small rows through the same hashing function (hashRowsCSV),
// and the whole path on rows just over the limit.
func TestRowsCSVSHA256Golden(t *testing.T) {
	if got, want := hashRowsCSV(goldenRows), "5e9bfe918aa3559f339677c357561dd1e3e9dfeb2b206549a9a004c7743943aa"; got != want {
		t.Errorf("CSV of the golden rows: SHA-256 %s, want %s", got, want)
	}

	big := [][]string{{"Account", "Amount", "Memo, long"}}
	for i := range 27 {
		big = append(big, []string{fmt.Sprint(4000 + i), strings.Repeat(fmt.Sprint(i%10), 1<<20), `say "hi"`})
	}
	sum, asFile, jsonSize := rowsPayload(big, etl.MaxDataBodyBytes)
	if !asFile {
		t.Fatalf("rows of %d bytes not sent as a file", jsonSize)
	}
	if want := "3f90d77d0339750feeea13a4e9524782f72e10eb428159ba94c94a680ba06c9d"; sum != want || jsonSize != 28312281 {
		t.Errorf("rows over the limit: SHA-256 %s (JSON %d bytes), want %s", sum, jsonSize, want)
	}
}

func TestHashRows(t *testing.T) {
	// The rows hash is the hash of exactly the body the client sends.
	rows := [][]string{{"Account", "Amount"}, {"4000", "Montréal \"quoted\" <&>\n"}}
	var body bytes.Buffer
	if _, err := (etl.DataUpload{Rows: rows}).WriteTo(&body); err != nil {
		t.Fatal(err)
	}
	rs, size := hashRows(rows)
	if rs != localfile.HashBytes(body.Bytes()) || size != int64(body.Len()) {
		t.Errorf("hashRows = %s, %d; want the hash of %q", rs, size, body.String())
	}
	if !strings.HasPrefix(body.String(), `{"input":{"data":[["Account","Amount"],`) {
		t.Errorf("body %q", body.String())
	}
}
