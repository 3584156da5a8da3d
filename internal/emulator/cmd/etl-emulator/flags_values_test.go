package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// badValues are flag values etl-emulator cannot honour, each with what its
// message must say: the flag and the bad value.
var badValues = []struct {
	args []string
	want string
}{
	{[]string{"-fault-rate", "NaN"}, "-fault-rate NaN: use a probability between 0 and 1"},
	{[]string{"-fault-rate", "-0.1"}, "-fault-rate -0.1: use a probability between 0 and 1"},
	{[]string{"-fault-rate", "1.5"}, "-fault-rate 1.5: use a probability between 0 and 1"},
	{[]string{"-fault-rate", "+Inf"}, "-fault-rate +Inf: use a probability between 0 and 1"},
	{[]string{"-run-time", "0"}, "-run-time 0s: use a positive duration"},
	{[]string{"-run-time", "-1s"}, "-run-time -1s: use a positive duration"},
	{[]string{"-instant", "-run-time", "-5ms"}, "-run-time -5ms: use a positive duration"},
	{[]string{"-conflict-status", "500"}, "-conflict-status 500: use 409"},
	{[]string{"-submit-missing-inputs", "ERROR"}, `-submit-missing-inputs "ERROR": use error or accept`},
	{[]string{"-missing-metadata", "accept"}, `-missing-metadata "accept": use reject or default`},
	{[]string{"-required-columns", "maybe"}, `-required-columns "maybe": use on or off`},
}

// TestParseArgsRefusesValues: parseArgs refuses each of badValues with a
// usage error that names the flag and the value.
func TestParseArgsRefusesValues(t *testing.T) {
	for _, tc := range badValues {
		var usage usageError
		_, err := parseArgs(tc.args, nil)
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
	for _, args := range [][]string{{"-fault-rate", "0"}, {"-fault-rate", "1"}, {"-run-time", "1ns"}} {
		if _, err := parseArgs(args, nil); err != nil {
			t.Errorf("%q refused: %v", args, err)
		}
	}
}

// TestMainRefusesValues runs etl-emulator with each of badValues: it exits
// with status 2 before serving, its message on stderr, nothing on stdout.
func TestMainRefusesValues(t *testing.T) {
	for _, tc := range badValues {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			cmd := emulatorProcess(t, tc.args...)
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			var exitErr *exec.ExitError
			if !errors.As(err, &exitErr) || exitErr.ExitCode() != 2 {
				t.Fatalf("%v (stdout %q, stderr %q), want exit status 2", err, out.String(), errOut.String())
			}
			if want := "etl-emulator: " + tc.want; !strings.Contains(errOut.String(), want) || out.Len() != 0 {
				t.Errorf("stdout %q, stderr %q; want nothing on stdout and %q on stderr", out.String(), errOut.String(), want)
			}
		})
	}
}
