package emulator

import (
	"bufio"
	"bytes"
)

// fastLines is the fast path of parseRecords: after the kept rows, a line
// that is plainly a well-formed record on its own is counted in place,
// without encoding/csv building its fields. It counts such records
// buffered in br, consuming them, until it meets a line it is not sure of
// (a quoted field spanning lines, a stray quote, a line longer than the
// buffer, the last line without a line break), which it leaves to
// encoding/csv; FuzzFastPath checks that both agree. line is the number of
// the line before the first one. It returns how many lines it consumed.
func fastLines(br *bufio.Reader, comma byte, t *table, line int) (int, error) {
	consumed := 0
	for {
		_, err := br.Peek(br.Buffered() + 1) // read more, while there is room
		if br.Buffered() == 0 {
			return consumed, err
		}
		// Nothing more fits or arrives: the buffer is full, or the input
		// ended or failed; encoding/csv meets the end or the failure again
		// when it reads on (the decoder's errors are sticky).
		last := err != nil
		buf, _ := br.Peek(br.Buffered())
		pos, n, unsure := countLines(buf, comma, t, line+consumed)
		consumed += n
		_, _ = br.Discard(pos)
		if unsure || (pos == 0 && last) {
			// A line the fast path is not sure of, or no complete line
			// left (the last line, a line longer than the buffer):
			// encoding/csv takes it.
			return consumed, nil //nolint:nilerr // see last
		}
	}
}

// countLines counts into t the complete lines at the start of buf that are
// plainly well-formed records; line is the number of the line before the
// first. It returns the length of those lines, how many they are, and
// whether it stopped at a line it is not sure of.
func countLines(buf []byte, comma byte, t *table, line int) (pos, n int, unsure bool) {
	for {
		nl := bytes.IndexByte(buf[pos:], '\n')
		if nl < 0 {
			return pos, n, false
		}
		fields, ok := countFields(buf[pos:pos+nl+1], comma)
		if !ok {
			return pos, n, true
		}
		n++
		if fields > 0 {
			t.addCount(fields, line+n)
		}
		pos += nl + 1
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
