package emulator

import (
	"fmt"
	"slices"
	"strings"
)

// Why a file or its rows fail, for ParseFlatFile's errors and the column
// rules of a job.
const (
	// problemDecode means the bytes do not decode (the upload is answered
	// 400).
	problemDecode = "encoding"
	// problemNoHeader means the file holds no record at all (the job ends
	// in ERROR, as for the rest).
	problemNoHeader = "no header"
	// problemMalformed means a record breaks RFC 4180 quoting.
	problemMalformed = "malformed"
	// problemWidth means a data row's field count differs from the
	// header's.
	problemWidth = "width"
	// problemColumns means a required column is missing (an invented
	// rule: see Template.RequiredColumns).
	problemColumns = "columns"
)

// table accumulates the rows of an upload and applies the column rules:
// the first record is the header, which must hold the required columns;
// every data row must have as many fields as the header.
type table struct {
	required   []string
	maxKept    int
	haveHeader bool
	header     []string
	rows       [][]string
	count      int
	problem    string // the kind of the first reason the job will end in ERROR
	errMsg     string // that reason
}

// fail records the first reason the job will end in ERROR, of kind
// problem; later ones are dropped.
func (t *table) fail(problem, format string, args ...any) {
	if t.errMsg == "" {
		t.problem, t.errMsg = problem, fmt.Sprintf(format, args...)
	}
}

// add takes one record; rec may be reused by the caller. line is for
// messages (0 = unknown).
func (t *table) add(rec []string, line int) {
	switch {
	case !t.haveHeader:
		t.setHeader(rec)
	case len(t.rows) >= t.maxKept:
		t.addCount(len(rec), line)
	default:
		t.addCount(len(rec), line)
		t.rows = append(t.rows, slices.Clone(rec))
	}
}

// setHeader takes the header record and checks the required columns.
func (t *table) setHeader(rec []string) {
	t.haveHeader = true
	t.header = slices.Clone(rec)
	var missing []string
	for _, c := range t.required {
		if !slices.Contains(t.header, c) {
			missing = append(missing, fmt.Sprintf("%q", c))
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		t.fail(problemColumns, "missing required column %s", missing[0])
	default:
		t.fail(problemColumns, "missing required columns %s", strings.Join(missing, ", "))
	}
}

// addCount counts a data row of n fields, kept or not, and records a
// problemWidth failure when n is not the header's width.
func (t *table) addCount(n, line int) {
	t.count++
	if n != len(t.header) && t.errMsg == "" {
		where := ""
		if line > 0 {
			where = fmt.Sprintf(" (line %d)", line)
		}
		t.fail(problemWidth, "data row %d%s has %d fields, the header has %d", t.count, where, n, len(t.header))
	}
}

// finish returns the job outcome and message; emptyMsg is the message
// when there was no header row.
func (t *table) finish(emptyMsg string) (string, string) {
	if !t.haveHeader {
		t.fail(problemNoHeader, "%s", emptyMsg)
	}
	if t.errMsg != "" {
		return StatusError, t.errMsg
	}
	return StatusCompleted, ""
}

// load returns the outcome of an upload whose rows t holds; u gets the
// header and rows.
func (t *table) load(u *Upload, emptyMsg string) *load {
	outcome, msg := t.finish(emptyMsg)
	u.Header, u.Rows, u.RowCount = t.header, t.rows, t.count
	return &load{upload: u, outcome: outcome, message: msg}
}
