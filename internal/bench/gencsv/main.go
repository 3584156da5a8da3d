// Command gencsv writes a deterministic CSV file of an exact size for the
// benchmarks (scripts/bench.sh): a header row "Account,Entity,Amount,Memo",
// then fixed-width data rows. It writes in large blocks, so generating
// gigabytes takes about as long as the disk needs.
//
//	gencsv -size 2GiB -o .cache/bench/big.csv
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

const header = "Account,Entity,Amount,Memo\n"

func main() {
	size := flag.String("size", "20MiB", "file size: bytes, or with a KiB, MiB or GiB suffix")
	out := flag.String("o", "", "output file (required)")
	printSize := flag.Bool("print-size", false, "print the size in bytes and exit")
	flag.Parse()
	n, err := parseSize(*size)
	if err == nil && *printSize {
		fmt.Println(n)
		return
	}
	if err == nil && *out == "" {
		err = errors.New("-o is required")
	}
	if err == nil {
		err = write(*out, n)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencsv:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if strings.HasSuffix(s, suffix) {
			s, mult = strings.TrimSuffix(s, suffix), m
			break
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v*mult < int64(len(header))+64 {
		return 0, fmt.Errorf("bad -size %q: want at least %d bytes", s, len(header)+64)
	}
	return v * mult, nil
}

// block returns rows of exactly 64 bytes each, numbered from first.
func block(dst []byte, first int64) []byte {
	dst = dst[:0]
	for i := first; len(dst) < cap(dst)-64; i++ {
		start := len(dst)
		dst = strconv.AppendInt(dst, 4000+i%1000, 10)
		dst = append(dst, ",Entity "...)
		dst = strconv.AppendInt(dst, i%97, 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, i%1000003, 10)
		dst = append(dst, ",row "...)
		dst = strconv.AppendInt(dst, i, 10)
		for len(dst)-start < 63 {
			dst = append(dst, ' ')
		}
		dst = append(dst, '\n')
	}
	return dst
}

func write(path string, size int64) error {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 4<<20)
	left := size
	_, _ = w.WriteString(header)
	left -= int64(len(header))
	buf := make([]byte, 0, 1<<20)
	var row int64
	for left > 0 {
		buf = block(buf, row)
		row += int64(len(buf) / 64)
		chunk := buf
		if int64(len(chunk)) >= left {
			// End on a whole line: the last line takes what is left over
			// (between 64 and 127 bytes), its memo padded with spaces.
			whole := (left/64 - 1) * 64
			chunk = append(chunk[:whole], "1,Entity,1,last"...)
			for int64(len(chunk)) < left-1 {
				chunk = append(chunk, ' ')
			}
			chunk = append(chunk, '\n')
		}
		if _, err := w.Write(chunk); err != nil {
			f.Close()
			return err
		}
		left -= int64(len(chunk))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}
