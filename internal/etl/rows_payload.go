package etl

import (
	"crypto/sha256"
	"encoding/hex"
)

// Payload is how rows are sent: the JSON body of start with data (WriteTo)
// while it is at most a limit's bytes, else the UTF-8 CSV file of start
// with file (CSVFile, AsFile). SHA256 is the SHA-256 of the bytes sent
// either way, Size their length and Rows the data rows the service
// imports from them (RowCount); JSONSize is the length of the JSON body.
type Payload struct {
	SHA256     string
	AsFile     bool
	JSONSize   int64
	Size, Rows int64
}

// Payload is how the rows are sent when a JSON body may be at most limit
// bytes: the service's MaxDataBodyBytes (a caller may lower it, as tests
// do to cross it with kilobytes of rows).
func (d DataUpload) Payload(limit int64) Payload {
	sum, size := d.SHA256()
	if size <= limit {
		return Payload{SHA256: sum, JSONSize: size, Size: size, Rows: d.RowCount(false)}
	}
	return Payload{SHA256: d.CSVSHA256(), AsFile: true, JSONSize: size, Size: d.CSVSize(), Rows: d.RowCount(true)}
}

// SHA256 returns the SHA-256 hex digest and the length of the JSON body
// StartWithData sends for the rows (WriteTo).
func (d DataUpload) SHA256() (string, int64) {
	h := sha256.New()
	n, _ := d.WriteTo(h)
	return hex.EncodeToString(h.Sum(nil)), n
}

// CSVSHA256 returns the SHA-256 hex digest of the CSV file the rows are
// sent as (WriteCSV).
func (d DataUpload) CSVSHA256() string {
	h := sha256.New()
	_, _ = d.WriteCSV(h)
	return hex.EncodeToString(h.Sum(nil))
}
