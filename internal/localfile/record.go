package localfile

import (
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// Record is a file's SHA-256 with the identity the file had while it was
// read, and when the read began: the hash is the file's for as long as the
// file keeps that identity (Trusted).
type Record struct {
	Path     string   `json:"path"` // the key path: absolute, links resolved (StatPath)
	ID       Identity `json:"identity"`
	SHA256   string   `json:"sha256"`
	HashedAt int64    `json:"hashed_at_ns"` // wall clock, Unix nanoseconds
	// Checked names what the file's head was checked against without a
	// problem when it was read (the caller's key, such as a format and an
	// encoding); empty when it was not checked.
	Checked string `json:"checked,omitempty"`
	// Counts is what a Counter found in the same read as the hash: for
	// as long as the record is trusted, they are the file's; nil when
	// nothing was counted (a record written before counts were, or a read
	// without a Counter): the counts are unknown then (CountsFor).
	Counts *flatfile.Counts `json:"counts,omitempty"`
}

// CountsFor returns the counts r holds for key; nil when it holds none
// (nil r, a record from before counts were kept, or counts for another
// key) or holds inconsistent ones (a damaged record): the counts are
// unknown, and the file must be read again to know them.
func (r *Record) CountsFor(key string) *flatfile.Counts {
	if r == nil || r.Counts == nil {
		return nil
	}
	c := r.Counts
	if c.Key != key || c.Rows < 0 || c.Size < 0 || (c.Columns == nil) == (c.NoColumns == "") {
		return nil
	}
	return c
}

// RacyMargin is how much older than the moment its hash was taken a file's
// modification and change times must be for its Record to be trusted. It
// covers file systems with timestamps as coarse as 2 seconds and small
// clock differences with a file server.
const RacyMargin = 2 * time.Second

// racy reports whether the file may have changed in the same timestamp tick
// as the read, or after it without its timestamps showing it (git's rule).
func (r *Record) racy() bool {
	limit := r.HashedAt - RacyMargin.Nanoseconds()
	return r.ID.MtimeNs >= limit || r.ID.CtimeNs >= limit
}

// Trusted reports whether r gives the hash of the file at abs, whose
// identity is id now, checked against check ("" when no check is needed).
func (r *Record) Trusted(abs string, id Identity, check string) bool {
	return r != nil && r.Path == abs && r.ID == id && ValidSHA256(r.SHA256) &&
		(check == "" || r.Checked == check) && !r.racy()
}

// ValidSHA256 reports whether s is a lower-case hex SHA-256 digest.
func ValidSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// KeepCounts gives r the counts of from when r has none and both are
// records of the same bytes (the same SHA-256): counts depend on the bytes
// alone, so a record taken without counting (such as a send's, SentRecord)
// keeps those of the plan that read the same bytes.
func (r *Record) KeepCounts(from *Record) {
	if r != nil && r.Counts == nil && from != nil && from.Counts != nil && ValidSHA256(r.SHA256) && from.SHA256 == r.SHA256 {
		c := *from.Counts
		r.Counts = &c
	}
}
