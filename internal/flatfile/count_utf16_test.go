package flatfile

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

// TestMapUTF16Words: the four-at-a-time path and the one-at-a-time path
// agree, wherever a non-ASCII code unit falls among ASCII ones.
func TestMapUTF16Words(t *testing.T) {
	for _, little := range []bool{false, true} {
		for pos := range 11 {
			units := bytes.Repeat([]byte{0, 'a'}, 11)
			if little {
				units = bytes.Repeat([]byte{'a', 0}, 11)
			}
			units[2*pos], units[2*pos+1] = 0x20, 0xAC // U+20AC or U+AC20
			got := mapUTF16(nil, units, little)
			for k := range got {
				hi, lo := units[2*k], units[2*k+1]
				if little {
					hi, lo = lo, hi
				}
				if got[k] != utf16Unit(hi, lo) {
					t.Fatalf("little %v, non-ASCII at %d: unit %d is %#x", little, pos, k, got[k])
				}
			}
		}
	}
}
