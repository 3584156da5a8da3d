package importjob

import "testing"

// TestDescribeCounts: data rows and bytes, singular and plural, leaving
// out what is not known.
func TestDescribeCounts(t *testing.T) {
	for _, tc := range []struct {
		rows, size int64
		want       string
	}{
		{3, 120, "3 data rows, 120 bytes"},
		{1, 1, "1 data row, 1 bytes"},
		{0, 9, "0 data rows, 9 bytes"},
		{-1, 9, "9 bytes"},
		{2, -1, "2 data rows"},
		{-1, -1, ""},
	} {
		if got := DescribeCounts(tc.rows, tc.size); got != tc.want {
			t.Errorf("DescribeCounts(%d, %d) = %q, want %q", tc.rows, tc.size, got, tc.want)
		}
	}
}

// TestCountInputs: one input, and any other number.
func TestCountInputs(t *testing.T) {
	for n, want := range map[int]string{0: "0 inputs", 1: "1 input", 2: "2 inputs", 12: "12 inputs"} {
		if got := CountInputs(n); got != want {
			t.Errorf("CountInputs(%d) = %q, want %q", n, got, want)
		}
	}
}
