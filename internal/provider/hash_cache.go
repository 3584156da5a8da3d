package provider

// The plan-time hash cache. Every plan needs the SHA-256 of each file to
// import, and reading a large file in full costs seconds. As git, make and
// rsync do, the provider trusts file metadata instead: a file whose
// identity (size, modification and change times in nanoseconds, inode and
// device) is the one recorded when its hash was taken has the recorded
// hash, unless it changed too close to that moment (the "racy" case, as
// git handles it: see racy). Records live in the resource's private state,
// and for new resources in a small cache on disk (hash_cache_disk.go), so
// that the apply, which runs in a new provider process and plans again,
// does not read the file a second time. The send always hashes what it
// sends and refuses bytes other than the planned ones.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// fileIdentity is what the file system says about a file without reading
// it. Any write to the file changes its change time (and a chmod too).
type fileIdentity struct {
	Size    int64  `json:"size"`
	MtimeNs int64  `json:"mtime_ns"`
	CtimeNs int64  `json:"ctime_ns"`
	Inode   uint64 `json:"inode"`
	Device  uint64 `json:"device"`
}

// hashRecord is a file's SHA-256 with the identity the file had while it
// was read, and when the read began.
type hashRecord struct {
	Path     string       `json:"path"` // absolute
	ID       fileIdentity `json:"identity"`
	SHA256   string       `json:"sha256"`
	HashedAt int64        `json:"hashed_at_ns"` // wall clock, Unix nanoseconds
	// Checked is the format and encoding (checkKey) the file's first
	// fileCheckLimit bytes were checked against without a problem; empty
	// when they were not checked.
	Checked string `json:"checked,omitempty"`
}

// privateHashKey holds the hashRecord in the resource's private state.
const privateHashKey = "file_hash"

// racyMargin: a record is trusted only for a file whose modification and
// change times are older than the moment its hash was taken by more than
// this. It covers file systems with timestamps as coarse as 2 seconds and
// small clock differences with a file server.
const racyMargin = 2 * time.Second

// racy reports whether the file may have changed in the same timestamp
// tick as the read, or after it without its timestamps showing it.
func (r *hashRecord) racy() bool {
	limit := r.HashedAt - racyMargin.Nanoseconds()
	return r.ID.MtimeNs >= limit || r.ID.CtimeNs >= limit
}

// trusted reports whether r gives the hash of the file at abs, whose
// identity is id now, checked against check (checkKey; "" for no check).
func (r *hashRecord) trusted(abs string, id fileIdentity, check string) bool {
	return r != nil && r.Path == abs && r.ID == id && validSHA256(r.SHA256) &&
		(check == "" || r.Checked == check) && !r.racy()
}

// validSHA256 reports whether s is a lower-case hex SHA-256 digest.
func validSHA256(s string) bool {
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

// checkKey names what the plan-time check of f checks against: its format
// and encoding, or "" when it is not checked.
func checkKey(f fileModel) string {
	format, enc, ok := checkTarget(f)
	if !ok {
		return ""
	}
	return string(format) + "/" + string(enc)
}

// statIdentity returns the absolute path of p and the identity of the file
// it names; false when either is not available (then nothing is cached).
func statIdentity(p string) (string, fileIdentity, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fileIdentity{}, false
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		return "", fileIdentity{}, false
	}
	id, ok := identityOf(fi)
	return abs, adjustIdentity(abs, id), ok
}

// identityHook, when set (tests only), changes the identity read for a
// path: it simulates file systems whose timestamps do not move.
var identityHook atomic.Pointer[func(abs string, id fileIdentity) fileIdentity]

func adjustIdentity(abs string, id fileIdentity) fileIdentity {
	if h := identityHook.Load(); h != nil {
		return (*h)(abs, id)
	}
	return id
}

// fileReads counts, per absolute path, the times a file was read whole in
// this process (plan-time hashing and sends): tests assert on it.
var fileReads sync.Map // string -> *atomic.Int64

