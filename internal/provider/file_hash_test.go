package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestHashFile(t *testing.T) {
	// A few MiB, streamed.
	content := repeatCSV("Account,Amount,City", "4000,100.50,Montréal", 200_000)
	p := writeFile(t, t.TempDir(), "big.csv", content)
	want := sha256.Sum256(content)
	sum, n, err := hashFile(p)
	if err != nil || sum != hex.EncodeToString(want[:]) || n != int64(len(content)) {
		t.Fatalf("hashFile = %s, %d, %v", sum, n, err)
	}
}

// BenchmarkHashFile: the plan-time read of a 256 MiB CSV file (from the
// page cache), three ways on one fixture: a plain io.Copy into SHA-256;
// hashFile, which reads ahead in a goroutine; and hashAndCheckFile, which
// also checks the first 64 MiB in the same read (the check runs in its own
// goroutine and should cost little).
func BenchmarkHashFile(b *testing.B) {
	p, n := writeCSVFixture(b, 256<<20)

	b.Run("io.Copy", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			f, err := os.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(sha256.New(), f); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
	b.Run("hashFile", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := hashFile(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hashAndCheckFile", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		f := fileModel{Path: types.StringValue(p), Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8")}
		for b.Loop() {
			var diags diag.Diagnostics
			if _, err := hashAndCheckFile(f, &diags); err != nil || diags.HasError() {
				b.Fatal(err, diags)
			}
		}
	})
}

// writeCSVFixture writes a CSV of about size bytes and returns its path
// and exact size; the bytes live on disk only once it returns.
func writeCSVFixture(b *testing.B, size int) (string, int64) {
	b.Helper()
	const row = "4000,Entity 1,123.25,memo padded to a fixed width of sixty-four"
	data := repeatCSV("Account,Entity,Amount,Memo", row, size/(len(row)+1))
	return writeFile(b, b.TempDir(), "big.csv", data), int64(len(data))
}
