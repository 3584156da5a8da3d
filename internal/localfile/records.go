package localfile

// Records are where a read of a file may find its trusted hash instead of
// reading it: a record its caller keeps (Prior, such as the one a
// Terraform resource keeps in its private state), then the disk cache
// (Disk; nil: none). A read that finds none reads the file, and records
// what it read (Keep). A nil *Records trusts nothing and records nothing.
type Records struct {
	Prior *Record
	Disk  *DiskCache
}

// Lookup returns a trusted record (Record.Trusted) of the file at abs with
// identity id, checked against check: Prior's, else the disk cache's; nil
// when the file must be read.
func (rs *Records) Lookup(abs string, id Identity, check string) *Record {
	if rs == nil {
		return nil
	}
	if rs.Prior.Trusted(abs, id, check) {
		return rs.Prior
	}
	if r := rs.Disk.Get(abs, id); r.Trusted(abs, id, check) {
		return r
	}
	return nil
}

// Find returns the trusted record (Lookup) of the file at p as it is now;
// nil when it cannot be stat'ed or has none.
func (rs *Records) Find(p, check string) *Record {
	if rs == nil {
		return nil
	}
	abs, id, ok := StatPath(p)
	if !ok {
		return nil
	}
	return rs.Lookup(abs, id, check)
}

// Keep records r, a read of a file whose head was checked against check
// and found no problem, in the disk cache: a later read of the file as it
// is now trusts it. A record without the file's identity is not kept.
func (rs *Records) Keep(r *Record, check string) {
	if rs == nil || r == nil || r.Path == "" {
		return
	}
	r.Checked = check
	rs.Disk.Put(r)
}

// Sent returns the record of the bytes o sent (Opened.SentRecord, checked
// against check), with the counts of the record of the same bytes that
// Prior, else the disk cache, holds: the read that hashed them before the
// send counted them. False when the send did not verify the bytes.
func (rs *Records) Sent(o *Opened, check string) (*Record, bool) {
	r, ok := o.SentRecord(check)
	if !ok {
		return nil, false
	}
	if rs != nil {
		r.KeepCounts(rs.Prior)
		if r.Counts == nil && r.Path != "" {
			r.KeepCounts(rs.Disk.Get(r.Path, r.ID))
		}
	}
	return r, true
}
