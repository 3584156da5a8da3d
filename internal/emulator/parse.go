package emulator

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
)

// parseDelimited decodes and parses a flat file from raw, streaming. An
// error is returned only when the file does not decode or cannot be read;
// malformed records end up in t.errMsg.
func parseDelimited(raw io.Reader, conv converter, comma rune, t *table) error {
	br := bufio.NewReaderSize(newDecodeReader(raw, conv), decodeBufSize)
	return parseRecords(br, byte(comma), t, true) //nolint:gosec // comma is one of , | and tab
}

// parseRecords parses RFC 4180 records (encoding/csv semantics: LazyQuotes
// off, empty lines skipped, CRLF or LF) from br into t, then drains br.
//
// encoding/csv parses the header and the kept rows. After those, with fast
// set, complete lines that are plainly well formed are counted in place
// (fields counted, nothing allocated); any line the fast path is not sure
// of (a quoted field spanning lines, a stray quote, a line longer than the
// buffer, the last line without a newline) is left to encoding/csv, which
// reads the same buffered stream. Line numbers in messages count both.
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
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return err
			}
			adj := *pe
			adj.StartLine += skipped
			adj.Line += skipped
			t.fail("malformed file: %v", &adj)
			break
		}
		line, _ := cr.FieldPos(0)
		last, _ := cr.FieldPos(len(rec) - 1)
		csvEnd = last + strings.Count(rec[len(rec)-1], "\n")
		t.add(rec, line+skipped)
	}
	// Read (and decode) the rest, so every byte is hashed and checked.
	_, err := io.Copy(io.Discard, br)
	return err
}

// fastLines counts the well-formed single-line records buffered in br,
// consuming them, until it meets a line it leaves to encoding/csv. line is
// the number of the line before the first one. It returns how many lines
// it consumed.
func fastLines(br *bufio.Reader, comma byte, t *table, line int) (int, error) {
	consumed := 0
	for {
		if br.Buffered() == 0 {
			if _, err := br.Peek(1); err != nil {
				return consumed, err
			}
		}
		buf, _ := br.Peek(br.Buffered())
		pos := 0
		for {
			nl := bytes.IndexByte(buf[pos:], '\n')
			if nl < 0 {
				break
			}
			ln := buf[pos : pos+nl+1]
			fields, ok := countFields(ln, comma)
			if !ok {
				_, _ = br.Discard(pos)
				return consumed, nil
			}
			consumed++
			if fields > 0 {
				t.addCount(fields, line+consumed)
			}
			pos += nl + 1
		}
		_, _ = br.Discard(pos)
		if pos == 0 {
			// No complete line buffered: let encoding/csv take it (it
			// handles long lines and the last line).
			return consumed, nil
		}
	}
}

// countFields returns the number of fields of a complete line (ending in
// '\n') as encoding/csv would parse it, 0 for an empty line (skipped), and
// ok=false when the line is not a plainly well-formed record on its own.
func countFields(ln []byte, comma byte) (int, bool) {
	end := len(ln) - 1 // the '\n'
	if end > 0 && ln[end-1] == '\r' {
		end-- // CRLF
	}
	if end == 0 {
		return 0, true
	}
	body := ln[:end]
	if bytes.IndexByte(body, '"') < 0 {
		return bytes.Count(body, []byte{comma}) + 1, true
	}
	fields := 1
	pos := 0
	for {
		if pos < len(body) && body[pos] == '"' {
			pos++
			for {
				q := bytes.IndexByte(body[pos:], '"')
				if q < 0 {
					return 0, false // continues on the next line, or malformed
				}
				pos += q + 1
				if pos < len(body) && body[pos] == '"' {
					pos++ // escaped quote
					continue
				}
				break
			}
			if pos == len(body) {
				return fields, true
			}
			if body[pos] != comma {
				return 0, false // text after the closing quote
			}
			pos++
			fields++
			continue
		}
		c := bytes.IndexByte(body[pos:], comma)
		seg := body[pos:]
		if c >= 0 {
			seg = body[pos : pos+c]
		}
		if bytes.IndexByte(seg, '"') >= 0 {
			return 0, false // bare quote
		}
		if c < 0 {
			return fields, true
		}
		pos += c + 1
		fields++
	}
}
