package localfile

import (
	"strings"
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
