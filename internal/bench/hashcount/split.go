package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// splitBlock is the size of the blocks split reads, as the plan's read
// hands the counter its blocks (localfile's hashBlock).
const splitBlock = 1 << 20

// split reads the file at p block by block and, for each block, times
// SHA-256 and then the counter on it, side by side on the same bytes in
// the same goroutine: what the counting costs against a SHA-256 pass,
// whatever else the machine does. It returns a line with the blocks, the
// seconds each took in all, the median of the blocks' ratios (counting
// over SHA-256: a block the scheduler paused in moves the median little)
// and what the counter found.
func split(p string, counter *flatfile.RowCounter) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	buf := make([]byte, splitBlock)
	var hashing, counting time.Duration
	var ratios []float64
	for {
		n, err := io.ReadFull(f, buf)
		if n > 0 {
			t0 := time.Now()
			h.Write(buf[:n])
			t1 := time.Now()
			_, _ = counter.Write(buf[:n])
			t2 := time.Now()
			hashing, counting = hashing+t1.Sub(t0), counting+t2.Sub(t1)
			ratios = append(ratios, float64(t2.Sub(t1))/float64(max(t1.Sub(t0), 1)))
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return "", err
		}
	}
	c := counter.Result()
	return fmt.Sprintf("blocks %d sha256 %.6f count %.6f ratio %.4f rows %d columns %q size %d",
		len(ratios), hashing.Seconds(), counting.Seconds(), median(ratios), c.Rows, c.Columns, c.Size), nil
}

// median returns the median of v (0 for none).
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
