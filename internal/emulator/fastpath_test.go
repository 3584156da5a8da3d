package emulator

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// parseWith parses s into a fresh table, with or without the fast path,
// through a bufio.Reader of the given size.
func parseWith(t testing.TB, s string, comma byte, maxKept, bufSize int, fast bool) *table {
	tb := &table{required: []string{"a"}, maxKept: maxKept}
	if err := parseRecords(bufio.NewReaderSize(strings.NewReader(s), bufSize), comma, tb, fast); err != nil {
		t.Fatalf("parse: %v", err)
	}
	return tb
}

// checkSame asserts the fast path and plain encoding/csv agree on s.
func checkSame(t testing.TB, s string, comma byte) {
	for _, maxKept := range []int{0, 1, 3} {
		want := parseWith(t, s, comma, maxKept, 1<<16, false)
		for _, size := range []int{16, 37, 1 << 16} {
			got := parseWith(t, s, comma, maxKept, size, true)
			if got.count != want.count || got.errMsg != want.errMsg || !reflect.DeepEqual(got.header, want.header) ||
				!reflect.DeepEqual(got.rows, want.rows) {
				t.Fatalf("input %q (kept %d, buffer %d):\nfast  count %d err %q header %q rows %q\ncsv   count %d err %q header %q rows %q",
					s, maxKept, size, got.count, got.errMsg, got.header, got.rows, want.count, want.errMsg, want.header, want.rows)
			}
		}
	}
}

func TestFastPathMatchesEncodingCSV(t *testing.T) {
	fixed := []string{
		"a,b\n1,2\n3,4\n",
		"a,b\r\n1,2\r\n\r\n3,4\r\n",
		"a,b\n1,2\n3\n4,5,6\n",
		"a,b\n\"1,x\",2\n\"multi\nline\",3\n4,\"q\"\"q\"\n",
		"a,b\n1,2\n3,4\"x\n5,6\n",
		"a,b\n1,2\n\"3\"x,4\n5,6\n",
		"a,b\n1,2\n\"open,4\n5,6\n",
		"a,b\n1,2\n3,4",
		"a,b\n1,2\n3,4\r",
		"a,b\n1,2\n\n\n\n3,4\n\r\n",
		"a,b\n1,\"\"\n\"\",2\n,\n",
		"a,b\n1,2\n\"a\r\nb\",c\n",
		"a,b\n1,2\n\r\r\n3,4\n",
		"a,b\n1,2\n " + `"x"` + ",2\n",
		"a\n" + strings.Repeat("x", 100) + "\n" + strings.Repeat("y,", 40) + "\n",
	}
	for _, s := range fixed {
		checkSame(t, s, ',')
		checkSame(t, strings.ReplaceAll(s, ",", "\t"), '\t')
	}
	rng := rand.New(rand.NewPCG(1, 2))
	atoms := []string{"a", "bc", ",", ",", "\"", "\"\"", "\n", "\r\n", "\r", " ", "é", "|", "\t", "\"x\"", "\"y,z\"", "\"p\nq\""}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		b.WriteString("a,b\n")
		for n := rng.IntN(60); n > 0; n-- {
			b.WriteString(atoms[rng.IntN(len(atoms))])
		}
		checkSame(t, b.String(), ',')
	}
}

func FuzzFastPath(f *testing.F) {
	f.Add("a,b\n1,2\n\"3\n\",4\n")
	f.Add("a,b\n1,\"2\"x\n")
	f.Fuzz(func(t *testing.T, s string) {
		checkSame(t, s, ',')
	})
}

func TestCountFields(t *testing.T) {
	cases := []struct {
		line   string
		fields int
		ok     bool
	}{
		{"\n", 0, true},
		{"\r\n", 0, true},
		{"a\n", 1, true},
		{"a,b,\n", 3, true},
		{"\"a,b\",c\r\n", 2, true},
		{"\"a\"\"b\"\n", 1, true},
		{"\"a\"b\n", 0, false},
		{"a\"b\n", 0, false},
		{"\"open\n", 0, false},
	}
	for _, c := range cases {
		n, ok := countFields([]byte(c.line), ',')
		if n != c.fields || ok != c.ok {
			t.Errorf("countFields(%q) = %d, %v; want %d, %v", c.line, n, ok, c.fields, c.ok)
		}
	}
}

// TestFastPathReadsPastShortReads: the fast path keeps counting when the
// reader under the buffer returns little at a time (as the decoder does),
// rather than leaving a record to encoding/csv at every read.
func TestFastPathReadsPastShortReads(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "%d,x\n", i)
	}
	br := bufio.NewReaderSize(iotest.OneByteReader(strings.NewReader(b.String())), 4096)
	tb := &table{}
	if _, err := br.ReadString('\n'); err != nil { // the header
		t.Fatal(err)
	}
	tb.add([]string{"a", "b"}, 1)
	n, err := fastLines(br, ',', tb, 1)
	if n != 2000 || tb.count != 2000 || !errors.Is(err, io.EOF) || tb.errMsg != "" {
		t.Errorf("fast path consumed %d lines (counted %d), err %v, %q", n, tb.count, err, tb.errMsg)
	}
}
