package provider

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkHashFile: plan-time hashing of a 256 MiB file (from the page
// cache) by hashFile, which reads ahead in a goroutine, against a plain
// io.Copy into SHA-256.
func BenchmarkHashFile(b *testing.B) {
	const size = 256 << 20
	p := filepath.Join(b.TempDir(), "big.csv")
	line := []byte("4000,Entity 1,123.25,memo padded to a fixed width of sixty-four\n")
	if err := os.WriteFile(p, bytes.Repeat(line, size/len(line)), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("hashFile", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := hashFile(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("io.Copy", func(b *testing.B) {
		b.SetBytes(size)
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
}
