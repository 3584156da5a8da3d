package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// backgroundChildEnv names, in the environment of the copy -background
// starts, that copy's log file: it serves alone, in its own session, and
// adds ETL_EMULATOR_PID and ETL_EMULATOR_LOG_FILE to its settings.
const backgroundChildEnv = "ETL_EMULATOR_BACKGROUND_LOG_FILE"

// backgroundReady is how long -background waits for the copy to listen
// (a variable for tests).
var backgroundReady = 30 * time.Second

// startBackground is -background: it starts a copy of this command with
// the same arguments, in a new session where the system has one
// (detachAttr), with stdin from the null device, stderr to the log file
// (-log-file, else a new file in the temporary directory) and stdout to a
// pipe; the copy writes its settings to the pipe and closes it once it
// listens. Then the settings are printed on std.out, a line saying how to
// stop the copy on std.errOut, and startBackground returns: nothing of the
// copy holds the caller's stdout or stderr. A copy that stops before it
// listens has its log copied to std.errOut, and its exit status returned;
// one that does not listen within backgroundReady, or while term ends, is
// killed.
func startBackground(term context.Context, args []string, std stdio, logFile string) error {
	logPath, logF, err := openLog(logFile)
	if err != nil {
		return err
	}
	defer logF.Close()
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("-background: finding this command's executable: %w", err)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	// term: a SIGTERM while the copy starts kills it.
	cmd := exec.CommandContext(term, exe, args...) //nolint:gosec // this very command, with the arguments it was given
	cmd.Env = append(os.Environ(), backgroundChildEnv+"="+logPath)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, w, logF
	attr, note := detachAttr()
	cmd.SysProcAttr = attr
	if note != "" {
		fmt.Fprintln(std.errOut, "etl-emulator:", note)
	}
	closeInheritedOnExec()
	err = cmd.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("-background: %w", err)
	}

	read := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		read <- b
	}()
	var lines []byte
	select {
	case lines = <-read:
	case <-time.After(backgroundReady):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		relayLog(logPath, std.errOut)
		return fmt.Errorf("-background: the emulator did not listen within %v (pid %d killed; its log: %s)", backgroundReady, cmd.Process.Pid, logPath)
	}
	base := exportValue(lines, "ETL_BASE_URL")
	if base == "" {
		return backgroundFailed(cmd, logPath, std.errOut)
	}
	if _, err := std.out.Write(lines); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	fmt.Fprintf(std.errOut, "etl-emulator: listening on %s in the background (pid %d, its output in %s); stop it with: %s\n",
		base, pid, logPath, stopHint(pid))
	return cmd.Process.Release()
}

// openLog opens -background's log file: path, written anew, or a new
// etl-emulator-*.log in the temporary directory; it returns its absolute
// path.
func openLog(path string) (string, *os.File, error) {
	var f *os.File
	var err error
	if path == "" {
		f, err = os.CreateTemp("", "etl-emulator-*.log")
	} else {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600) //nolint:gosec // the user's -log-file
	}
	if err != nil {
		return "", nil, fmt.Errorf("-background: log file: %w", err)
	}
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		f.Close()
		return "", nil, err
	}
	return abs, f, nil
}

// backgroundFailed reports a copy that closed its stdout without settings:
// it waits for it (5 seconds at most), copies its log to errOut and returns
// its exit status.
func backgroundFailed(cmd *exec.Cmd, logPath string, errOut io.Writer) error {
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait() // its status is read from cmd.ProcessState
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	relayLog(logPath, errOut)
	if code := cmd.ProcessState.ExitCode(); code > 0 {
		return exitStatus(code)
	}
	return fmt.Errorf("-background: the emulator stopped before it listened (its log: %s)", logPath)
}

// relayLog copies the log file to errOut.
func relayLog(path string, errOut io.Writer) {
	if b, err := os.ReadFile(path); err == nil { //nolint:gosec // the log file this command named
		_, _ = errOut.Write(b)
	}
}

// exportValue returns the value of `export KEY=value` in lines, "" when
// absent.
func exportValue(lines []byte, key string) string {
	sc := bufio.NewScanner(bytes.NewReader(lines))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "export "+key+"="); ok {
			return v
		}
	}
	return ""
}
