package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// TestInputEntry: rows inputs are sent as CSV in UTF-8; an entry's hash is
// importjob's over its inputs, and its JSON (kept in private state) is the
// importjob.Input's alone, without the facts.
func TestInputEntry(t *testing.T) {
	if rowsInput.FileFormat != flatfile.FormatCSV || rowsInput.FileEncoding != flatfile.EncodingUTF8 {
		t.Errorf("rows inputs are sent as %+v, want CSV in UTF-8", rowsInput)
	}
	in := importjob.Input{InputID: "1", Format: "CSV", Encoding: "UTF-8", SHA256: sha256Hex([]byte("a")), StepName: "Load", Position: 2}
	facts := nullFacts()
	e := []inputEntry{{Input: in, facts: &facts}}
	if got, want := inputsHash(e), importjob.InputsHash([]importjob.Input{in}); got != want || len(inputsOf(e)) != 1 || inputsOf(e)[0] != in {
		t.Errorf("inputsHash %s, want %s", got, want)
	}
	got, _ := json.Marshal(e[0])
	want, _ := json.Marshal(in)
	if string(got) != string(want) || string(want) != `{"input_id":"1","format":"CSV","encoding":"UTF-8","sha256":"`+in.SHA256+`","step_name":"Load","position":2}` {
		t.Errorf("JSON %s, want %s", got, want)
	}
}

// TestPlanFileSHA256: the first plan reads and records in the disk cache;
// later plans (a new resource's too) reuse the record while the file's
// identity holds; any change reads again; with the cache off every plan
// reads and nothing is recorded.
func TestPlanFileSHA256(t *testing.T) {
	ctx := context.Background()
	p := oldFile(t, "Account,Amount\n4000,1\n")
	abs, _ := filepath.Abs(p)
	f := fileModel{Path: types.StringValue(p), Format: types.StringNull(), Encoding: types.StringNull(), Name: types.StringNull()}
	plan := func(on bool) (string, int64) {
		t.Helper()
		before := readsOf(abs)
		var d diag.Diagnostics
		sum, err := newHashCache(on).planFileSHA256(ctx, f, &d)
		if err != nil || d.HasError() {
			t.Fatal(err, d)
		}
		return sum, readsOf(abs) - before
	}
	want := localfile.HashBytes([]byte("Account,Amount\n4000,1\n"))
	if sum, reads := plan(true); sum != want || reads != 1 {
		t.Fatalf("first plan: %s, %d reads", sum, reads)
	}
	if sum, reads := plan(true); sum != want || reads != 0 {
		t.Fatalf("unchanged: %s, %d reads; want no read", sum, reads)
	}
	// Another format to check against: read again.
	f.Format = types.StringValue("CSV")
	f.Encoding = types.StringValue("Windows Latin-1")
	if sum, reads := plan(true); sum != want || reads != 1 {
		t.Fatalf("another encoding: %s, %d reads; want one", sum, reads)
	}
	// A chmod changes the change time: read again, same hash.
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if sum, reads := plan(true); sum != want || reads != 1 {
		t.Fatalf("after chmod: %s, %d reads; want one", sum, reads)
	}
	// Off: always read, nothing recorded.
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if sum, reads := plan(false); sum != want || reads != 1 {
			t.Fatalf("cache off: %s, %d reads; want one", sum, reads)
		}
	}
	if key, id, ok := localfile.StatPath(p); !ok || localfile.UserDiskCache().Get(key, id) != nil {
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
			var d diag.Diagnostics
			if _, err := newHashCache(true).planFileSHA256(ctx, f, &d); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("Account,Amount\n4000,2\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			sum, err := newHashCache(true).planFileSHA256(ctx, f, &d)
			if fresh := sum == localfile.HashBytes([]byte("Account,Amount\n4000,2\n")); err != nil || fresh != tc.wantFresh {
				t.Fatalf("after a same-size edit: %s, %v; want the new hash: %v", sum, err, tc.wantFresh)
			}
		})
	}
}
