package flatfile

import (
	"bytes"
	"errors"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// divergence reports the rules in which the checker is deliberately
// stricter than the emulator's reference parser, so that the differential
// test passes over them instead of reporting them:
//   - an empty first line: the checker wants the header there, the
//     emulator (like encoding/csv) skips blank lines;
//   - a one-column header split by another format's delimiter: the
//     checker guesses the wrong format, the emulator has no such guess;
//   - a NUL byte in the header of an 8-bit file, which the checker refuses;
//   - a byte order mark of another encoding at the start of the file
//     (UTF-8's in a Windows Latin-1 file, UTF-16's in an 8-bit file),
//     which the checker refuses as a wrong encoding and the emulator
//     decodes as the characters those bytes are in the declared one.
//
// A CR that ends the file is dropped by both, as encoding/csv does.
func divergence(in []byte, enc Encoding, err error) bool {
	if foreignBOM(in, enc) {
		return true
	}
	var fe *FileError
	if errors.As(err, &fe) && (fe.Problem == ProblemNoHeader || fe.Problem == ProblemDelimiter) {
		return true
	}
	if enc == EncodingUTF16 {
		return false
	}
	header := in
	if i := bytes.IndexByte(in, '\n'); i >= 0 {
		header = in[:i]
	}
	return bytes.IndexByte(header, 0) >= 0
}

// FuzzCheckerMatchesEmulator feeds the same bytes to the client's streaming
// checker and to the emulator's reference parser (encoding/csv over x/text
// decoders), and fails when they disagree on accepting the file or, when
// both accept it, on its count of data rows.
func FuzzCheckerMatchesEmulator(f *testing.F) {
	for _, s := range fileSeeds {
		f.Add([]byte(s), uint8(0), uint8(0))
	}
	f.Add(utf16Bytes("A,B\n1,2\n", false, true), uint8(0), uint8(1))
	f.Add(utf16Bytes("A|B\r\n1|2\r\n", true, true), uint8(1), uint8(1))
	f.Add([]byte("A\tB\n\xE9\t2\n"), uint8(2), uint8(2))
	f.Add([]byte("A,B\n\"1\"\",2\"\n"), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, in []byte, fmtIdx, encIdx uint8) {
		format := Formats[int(fmtIdx)%len(Formats)]
		enc := Encodings[int(encIdx)%len(Encodings)]
		sum, cerr := CheckFile(bytes.NewReader(in), format, enc, 0)
		res, perr := emulator.ParseFlatFile(bytes.NewReader(in), string(format), string(enc))
		if divergence(in, enc, cerr) {
			return
		}
		if (cerr == nil) != (perr == nil) {
			t.Fatalf("%s %s %q: checker says %v, emulator says %v", format, enc, in, cerr, perr)
		}
		if cerr == nil && sum.Rows != int64(res.Rows) {
			t.Fatalf("%s %s %q: checker counts %d rows, emulator %d", format, enc, in, sum.Rows, res.Rows)
		}
	})
}

func foreignBOM(in []byte, enc Encoding) bool {
	utf16BOM := bytes.HasPrefix(in, []byte{0xFE, 0xFF}) || bytes.HasPrefix(in, []byte{0xFF, 0xFE})
	switch enc {
	case EncodingLatin1:
		return utf16BOM || bytes.HasPrefix(in, []byte{0xEF, 0xBB, 0xBF})
	case EncodingUTF8:
		return utf16BOM
	}
	return false
}
