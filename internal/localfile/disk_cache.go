package localfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

// DiskCache holds hash records across provider processes: Terraform plans
// in one process and applies (planning again first) in another, and the
// record a plan writes serves that second plan and every later one while
// the file is unchanged (Find; KeepSent adds the record of a send). One small
// JSON file per record, named by the SHA-256 of the file's absolute path
// and identity, in one directory. Writes go to a temporary file renamed
// into place, so a reader sees a whole record or none, and concurrent runs
// only ever replace a record by an equally valid one. The directory holds
// at most max records: a write over the bound removes the oldest. A record
// is only a hint: it is used when its path and identity are those of the
// file now and it is not racy (Record.Trusted).
//
// The cache trusts only what it owns: a record says "this file's bytes
// hash to this", and whoever can write one can hide an edit. So the
// directory is used only when it is a real directory (not a symbolic
// link), owned by this process's user and not writable by group or others,
// and so is the terraform-provider-etl directory above it (UserDiskCache);
// and a record file is read only when it is a regular file (not a link),
// owned by this user and not writable by group or others. A shared
// XDG_CACHE_HOME, or sudo keeping HOME, thus turns the cache off instead
// of letting another user plant records. Trusted says whether the
// directory is used, and why not; it is checked once per DiskCache value
// (UserDiskCache makes one per plan). Nothing about it is ever an error:
// a cache that is not used only misses, and drops its writes.
type DiskCache struct {
	dir string
	max int
	// parent, when set, is the directory above dir that is checked as dir
	// is (UserDiskCache's terraform-provider-etl directory).
	parent string

	trustOnce sync.Once
	trusted   bool
	why       string // why not trusted
}

// Bounds of the disk cache: records kept (about 300 bytes each, more with
// a header row's cells), and the age at which a temporary file left by an
// interrupted write is removed.
const (
	diskCacheMax    = 4096
	diskCacheTmpAge = time.Hour
	diskCacheTmp    = ".tmp-"
	// diskCacheRecordMax: a record file larger than this is not one. A
	// record's counts hold a header row of up to 64 KiB, which JSON may
	// escape to six times its size.
	diskCacheRecordMax = 1 << 20
)

// UserDiskCache is the disk cache in the user's cache directory
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches
// on macOS); nil when there is none.
func UserDiskCache() *DiskCache {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		return nil
	}
	parent := filepath.Join(base, "terraform-provider-etl")
	return &DiskCache{dir: filepath.Join(parent, "file-hashes-v1"), parent: parent, max: diskCacheMax}
}

// Trusted reports whether the cache's directory is used (Get and Put do
// nothing otherwise), and when it is not, why, in words fit for a log.
// The first call checks, and makes the directory (mode 0700) when it is
// missing, its parent first; later calls, and Get and Put, reuse that
// answer. Nil: false.
func (d *DiskCache) Trusted() (bool, string) {
	if d == nil {
		return false, "no cache directory"
	}
	d.trustOnce.Do(func() {
		d.why = d.checkDirs()
		d.trusted = d.why == ""
	})
	return d.trusted, d.why
}

// checkDirs makes the cache's directories that are missing and checks
// them (parent first): "" when they are ours alone, else why not.
func (d *DiskCache) checkDirs() string {
	dirs := []string{d.dir}
	if d.parent != "" {
		dirs = []string{d.parent, d.dir}
	}
	// Above the checked directories: made when missing, not checked.
	if err := os.MkdirAll(filepath.Dir(dirs[0]), 0o700); err != nil {
		return fmt.Sprintf("the hash cache directory %s cannot be made: %v", d.dir, err)
	}
	for _, p := range dirs {
		if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Sprintf("the hash cache directory %s cannot be made: %v", p, err)
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return fmt.Sprintf("the hash cache directory %s cannot be read: %v", p, err)
		}
		if kind := "mode " + fi.Mode().String(); !fi.IsDir() {
			if fi.Mode()&fs.ModeSymlink != 0 {
				kind = "a symbolic link"
			}
			return fmt.Sprintf("the hash cache directory %s is not a directory (%s)", p, kind)
		}
		if why := notOurs(fi); why != "" {
			return fmt.Sprintf("the hash cache directory %s is %s", p, why)
		}
	}
	return ""
}

