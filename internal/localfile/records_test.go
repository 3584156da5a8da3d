package localfile

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// TestRecordsLookup: the record the caller keeps comes first, then the
// disk cache's; a record is taken only while Trusted; a nil Records, and
// one with no disk cache, trust what they hold and no more.
func TestRecordsLookup(t *testing.T) {
	now := time.Now()
	old := now.Add(-time.Hour).UnixNano()
	id := Identity{Size: 10, MtimeNs: old, CtimeNs: old, Inode: 5, Device: 1}
	rec := func(sum, checked string) *Record {
		return &Record{Path: "/d/gl.csv", ID: id, SHA256: sha256Hex([]byte(sum)), HashedAt: now.UnixNano(), Checked: checked}
	}
	disk := &DiskCache{dir: filepath.Join(t.TempDir(), "hashes"), max: 16}
	disk.Put(rec("disk", "CSV/UTF-8"))
	prior := rec("prior", "CSV/UTF-8")
	rs := &Records{Prior: prior, Disk: disk}
	if got := rs.Lookup("/d/gl.csv", id, "CSV/UTF-8"); got != prior {
		t.Errorf("the caller's record: got %+v", got)
	}
	if got := rs.Lookup("/d/gl.csv", id, ""); got != prior {
		t.Errorf("not checked now: got %+v", got)
	}
	rs.Prior = rec("prior", "TDF/UTF-8") // checked against another format
	if got := rs.Lookup("/d/gl.csv", id, "CSV/UTF-8"); got == nil || got.SHA256 != sha256Hex([]byte("disk")) {
		t.Errorf("the disk cache's: got %+v", got)
	}
	other := id
	other.Size++
	if got := rs.Lookup("/d/gl.csv", other, "CSV/UTF-8"); got != nil {
		t.Errorf("another identity: got %+v", got)
	}
	if got := (&Records{Prior: prior}).Lookup("/d/gl.csv", id, "CSV/UTF-8"); got != prior {
		t.Errorf("no disk cache: got %+v", got)
	}
	var none *Records
	if none.Lookup("/d/gl.csv", id, "") != nil {
		t.Error("a nil Records trusted a record")
	}
	none.Keep(prior, "") // records nothing, and does not fail
}

// TestRecordsKeepAndFind: a read kept with what it was checked against is
// found for the file as it is now, and for that check only; a change of
// the file's identity reads it again.
func TestRecordsKeepAndFind(t *testing.T) {
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
	rs := &Records{Disk: &DiskCache{dir: filepath.Join(t.TempDir(), "hashes"), max: 16}}
	if rs.Find(p, "CSV/UTF-8") != nil {
		t.Fatal("found a record before any was kept")
	}
	rs.Keep(r, "CSV/UTF-8")
	if got := rs.Find(p, "CSV/UTF-8"); got == nil || got.SHA256 != sha256Hex([]byte("Account,Amount\n4000,1\n")) || got.Checked != "CSV/UTF-8" {
		t.Fatalf("kept record not found: %+v", got)
	}
	if rs.Find(p, "TDF/UTF-8") != nil || rs.Find(filepath.Join(filepath.Dir(p), "missing.csv"), "") != nil {
		t.Error("found for another check, or for a missing file")
	}
	if err := os.WriteFile(p, []byte("Account,Amount\n4000,2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := rs.Find(p, "CSV/UTF-8"); got != nil {
		t.Errorf("a rewritten file's record was found: %+v", got)
	}
}

// TestRecordsSent: the record of a verified send keeps the counts of the
// record of the same bytes, the caller's first, then the disk cache's;
// a send that did not verify its bytes gives none.
func TestRecordsSent(t *testing.T) {
	content := []byte("Account,Amount\n4000,1\n")
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	counted := func() *Record {
		r, _, err := HashFile(p, HashOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r.Counts = &flatfile.Counts{Key: "CSV/UTF-8", Columns: []string{"Account", "Amount"}, Rows: 1, Size: int64(len(content))}
		return r
	}
	send := func() *Opened {
		o, err := Open(p, sha256Hex(content))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { o.Close() })
		return o
	}
	o := send()
	if _, ok := (&Records{Prior: counted()}).Sent(o, "CSV/UTF-8"); ok {
		t.Fatal("a record of bytes not sent")
	}
	rc, _ := o.Reader()
	if _, err := io.ReadAll(rc); err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if r, ok := (&Records{Prior: counted()}).Sent(o, "CSV/UTF-8"); !ok || r.Counts == nil || r.Counts.Rows != 1 || r.Checked != "CSV/UTF-8" {
		t.Fatalf("from the caller's record: %+v, %v", r, ok)
	}
	disk := &DiskCache{dir: filepath.Join(t.TempDir(), "hashes"), max: 16}
	disk.Put(counted())
	if r, ok := (&Records{Disk: disk}).Sent(o, ""); !ok || r.Counts == nil {
		t.Fatalf("from the disk cache: %+v, %v", r, ok)
	}
	if r, ok := (*Records)(nil).Sent(o, ""); !ok || r.Counts != nil {
		t.Fatalf("without records: %+v, %v", r, ok)
	}
}
