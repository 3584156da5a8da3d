// Command etl-emulator serves the in-memory ETL import API emulator on
// loopback, for quickstarts, demos, scripts and CI fixtures.
//
//	etl-emulator [flags]                        serve until Ctrl-C or SIGTERM
//	etl-emulator [flags] -- COMMAND [ARGS...]   serve while COMMAND runs
//	etl-emulator -background [flags]            start detached, print the settings, exit
//
// Serving, it prints the etl provider's settings (ETL_BASE_URL,
// ETL_TOKEN_ID, ETL_TOKEN_SECRET, and ETL_CA_CERT_FILE with -tls) as
// `export KEY=value` lines on stdout and closes stdout; -env-file writes
// the same lines to a file. "listening on ...; Ctrl-C to stop" goes to
// stderr. With a command after `--`, the settings are in the command's
// environment instead, and the emulator stops when the command exits, with
// its exit status. With -background (background.go), a copy of the command
// serves in a new session with its output in a log file, and this one
// prints the settings, ETL_EMULATOR_PID and ETL_EMULATOR_LOG_FILE
// included, and exits once the copy listens: eval "$(etl-emulator
// -background)" leaves nothing holding the caller's stdout or stderr.
//
// Every job that ends in ERROR is reported with one line on stderr (the
// job, its template, and why), with or without -log.
//
// The flags of the rules no public source shows (-conflict-status,
// -submit-missing-inputs, -missing-metadata, -required-columns) set the
// emulator.Options of the same names; -h lists them under a heading of
// their own.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// version is set by the release build (-ldflags "-X main.version=...").
var version = "dev"

// stdio are the streams the command reads and writes.
type stdio struct {
	in          io.Reader
	out, errOut io.Writer
}

// main runs the command with SIGTERM and interrupts wired in, and exits
// with the status exitCode gives.
func main() {
	// SIGTERM stops the emulator (and is passed on to a command). Ctrl-C
	// (SIGINT) stops it when it serves alone; a command run after `--` gets
	// Ctrl-C from the terminal itself and decides when to exit.
	term, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt)
	err := run(term, interrupt, os.Args[1:], stdio{os.Stdin, os.Stdout, os.Stderr})
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitStatus is the exit status of a command run after `--`; it has
// reported its own problems.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("the command exited with status %d", int(e)) }

// usageError is a mistake in the command line (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitCode reports err on errOut and returns the process's exit status.
func exitCode(err error, errOut io.Writer) int {
	var status exitStatus
	var usage usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &status):
		return int(status)
	case errors.As(err, &usage):
		fmt.Fprintf(errOut, "etl-emulator: %v\nRun 'etl-emulator -h' for usage.\n", err)
		return 2
	default:
		fmt.Fprintln(errOut, "etl-emulator:", err)
		return 1
	}
}

// run serves until term is done (or, serving alone, an interrupt arrives),
// or runs the command after `--` with the emulator's settings.
func run(term context.Context, interrupt <-chan os.Signal, args []string, std stdio) error {
	c, err := parseArgs(args, std.out)
	if err != nil || c.done {
		return err
	}
	c.backgroundChild = os.Getenv(backgroundChildEnv)
	if c.background && c.backgroundChild == "" {
		return startBackground(term, args, std, c.logFile)
	}
	ln, set, err := listen(term, c)
	if err != nil {
		return err
	}
	defer set.removeGenerated()
	if c.urlFile != "" {
		if err := os.WriteFile(c.urlFile, []byte(set.baseURL+"\n"), 0o600); err != nil {
			ln.Close()
			return err
		}
	}
	if c.envFile != "" {
		if err := writeFileAtomic(c.envFile, []byte(set.exportLines())); err != nil {
			ln.Close()
			return err
		}
		defer os.Remove(c.envFile)
	}
	hs := &http.Server{Handler: newHandler(c, std.errOut), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: log.New(std.errOut, "etl-emulator: ", 0)}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	if len(c.command) > 0 {
		fmt.Fprintf(std.errOut, "etl-emulator: listening on %s; running %s\n", set.baseURL, c.command[0])
		err = runCommand(term, c.command, set.environ(), std)
	} else {
		err = serveAlone(term, interrupt, set, served, std)
	}
	if serr := shutdown(hs); err == nil {
		err = serr
	}
	return err
}

// newHandler builds the emulator the flags describe. Jobs ending in ERROR
// are reported on errOut (timed like the requests with -log).
func newHandler(c config, errOut io.Writer) http.Handler {
	opts := emulator.Options{TokenID: c.tokenID, TokenSecret: c.tokenSecret, RunTime: c.runTime, Instant: c.instant}
	c.rules.options(&opts)
	logger := log.New(errOut, "", 0)
	if c.verbose {
		logger.SetFlags(log.LstdFlags | log.Lmicroseconds)
		opts.Logf = logger.Printf
	}
	opts.JobLog = logger.Printf
	srv := emulator.New(opts)
	if c.faultRate > 0 {
		srv.InjectFault(emulator.Fault{Status: http.StatusServiceUnavailable, Probability: c.faultRate})
	}
	return srv
}

// serveAlone prints the settings, closes stdout when it can (so that
// eval "$(etl-emulator &)" returns, and a -background start learns the
// copy listens), then waits for a signal or for the server to fail.
func serveAlone(term context.Context, interrupt <-chan os.Signal, set settings, served <-chan error, std stdio) error {
	if _, err := io.WriteString(std.out, set.exportLines()); err != nil {
		return err
	}
	if c, ok := std.out.(io.Closer); ok {
		_ = c.Close()
	}
	if set.logFile != "" {
		fmt.Fprintf(std.errOut, "etl-emulator: listening on %s (pid %d) in the background; stop it with: %s\n", set.baseURL, set.pid, stopHint(set.pid))
	} else {
		fmt.Fprintf(std.errOut, "etl-emulator: listening on %s (pid %d); Ctrl-C to stop\n", set.baseURL, os.Getpid())
	}
	select {
	case err := <-served:
		return err
	case <-interrupt:
	case <-term.Done():
	}
	if set.logFile != "" {
		fmt.Fprintf(std.errOut, "etl-emulator: pid %d stopping\n", set.pid)
	}
	return nil
}

// shutdown stops the server, giving requests in flight 5 seconds.
func shutdown(hs *http.Server) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// checkLoopback refuses an address that would listen beyond loopback.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("bad -addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-addr %q is not a loopback address; pass -allow-remote to listen on it", addr)
}
