package provider

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

func TestCountingOpen(t *testing.T) {
	var n atomic.Int64
	open := countingOpen(bytesOpener([]byte("Account,Amount\n4000,1\n")), &n)
	for attempt := 1; attempt <= 2; attempt++ {
		rc, err := open()
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 5)
		if _, err := io.ReadFull(rc, buf); err != nil || n.Load() != 5 {
			t.Fatalf("attempt %d: %d bytes counted after reading 5 (%v)", attempt, n.Load(), err)
		}
		if _, err := io.ReadAll(rc); err != nil || n.Load() != 22 {
			t.Fatalf("attempt %d: %d bytes counted, want 22 (each attempt counts from 0)", attempt, n.Load())
		}
		rc.Close()
	}
}

// every sends a message when it changes, and nothing after stop returns.
func TestProgressEvery(t *testing.T) {
	var mu sync.Mutex
	var got []string
	p := newActionProgress(context.Background(), func(e action.InvokeProgressEvent) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, e.Message)
	}, time.Millisecond)
	var n atomic.Int64
	stop := p.every(time.Millisecond, func() string { return "step " + strings.Repeat("I", int(n.Load())) })
	deadline := time.Now().Add(5 * time.Second)
	for i := 1; i <= 3; i++ {
		n.Store(int64(i))
		for {
			mu.Lock()
			seen := len(got) > 0 && got[len(got)-1] == "step "+strings.Repeat("I", i)
			mu.Unlock()
			if seen || time.Now().After(deadline) {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	stop()
	mu.Lock()
	sent := append([]string(nil), got...)
	mu.Unlock()
	if len(sent) != 3 || sent[0] != "step I" || sent[2] != "step III" {
		t.Errorf("sent %q, want each of the three messages once", sent)
	}
	n.Store(9)
	time.Sleep(10 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(sent) {
		t.Errorf("sent %q after stop", got[len(sent):])
	}
}

func TestPercent(t *testing.T) {
	for _, c := range []struct{ n, total, want int64 }{{0, 10, 0}, {5, 10, 50}, {10, 10, 100}, {0, 0, 100}} {
		if got := percent(c.n, c.total); got != c.want {
			t.Errorf("percent(%d, %d) = %d, want %d", c.n, c.total, got, c.want)
		}
	}
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
