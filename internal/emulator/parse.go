package emulator

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// parseBufSize is the size of the buffers a flat file is read through.
const parseBufSize = 256 << 10

// delimiter returns the field separator of a fileFormat the service knows
// (CSV: comma, PSV: pipe, TDF: tab), or 0 for any other format.
func delimiter(format string) rune {
	switch format {
	case "CSV":
		return ','
	case "PSV":
		return '|'
	case "TDF":
		return '\t'
	}
	return 0
}

// parseFile decodes raw, a flat file in format and encoding (both known),
// and parses its records into t, streaming. An error is returned only when
// the file does not decode or cannot be read; malformed records end up in
// t.errMsg.
func parseFile(raw io.Reader, format, encoding string, t *table) error {
	br := bufio.NewReaderSize(newTextReader(raw, encoding), parseBufSize)
	return parseRecords(br, byte(delimiter(format)), t, true) //nolint:gosec // every format's delimiter is ASCII
}

// parseRecords parses records with encoding/csv (Comma set per format,
// LazyQuotes off, any number of fields: the table checks widths; empty
// lines skipped, CRLF or LF) from br into t, then drains br so that every
// byte is decoded and checked. Where encoding/csv departs from RFC 4180 the
// emulator follows it: empty lines are skipped rather than read as records
// of one empty field (the service skips them too), and a CR LF inside a
// quoted field is kept as LF (only the kept rows show it).
//
// encoding/csv parses the header and the kept rows. After those, with fast
// set, complete lines that are plainly well formed are counted in place
// (see fastLines); any line the fast path is not sure of is left to
// encoding/csv, which reads the same buffered stream. Line numbers in
// messages count both.
func parseRecords(br *bufio.Reader, comma byte, t *table, fast bool) error {
	cr := csv.NewReader(br)
	cr.Comma = rune(comma)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = false
	cr.ReuseRecord = true
	skipped := 0 // lines consumed by the fast path
	csvEnd := 0  // encoding/csv's line number of the end of its last record
	for {
		if fast && t.haveHeader && len(t.rows) >= t.maxKept {
			n, err := fastLines(br, comma, t, csvEnd+skipped)
			skipped += n
			if err != nil && !errors.Is(err, io.EOF) {
				return err
			}
		}
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			if err := malformed(err, skipped, t); err != nil {
				return err
			}
			break
		}
		line, _ := cr.FieldPos(0)
		last, _ := cr.FieldPos(len(rec) - 1)
		csvEnd = last + strings.Count(rec[len(rec)-1], "\n")
		t.add(rec, line+skipped)
	}
	return drain(br)
}

// malformed records in t a record encoding/csv refused, its line numbers
// moved past the lines the fast path consumed; any other error is
// returned.
func malformed(err error, skipped int, t *table) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	adj := *pe
	adj.StartLine += skipped
	adj.Line += skipped
	t.fail(problemMalformed, "malformed file: %v", &adj)
	return nil
}

// drain reads (and so decodes and checks) the rest of r.
func drain(r io.Reader) error {
	_, err := io.Copy(io.Discard, r)
	return err
}

// ParseResult is what ParseFlatFile read from a flat file.
type ParseResult struct {
	Header []string // the first record
	Rows   int      // the data records after it (empty lines are skipped)
}

// ParseError is why ParseFlatFile refuses a file: Problem is "format" or
// "encoding" (the emulator answers 400: unknown fileFormat or fileEncoding,
// or bytes that do not decode), "no header", "malformed" or "width" (the
// job ends in ERROR).
type ParseError struct {
	Problem string
	Message string
}

func (e *ParseError) Error() string { return e.Problem + ": " + e.Message }

// ParseFlatFile parses a flat file as the emulator parses an upload:
// format is a fileFormat (CSV, PSV, TDF), encoding a fileEncoding (UTF-8,
// UTF-16, Windows Latin-1). The error is a *ParseError exactly when the
// emulator would refuse the file for its own form: it does not decode, it
// has no record, a record breaks RFC 4180 quoting as encoding/csv reads it
// (LazyQuotes off), or a data row's field count differs from the header's.
// A template's column rule is not applied. A read error of r is returned
// as is. The result holds what was read up to the problem.
func ParseFlatFile(r io.Reader, format, encoding string) (ParseResult, error) {
	if delimiter(format) == 0 {
		return ParseResult{}, &ParseError{Problem: "format", Message: fmt.Sprintf("unknown fileFormat %q", format)}
	}
	if !knownEncoding(encoding) {
		return ParseResult{}, &ParseError{Problem: "encoding", Message: fmt.Sprintf("unknown fileEncoding %q", encoding)}
	}
	t := &table{}
	err := parseFile(r, format, encoding, t)
	res := ParseResult{Header: t.header, Rows: t.count}
	var de *decodeError
	switch {
	case errors.As(err, &de):
		return res, &ParseError{Problem: problemDecode, Message: de.Error()}
	case err != nil:
		return res, err
	}
	if outcome, msg := t.finish(emptyFileMsg); outcome == StatusError {
		return res, &ParseError{Problem: t.problem, Message: msg}
	}
	return res, nil
}
