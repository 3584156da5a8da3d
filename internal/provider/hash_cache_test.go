package provider

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestHashRecordTrusted(t *testing.T) {
	now := time.Now()
	old := now.Add(-time.Hour).UnixNano()
	id := fileIdentity{Size: 10, MtimeNs: old, CtimeNs: old, Inode: 5, Device: 1}
	rec := hashRecord{Path: "/d/gl.csv", ID: id, SHA256: hashBytes(nil), HashedAt: now.UnixNano(), Checked: "CSV/UTF-8"}
	with := func(f func(r *hashRecord)) *hashRecord { r := rec; f(&r); return &r }
	at := func(d time.Duration) int64 { return now.Add(d).UnixNano() }
	cases := []struct {
		name  string
		r     *hashRecord
		id    fileIdentity
		check string
		want  bool
	}{
		{"unchanged", &rec, id, "CSV/UTF-8", true},
		{"not checked now", &rec, id, "", true},
		{"no record", nil, id, "", false},
		{"other path", with(func(r *hashRecord) { r.Path = "/d/other.csv" }), id, "", false},
		{"size", &rec, fileIdentity{11, old, old, 5, 1}, "", false},
		{"mtime", &rec, fileIdentity{10, old + 1, old, 5, 1}, "", false},
		{"ctime", &rec, fileIdentity{10, old, old + 1, 5, 1}, "", false},
		{"inode", &rec, fileIdentity{10, old, old, 6, 1}, "", false},
		{"device", &rec, fileIdentity{10, old, old, 5, 2}, "", false},
		{"checked against another format", &rec, id, "TDF/UTF-8", false},
		{"never checked", with(func(r *hashRecord) { r.Checked = "" }), id, "CSV/UTF-8", false},
		{"not a digest", with(func(r *hashRecord) { r.SHA256 = "abc" }), id, "", false},
		// The racy window: timestamps not older than the read's start minus the margin.
		{"changed just before the read", with(func(r *hashRecord) { r.ID.CtimeNs = at(-racyMargin + time.Millisecond) }), fileIdentity{10, old, at(-racyMargin + time.Millisecond), 5, 1}, "", false},
		{"modified at the read", with(func(r *hashRecord) { r.ID.MtimeNs = r.HashedAt }), fileIdentity{10, now.UnixNano(), old, 5, 1}, "", false},
		{"timestamps in the future", with(func(r *hashRecord) { r.ID.MtimeNs, r.ID.CtimeNs = at(time.Hour), at(time.Hour) }), fileIdentity{10, at(time.Hour), at(time.Hour), 5, 1}, "", false},
		{"changed just outside the window", with(func(r *hashRecord) { r.ID.CtimeNs = at(-racyMargin - time.Millisecond) }), fileIdentity{10, old, at(-racyMargin - time.Millisecond), 5, 1}, "", true},
	}
	for _, tc := range cases {
		if got := tc.r.trusted("/d/gl.csv", tc.id, tc.check); got != tc.want {
			t.Errorf("%s: trusted = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCheckKey(t *testing.T) {
	s, null := types.StringValue, types.StringNull()
	if k := checkKey(fileModel{Path: s("gl.csv"), Format: null, Encoding: null}); k != "CSV/UTF-8" {
		t.Errorf("defaults: %q", k)
	}
	if k := checkKey(fileModel{Path: s("gl.csv"), Format: s("TDF"), Encoding: s("UTF-16")}); k != "TDF/UTF-16" {
		t.Errorf("set: %q", k)
	}
	if k := checkKey(fileModel{Path: s("gl.data"), Format: null, Encoding: null}); k != "" {
		t.Errorf("no format: %q", k)
	}
}

func TestRecordPrivateState(t *testing.T) {
	ctx := context.Background()
	p := fakePrivate{}
	if recordFrom(ctx, p) != nil || recordFrom(ctx, nil) != nil {
		t.Fatal("a record from empty private state")
	}
	r := testRecord("/data", 3)
	var d diag.Diagnostics
	saveRecord(ctx, p, r, &d)
	if got := recordFrom(ctx, p); d.HasError() || got == nil || *got != *r {
		t.Fatalf("recordFrom = %+v, %v; want %+v", got, d, r)
	}
	p[privateHashKey] = []byte(`"not a record"`)
	if recordFrom(ctx, p) != nil {
		t.Error("a record from a damaged value")
	}
}

// oldFile writes a file whose timestamps are older than the racy window:
// it waits the window out (a file's change time cannot be set back).
func oldFile(t *testing.T, content string) string {
	t.Helper()
	p := writeFile(t, t.TempDir(), "gl.csv", []byte(content))
	time.Sleep(racyMargin + 50*time.Millisecond)
	return p
}

// TestPlanFileSHA256: the first plan reads and records; later plans reuse
// the record while the file's identity holds; any change reads again.
func TestPlanFileSHA256(t *testing.T) {
	ctx := context.Background()
	p := oldFile(t, "Account,Amount\n4000,1\n")
	abs, _ := filepath.Abs(p)
	f := fileModel{Path: types.StringValue(p), Format: types.StringNull(), Encoding: types.StringNull(), Name: types.StringNull()}
	plan := func(private fakePrivate) (string, int64) {
		t.Helper()
		before := readsOf(abs)
		hc := newHashCache(ctx, true, private)
		var d diag.Diagnostics
		sum, err := hc.planFileSHA256(ctx, f, &d)
		if err != nil || d.HasError() {
			t.Fatal(err, d)
		}
		hc.keep(ctx, private, &d)
		return sum, readsOf(abs) - before
	}
	private := fakePrivate{}
	want := hashBytes([]byte("Account,Amount\n4000,1\n"))
	if sum, reads := plan(private); sum != want || reads != 1 {
		t.Fatalf("first plan: %s, %d reads", sum, reads)
	}
	if sum, reads := plan(private); sum != want || reads != 0 {
		t.Fatalf("unchanged (private state): %s, %d reads; want no read", sum, reads)
	}
	if sum, reads := plan(fakePrivate{}); sum != want || reads != 0 {
		t.Fatalf("unchanged (disk cache, a new resource): %s, %d reads; want no read", sum, reads)
	}
	// Another format to check against: read again.
	f.Format = types.StringValue("CSV")
	f.Encoding = types.StringValue("Windows Latin-1")
	if sum, reads := plan(private); sum != want || reads != 1 {
		t.Fatalf("another encoding: %s, %d reads; want one", sum, reads)
	}
	// A chmod changes the change time: read again, same hash.
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if sum, reads := plan(private); sum != want || reads != 1 {
		t.Fatalf("after chmod: %s, %d reads; want one", sum, reads)
	}
	// Off: always read, nothing recorded.
	off := newHashCache(ctx, false, private)
	var d diag.Diagnostics
	before := readsOf(abs)
	if sum, err := off.planFileSHA256(ctx, f, &d); err != nil || sum != want || readsOf(abs)-before != 1 {
		t.Fatalf("cache off: %s, %v, %d reads", sum, err, readsOf(abs)-before)
	}
	empty := fakePrivate{}
	off.keep(ctx, empty, &d)
	if len(empty) != 0 {
		t.Error("cache off recorded a hash")
	}
}

// TestPlanFileSHA256FrozenTimestamps: on a file system whose timestamps do
// not move, a same-size edit keeps the file's identity. Within the racy
// window (here: timestamps in the future) the file is read again and the
// edit seen; outside it the recorded hash stands: the limit documented in
// hash_cache's description.
func TestPlanFileSHA256FrozenTimestamps(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		stamp     time.Time
		wantFresh bool
	}{
		{"timestamps within the window", time.Now().Add(time.Hour), true},
		{"timestamps outside the window", time.Now().Add(-time.Hour), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n4000,1\n"))
			abs, _ := filepath.Abs(p)
			freeze(t, abs, tc.stamp)
			f := fileModel{Path: types.StringValue(p), Format: types.StringNull(), Encoding: types.StringNull(), Name: types.StringNull()}
			private := fakePrivate{}
			hc := newHashCache(ctx, true, private)
			var d diag.Diagnostics
			if _, err := hc.planFileSHA256(ctx, f, &d); err != nil {
				t.Fatal(err)
			}
			hc.keep(ctx, private, &d)
			if err := os.WriteFile(p, []byte("Account,Amount\n4000,2\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			sum, err := newHashCache(ctx, true, private).planFileSHA256(ctx, f, &d)
			if fresh := sum == hashBytes([]byte("Account,Amount\n4000,2\n")); err != nil || fresh != tc.wantFresh {
				t.Fatalf("after a same-size edit: %s, %v; want the new hash: %v", sum, err, tc.wantFresh)
			}
		})
	}
}

// frozen holds the paths whose timestamps freeze fixes (abs -> time.Time).
var (
	frozen     sync.Map
	freezeOnce sync.Once
)

// freeze makes the file at abs report the timestamps at until the test
// ends: a file system whose clock does not move (for this path only).
func freeze(t *testing.T, abs string, at time.Time) {
	t.Helper()
	freezeOnce.Do(func() {
		h := func(p string, id fileIdentity) fileIdentity {
			if v, ok := frozen.Load(p); ok {
				ns := v.(time.Time).UnixNano()
				id.MtimeNs, id.CtimeNs = ns, ns
			}
			return id
		}
		identityHook.Store(&h)
	})
	frozen.Store(abs, at)
	t.Cleanup(func() { frozen.Delete(abs) })
}

// TestRefreshRecord: a refresh takes the disk cache's trusted record for
// the hash in state into private state.
func TestRefreshRecord(t *testing.T) {
	ctx := context.Background()
	p := oldFile(t, "Account,Amount\n4000,1\n")
	want := hashBytes([]byte("Account,Amount\n4000,1\n"))
	f := fileModel{Path: types.StringValue(p), Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8"), Name: types.StringNull(), Content: types.StringNull(), PartName: types.StringNull()}
	var d diag.Diagnostics
	if _, err := newHashCache(ctx, true, nil).planFileSHA256(ctx, f, &d); err != nil { // into the disk cache
		t.Fatal(err)
	}
	obj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, f)
	if diags.HasError() {
		t.Fatal(diags)
	}
	for _, tc := range []struct {
		name string
		on   bool
		sum  string
		want bool
	}{
		{"same hash", true, want, true},
		{"another hash in state", true, hashBytes(nil), false},
		{"cache off", false, want, false},
	} {
		resp := fakePrivate{}
		refreshRecord(ctx, tc.on, &importModel{File: obj, ContentSHA256: types.StringValue(tc.sum)}, fakePrivate{}, resp, &d)
		if got := recordFrom(ctx, resp); (got != nil && got.SHA256 == want) != tc.want {
			t.Errorf("%s: private record %+v", tc.name, got)
		}
	}
}

// TestCachedFileSHA256: an input's file at apply has the disk cache's hash
// when the record is trusted for it as it is now; otherwise none (the file
// is then read and hashed before anything is created).
func TestCachedFileSHA256(t *testing.T) {
	ctx := context.Background()
	content := "Account,Amount\n4000,1\n"
	p := oldFile(t, content)
	f := fileModel{Path: types.StringValue(p), Content: types.StringNull(), Format: types.StringNull(), Encoding: types.StringNull(), Name: types.StringNull(), PartName: types.StringNull()}
	obj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, f)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if got := cachedFileSHA256(ctx, obj, true); !got.IsNull() {
		t.Fatalf("no record yet: %s", got)
	}
	var d diag.Diagnostics
	if _, err := newHashCache(ctx, true, fakePrivate{}).planFileSHA256(ctx, f, &d); err != nil {
		t.Fatal(err)
	}
	if got := cachedFileSHA256(ctx, obj, true); got.ValueString() != hashBytes([]byte(content)) {
		t.Fatalf("recorded by a plan: %s", got)
	}
	if got := cachedFileSHA256(ctx, obj, false); !got.IsNull() {
		t.Fatalf("cache off: %s", got)
	}
	if err := os.Chmod(p, 0o640); err != nil { // the change time moves
		t.Fatal(err)
	}
	if got := cachedFileSHA256(ctx, obj, true); !got.IsNull() {
		t.Fatalf("after a chmod: %s", got)
	}
}
