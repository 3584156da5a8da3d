package etl

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestPayload: under the limit, the JSON body's hash, size and rows; over
// it, the CSV's (a row of no cells not counted), flagged as a file.
func TestPayload(t *testing.T) {
	small := DataUpload{Rows: [][]string{{"Account", "Amount"}, {"4000", "1"}, {}}}
	p := small.Payload(MaxDataBodyBytes)
	if js, size := small.SHA256(); p.AsFile || p.SHA256 != js || p.JSONSize != size || p.Size != size || p.Rows != 2 {
		t.Fatalf("small rows: %+v", p)
	}
	var file bytes.Buffer
	_, _ = small.WriteCSV(&file)
	if p := small.Payload(p.JSONSize - 1); !p.AsFile || p.SHA256 != small.CSVSHA256() || p.Size != int64(file.Len()) || p.Rows != 1 {
		t.Fatalf("small rows over a lower limit: %+v", p)
	}
	big := DataUpload{Rows: [][]string{{"Account", "Memo"}}}
	cell := strings.Repeat("x", 1<<20)
	for range 26 {
		big.Rows = append(big.Rows, []string{"4000", cell})
	}
	p = big.Payload(MaxDataBodyBytes)
	var want bytes.Buffer
	_, _ = big.WriteCSV(&want)
	if !p.AsFile || p.SHA256 != sha(want.Bytes()) || p.JSONSize <= MaxDataBodyBytes {
		t.Fatalf("big rows: %+v", p)
	}
}

// TestPayloadOverTheLimitGolden: rows just over the 25 MB JSON limit are
// sent as a CSV file, and content_sha256 in users' state is that file's
// hash: this value must never change.
func TestPayloadOverTheLimitGolden(t *testing.T) {
	big := DataUpload{Rows: [][]string{{"Account", "Amount", "Memo, long"}}}
	for i := range 27 {
		big.Rows = append(big.Rows, []string{fmt.Sprint(4000 + i), strings.Repeat(fmt.Sprint(i%10), 1<<20), `say "hi"`})
	}
	p := big.Payload(MaxDataBodyBytes)
	if !p.AsFile {
		t.Fatalf("rows of %d bytes not sent as a file", p.JSONSize)
	}
	if want := "3f90d77d0339750feeea13a4e9524782f72e10eb428159ba94c94a680ba06c9d"; p.SHA256 != want || p.JSONSize != 28312281 {
		t.Errorf("rows over the limit: SHA-256 %s (JSON %d bytes), want %s", p.SHA256, p.JSONSize, want)
	}
}

// TestDataUploadSHA256: the rows' hash is the hash of exactly the body the
// client sends, and the CSV's of exactly the file.
func TestDataUploadSHA256(t *testing.T) {
	d := DataUpload{Rows: [][]string{{"Account", "Amount"}, {"4000", "Montréal \"quoted\" <&>\n"}}}
	var body, file bytes.Buffer
	if _, err := d.WriteTo(&body); err != nil {
		t.Fatal(err)
	}
	if _, err := d.WriteCSV(&file); err != nil {
		t.Fatal(err)
	}
	if rs, size := d.SHA256(); rs != sha(body.Bytes()) || size != int64(body.Len()) {
		t.Errorf("SHA256 = %s, %d; want the hash of %q", rs, size, body.String())
	}
	if !strings.HasPrefix(body.String(), `{"input":{"data":[["Account","Amount"],`) {
		t.Errorf("body %q", body.String())
	}
	if got := d.CSVSHA256(); got != sha(file.Bytes()) {
		t.Errorf("CSVSHA256 = %s; want the hash of %q", got, file.String())
	}
}
