package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
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
	background                    bool   // -background: start a detached copy and exit
	logFile                       string // -background's log file
	rules                         rules
	command                       []string // after `--`
	done                          bool     // -h or -version answered: nothing to serve
	// backgroundChild is the log file of a copy -background started (set
	// from the environment, never from a flag): it serves alone and
	// prints ETL_EMULATOR_PID and ETL_EMULATOR_LOG_FILE with its settings.
	backgroundChild string
}

// rules are the emulator's rules that no public source shows, each a flag
// with the emulator's own choice as its default (see emulator.Options).
type rules struct {
	conflictStatus      int
	submitMissingInputs string
	missingMetadata     string
	requiredColumns     string
}

// inventedFlags are the flags of the rules: -h lists them apart, under
// inventedHeading.
var inventedFlags = []string{"conflict-status", "submit-missing-inputs", "missing-metadata", "required-columns"}

// inventedHeading introduces inventedFlags in -h.
const inventedHeading = `
Rules no public source shows: the emulator's own inventions, where the real
service may behave otherwise. The defaults are the emulator's choices; run a
configuration against the other choices too, and depend on none of them:
`

// usageHead is the text -h prints before the flags' defaults: the ways to
// run the emulator, and the settings it hands out.
const usageHead = `Usage:
  etl-emulator -background [flags]
      Start the emulator in the background, detached from this terminal and
      from the caller's stdout and stderr (its own output goes to -log-file),
      print the settings as export lines once it listens, and exit: a script
      or CI step that runs it ends as usual. Stop it with kill.
        eval "$(etl-emulator -background)"        # sets them in this shell
        kill "$ETL_EMULATOR_PID"                  # stops it

  etl-emulator [flags]
      Serve in the foreground until Ctrl-C or SIGTERM. The settings are
      printed on stdout as export lines (then stdout is closed), and
      "listening on ...; Ctrl-C to stop" on stderr; -env-file writes them
      to a file too.

  etl-emulator [flags] -- COMMAND [ARGS...]
      Serve while COMMAND runs with the settings in its environment, then
      stop and exit with COMMAND's status. Ctrl-C reaches COMMAND from the
      terminal; SIGTERM sent to etl-emulator is passed on to it.
        etl-emulator -instant -- terraform apply -auto-approve

The settings: ETL_BASE_URL, ETL_TOKEN_ID, ETL_TOKEN_SECRET, with -tls
ETL_CA_CERT_FILE, and with -background ETL_EMULATOR_PID and
ETL_EMULATOR_LOG_FILE. A job that ends in ERROR is reported on stderr (in the
log file with -background): the job, its template and why.

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
	fs.BoolVar(&c.background, "background", false, "start the emulator in a new session, detached from the caller's stdout and stderr, print the settings (with ETL_EMULATOR_PID and ETL_EMULATOR_LOG_FILE) once it listens, and exit (not with a command after --)")
	fs.StringVar(&c.logFile, "log-file", "", "with -background: where the emulator's stderr goes (default: a new etl-emulator-*.log in the temporary directory; kept when it stops)")
	fs.BoolVar(showVersion, "version", false, "print the version and exit")

	fs.IntVar(&c.rules.conflictStatus, "conflict-status", 409, "the answer to a conflict (submit or cancel of a finished job, a file PUT into a job no longer EDITING): 409, 400 (or another 4xx status), or 200: the job as it is, unchanged")
	fs.StringVar(&c.rules.submitMissingInputs, "submit-missing-inputs", string(emulator.MissingInputsError), "a created job submitted with inputs never loaded: error (it ends in ERROR) or accept (it runs with the inputs it has, and COMPLETES when they pass)")
	fs.StringVar(&c.rules.missingMetadata, "missing-metadata", string(emulator.MissingMetadataReject), `a start with file or file PUT without a metadata part: reject (422) or default (the part named "file" read as CSV in UTF-8, its file name from the part's filename)`)
	fs.StringVar(&c.rules.requiredColumns, "required-columns", string(emulator.RequiredColumnsOn), "required columns matched by header name: on (a header without them ends the job in ERROR) or off (no check: every job with well-formed data COMPLETES)")

	fs.SetOutput(io.Discard)
	fs.Usage = func() { printUsage(fs) }
	return fs
}

