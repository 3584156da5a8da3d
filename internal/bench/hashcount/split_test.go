package main

import (
	"strconv"
	"strings"
	"testing"
)

// TestSplit: each block of a file is hashed and counted, each timed: the
// times and the median of their ratios are positive.
func TestSplit(t *testing.T) {
	out, err := run("split", writeGL(t, "4000,1\n", 400_000), "CSV", "UTF-8") // 2.7 MiB: 3 blocks
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(out)
	if f[0] != "blocks" || f[1] != "3" || !strings.HasSuffix(out, ` rows 400000 columns ["Account" "Amount"] size 2800015`) {
		t.Fatalf("split = %q", out)
	}
	for _, k := range []int{3, 5, 7} {
		if v, err := strconv.ParseFloat(f[k], 64); err != nil || v <= 0 {
			t.Errorf("split = %q: field %d is %s, want a positive time or ratio", out, k, f[k])
		}
	}
}

// TestMedian: odd and even counts, unsorted, none.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
