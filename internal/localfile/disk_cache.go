package localfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// DiskCache holds hash records across provider processes: Terraform plans
// in one process and applies (planning again first) in another, and a new
// resource has no private state for the record to travel in. One small
// JSON file per record, named by the SHA-256 of the file's absolute path
// and identity, in one directory. Writes go to a temporary file renamed
// into place, so a reader sees a whole record or none, and concurrent runs
// only ever replace a record by an equally valid one. The directory holds
// at most max records: a write over the bound removes the oldest. A record
// is only a hint: it is used when its path and identity are those of the
// file now and it is not racy (Record.Trusted).
type DiskCache struct {
	dir string
	max int
}

// Bounds of the disk cache: records kept (about 300 bytes each), and the
// age at which a temporary file left by an interrupted write is removed.
const (
	diskCacheMax    = 4096
	diskCacheTmpAge = time.Hour
	diskCacheTmp    = ".tmp-"
)

// UserDiskCache is the disk cache in the user's cache directory
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches
// on macOS); nil when there is none.
func UserDiskCache() *DiskCache {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		return nil
	}
	return &DiskCache{dir: filepath.Join(base, "terraform-provider-etl", "file-hashes-v1"), max: diskCacheMax}
}

// name is the file name of the record for the file at abs with identity id.
func (d *DiskCache) name(abs string, id Identity) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%d\x00%d\x00%d", abs, id.Size, id.MtimeNs, id.CtimeNs, id.Inode, id.Device)
	return hex.EncodeToString(h.Sum(nil))
}

// Get returns the record for the file at abs with identity id; nil when
// there is none or it is not for that file.
func (d *DiskCache) Get(abs string, id Identity) *Record {
	if d == nil {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(d.dir, d.name(abs, id)))
	if err != nil {
		return nil
	}
	var r Record
	if json.Unmarshal(b, &r) != nil || r.Path != abs || r.ID != id {
		return nil
	}
	return &r
}

// Put writes r, then keeps the directory within its bound. Failures are
// ignored: the cache only ever saves a read.
func (d *DiskCache) Put(r *Record) {
	if d == nil || r == nil || r.Path == "" {
		return
	}
	b, err := json.Marshal(r)
	if err != nil || os.MkdirAll(d.dir, 0o700) != nil {
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
