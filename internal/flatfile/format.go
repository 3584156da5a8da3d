package flatfile

import (
	"slices"
	"strings"
)

// Format is the delimited format of a flat file, spelled as the service
// spells it.
type Format string

// The flat file formats the service accepts.
const (
	// FormatCSV is a comma-separated file.
	FormatCSV Format = "CSV"
	// FormatPSV is a pipe-separated file.
	FormatPSV Format = "PSV"
	// FormatTDF is a tab-separated file.
	FormatTDF Format = "TDF"
)

// Formats lists the formats the service accepts, in the order error
// messages name them.
var Formats = []Format{FormatCSV, FormatPSV, FormatTDF}

// Delimiter returns the field separator of the format, or 0 when unknown.
func (f Format) Delimiter() rune {
	switch f {
	case FormatCSV:
		return ','
	case FormatPSV:
		return '|'
	case FormatTDF:
		return '\t'
	}
	return 0
}

// FormatFromExtension maps a file name's extension to a format: .csv to CSV,
// .psv to PSV, .tsv, .tdf and .tab to TDF. ok is false for anything else.
func FormatFromExtension(name string) (Format, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", false
	}
	switch strings.ToLower(name[i+1:]) {
	case "csv":
		return FormatCSV, true
	case "psv":
		return FormatPSV, true
	case "tsv", "tdf", "tab":
		return FormatTDF, true
	}
	return "", false
}

// Extension is the extension FormatFromExtension maps to f, the one a
// file with no name of its own is given (such as data.tsv): psv, tsv,
// else csv.
func (f Format) Extension() string {
	switch f {
	case FormatPSV:
		return "psv"
	case FormatTDF:
		return "tsv"
	}
	return "csv"
}

// Encoding is the character encoding of a flat file, spelled as the service
// spells it.
type Encoding string

// The encodings the service accepts.
const (
	// EncodingUTF8 is UTF-8, with or without a byte order mark.
	EncodingUTF8 Encoding = "UTF-8"
	// EncodingUTF16 is UTF-16 in the byte order its byte order mark gives,
	// big-endian without one.
	EncodingUTF16 Encoding = "UTF-16"
	// EncodingLatin1 is Windows Latin-1, that is Windows-1252.
	EncodingLatin1 Encoding = "Windows Latin-1"
)

// Encodings lists the encodings the service accepts.
var Encodings = []Encoding{EncodingUTF8, EncodingUTF16, EncodingLatin1}

// Known reports whether e is an encoding the service accepts (Encodings).
func (e Encoding) Known() bool { return slices.Contains(Encodings, e) }
