package provider

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// reportSent sends how many bytes an attempt has read when that changes,
// each message once, and nothing after stop returns.
func TestReportSent(t *testing.T) {
	var mu sync.Mutex
	var got []string
	p := newActionProgress(context.Background(), func(e action.InvokeProgressEvent) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, e.Message)
	}, time.Millisecond)
	f := etl.BytesFile(etl.FileInput{FileName: "gl.csv"}, []byte("Account,Amount\n4000,1\n"))
	stop := p.reportSent(&f)
	waitFor := func(msg string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			mu.Lock()
			seen := len(got) > 0 && got[len(got)-1] == msg
			mu.Unlock()
			if seen {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("never sent %q; sent %q", msg, got)
			}
		}
	}
	waitFor("Sent 0 of 22 bytes of gl.csv (0%)")
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, make([]byte, 5)); err != nil {
		t.Fatal(err)
	}
	waitFor("Sent 5 of 22 bytes of gl.csv (22%)")
	if _, err := io.ReadAll(rc); err != nil {
		t.Fatal(err)
	}
	waitFor("Sent 22 of 22 bytes of gl.csv (100%)")
	time.Sleep(5 * time.Millisecond) // ticks that would repeat the last message
	stop()
	mu.Lock()
	sent := append([]string(nil), got...)
	mu.Unlock()
	if len(sent) != 3 {
		t.Errorf("sent %q, want each of the three messages once", sent)
	}
	rc, _ = f.Open() // a new attempt counts from zero, but nothing is sent now
	time.Sleep(10 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(sent) {
		t.Errorf("sent %q after stop", got[len(sent):])
	}
	rc.Close()
}

// A file too large to send in one progress interval reports the bytes
// sent as it goes.
func TestImportActionUploadProgress(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	fast := testTuning
	fast.uploadProgressEvery = time.Millisecond
	h := harnessWith(t, e, fast)
	raw := repeatCSV("Account,Amount", "4000,1.25", 800_000)
	p := writeFile(t, t.TempDir(), "big.csv", raw)
	progress, diags := h.invokeAction(map[string]any{"template_id": emulator.GLActualsTemplateID, "file": map[string]any{"path": p}})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	if !hasMessage(progress, fmt.Sprintf(`^Sent [0-9]+ of %d bytes of big\.csv \([0-9]+%%\)$`, len(raw))) {
		t.Errorf("no upload progress in %q", progress)
	}
	if u := e.Jobs()[0].Upload; u.SHA256 != sha256Hex(raw) {
		t.Errorf("upload SHA-256 %s, want %s", u.SHA256, sha256Hex(raw))
	}
}
