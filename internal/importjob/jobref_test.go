package importjob

import (
	"encoding/json"
	"testing"
)

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