func countRead(p string) {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	n, _ := fileReads.LoadOrStore(abs, new(atomic.Int64))
	n.(*atomic.Int64).Add(1) //nolint:forcetypeassert // only *atomic.Int64 is stored
}

// readsOf returns how many times the file at abs was read whole.
func readsOf(abs string) int64 {
	if n, ok := fileReads.Load(abs); ok {
		return n.(*atomic.Int64).Load() //nolint:forcetypeassert // only *atomic.Int64 is stored
	}
	return 0
}

// privateSetter is the write side of the framework's private state.
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// recordFrom reads the hashRecord in private state; nil when there is none
// or it cannot be read.
func recordFrom(ctx context.Context, p privateGetter) *hashRecord {
	if p == nil {
		return nil
	}
	b, diags := p.GetKey(ctx, privateHashKey)
	if diags.HasError() || len(b) == 0 {
		return nil
	}
	var r hashRecord
	if json.Unmarshal(b, &r) != nil {
		return nil
	}
	return &r
}

// saveRecord stores r in private state.
func saveRecord(ctx context.Context, p privateSetter, r *hashRecord, diags *diag.Diagnostics) {
	if p == nil || r == nil {
		return
	}
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	diags.Append(p.SetKey(ctx, privateHashKey, b)...)
}

// hashCache is the caches as one plan of one resource sees them.
type hashCache struct {
	on    bool
	prior *hashRecord // from the resource's private state
	disk  *diskCache  // nil: none
	// used is the record behind the planned hash, reused or taken now.
	used *hashRecord
}

// newHashCache is the view of the caches for one plan; off when on is false.
func newHashCache(ctx context.Context, on bool, private privateGetter) *hashCache {
	if !on {
		return &hashCache{}
	}
	return &hashCache{on: true, prior: recordFrom(ctx, private), disk: userDiskCache()}
}

// diskOnly is the view of the caches for the files of inputs: the disk
// cache only, since the resource's private state holds one record (the
// top-level file's). Nil when the caches are off.
func (c *hashCache) diskOnly() *hashCache {
	if c == nil || !c.on {
		return nil
	}
	return &hashCache{on: true, disk: c.disk}
}

// lookup returns a trusted record for the file, from private state or the
// disk cache; nil when the file must be read.
func (c *hashCache) lookup(abs string, id fileIdentity, check string) *hashRecord {
	if c == nil || !c.on {
		return nil
	}
	if c.prior.trusted(abs, id, check) {
		return c.prior
	}
	if r := c.disk.get(abs, id); r.trusted(abs, id, check) {
		return r
	}
	return nil
}

// planFileSHA256 returns the SHA-256 of the file at f.path: a trusted
// record's, else read whole (and checked, see hashAndCheckFile) and
// recorded.
func (c *hashCache) planFileSHA256(ctx context.Context, f fileModel, diags *diag.Diagnostics) (string, error) {
	p, check := f.Path.ValueString(), checkKey(f)
	if c != nil && c.on {
		if abs, id, ok := statIdentity(p); ok {
			if r := c.lookup(abs, id, check); r != nil {
				tflog.Debug(ctx, "file unchanged since its hash was taken; not read", map[string]any{"path": p, "sha256": r.SHA256, "hashed_at": time.Unix(0, r.HashedAt).UTC().Format(time.RFC3339Nano)})
				c.used = r
				return r.SHA256, nil
			}
		}
	}
	n := len(*diags)
	r, err := readFileHash(f, diags)
	if err != nil {
		return "", err
	}
	if c != nil && c.on && r.Path != "" && len(*diags) == n {
		r.Checked = check
		c.used = r
		c.disk.put(r)
	}
	return r.SHA256, nil
}

// keep stores the record behind the planned hash in the planned private
// state: an update keeps it in state.
func (c *hashCache) keep(ctx context.Context, p privateSetter, diags *diag.Diagnostics) {
	if c != nil && c.on && c.used != nil {
		saveRecord(ctx, p, c.used, diags)
	}
}

