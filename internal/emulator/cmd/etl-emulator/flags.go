package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// config is the command line, parsed and checked.
type config struct {
	addr, tokenID, tokenSecret    string
	urlFile, envFile, caFile      string
	allowRemote, instant, verbose bool
	useTLS                        bool
	runTime                       time.Duration
	faultRate                     float64
	command                       []string // after `--`
	done                          bool     // -h or -version answered: nothing to serve
}

// usageHead is the text -h prints before the flags' defaults: the two ways
// to run the emulator, and the settings it hands out.
const usageHead = `Usage:
  etl-emulator [flags]
      Serve until Ctrl-C or SIGTERM. The etl provider's settings are printed
      on stdout as export lines (then stdout is closed), and
      "listening on ...; Ctrl-C to stop" on stderr. Any of:
        eval "$(etl-emulator &)"                  # sets them in this shell
        etl-emulator -env-file emulator.env &     # then: . ./emulator.env

  etl-emulator [flags] -- COMMAND [ARGS...]
      Serve while COMMAND runs with the settings in its environment, then
      stop and exit with COMMAND's status. Ctrl-C reaches COMMAND from the
      terminal; SIGTERM sent to etl-emulator is passed on to it.
        etl-emulator -instant -- terraform apply -auto-approve

The settings: ETL_BASE_URL, ETL_TOKEN_ID, ETL_TOKEN_SECRET, and with -tls
ETL_CA_CERT_FILE.

Flags:
`

// newFlagSet declares the flags into c.
func newFlagSet(c *config, showVersion *bool) *flag.FlagSet {
	fs := flag.NewFlagSet("etl-emulator", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:0", "listen address (loopback only unless -allow-remote); port 0 picks a free port")
	fs.BoolVar(&c.allowRemote, "allow-remote", false, "allow a non-loopback listen address")
	fs.StringVar(&c.tokenID, "token-id", emulator.DefaultTokenID, "application token id to accept")
	fs.StringVar(&c.tokenSecret, "token-secret", emulator.DefaultTokenSecret, "application token secret to accept")
	fs.DurationVar(&c.runTime, "run-time", 100*time.Millisecond, "how long a started or submitted job runs")
	fs.BoolVar(&c.instant, "instant", false, "jobs are final as soon as they start")
	fs.Float64Var(&c.faultRate, "fault-rate", 0, "probability (0..1) of answering any request with 503")
	fs.StringVar(&c.envFile, "env-file", "", "write the export lines to this file once listening (removed when the emulator stops)")
	fs.StringVar(&c.urlFile, "url-file", "", "write the base URL to this file once listening")
	fs.BoolVar(&c.verbose, "log", false, "log requests to stderr")
	fs.BoolVar(&c.useTLS, "tls", false, "serve https with a generated self-signed certificate, written as PEM to -ca-file (its path is ETL_CA_CERT_FILE)")
	fs.StringVar(&c.caFile, "ca-file", "", "with -tls: where to write the certificate (default: a new file in the temporary directory, removed when the emulator stops)")
	fs.BoolVar(showVersion, "version", false, "print the version and exit")
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHead)
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses and checks the command line. -h prints the usage and
// -version the version on stdout; c.done is then set.
func parseArgs(args []string, stdout io.Writer) (config, error) {
	var c config
	var showVersion bool
	fs := newFlagSet(&c, &showVersion)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		return config{done: true}, nil
	case err != nil:
		return c, usageError{err}
	case showVersion:
		fmt.Fprintln(stdout, "etl-emulator", versionString())
		return config{done: true}, nil
	}
	if fs.NArg() > 0 {
		if n := len(args) - fs.NArg(); n == 0 || args[n-1] != "--" {
			return c, usageError{fmt.Errorf("unexpected arguments %q: put a command to run after `--`", fs.Args())}
		}
		c.command = fs.Args()
	}
	return c, c.check()
}

// check refuses flag values that cannot work: a listen address beyond
// loopback without -allow-remote, a -fault-rate outside 0..1, and -ca-file
// without -tls.
func (c config) check() error {
	if !c.allowRemote {
		if err := checkLoopback(c.addr); err != nil {
			return usageError{err}
		}
	}
	if c.faultRate < 0 || c.faultRate > 1 {
		return usageError{fmt.Errorf("-fault-rate must be between 0 and 1")}
	}
	if c.caFile != "" && !c.useTLS {
		return usageError{fmt.Errorf("-ca-file needs -tls")}
	}
	return nil
}

// versionString is the version set at build time, else the module version
// `go install ...@version` records, else "dev".
func versionString() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}