// notOurs says why the file whose metadata is fi is not this user's alone
// (owned by another user, or writable by group or others); "" when it is.
func notOurs(fi fs.FileInfo) string {
	uid, ok := fileOwner(fi)
	switch {
	case !ok:
		return "of an unknown owner (this system does not tell who owns a file)"
	case int64(uid) != int64(os.Getuid()):
		return fmt.Sprintf("owned by uid %d, not by this user (uid %d)", uid, os.Getuid())
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Sprintf("writable by group or others (mode %04o)", fi.Mode().Perm())
	}
	return ""
}

// name is the file name of the record for the file at abs with identity id.
func (d *DiskCache) name(abs string, id Identity) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%d\x00%d\x00%d", abs, id.Size, id.MtimeNs, id.CtimeNs, id.Inode, id.Device)
	return hex.EncodeToString(h.Sum(nil))
}

// Get returns the record for the file at abs with identity id; nil when
// there is none, it is not for that file, the directory is not trusted
// (Trusted), or the record file is not a regular file of this user's alone.
func (d *DiskCache) Get(abs string, id Identity) *Record {
	if ok, _ := d.Trusted(); !ok {
		return nil
	}
	b, ok := readOwned(filepath.Join(d.dir, d.name(abs, id)))
	if !ok {
		return nil
	}
	var r Record
	if json.Unmarshal(b, &r) != nil || r.Path != abs || r.ID != id {
		return nil
	}
	return &r
}

// Find returns the trusted record (Record.Trusted) of the file at p as it
// is now, checked against check; nil when the cache is nil, the file cannot
// be stat'ed, or it has none: then the file is read.
func (d *DiskCache) Find(p, check string) *Record {
	if d == nil {
		return nil
	}
	abs, id, ok := StatPath(p)
	if !ok {
		return nil
	}
	if r := d.Get(abs, id); r.Trusted(abs, id, check) {
		return r
	}
	return nil
}

// KeepSent writes the record of the bytes o sent (Opened.SentRecord,
// checked against check), with the counts of the record the cache holds
// for the file (the plan's read of the same bytes counted them): a later
// plan of the file as it is now trusts it. Nothing when the send did not
// verify the bytes.
func (d *DiskCache) KeepSent(o *Opened, check string) {
	r, ok := o.SentRecord(check)
	if !ok {
		return
	}
	r.KeepCounts(d.Get(r.Path, r.ID))
	d.Put(r)
}

// Put writes r, then keeps the directory within its bound. Failures are
// ignored: the cache only ever saves a read.
func (d *DiskCache) Put(r *Record) {
	if r == nil || r.Path == "" {
		return
	}
	if ok, _ := d.Trusted(); !ok {
		return
	}
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(d.dir, diskCacheTmp+"*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(d.dir, d.name(r.Path, r.ID))) != nil {
		_ = os.Remove(tmp.Name())
		return
	}
	d.prune()
}

// readOwned returns the bytes of the record file at p when it is a
// regular file (not a link: Lstat) of this user's alone, and is still that
// file once open (fstat); false otherwise.
func readOwned(p string) ([]byte, bool) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || notOurs(fi) != "" {
		return nil, false
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil || !os.SameFile(fi, opened) || notOurs(opened) != "" {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, diskCacheRecordMax+1))
	if err != nil || len(b) > diskCacheRecordMax {
		return nil, false
	}
	return b, true
}

// prune removes the oldest records while there are more than max, down to
// three quarters of max (so that pruning is rare), and temporary files
// older than diskCacheTmpAge.
func (d *DiskCache) prune() {
	f, err := os.Open(d.dir)
	if err != nil {
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	if len(names) <= d.max {
		return
	}
	type entry struct {
		name string
		mod  time.Time
	}
	entries := make([]entry, 0, len(names))
	for _, n := range names {
		fi, err := os.Lstat(filepath.Join(d.dir, n))
		if err != nil {
			continue // removed by a concurrent run
		}
		if strings.HasPrefix(n, diskCacheTmp) {
			if time.Since(fi.ModTime()) > diskCacheTmpAge {
				_ = os.Remove(filepath.Join(d.dir, n))
			}
			continue
		}
		entries = append(entries, entry{n, fi.ModTime()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return a.mod.Compare(b.mod) })
	for i := 0; len(entries)-i > d.max*3/4; i++ {
		_ = os.Remove(filepath.Join(d.dir, entries[i].name))
	}
}