// readFileHash reads the file at f.path whole: its SHA-256, its first
// fileCheckLimit bytes checked in the same read, and its identity. Path
// is set only when the file's identity is known and was the same before
// and after the read.
func readFileHash(f fileModel, diags *diag.Diagnostics) (*hashRecord, error) {
	p := f.Path.ValueString()
	start := time.Now()
	fh, err := openRegularFile(p)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	countRead(p)
	fi, err := fh.Stat()
	if err != nil {
		return nil, unreadableError(p, err)
	}
	sum, err := hashAndCheckOpen(fh, fi.Size(), f, diags)
	if err != nil {
		return nil, err
	}
	r := &hashRecord{SHA256: sum, HashedAt: start.UnixNano()}
	if abs, id, ok := stableIdentity(fh, fi); ok {
		r.Path, r.ID = abs, id
	}
	return r, nil
}

// stableIdentity returns the identity of the open file fh when it is the
// one before (fi, taken before the file was read) and now.
func stableIdentity(fh *os.File, before os.FileInfo) (string, fileIdentity, bool) {
	abs, err := filepath.Abs(fh.Name())
	if err != nil {
		return "", fileIdentity{}, false
	}
	after, err := fh.Stat()
	if err != nil {
		return "", fileIdentity{}, false
	}
	id1, ok1 := identityOf(before)
	id2, ok2 := identityOf(after)
	if !ok1 || !ok2 || id1 != id2 {
		return "", fileIdentity{}, false
	}
	return abs, adjustIdentity(abs, id1), true
}

// keepSentRecord records in private state, after a file was sent, the
// hash of the bytes sent: they matched the planned hash, and the file's
// identity was the same when it was opened and after the send. The plan
// that the apply makes first checked those bytes (see planFileSHA256).
func keepSentRecord(ctx context.Context, on bool, m *importModel, up *preparedUpload, p privateSetter, diags *diag.Diagnostics) {
	if !on || up == nil || up.opened == nil || !up.opened.verified.Load() {
		return
	}
	f, _ := fileFrom(ctx, m.File)
	of := up.opened
	abs, id, ok := stableIdentity(of.f, of.fi)
	if f == nil || !ok {
		return
	}
	saveRecord(ctx, p, &hashRecord{Path: abs, ID: id, SHA256: of.wantSum, HashedAt: of.opened.UnixNano(), Checked: checkKey(*f)}, diags)
}

// refreshRecord, at a refresh, takes the disk cache's record of the file
// into private state when it is trusted for the file as it is now and has
// the hash in state (a plan read the file again, as after a chmod): the
// record then lasts as long as the resource.
func refreshRecord(ctx context.Context, on bool, m *importModel, req privateGetter, resp privateSetter, diags *diag.Diagnostics) {
	if !on || !known(m.ContentSHA256) {
		return
	}
	c := newHashCache(ctx, true, req)
	if r := c.trustedFor(ctx, m.File); r != nil && r != c.prior && r.SHA256 == m.ContentSHA256.ValueString() {
		saveRecord(ctx, resp, r, diags)
	}
}

// cachedFileSHA256 is the SHA-256 the disk cache holds for the file of
// file (an input's) as it is now, trusted as a plan trusts it; null when
// the cache is off, the file has no path or no trusted record.
func cachedFileSHA256(ctx context.Context, file types.Object, on bool) types.String {
	if r := newHashCache(ctx, on, nil).trustedFor(ctx, file); r != nil {
		return types.StringValue(r.SHA256)
	}
	return types.StringNull()
}

// trustedFor is lookup for the file of file (its path, as it is now, and
// its format and encoding); nil when it has no path or no trusted record.
func (c *hashCache) trustedFor(ctx context.Context, file types.Object) *hashRecord {
	f, _ := fileFrom(ctx, file)
	if f == nil || !known(f.Path) {
		return nil
	}
	abs, id, ok := statIdentity(f.Path.ValueString())
	if !ok {
		return nil
	}
	return c.lookup(abs, id, checkKey(*f))
}
