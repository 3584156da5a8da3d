package emulator

import (
	"bufio"
	"bytes"
)

// The fast path of parseRecords: after the kept rows, a line that is plainly
// a well-formed record on its own is counted in place, without encoding/csv
// building its fields. Any line it is not sure of (a quoted field spanning
// lines, a stray quote, a line longer than the buffer, the last line without
// a line break) is left to encoding/csv. FuzzFastPath checks that both
// agree.

// fastLines counts the well-formed single-line records buffered in br,
// consuming them, until it meets a line it leaves to encoding/csv. line is
// the number of the line before the first one. It returns how many lines
// it consumed.
func fastLines(br *bufio.Reader, comma byte, t *table, line int) (int, error) {
	consumed := 0
	for {
		_, err := br.Peek(br.Buffered() + 1) // read more, while there is room
		if br.Buffered() == 0 {
			return consumed, err
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
		if pos == 0 && err != nil {
			// No complete line buffered, and no more to read: the last
			// line, a line longer than the buffer, or a read error.
			// encoding/csv takes it.
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
