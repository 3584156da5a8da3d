package etl

import (
	"bytes"
	"testing"
)

// TestMapUTF16: ASCII code units are kept, any other (a surrogate, or a
// unit whose low byte looks like a LF or a quote) becomes 0x80.
func TestMapUTF16(t *testing.T) {
	be := []byte{0x00, 'A', 0x00, '\n', 0x0A, 0x00, 0xD8, 0x3D, 0xDE, 0x00, 0x00, '"', 0x01, 0x22}
	want := []byte{'A', '\n', 0x80, 0x80, 0x80, '"', 0x80}
	if got := mapUTF16([]byte("x"), be, false); !bytes.Equal(got, append([]byte("x"), want...)) {
		t.Fatalf("big-endian: %q, want x%q", got, want)
	}
	le := make([]byte, len(be))
	for i := 0; i < len(be); i += 2 {
		le[i], le[i+1] = be[i+1], be[i]
	}
	if got := mapUTF16(nil, le, true); !bytes.Equal(got, want) {
		t.Fatalf("little-endian: %q, want %q", got, want)
	}
}
