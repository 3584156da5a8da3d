package importjob

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeFiles is a journal directory in memory: files by name, named as
// internal/localfile names them in spirit (key and job).
type fakeFiles struct{ m map[string][]byte }

func (f *fakeFiles) name(key, job string) string { return key + "|" + job }
func (f *fakeFiles) job(name string) string      { return name[strings.LastIndexByte(name, '|')+1:] }

func (f *fakeFiles) Write(key, job string, data []byte) (string, error) {
	n := f.name(key, job)
	_ = f.Forget(job)
	f.m[n] = data
	return n, nil
}

func (f *fakeFiles) Remove(name string) (bool, error) {
	_, ok := f.m[name]
	delete(f.m, name)
	return ok, nil
}

func (f *fakeFiles) Forget(job string) error {
	maps.DeleteFunc(f.m, func(n string, _ []byte) bool { return f.job(n) == job })
	return nil
}

func (f *fakeFiles) Names(skip func(string) bool) ([]string, error) {
	var out []string
	for n := range f.m {
		if skip == nil || !skip(f.job(n)) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (f *fakeFiles) Read(name string) ([]byte, error) {
	b, ok := f.m[name]
	if !ok {
		return nil, errors.New("gone")
	}
	return b, nil
}

// An entry an earlier release wrote reads as the entry it was, and an
// entry written now is the same JSON, field for field.
func TestFileStore_entriesAsAnEarlierReleaseWroteThem(t *testing.T) {
	f := &fakeFiles{m: map[string][]byte{}}
	s := NewFileStore(f)
	job := ref("640101874288689160")
	earlier := `{"key":"http://e\u0000rows\u0000t\u0000s\u0000\u0000","job_id":"` + job.String() + `","written":"2026-11-26T11:00:00Z","holder":42,` +
		`"prior":"` + ref("5").String() + `","run":{"pid":9,"start":3},"handed_over":true,"returned":true,"may_be":["` + ref("8").String() + `"]}`
	f.m["x|"+job.String()] = []byte(earlier)
	es, err := s.Entries(nil)
	if err != nil || len(es) != 1 {
		t.Fatalf("Entries = %+v, %v", es, err)
	}
	want := Entry{Key: NewKey("http://e", "rows\x00t\x00s\x00\x00"), Job: job, Written: time.Date(2026, 11, 26, 11, 0, 0, 0, time.UTC), Holder: 42,
		Prior: ref("5"), Run: Run{PID: 9, Start: 3}, HandedOver: true, Returned: true, MayBe: refs("8"), handle: "x|" + job.String()}
	if got := es[0]; !equalEntries(got, want) {
		t.Fatalf("the earlier release's entry reads as %+v, want %+v", got, want)
	}
	written, err := s.Put(es[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := string(f.m[written.handle]); got != earlier {
		t.Fatalf("written as\n%s\nwant\n%s", got, earlier)
	}
	_, _ = s.Put(Entry{Key: "k", Job: ref("6"), Written: want.Written})
	if got := string(f.m[f.name("k", ref("6").String())]); got != `{"key":"k","job_id":"`+ref("6").String()+`","written":"2026-11-26T11:00:00Z"}` {
		t.Fatalf("a new object's entry, held by nobody, is written as %s", got)
	}
}

// equalEntries compares two entries field by field.
func equalEntries(a, b Entry) bool {
	return a.Key == b.Key && a.Job == b.Job && a.Written.Equal(b.Written) && a.Holder == b.Holder && a.Prior == b.Prior && a.Run == b.Run &&
		a.HandedOver == b.HandedOver && a.Returned == b.Returned && slices.Equal(a.MayBe, b.MayBe) && a.handle == b.handle
}

// Entries are read oldest first; a file torn or foreign is no entry; a
// skipped job's file is not read; Take removes the file listed once.
func TestFileStore_entriesTakeAndSkip(t *testing.T) {
	f := &fakeFiles{m: map[string][]byte{}}
	s := NewFileStore(f)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, id := range []string{"2", "1", "3"} {
		if _, err := s.Put(Entry{Key: "k", Job: ref(id), Written: t0.Add(time.Duration(2-i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	f.m["k|"+ref("9").String()] = []byte("{torn")
	f.m["k|not a job"] = []byte(`{"key":"k","job_id":"not a job"}`)
	es, err := s.Entries(func(j JobRef) bool { return j == ref("3") })
	if err != nil || len(es) != 2 || es[0].Job != ref("1") || es[1].Job != ref("2") {
		t.Fatalf("Entries = %+v, %v; want jobs 1 then 2", es, err)
	}
	for want := range []bool{true, false} {
		if ok, err := s.Take(es[0]); err != nil || ok != (want == 0) {
			t.Fatalf("Take #%d = %v, %v", want+1, ok, err)
		}
	}
	if _, err := s.Take(Entry{Job: ref("2")}); err == nil {
		t.Error("Take of an entry neither listed nor written succeeded")
	}
	if _, err := s.Put(Entry{Key: "k"}); err == nil {
		t.Error("Put of an entry of no job succeeded")
	}
}

// A JobRef is spelled as the journal always spelled it, a hash of the
// service, a hyphen and the id, and read back; a Key as the service and
// the definition.
func TestJobRef(t *testing.T) {
	r := NewJobRef("http://127.0.0.1:1", "640101874288689160")
	if got := r.String(); len(got) != 12+1+18 || got[12] != '-' || r.ID() != "640101874288689160" {
		t.Fatalf("String = %q, ID = %q", got, r.ID())
	}
	if NewJobRef("http://127.0.0.1:2", r.ID()) == r {
		t.Fatal("one id on two services is one job")
	}
	back, err := ParseJobRef(r.String())
	if err != nil || back != r {
		t.Fatalf("ParseJobRef(%q) = %+v, %v", r, back, err)
	}
	for _, bad := range []string{"nohyphen", "-1", "abc-", "abc-1-2", "abc-../x"} {
		if _, err := ParseJobRef(bad); err == nil {
			t.Errorf("ParseJobRef(%q) succeeded", bad)
		}
	}
	if z, err := ParseJobRef(""); err != nil || !z.IsZero() || z.String() != "" {
		t.Errorf("ParseJobRef(\"\") = %+v, %v; want no job", z, err)
	}
	b, _ := json.Marshal(struct {
		R JobRef `json:"r"`
		Z JobRef `json:"z,omitzero"`
	}{R: r})
	if string(b) != `{"r":"`+r.String()+`"}` {
		t.Errorf("JSON = %s", b)
	}
}

func TestKey(t *testing.T) {
	d := fileImport("t", "s", "TDF", "UTF-16").Definition()
	if got, want := d.KeyOn("http://e"), Key("http://e\x00file\x00t\x00s\x00TDF\x00UTF-16"); got != want {
		t.Fatalf("KeyOn = %q, want %q (the journal's keys an earlier release wrote)", got, want)
	}
	if got := d.KeyOn("http://e"); got != NewKey("http://e", d.String()) {
		t.Fatalf("KeyOn = %q, NewKey = %q", got, NewKey("http://e", d.String()))
	}
	if k := (Import{Template: Unknown(), Kind: KindRows, ContentSHA256: Known("s")}).Definition().KeyOn("http://e"); k != "" || NewKey("http://e", "") != "" {
		t.Fatalf("the key of an unknown definition = %q, want none", k)
	}
}
