package provider

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// BenchmarkHashFile: the plan-time read of a 256 MiB CSV file (from the
// page cache), three ways on one fixture: a plain io.Copy into SHA-256;
// hashFile, which reads ahead in a goroutine; and hashAndCheckFile, which
// also checks the first 64 MiB in the same read (the check runs in its own
// goroutine and should cost little).
func BenchmarkHashFile(b *testing.B) {
	p := filepath.Join(b.TempDir(), "big.csv")
	n := writeCSVFixture(b, p, 256<<20)

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

// writeCSVFixture writes a CSV of about size bytes to p and returns its
// exact size; the bytes live on disk only once it returns.
func writeCSVFixture(b *testing.B, p string, size int) int64 {
	b.Helper()
	line := []byte("4000,Entity 1,123.25,memo padded to a fixed width of sixty-four\n")
	data := append([]byte("Account,Entity,Amount,Memo\n"), bytes.Repeat(line, size/len(line))...)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		b.Fatal(err)
	}
	return int64(len(data))
}
