//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// guideFile is the guide that shows how to start the emulator in the
// background and stop it.
const guideFile = "../../../../docs/guides/fixtures-in-ci.md"

// guideLines returns the guide's lines that start the emulator in the
// background and stop it, as the guide shows them.
func guideLines(t *testing.T) (start, stop string) {
	t.Helper()
	b, err := os.ReadFile(guideFile)
	if err != nil {
		t.Fatal(err)
	}
	start = regexp.MustCompile(`(?m)^eval "\$\(etl-emulator -background[^)]*\)".*$`).FindString(string(b))
	stop = regexp.MustCompile(`(?m)^kill "\$ETL_EMULATOR_PID".*$`).FindString(string(b))
	if start == "" || stop == "" {
		t.Fatalf("%s shows no `eval \"$(etl-emulator -background)\"` and `kill \"$ETL_EMULATOR_PID\"` lines", guideFile)
	}
	return start, stop
}

// shellDir is a directory holding bin/etl-emulator (this test binary, run
// as the command, first on PATH), for a shell to run the guide's lines in, with TMPDIR
// inside it for the default log file.
func shellDir(t *testing.T) (dir string, env []string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir = t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.Args[0], filepath.Join(dir, "bin", "etl-emulator")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, append(os.Environ(), "ETL_EMULATOR_TEST_MAIN=1", "TMPDIR="+filepath.Join(dir, "tmp"),
		"PATH="+filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// stopOnCleanup kills pid when the test ends, should it still run.
func stopOnCleanup(t *testing.T, pid int) {
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
}

// alive reports whether process pid exists (a zombie counts as gone: the
// emulator is not this test's child).
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// TestBackgroundTheGuideWay starts the emulator with the fixtures-in-ci
// guide's line through bash, whose stdout and stderr are one pipe: the
// shell ends, and the pipe reaches EOF, within a few seconds, while the
// emulator still answers; the guide's kill line stops it.
func TestBackgroundTheGuideWay(t *testing.T) {
	start, stop := guideLines(t)
	dir, env := shellDir(t)
	script := start + "\n" + `printf 'pid=%s base=%s log=%s\n' "$ETL_EMULATOR_PID" "$ETL_BASE_URL" "$ETL_EMULATOR_LOG_FILE"` + "\n"
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sh := exec.Command("bash", "-c", script)
	sh.Dir, sh.Env, sh.Stdout, sh.Stderr = dir, env, w, w
	began := time.Now()
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	read := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		read <- b
	}()
	var out []byte
	select {
	case out = <-read:
	case <-time.After(10 * time.Second):
		_ = sh.Process.Kill()
		t.Fatalf("the caller's stdout and stderr were still held open after 10s: %q", <-read)
	}
	if err := sh.Wait(); err != nil {
		t.Fatalf("bash: %v; output %q", err, out)
	}
	t.Logf("the shell ended and its pipe closed in %v", time.Since(began).Round(time.Millisecond))
	m := regexp.MustCompile(`(?m)^pid=([0-9]+) base=(http://127\.0\.0\.1:[0-9]+) log=(\S+)$`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the shell printed %q, want the settings set", out)
	}
	pid, _ := strconv.Atoi(string(m[1]))
	base, logFile := string(m[2]), string(m[3])
	stopOnCleanup(t, pid)

	if strings.Contains(string(out), "Ctrl-C") {
		t.Errorf("-background printed Ctrl-C: %q", out)
	}
	if want := "etl-emulator: listening on " + base + " in the background (pid " + string(m[1]) + ", its output in " + logFile + "); stop it with: kill " + string(m[1]) + "\n"; !strings.Contains(string(out), want) {
		t.Errorf("the shell's stderr lacks %q: %q", want, out)
	}
	if !strings.HasPrefix(logFile, filepath.Join(dir, "tmp")+string(filepath.Separator)+"etl-emulator-") {
		t.Errorf("log file %s is not in TMPDIR", logFile)
	}
	if status, err := getTemplates(base, emulator.DefaultTokenID, emulator.DefaultTokenSecret); err != nil || status != http.StatusOK {
		t.Fatalf("after the shell ended, GET templates: %d %v", status, err)
	}
	waitFor(t, "the listening line in the log", func() bool { return strings.Contains(readTrimmed(logFile), "listening on") })
	if got := readTrimmed(logFile); got != "etl-emulator: listening on "+base+" (pid "+string(m[1])+") in the background; stop it with: kill "+string(m[1]) {
		t.Errorf("log = %q", got)
	}

	kill := exec.Command("bash", "-c", stop)
	kill.Env = append(env, "ETL_EMULATOR_PID="+string(m[1]))
	if out, err := kill.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", stop, err, out)
	}
	waitFor(t, "the emulator to stop", func() bool { return !alive(pid) })
	if _, err := http.Get(base + "/api/public/v1/etl/templates"); err == nil {
		t.Error("still serving after kill")
	}
	if !strings.HasSuffix(readTrimmed(logFile), "etl-emulator: pid "+string(m[1])+" stopping") {
		t.Errorf("log = %q", readTrimmed(logFile))
	}
}

