package flatfile

import "encoding/binary"

// mapUTF16 appends to dst one unit per UTF-16 code unit of b (whose length
// is even), in little-endian or big-endian order: the code unit itself
// when it is ASCII, else 0x80, which is never a delimiter, a quote or a
// line break. A surrogate pair becomes two such units: recordScanner only
// looks for the ASCII ones, so nothing needs decoding. Four code units at
// a time while they are ASCII.
func mapUTF16(dst, b []byte, little bool) []byte {
	n := len(b) / 2
	start := len(dst)
	dst = append(dst, make([]byte, n)...)
	out := dst[start:]
	// In a little-endian load of 8 bytes, the bits that must be 0 for 4
	// ASCII code units, and the shift of each code unit's low byte.
	mask, shift := uint64(0x80FF80FF80FF80FF), uint(8)
	hi, lo := 0, 1
	if little {
		mask, shift = 0xFF80FF80FF80FF80, 0
		hi, lo = 1, 0
	}
	k := 0
	for ; k+4 <= n; k += 4 {
		w := binary.LittleEndian.Uint64(b[2*k:])
		if w&mask != 0 {
			for j := k; j < k+4; j++ {
				out[j] = utf16Unit(b[2*j+hi], b[2*j+lo])
			}
			continue
		}
		w >>= shift
		//nolint:gosec // each is one byte of w, on purpose
		out[k], out[k+1], out[k+2], out[k+3] = byte(w), byte(w>>16), byte(w>>32), byte(w>>48)
	}
	for ; k < n; k++ {
		out[k] = utf16Unit(b[2*k+hi], b[2*k+lo])
	}
	return dst
}

// utf16Unit returns the unit mapUTF16 gives the code unit of high byte hi
// and low byte lo.
func utf16Unit(hi, lo byte) byte {
	if hi == 0 && lo < 0x80 {
		return lo
	}
	return 0x80
}
