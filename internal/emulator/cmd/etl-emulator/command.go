package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// termGrace is how long a command may take to exit after SIGTERM before it
// is killed (a variable for tests).
var termGrace = 10 * time.Second

// runCommand runs argv with env added to this process's environment and
// waits for it. Interrupts are left alone: Ctrl-C reaches the command from
// the terminal, and passing on a second one would make tools such as
// terraform abort at once. When term is done, the command gets SIGTERM, and
// is killed termGrace later if it is still running (at once where there is
// no SIGTERM). It returns the command's exit status as an exitStatus (nil
// for 0), or why it could not be started.
func runCommand(term context.Context, argv, env []string, std stdio) error {
	cmd := exec.CommandContext(term, argv[0], argv[1:]...) //nolint:gosec // running the user's command is this mode's purpose
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = termGrace
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = std.in, std.out, std.errOut
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			fmt.Fprintln(std.errOut, "etl-emulator:", err)
			return exitStatus(127)
		}
		return err
	}
	err := cmd.Wait()
	return commandStatus(cmd.ProcessState, err)
}

// commandStatus turns the end of a command into an exitStatus: its exit
// code, or 128 plus the signal that ended it, as shells report it; nil for
// status 0. Without a process state, err is why the command could not be
// waited for.
func commandStatus(ps *os.ProcessState, err error) error {
	if ps == nil {
		return err
	}
	switch code := ps.ExitCode(); {
	case code == 0:
		return nil
	case code > 0:
		return exitStatus(code)
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return exitStatus(128 + int(ws.Signal()))
	}
	return exitStatus(1)
}
