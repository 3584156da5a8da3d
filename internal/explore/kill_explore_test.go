//go:build explore

package explore

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Carrying out a kill: the CLI runs until the proxy's trigger fires, then,
// 300 ms later (so that the creates that do not wait have returned, and
// those whose uploads were answered have recorded their jobs), terraform
// is SIGKILLed, its
// provider process SIGKILLed alone, or terraform sent SIGINT. A killed
// terraform leaves its provider process running, orphaned, as a cancelled
// CI runner does; the orphans are stopped when the sequence ends.

// killDelay is how long after a wait kill's trigger it strikes.
const killDelay = 300 * time.Millisecond

// cliKill runs the CLI with args in dir, carrying out kill when trig
// fires; it returns the output, whether the command failed, and whether
// the kill fired (struck while the CLI ran, which then failed). A trigger
// that never fires lets the command run to its end.
func (r *run) cliKill(dir string, args []string, kill string, trig <-chan struct{}) (string, bool, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	cmd := r.s.command(ctx, r.cliConfig(), dir, r.ts.URL, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return err.Error(), true, false
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	struck := false
	select {
	case <-done:
	case <-trig:
		select {
		case <-done:
		case <-time.After(killDelay):
		}
		struck = strike(cmd.Process.Pid, kill, done)
	}
	<-done
	failed := !cmd.ProcessState.Success()
	return timedOut(ctx, ansi.ReplaceAllString(out.String(), "")), failed, struck && failed
}

// strike carries out kill on the CLI whose process is pid, unless it
// ended (done); it reports whether it struck.
func strike(pid int, kill string, done <-chan struct{}) bool {
	select {
	case <-done:
		return false
	default:
	}
	switch kill {
	case "kill-provider":
		child := providerChild(pid)
		return child > 0 && syscall.Kill(child, syscall.SIGKILL) == nil
	case "interrupt":
		return syscall.Kill(pid, syscall.SIGINT) == nil
	}
	return syscall.Kill(pid, syscall.SIGKILL) == nil
}

// providerChild is the newest child process of pid named
// terraform-provider-etl (/proc; a process name holds 15 bytes), 0 if none.
func providerChild(pid int) int {
	entries, _ := os.ReadDir("/proc")
	best, bestStart := 0, int64(-1)
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ... starttime (the 22nd field)
		s := string(b)
		open, shut := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || shut < open {
			continue
		}
		comm, rest := s[open+1:shut], strings.Fields(s[shut+1:])
		if len(rest) < 20 || !strings.HasPrefix("terraform-provider-etl", comm) || len(comm) < 10 {
			continue
		}
		ppid, _ := strconv.Atoi(rest[1])
		start, _ := strconv.ParseInt(rest[19], 10, 64)
		if ppid == pid && start > bestStart {
			best, bestStart = child, start
		}
	}
	return best
}
