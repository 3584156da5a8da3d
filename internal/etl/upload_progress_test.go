package etl

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// TestUploadProgress: the percentage, the rate and the time left.
func TestUploadProgress(t *testing.T) {
	for _, c := range []struct{ sent, size, want int64 }{{0, 10, 0}, {5, 10, 50}, {10, 10, 100}, {0, 0, 100}} {
		if got := (UploadProgress{Sent: c.sent, Size: c.size}).Percent(); got != c.want {
			t.Errorf("Percent of %d of %d = %d, want %d", c.sent, c.size, got, c.want)
		}
	}
	p := UploadProgress{Sent: 512 << 20, Size: 2 << 30, Elapsed: 4 * time.Second}
	if left, ok := p.Left(); p.Rate() != 128<<20 || !ok || left != 12*time.Second {
		t.Errorf("%+v: rate %v, left %v %v; want 128 MiB/s and 12s", p, p.Rate(), left, ok)
	}
	for _, p := range []UploadProgress{{Sent: 0, Size: 100, Elapsed: time.Second}, {Sent: 100, Size: 100, Elapsed: time.Second}} {
		if _, ok := p.Left(); ok {
			t.Errorf("%+v: a time left", p)
		}
	}
	if r := (UploadProgress{Sent: 10}).Rate(); r != 10/1e-3 {
		t.Errorf("rate at no time elapsed: %v", r)
	}
}

// TestReporting: each attempt counts from zero; report hears how far it
// is every interval, and nothing once stop returns.
func TestReporting(t *testing.T) {
	content := []byte("Account,Amount\n4000,1\n")
	var mu sync.Mutex
	var heard []UploadProgress
	f, stop := fileOf(content, flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv").Reporting(time.Millisecond, func(p UploadProgress) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, p)
	})
	last := func() UploadProgress {
		mu.Lock()
		defer mu.Unlock()
		if len(heard) == 0 {
			return UploadProgress{Sent: -1}
		}
		return heard[len(heard)-1]
	}
	waitFor := func(sent int64) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); last().Sent != sent; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("never heard %d bytes sent; last %+v", sent, last())
			}
		}
	}
	for attempt := 1; attempt <= 2; attempt++ {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(rc, make([]byte, 5)); err != nil {
			t.Fatal(err)
		}
		waitFor(5)
		if _, err := io.ReadAll(rc); err != nil {
			t.Fatal(err)
		}
		waitFor(22)
		rc.Close()
	}
	if p := last(); p.Size != int64(len(content)) || p.Elapsed <= 0 {
		t.Errorf("last heard %+v", p)
	}
	stop()
	stop() // twice is fine
	mu.Lock()
	n := len(heard)
	mu.Unlock()
	time.Sleep(10 * time.Millisecond)
	mu.Lock()
	after := len(heard) - n
	mu.Unlock()
	if after != 0 {
		t.Errorf("%d reports after stop", after)
	}

	boom := errors.New("boom")
	failing := FileUpload{Open: func() (io.ReadCloser, error) { return nil, boom }}
	g, stop := failing.Reporting(time.Hour, func(UploadProgress) {})
	defer stop()
	if _, err := g.Open(); !errors.Is(err, boom) {
		t.Errorf("open's error: %v", err)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 20: "5.0 MiB", 2 << 30: "2.0 GiB", 3 << 40: "3.0 TiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestUploadProgress_Describe(t *testing.T) {
	msg, fields := UploadProgress{Sent: 512 << 20, Size: 2 << 30, Elapsed: 4 * time.Second}.Describe()
	if msg != "512.0 MiB of 2.0 GiB sent (25%) in 4s, 128.0 MiB/s, about 12s left" {
		t.Errorf("line %q", msg)
	}
	if fields["sent_bytes"] != int64(512<<20) || fields["total_bytes"] != int64(2<<30) || fields["rate_mib_s"] != int64(128) || fields["eta_s"] != int64(12) {
		t.Errorf("fields %v", fields)
	}
	// Nothing sent yet: no estimate.
	if msg, fields := (UploadProgress{Sent: 0, Size: 100, Elapsed: time.Second}).Describe(); strings.Contains(msg, "left") || fields["eta_s"] != nil {
		t.Errorf("nothing sent: %q %v", msg, fields)
	}
}
