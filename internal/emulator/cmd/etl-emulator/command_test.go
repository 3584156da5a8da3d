package main

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestCommandGetsSettingsAndStatus(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "emulator.env")
	r := startRun(t, "-instant", "-env-file", envFile, "--", os.Args[0], helperArg, "probe", "3")
	err := r.wait(t)
	if !errors.Is(err, exitStatus(3)) {
		t.Fatalf("run = %v, want the command's status 3", err)
	}
	m := regexp.MustCompile(`^probe: 200 (http://127\.0\.0\.1:[0-9]+)\n$`).FindStringSubmatch(r.out.String())
	if m == nil {
		t.Fatalf("the command printed %q, want a 200 from the emulator", r.out.String())
	}
	if want := "etl-emulator: listening on " + m[1] + "; running " + os.Args[0] + "\n"; r.err.String() != want {
		t.Errorf("stderr = %q, want %q", r.err.String(), want)
	}
	if r.out.isClosed() {
		t.Error("stdout was closed: it belongs to the command")
	}
	if _, err := http.Get(m[1] + "/api/public/v1/etl/templates"); err == nil {
		t.Error("the emulator still serves after the command exited")
	}
	if _, err := os.Stat(envFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the env file outlives the emulator: %v", err)
	}
}

func TestCommandSuccessIsNil(t *testing.T) {
	r := startRun(t, "--", os.Args[0], helperArg, "probe", "0")
	if err := r.wait(t); err != nil {
		t.Fatalf("run = %v, want nil for status 0", err)
	}
	if !strings.HasPrefix(r.out.String(), "probe: 200 ") {
		t.Errorf("the command printed %q", r.out.String())
	}
}

func TestCommandNotFound(t *testing.T) {
	r := startRun(t, "--", "etl-emulator-no-such-command")
	if err := r.wait(t); !errors.Is(err, exitStatus(127)) {
		t.Fatalf("run = %v, want status 127", err)
	}
	if !strings.Contains(r.err.String(), `"etl-emulator-no-such-command": executable file not found`) {
		t.Errorf("stderr = %q", r.err.String())
	}
}

func TestCommandKilledBySignal(t *testing.T) {
	r := startRun(t, "--", "sh", "-c", "kill -KILL $$")
	if err := r.wait(t); !errors.Is(err, exitStatus(128+9)) {
		t.Fatalf("run = %v, want 137 (128 + SIGKILL), as shells report it", err)
	}
}

// An interrupt is left to the command (the terminal sends Ctrl-C to it
// too); the end of term is passed on to it as SIGTERM.
func TestCommandInterruptAndTerm(t *testing.T) {
	r := startRun(t, "--", os.Args[0], helperArg, "wait-term", "7")
	waitFor(t, "the command to be ready", func() bool { return r.out.String() == "ready\n" })
	r.interrupt <- os.Interrupt
	select {
	case err := <-r.done:
		t.Fatalf("run returned on an interrupt while the command ran: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	r.cancel()
	if err := r.wait(t); !errors.Is(err, exitStatus(7)) {
		t.Fatalf("run = %v, want 7 (the command's answer to SIGTERM)", err)
	}
}

// A command that exits 0 on SIGTERM ends the run without an error.
func TestCommandTermThenSuccess(t *testing.T) {
	r := startRun(t, "--", os.Args[0], helperArg, "wait-term", "0")
	waitFor(t, "the command to be ready", func() bool { return r.out.String() == "ready\n" })
	r.cancel()
	if err := r.wait(t); err != nil {
		t.Fatalf("run = %v, want nil (the command exited 0)", err)
	}
}

// A command that ignores SIGTERM is killed termGrace later.
func TestCommandKilledAfterGrace(t *testing.T) {
	defer func(g time.Duration) { termGrace = g }(termGrace)
	termGrace = 200 * time.Millisecond
	r := startRun(t, "--", os.Args[0], helperArg, "ignore-term")
	waitFor(t, "the command to be ready", func() bool { return r.out.String() == "ready\n" })
	began := time.Now()
	r.cancel()
	if err := r.wait(t); !errors.Is(err, exitStatus(128+9)) {
		t.Fatalf("run = %v, want 137 (killed)", err)
	}
	if took := time.Since(began); took < termGrace || took > 5*time.Second {
		t.Errorf("killed after %v, want about %v", took, termGrace)
	}
}