// printUsage prints usageHead, the flags of facts and options in
// alphabetical order, then inventedHeading and the flags of the invented
// rules.
func printUsage(fs *flag.FlagSet) {
	out := fs.Output()
	fmt.Fprint(out, usageHead)
	facts, invented := subset(fs, out, false), subset(fs, out, true)
	facts.PrintDefaults()
	fmt.Fprint(out, inventedHeading)
	invented.PrintDefaults()
}

// subset returns a flag set holding fs's flags that are inventedFlags (or
// the others), with their defaults, printing to out.
func subset(fs *flag.FlagSet, out io.Writer, invented bool) *flag.FlagSet {
	sub := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	sub.SetOutput(out)
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(inventedFlags, f.Name) != invented {
			return
		}
		sub.Var(f.Value, f.Name, f.Usage)
		sub.Lookup(f.Name).DefValue = f.DefValue
	})
	return sub
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
// loopback without -allow-remote, a -fault-rate that is NaN or outside
// 0..1, a -run-time that is not positive, -ca-file without -tls, -log-file
// without -background, -background with a command, and a rule's value
// none of its choices. Each message names the flag and the bad value.
func (c config) check() error {
	if !c.allowRemote {
		if err := checkLoopback(c.addr); err != nil {
			return usageError{err}
		}
	}
	if !(c.faultRate >= 0 && c.faultRate <= 1) { // NaN fails both comparisons
		return usageError{fmt.Errorf("-fault-rate %v: use a probability between 0 and 1 (0: no faults)", c.faultRate)}
	}
	if c.runTime <= 0 {
		return usageError{fmt.Errorf("-run-time %v: use a positive duration such as 100ms (-instant makes jobs final at once)", c.runTime)}
	}
	if c.caFile != "" && !c.useTLS {
		return usageError{fmt.Errorf("-ca-file needs -tls")}
	}
	if c.logFile != "" && !c.background {
		return usageError{fmt.Errorf("-log-file needs -background")}
	}
	if c.background && len(c.command) > 0 {
		return usageError{fmt.Errorf("-background serves alone: it cannot run a command after `--` (run the command after the emulator started, or drop -background)")}
	}
	return c.rules.check()
}

// check refuses a rule's value that is none of its choices.
func (r rules) check() error {
	if s := r.conflictStatus; s != 200 && (s < 400 || s > 499) {
		return usageError{fmt.Errorf("-conflict-status %d: use 409, 400 (or another 4xx status) or 200", s)}
	}
	for _, f := range []struct{ name, value, a, b string }{
		{"submit-missing-inputs", r.submitMissingInputs, string(emulator.MissingInputsError), string(emulator.MissingInputsAccept)},
		{"missing-metadata", r.missingMetadata, string(emulator.MissingMetadataReject), string(emulator.MissingMetadataDefault)},
		{"required-columns", r.requiredColumns, string(emulator.RequiredColumnsOn), string(emulator.RequiredColumnsOff)},
	} {
		if f.value != f.a && f.value != f.b {
			return usageError{fmt.Errorf("-%s %q: use %s or %s", f.name, f.value, f.a, f.b)}
		}
	}
	return nil
}

// options sets the rules in opts.
func (r rules) options(opts *emulator.Options) {
	opts.ConflictStatus = r.conflictStatus
	opts.SubmitMissingInputs = emulator.MissingInputs(r.submitMissingInputs)
	opts.MissingMetadata = emulator.MissingMetadata(r.missingMetadata)
	opts.RequiredColumns = emulator.RequiredColumnsRule(r.requiredColumns)
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
