package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// runCommand runs argv with env added to this process's environment and
// waits for it. An interrupt is not passed on: Ctrl-C reaches the command
// from the terminal, and a second one would make tools such as terraform
// abort at once. When term is done, the command gets SIGTERM (or is killed
// where there is no SIGTERM). It returns the command's exit status as an
// exitStatus, or why it could not be started.
func runCommand(term context.Context, interrupt <-chan os.Signal, argv, env []string, std stdio) error {
	cmd := exec.Command(argv[0], argv[1:]...) //nolint:gosec // running the user's command is this mode's purpose
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = std.in, std.out, std.errOut
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			fmt.Fprintln(std.errOut, "etl-emulator:", err)
			return exitStatus(127)
		}
		return err
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	termDone := term.Done()
	for {
		select {
		case err := <-waited:
			return commandStatus(cmd, err)
		case <-interrupt:
		case <-termDone:
			termDone = nil
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				_ = cmd.Process.Kill()
			}
		}
	}
}

// commandStatus turns the end of a command into an exitStatus: its exit
// code, or 128 plus the signal that ended it, as shells report it; nil
// for status 0.
func commandStatus(cmd *exec.Cmd, err error) error {
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return err
	}
	ps := cmd.ProcessState
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
