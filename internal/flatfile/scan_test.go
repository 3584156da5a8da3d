package flatfile

import "testing"

// TestRecordScannerCounts: the records of texts with blank lines, CRs,
// quoted line breaks and no final line break, and where the header ends.
func TestRecordScannerCounts(t *testing.T) {
	cases := []struct {
		in        string
		records   int64
		headerEnd int64
		malformed bool
	}{
		{"", 0, -1, false},
		{"\n\r\n\r", 0, -1, false},
		{"A,B", 1, 3, false},
		{"A,B\n", 1, 4, false},
		{"A,B\r\n1,2\r\n", 2, 5, false},
		{"\n\nA\n\n1\n\r\n2", 3, 4, false},
		{"A\n\r\r\n", 2, 2, false},     // "\r" before the line break: a record of one CR
		{"A\nx\r", 2, 2, false},        // the CR before the end is dropped
		{"A\n\r", 1, 2, false},         // a lone CR at the end: blank
		{"\"A\nB\"\n1\n", 2, 6, false}, // a line break inside quotes
		{"A\n\"x\r\ny\",\"\"\"\"\r\n", 2, 2, false},
		{"A\n\"\"\n", 2, 2, false},
		{"A\n\"x\"\r", 2, 2, false},
		{"A\na\"b\n", 2, 2, true},     // a bare quote
		{"A\n\"a\"b\n", 2, 2, true},   // junk after the closing quote
		{"A\n\"a\"\rb\n", 2, 2, true}, // a CR, not a line break, after it
		{"A\n\"open\n", 2, 2, true},   // never closed
	}
	for _, c := range cases {
		s := newRecordScanner(',')
		s.feed([]byte(c.in))
		s.finish()
		if s.records != c.records || s.headerEnd != c.headerEnd || s.malformed != c.malformed {
			t.Errorf("%q: records %d, header end %d, malformed %v; want %d, %d, %v",
				c.in, s.records, s.headerEnd, s.malformed, c.records, c.headerEnd, c.malformed)
		}
	}
}

// TestRecordScannerSplits: every way of cutting a text in two gives the
// same records and header end as feeding it whole.
func TestRecordScannerSplits(t *testing.T) {
	in := []byte("\r\n\"A\r\n\",\"\"\"B\"\r\n\r\n1,\"x\"\r\n\"\",2\r")
	whole := newRecordScanner(',')
	whole.feed(in)
	whole.finish()
	for cut := range len(in) + 1 {
		s := newRecordScanner(',')
		s.feed(in[:cut])
		s.feed(in[cut:])
		s.finish()
		if s.records != whole.records || s.headerEnd != whole.headerEnd || s.malformed != whole.malformed {
			t.Fatalf("cut at %d: %d records, header end %d; whole: %d, %d", cut, s.records, s.headerEnd, whole.records, whole.headerEnd)
		}
	}
	if whole.records != 3 || whole.headerEnd != 15 || whole.malformed {
		t.Fatalf("whole: %d records, header end %d, malformed %v", whole.records, whole.headerEnd, whole.malformed)
	}
}