// TestBackgroundSettings: -background prints the settings with
// ETL_EMULATOR_PID and ETL_EMULATOR_LOG_FILE (-log-file's path), -env-file
// holds the same lines, the emulator runs in a session of its own, jobs
// ending in ERROR are reported in the log, and SIGTERM stops it, removing
// the env file.
func TestBackgroundSettings(t *testing.T) {
	dir := t.TempDir()
	logFile, envFile := filepath.Join(dir, "emulator.log"), filepath.Join(dir, "emulator.env")
	var out, errOut bytes.Buffer
	cmd := emulatorProcess(t, "-background", "-instant", "-log-file", logFile, "-env-file", envFile)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v; stderr %q", err, errOut.String())
	}
	env := parseExports(t, out.String())
	pid, err := strconv.Atoi(env["ETL_EMULATOR_PID"])
	if err != nil {
		t.Fatalf("ETL_EMULATOR_PID in %q", out.String())
	}
	stopOnCleanup(t, pid)
	if env["ETL_EMULATOR_LOG_FILE"] != logFile {
		t.Errorf("ETL_EMULATOR_LOG_FILE = %q, want %q", env["ETL_EMULATOR_LOG_FILE"], logFile)
	}
	if got, _ := os.ReadFile(envFile); string(got) != out.String() {
		t.Errorf("env file %q, stdout %q", got, out.String())
	}
	if strings.Contains(errOut.String(), "Ctrl-C") || strings.Contains(readTrimmed(logFile), "Ctrl-C") {
		t.Errorf("Ctrl-C printed in the background: %q, log %q", errOut.String(), readTrimmed(logFile))
	}
	if own, err := leadsOwnGroup(pid); err != nil || !own {
		t.Errorf("process %d does not lead a process group of its own (a new session): %v", pid, err)
	}
	base := env["ETL_BASE_URL"]
	st, body := call(t, http.MethodPost, base+api+"/templates/"+emulator.HeadcountTemplateID+"/startWithData", "application/json",
		strings.NewReader(`{"input":{"data":[["Employee"],["E1"]]}}`))
	id, _ := jobOf(t, st, body)
	line := `etl-emulator: job ` + id + ` (template ` + emulator.HeadcountTemplateID + ` "Headcount") ended in ERROR: missing required column "Department"`
	waitFor(t, "the ERROR line in the log", func() bool { return strings.Contains(readTrimmed(logFile), line) })

	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the emulator to stop", func() bool { return !alive(pid) })
	if _, err := os.Stat(envFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the env file outlives the emulator: %v", err)
	}
	if _, err := os.Stat(logFile); err != nil {
		t.Errorf("the log file is gone: %v", err)
	}
}

// TestBackgroundStartFails: a copy that cannot listen (the port is taken)
// makes -background fail with its log on stderr, printing no settings.
func TestBackgroundStartFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out, errOut bytes.Buffer
	cmd := emulatorProcess(t, "-background", "-addr", ln.Addr().String(), "-log-file", filepath.Join(t.TempDir(), "log"))
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1; stderr %q", err, errOut.String())
	}
	if out.Len() != 0 || !strings.Contains(errOut.String(), "address already in use") {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
}
