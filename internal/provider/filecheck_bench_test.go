package provider

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// BenchmarkHashAndCheckFile: the plan-time read of a 256 MiB file, hashed
// alone (hashFile) and hashed with its first 64 MiB checked in the same
// read (hashAndCheckFile). The check should cost little: it runs in its
// own goroutine, fed by the read the hash does.
func BenchmarkHashAndCheckFile(b *testing.B) {
	const size = 256 << 20
	p := filepath.Join(b.TempDir(), "big.csv")
	line := []byte("4000,Entity 1,123.25,memo padded to a fixed width of sixty-four\n")
	data := append([]byte("Account,Entity,Amount,Memo\n"), bytes.Repeat(line, size/len(line))...)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("hashFile", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, _, err := hashFile(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hashAndCheckFile", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		f := fileModel{Path: types.StringValue(p), Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8")}
		for b.Loop() {
			var diags diag.Diagnostics
			if _, err := hashAndCheckFile(f, &diags); err != nil || diags.HasError() {
				b.Fatal(err, diags)
			}
		}
	})
}
