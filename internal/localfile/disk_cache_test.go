package localfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

func TestRecordTrusted(t *testing.T) {
	now := time.Now()
	old := now.Add(-time.Hour).UnixNano()
	id := Identity{Size: 10, MtimeNs: old, CtimeNs: old, Inode: 5, Device: 1}
	rec := Record{Path: "/d/gl.csv", ID: id, SHA256: sha256Hex(nil), HashedAt: now.UnixNano(), Checked: "CSV/UTF-8"}
	with := func(f func(r *Record)) *Record { r := rec; f(&r); return &r }
	at := func(d time.Duration) int64 { return now.Add(d).UnixNano() }
	// racy records a file whose times are mtime and ctime, and returns the
	// record with the identity it is asked about.
	racy := func(mtime, ctime int64) (*Record, Identity) {
		r := with(func(r *Record) { r.ID.MtimeNs, r.ID.CtimeNs = mtime, ctime })
		return r, r.ID
	}
	type tc struct {
		name  string
		r     *Record
		id    Identity
		check string
		want  bool
	}
	cases := []tc{
		{"unchanged", &rec, id, "CSV/UTF-8", true},
		{"not checked now", &rec, id, "", true},
		{"no record", nil, id, "", false},
		{"other path", with(func(r *Record) { r.Path = "/d/other.csv" }), id, "", false},
		{"size", &rec, Identity{11, old, old, 5, 1}, "", false},
		{"mtime", &rec, Identity{10, old + 1, old, 5, 1}, "", false},
		{"ctime", &rec, Identity{10, old, old + 1, 5, 1}, "", false},
		{"inode", &rec, Identity{10, old, old, 6, 1}, "", false},
		{"device", &rec, Identity{10, old, old, 5, 2}, "", false},
		{"checked against another format", &rec, id, "TDF/UTF-8", false},
		{"never checked", with(func(r *Record) { r.Checked = "" }), id, "CSV/UTF-8", false},
		{"not a digest", with(func(r *Record) { r.SHA256 = "abc" }), id, "", false},
		{"an upper-case digest", with(func(r *Record) { r.SHA256 = strings.ToUpper(rec.SHA256) }), id, "", false},
	}
	// The racy window: a modification or change time not older than the
	// read's start minus RacyMargin, on either time.
	for _, w := range []struct {
		name string
		d    time.Duration
		want bool
	}{
		{"just inside the window", -RacyMargin + time.Millisecond, false},
		{"at the window's edge", -RacyMargin, false},
		{"one nanosecond outside the window", -RacyMargin - time.Nanosecond, true},
		{"just outside the window", -RacyMargin - time.Millisecond, true},
		{"at the read", 0, false},
		{"in the future", time.Hour, false},
	} {
		r, rid := racy(at(w.d), old)
		cases = append(cases, tc{"mtime " + w.name, r, rid, "", w.want})
		r, rid = racy(old, at(w.d))
		cases = append(cases, tc{"ctime " + w.name, r, rid, "", w.want})
	}
	for _, c := range cases {
		if got := c.r.Trusted("/d/gl.csv", c.id, c.check); got != c.want {
			t.Errorf("%s: Trusted = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestValidSHA256(t *testing.T) {
	valid := sha256Hex([]byte("abc"))
	cases := []struct {
		s    string
		want bool
	}{
		{valid, true},
		{strings.Repeat("0", 64), true},
		{"0123456789abcdef" + strings.Repeat("f", 48), true},
		{"", false},
		{valid[:63], false},
		{valid + "0", false},
		{strings.ToUpper(valid), false},
		{strings.Repeat("0", 63) + "g", false},
		{strings.Repeat("0", 63) + " ", false},
		{strings.Repeat("0", 62) + "é", false}, // 64 bytes, not hex
	}
	for _, c := range cases {
		if got := ValidSHA256(c.s); got != c.want {
			t.Errorf("ValidSHA256(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestRecordCountsFor: counts for the key asked, or none: no record, a
// record without counts (from before they were kept), another key,
// inconsistent counts.
func TestRecordCountsFor(t *testing.T) {
	good := flatfile.Counts{Key: "CSV/UTF-8", Columns: []string{"A"}, Rows: 2, Size: 10}
	with := func(f func(c *flatfile.Counts)) *Record { c := good; f(&c); return &Record{Counts: &c} }
	for _, tc := range []struct {
		name string
		r    *Record
		want bool
	}{
		{"counts", with(func(*flatfile.Counts) {}), true},
		{"columns unavailable", with(func(c *flatfile.Counts) { c.Columns, c.NoColumns = nil, "too long" }), true},
		{"no header row", with(func(c *flatfile.Counts) { c.Columns = []string{} }), true},
		{"nil record", nil, false},
		{"no counts", &Record{}, false},
		{"another key", with(func(c *flatfile.Counts) { c.Key = "TDF/UTF-8" }), false},
		{"no columns, no reason", with(func(c *flatfile.Counts) { c.Columns = nil }), false},
		{"columns and a reason", with(func(c *flatfile.Counts) { c.NoColumns = "too long" }), false},
		{"negative rows", with(func(c *flatfile.Counts) { c.Rows = -1 }), false},
		{"negative size", with(func(c *flatfile.Counts) { c.Size = -1 }), false},
	} {
		if got := tc.r.CountsFor("CSV/UTF-8"); (got != nil) != tc.want {
			t.Errorf("%s: CountsFor = %+v, want found %v", tc.name, got, tc.want)
		}
	}
}

// TestRecordKeepCounts: counts pass to a record of the same bytes that
// has none, and only then.
func TestRecordKeepCounts(t *testing.T) {
	sum := sha256Hex([]byte("A\n1\n"))
	planned := &Record{SHA256: sum, Counts: &flatfile.Counts{Key: "CSV/UTF-8", Columns: []string{"A"}, Rows: 1, Size: 4}}
	sent := &Record{SHA256: sum}
	sent.KeepCounts(planned)
	if sent.CountsFor("CSV/UTF-8") == nil || sent.Counts == planned.Counts {
		t.Fatalf("same bytes: %+v, want a copy of the planned counts", sent.Counts)
	}
	other := &Record{SHA256: sha256Hex([]byte("other"))}
	other.KeepCounts(planned)
	if other.Counts != nil {
		t.Fatalf("other bytes: %+v", other.Counts)
	}
	own := &flatfile.Counts{Key: "TDF/UTF-8", Columns: []string{}, Size: 4}
	mine := &Record{SHA256: sum, Counts: own}
	mine.KeepCounts(planned)
	if mine.Counts != own {
		t.Fatal("a record's own counts were replaced")
	}
	var none *Record
	none.KeepCounts(planned)
	sent.KeepCounts(nil)
}

// TestMain points the user's cache directory (the disk cache of file
// hashes) at a temporary directory: tests never touch the real one.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "etl-provider-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func cacheEntries(t *testing.T, dir string) (records, temps int) {
	t.Helper()
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if strings.HasPrefix(n.Name(), diskCacheTmp) {
			temps++
		} else {
			records++
		}
	}
	return records, temps
}

func TestDiskCacheGetPut(t *testing.T) {
	d := &DiskCache{dir: filepath.Join(t.TempDir(), "hashes"), max: 16}
	r := testRecord("/data", 1)
	if got := d.Get(r.Path, r.ID); got != nil {
		t.Fatalf("empty cache: %+v", got)
	}
	d.Put(r)
	if got := d.Get(r.Path, r.ID); got == nil || *got != *r {
		t.Fatalf("get = %+v, want %+v", got, r)
	}
	// Another identity or path of the same file: no record.
	other := r.ID
	other.CtimeNs++
	if got := d.Get(r.Path, other); got != nil {
		t.Errorf("changed ctime: %+v", got)
	}
	if got := d.Get("/data/other.csv", r.ID); got != nil {
		t.Errorf("other path: %+v", got)
	}
	// A record stored under another key's name, or a damaged one, is ignored.
	if err := os.WriteFile(filepath.Join(d.dir, d.name(r.Path, other)), []byte(`{"path":"/data/f1.csv"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := d.Get(r.Path, other); got != nil {
		t.Errorf("record for another identity: %+v", got)
	}
	if err := os.WriteFile(filepath.Join(d.dir, d.name(r.Path, r.ID)), []byte(`{"path":`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := d.Get(r.Path, r.ID); got != nil {
		t.Errorf("damaged record: %+v", got)
	}
	if fi, err := os.Stat(d.dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("cache directory %v, %v; want mode 0700", fi, err)
	}
	// A record without a path (its file's identity was not known) or none
	// at all is not written.
	before, _ := cacheEntries(t, d.dir)
	d.Put(nil)
	d.Put(&Record{ID: r.ID, SHA256: r.SHA256, HashedAt: r.HashedAt})
	if after, _ := cacheEntries(t, d.dir); after != before {
		t.Errorf("records without a path written: %d records, %d before", after, before)
	}
	// A nil cache (no cache directory) is a cache that never hits.
	var none *DiskCache
	none.Put(r)
	if none.Get(r.Path, r.ID) != nil {
		t.Error("nil cache returned a record")
	}
}

// TestDiskCacheBounded: past max records a write removes the oldest, down
// to three quarters of max; old temporary files go too.
func TestDiskCacheBounded(t *testing.T) {
	d := &DiskCache{dir: t.TempDir(), max: 8}
	stale := filepath.Join(d.dir, diskCacheTmp+"crashed")
	if err := os.WriteFile(stale, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * diskCacheTmpAge)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	base := time.Now().Add(-time.Hour)
	for i := range 20 {
		r := testRecord("/data", i)
		d.Put(r)
		// Distinct write times, in order, whatever the clock's resolution.
		at := base.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(filepath.Join(d.dir, d.name(r.Path, r.ID)), at, at); err != nil {
			t.Fatal(err)
		}
		if n, _ := cacheEntries(t, d.dir); n > d.max {
			t.Fatalf("after %d writes, %d records: over the bound %d", i+1, n, d.max)
		}
	}
	records, temps := cacheEntries(t, d.dir)
	if temps != 0 {
		t.Errorf("%d temporary files left", temps)
	}
	if records < d.max*3/4 || records > d.max {
		t.Errorf("%d records, want between %d and %d", records, d.max*3/4, d.max)
	}
	// The newest records are kept.
	if r := testRecord("/data", 19); d.Get(r.Path, r.ID) == nil {
		t.Error("the newest record was removed")
	}
	if r := testRecord("/data", 0); d.Get(r.Path, r.ID) != nil {
		t.Error("the oldest record was kept")
	}
}

// TestDiskCacheConcurrentWriters: runs writing and reading the same
// directory at once (each with its own DiskCache, as separate processes
// have) only ever see whole, matching records, and the bound holds.
func TestDiskCacheConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	const writers, perWriter, keys, bound = 8, 60, 40, 24
	var wg sync.WaitGroup
	errs := make(chan error, writers*perWriter)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := &DiskCache{dir: dir, max: bound}
			for i := range perWriter {
				k := (w*7 + i) % keys
				d.Put(testRecord("/data", k))
				want := testRecord("/data", (k+3)%keys)
				if got := d.Get(want.Path, want.ID); got != nil && (got.SHA256 != want.SHA256 || got.Path != want.Path) {
					errs <- fmt.Errorf("read %+v for key %d", got, (k+3)%keys)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	records, temps := cacheEntries(t, dir)
	if temps != 0 || records > bound || records == 0 {
		t.Errorf("%d records, %d temporary files; want 1..%d records and none", records, temps, bound)
	}
}

func TestUserDiskCache(t *testing.T) {
	d := UserDiskCache()
	base, err := os.UserCacheDir()
	if err != nil || d == nil || d.dir != filepath.Join(base, "terraform-provider-etl", "file-hashes-v1") || d.max != diskCacheMax {
		t.Fatalf("UserDiskCache = %+v (%v)", d, err)
	}
	if !strings.HasPrefix(d.dir, os.Getenv("XDG_CACHE_HOME")) {
		t.Errorf("tests use %s, not the temporary cache directory", d.dir)
	}
}

// TestDiskCacheUnwritable: a cache whose directory cannot be made (a file
// is in the way) only misses: writes are dropped without an error.
func TestDiskCacheUnwritable(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	d := &DiskCache{dir: filepath.Join(blocker, "hashes"), max: 16}
	r := testRecord("/data", 1)
	d.Put(r)
	if got := d.Get(r.Path, r.ID); got != nil {
		t.Fatalf("Get = %+v from an unwritable cache", got)
	}
	if fi, err := os.Stat(blocker); err != nil || !fi.Mode().IsRegular() || fi.Size() != 0 {
		t.Fatalf("the file in the way was changed: %v, %v", fi, err)
	}
}

// TestDiskCacheCounts: a record's counts come back from the cache, a
// header row of 64 KiB included; a record written before counts were
// kept comes back without them (counts unknown).
func TestDiskCacheCounts(t *testing.T) {
	d := &DiskCache{dir: filepath.Join(t.TempDir(), "hashes"), max: 16}
	r := testRecord("/data", 1)
	r.Counts = &flatfile.Counts{Key: "CSV/UTF-8", Columns: []string{"Account", strings.Repeat("\x01", 64<<10)}, Rows: 3, Size: 99}
	d.Put(r)
	got := d.Get(r.Path, r.ID)
	if got == nil || !reflect.DeepEqual(got.CountsFor("CSV/UTF-8"), r.Counts) {
		t.Fatalf("get = %+v, want the counts %+v", got, r.Counts)
	}
	old := testRecord("/data", 2)
	b := fmt.Sprintf(`{"path":%q,"identity":{"size":2,"mtime_ns":1,"ctime_ns":2,"inode":2,"device":7},"sha256":%q,"hashed_at_ns":1}`, old.Path, old.SHA256)
	if err := os.WriteFile(filepath.Join(d.dir, d.name(old.Path, old.ID)), []byte(b), 0o600); err != nil {
		t.Fatal(err)
	}
	got = d.Get(old.Path, old.ID)
	if got == nil || got.SHA256 != old.SHA256 || got.Counts != nil || got.CountsFor("CSV/UTF-8") != nil {
		t.Fatalf("old record: %+v", got)
	}
}

// TestDiskCacheFind: a read put with what it was checked against is found
// for the file as it is now, and for that check only; a change of the
// file's identity reads it again; a nil cache finds nothing.
func TestDiskCacheFind(t *testing.T) {
	p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n4000,1\n"))
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	r, _, err := HashFile(p, HashOptions{})
	if err != nil || r.Path == "" {
		t.Fatal(r, err)
	}
	r.HashedAt = time.Now().Add(time.Hour).UnixNano() // past the racy window of the change time
	d := &DiskCache{dir: filepath.Join(t.TempDir(), "hashes"), max: 16}
	if d.Find(p, "CSV/UTF-8") != nil {
		t.Fatal("found a record before any was put")
	}
	r.Checked = "CSV/UTF-8"
	d.Put(r)
	if got := d.Find(p, "CSV/UTF-8"); got == nil || got.SHA256 != sha256Hex([]byte("Account,Amount\n4000,1\n")) || got.Checked != "CSV/UTF-8" {
		t.Fatalf("put record not found: %+v", got)
	}
	if got := d.Find(p, ""); got == nil {
		t.Error("not found when no check is needed")
	}
	if d.Find(p, "TDF/UTF-8") != nil || d.Find(filepath.Join(filepath.Dir(p), "missing.csv"), "") != nil {
		t.Error("found for another check, or for a missing file")
	}
	if (*DiskCache)(nil).Find(p, "CSV/UTF-8") != nil {
		t.Error("a nil cache found a record")
	}
	if err := os.WriteFile(p, []byte("Account,Amount\n4000,2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := d.Find(p, "CSV/UTF-8"); got != nil {
		t.Errorf("a rewritten file's record was found: %+v", got)
	}
}

// TestDiskCacheKeepSent: the record of a verified send is written with the
// counts of the cache's record of the same bytes, and with none when the
// cache holds none; a send that did not verify its bytes writes nothing.
func TestDiskCacheKeepSent(t *testing.T) {
	content := []byte("Account,Amount\n4000,1\n")
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	abs, id, ok := StatPath(p)
	if !ok {
		t.Fatal("no identity for the file")
	}
	counted, _, err := HashFile(p, HashOptions{})
	if err != nil {
		t.Fatal(err)
	}
	counted.Counts = &flatfile.Counts{Key: "CSV/UTF-8", Columns: []string{"Account", "Amount"}, Rows: 1, Size: int64(len(content))}
	send := func() *Opened {
		o, err := Open(p, sha256Hex(content))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { o.Close() })
		return o
	}
	o := send()
	d := &DiskCache{dir: filepath.Join(t.TempDir(), "hashes"), max: 16}
	d.KeepSent(o, "CSV/UTF-8")
	if r := d.Get(abs, id); r != nil {
		t.Fatalf("a record of bytes not sent: %+v", r)
	}
	rc, _ := o.Reader()
	if _, err := io.ReadAll(rc); err != nil {
		t.Fatal(err)
	}
	rc.Close()
	d.Put(counted)
	d.KeepSent(o, "CSV/UTF-8")
	if r := d.Get(abs, id); r == nil || r.Counts == nil || r.Counts.Rows != 1 || r.Checked != "CSV/UTF-8" || r.HashedAt == counted.HashedAt {
		t.Fatalf("with the plan's record: %+v", r)
	}
	fresh := &DiskCache{dir: filepath.Join(t.TempDir(), "hashes"), max: 16}
	fresh.KeepSent(o, "")
	if r := fresh.Get(abs, id); r == nil || r.Counts != nil || r.SHA256 != sha256Hex(content) {
		t.Fatalf("without a record: %+v", r)
	}
}
