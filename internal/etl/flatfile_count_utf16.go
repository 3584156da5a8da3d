package etl

// mapUTF16 appends to dst one unit per UTF-16 code unit of b (whose length
// is even), in little-endian or big-endian order: the code unit itself
// when it is ASCII, else 0x80, which is never a delimiter, a quote or a
// line break. A surrogate pair becomes two such units: recordScanner only
// looks for the ASCII ones, so nothing needs decoding.
func mapUTF16(dst, b []byte, little bool) []byte {
	n := len(b) / 2
	start := len(dst)
	dst = append(dst, make([]byte, n)...)
	out := dst[start:]
	hi, lo := 0, 1
	if little {
		hi, lo = 1, 0
	}
	for k := range n {
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
