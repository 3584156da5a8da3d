package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

func TestParseArgsDefaults(t *testing.T) {
	c, err := parseArgs(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.addr != "127.0.0.1:0" || c.tokenID != emulator.DefaultTokenID || c.tokenSecret != emulator.DefaultTokenSecret ||
		c.runTime != 100*time.Millisecond || c.instant || c.useTLS || c.command != nil || c.done {
		t.Errorf("defaults: %+v", c)
	}
}

func TestParseArgsCommand(t *testing.T) {
	c, err := parseArgs([]string{"-instant", "--", "terraform", "apply", "-auto-approve"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !c.instant || strings.Join(c.command, " ") != "terraform apply -auto-approve" {
		t.Errorf("parsed %+v", c)
	}
	_, err = parseArgs([]string{"-instant", "terraform", "apply"}, nil)
	var usage usageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "after `--`") {
		t.Errorf("a command without `--`: %v", err)
	}
}

func TestParseArgsHelpAndVersion(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		var out bytes.Buffer
		c, err := parseArgs([]string{arg}, &out)
		if err != nil || !c.done {
			t.Fatalf("%s: %+v, %v", arg, c, err)
		}
		for _, want := range []string{"Usage:", "-- COMMAND [ARGS...]", "ETL_CA_CERT_FILE", "-env-file", "-url-file", "-version"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: usage lacks %q:\n%s", arg, want, out.String())
			}
		}
	}
	var out bytes.Buffer
	if c, err := parseArgs([]string{"-version"}, &out); err != nil || !c.done || out.String() != "etl-emulator dev\n" {
		t.Errorf("-version: %+v, %v, %q", c, err, out.String())
	}
	defer func(v string) { version = v }(version)
	version = "1.2.3"
	out.Reset()
	if _, err := parseArgs([]string{"-version"}, &out); err != nil || out.String() != "etl-emulator 1.2.3\n" {
		t.Errorf("-version with the release's version: %v, %q", err, out.String())
	}
}

func TestParseArgsRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"-nope"},
		{"-addr", "0.0.0.0:0"},
		{"-fault-rate", "-0.1"},
		{"-fault-rate", "1.5"},
		{"-ca-file", "ca.pem"},
		{"-run-time", "soon"},
		{"-conflict-status", "500"},
		{"-conflict-status", "204"},
		{"-submit-missing-inputs", "ERROR"},
		{"-missing-metadata", "accept"},
		{"-required-columns", "maybe"},
		{"-log-file", "emulator.log"},
		{"-background", "--", "terraform", "apply"},
	} {
		var usage usageError
		if _, err := parseArgs(args, nil); !errors.As(err, &usage) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	if c, err := parseArgs([]string{"-addr", "0.0.0.0:0", "-allow-remote", "-tls", "-ca-file", "ca.pem", "-fault-rate", "1"}, nil); err != nil || c.addr != "0.0.0.0:0" {
		t.Errorf("valid flags refused: %v", err)
	}
}
