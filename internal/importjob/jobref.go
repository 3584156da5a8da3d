package importjob

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// JobRef names a job on one service: job ids are unique per service only.
// The journal spells it as a hash of the service's address, a hyphen, and
// the id (a name fit for a file); earlier releases wrote the same.
type JobRef struct {
	service string // the first 6 bytes of the SHA-256 of the address, in hex
	id      string
}

// NewJobRef names job id on the service at address.
func NewJobRef(address, id string) JobRef {
	sum := sha256.Sum256([]byte(address))
	return JobRef{service: hex.EncodeToString(sum[:6]), id: id}
}

// ID is the job's id on its service.
func (j JobRef) ID() string { return j.id }

// IsZero reports whether j names no job.
func (j JobRef) IsZero() bool { return j == JobRef{} }

// String is j as the journal spells it; "" for no job.
func (j JobRef) String() string {
	if j.IsZero() {
		return ""
	}
	return j.service + "-" + j.id
}

// MarshalText spells j as String does.
func (j JobRef) MarshalText() ([]byte, error) { return []byte(j.String()), nil }

// UnmarshalText reads j as String spells it ("" is no job).
func (j *JobRef) UnmarshalText(b []byte) error {
	r, err := ParseJobRef(string(b))
	*j = r
	return err
}

// ParseJobRef reads a JobRef as String spells it; "" is no job.
func ParseJobRef(s string) (JobRef, error) {
	if s == "" {
		return JobRef{}, nil
	}
	service, id, ok := strings.Cut(s, "-")
	if !ok || service == "" || id == "" || strings.ContainsAny(id, `-/\.`) {
		return JobRef{}, fmt.Errorf("job reference %q is not <service hash>-<job id>", s)
	}
	return JobRef{service: service, id: id}, nil
}

// Key is what a job imports, on which service: the definition (as
// Definition.String spells it) on the service's address. A create settles
// only a job of its own key. Its spelling is kept in the journal's
// entries and the names of their files: an earlier release's entries match
// only while it stays.
type Key string

// NewKey is the key of definition (Definition.String) on the service at
// address; "" (no key: it settles nothing) when definition is "".
func NewKey(address, definition string) Key {
	if definition == "" {
		return ""
	}
	return Key(address + "\x00" + definition)
}

// KeyOn is d's key on the service at address; "" when d is not all known.
func (d Definition) KeyOn(address string) Key {
	if !d.Known() {
		return ""
	}
	return NewKey(address, d.String())
}
