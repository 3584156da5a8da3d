package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The test binary doubles as etl-emulator itself (ETL_EMULATOR_TEST_MAIN=1)
// and as a command to run after `--` (first argument helperArg).
const helperArg = "etl-emulator-test-helper"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == helperArg {
		os.Exit(helper(os.Args[2:]))
	}
	if os.Getenv("ETL_EMULATOR_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// helper is the command the tests run after `--`:
//
//	probe CODE   lists templates with the ETL_* settings, prints
//	             "probe: STATUS BASE_URL", exits CODE
//	wait-term CODE  prints "ready", exits CODE on SIGTERM (99 after 20s without)
//	ignore-term  ignores SIGTERM, prints "ready", exits 98 after 20s
func helper(args []string) int {
	switch args[0] {
	case "probe":
		req, err := http.NewRequest(http.MethodGet, os.Getenv("ETL_BASE_URL")+"/api/public/v1/etl/templates", nil)
		if err != nil {
			fmt.Println("probe:", err)
			return 100
		}
		req.SetBasicAuth(os.Getenv("ETL_TOKEN_ID"), os.Getenv("ETL_TOKEN_SECRET"))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println("probe:", err)
			return 100
		}
		res.Body.Close()
		fmt.Println("probe:", res.StatusCode, os.Getenv("ETL_BASE_URL"))
		var code int
		fmt.Sscan(args[1], &code)
		return code
	case "wait-term":
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM)
		fmt.Println("ready")
		select {
		case <-sig:
			var code int
			fmt.Sscan(args[1], &code)
			return code
		case <-time.After(20 * time.Second):
			return 99
		}
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
		fmt.Println("ready")
		time.Sleep(20 * time.Second)
		return 98
	}
	return 101
}

// syncBuf is a bytes.Buffer safe for a writer and a reader in two goroutines;
// Close records that the writer closed it (as run closes stdout).
type syncBuf struct {
	mu     sync.Mutex
	b      bytes.Buffer
	closed bool
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, os.ErrClosed
	}
	return s.b.Write(p)
}

func (s *syncBuf) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuf) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// waitFor polls cond for up to 5 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// running is a run in a goroutine.
type running struct {
	cancel    context.CancelFunc
	interrupt chan os.Signal
	out, err  *syncBuf
	done      chan error
}

func startRun(t *testing.T, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{cancel: cancel, interrupt: make(chan os.Signal, 1), out: &syncBuf{}, err: &syncBuf{}, done: make(chan error, 1)}
	go func() { r.done <- run(ctx, r.interrupt, args, stdio{strings.NewReader(""), r.out, r.err}) }()
	t.Cleanup(cancel)
	return r
}

// wait returns run's error, failing the test after 10 seconds.
func (r *running) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-r.done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return")
		return nil
	}
}

func readTrimmed(path string) string {
	b, _ := os.ReadFile(path)
	return strings.TrimSpace(string(b))
}

func getTemplates(base, id, secret string) (int, error) {
	req, _ := http.NewRequest(http.MethodGet, base+"/api/public/v1/etl/templates", nil)
	req.SetBasicAuth(id, secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}

func TestCheckLoopback(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:0", "[::1]:8080", "localhost:9", "127.5.5.5:1"} {
		if err := checkLoopback(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{":8080", "0.0.0.0:1", "10.0.0.1:80", "example.com:80", "nonsense"} {
		if err := checkLoopback(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestRunRefusesRemote(t *testing.T) {
	err := run(context.Background(), nil, []string{"-addr", "0.0.0.0:0"}, stdio{nil, io.Discard, io.Discard})
	if err == nil || !strings.Contains(err.Error(), "-allow-remote") {
		t.Fatalf("err = %v", err)
	}
	if err := run(context.Background(), nil, []string{"-fault-rate", "2"}, stdio{nil, io.Discard, io.Discard}); err == nil {
		t.Error("fault rate 2 accepted")
	}
}

func TestRunServesAndShutsDown(t *testing.T) {
	dir := t.TempDir()
	urlFile, envFile := filepath.Join(dir, "url"), filepath.Join(dir, "emulator.env")
	r := startRun(t, "-url-file", urlFile, "-env-file", envFile, "-token-id", "tid", "-token-secret", "0123456789abcdef0123456789abcdef", "-instant")
	waitFor(t, "stdout closed", r.out.isClosed)
	base := readTrimmed(urlFile)
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+$`).MatchString(base) {
		t.Fatalf("url file holds %q", base)
	}
	want := "export ETL_BASE_URL=" + base + "\nexport ETL_TOKEN_ID=tid\nexport ETL_TOKEN_SECRET=0123456789abcdef0123456789abcdef\n"
	if got := r.out.String(); got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	if got, _ := os.ReadFile(envFile); string(got) != want {
		t.Errorf("env file = %q, want the stdout lines %q", got, want)
	}
	waitFor(t, "the listening line", func() bool { return strings.Contains(r.err.String(), "Ctrl-C to stop") })
	if !regexp.MustCompile(`^etl-emulator: listening on ` + regexp.QuoteMeta(base) + ` \(pid [0-9]+\); Ctrl-C to stop\n$`).MatchString(r.err.String()) {
		t.Errorf("stderr = %q", r.err.String())
	}
	if status, err := getTemplates(base, "tid", "0123456789abcdef0123456789abcdef"); err != nil || status != http.StatusOK {
		t.Fatalf("GET templates: %d %v", status, err)
	}
	r.cancel()
	if err := r.wait(t); err != nil {
		t.Errorf("run: %v", err)
	}
	if _, err := http.Get(base + "/api/public/v1/etl/templates"); err == nil {
		t.Error("still serving after shutdown")
	}
	if _, err := os.Stat(envFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the env file outlives the emulator: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".emulator.env.*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestRunStopsOnInterrupt(t *testing.T) {
	urlFile := filepath.Join(t.TempDir(), "url")
	r := startRun(t, "-url-file", urlFile)
	waitFor(t, "stdout closed", r.out.isClosed)
	r.interrupt <- os.Interrupt
	if err := r.wait(t); err != nil {
		t.Errorf("run: %v", err)
	}
	if _, err := http.Get(readTrimmed(urlFile) + "/api/public/v1/etl/templates"); err == nil {
		t.Error("still serving after Ctrl-C")
	}
}

func TestRunServesTLS(t *testing.T) {
	dir := t.TempDir()
	urlFile, caFile := filepath.Join(dir, "url"), filepath.Join(dir, "ca.pem")
	r := startRun(t, "-tls", "-ca-file", caFile, "-url-file", urlFile, "-instant")
	waitFor(t, "stdout closed", r.out.isClosed)
	base := readTrimmed(urlFile)
	if !strings.HasPrefix(base, "https://127.0.0.1:") {
		t.Fatalf("url file holds %q", base)
	}
	if !strings.Contains(r.out.String(), "export ETL_BASE_URL="+base+"\n") || !strings.HasSuffix(r.out.String(), "export ETL_CA_CERT_FILE="+caFile+"\n") {
		t.Fatalf("stdout %q does not name the https URL and the CA file", r.out.String())
	}
	pemBytes, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemBytes) {
		t.Fatal("the CA file holds no certificate")
	}
	if _, err := http.Get(base + "/api/public/v1/etl/templates"); err == nil {
		t.Fatal("an untrusting client connected")
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	res, err := c.Get(base + "/api/public/v1/etl/templates")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("status %d, want 401 (no credentials)", res.StatusCode)
	}
	r.cancel()
	if err := r.wait(t); err != nil {
		t.Errorf("run: %v", err)
	}
	if _, err := os.Stat(caFile); err != nil {
		t.Errorf("a -ca-file the user named is kept: %v", err)
	}
}

func TestRunRemovesGeneratedCertificate(t *testing.T) {
	r := startRun(t, "-tls")
	waitFor(t, "stdout closed", r.out.isClosed)
	m := regexp.MustCompile(`export ETL_CA_CERT_FILE=(\S+)\n`).FindStringSubmatch(r.out.String())
	if m == nil {
		t.Fatalf("no ETL_CA_CERT_FILE in %q", r.out.String())
	}
	if _, err := os.Stat(m[1]); err != nil {
		t.Fatalf("certificate file while serving: %v", err)
	}
	r.cancel()
	if err := r.wait(t); err != nil {
		t.Errorf("run: %v", err)
	}
	if _, err := os.Stat(m[1]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the generated certificate file outlives the emulator: %v", err)
	}
}

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err     error
		code    int
		message string
	}{
		{nil, 0, ""},
		{exitStatus(3), 3, ""},
		{usageError{errors.New("flag provided but not defined: -x")}, 2, "etl-emulator: flag provided but not defined: -x\nRun 'etl-emulator -h' for usage.\n"},
		{errors.New("listen tcp: address in use"), 1, "etl-emulator: listen tcp: address in use\n"},
	} {
		var b bytes.Buffer
		if got := exitCode(tc.err, &b); got != tc.code || b.String() != tc.message {
			t.Errorf("exitCode(%v) = %d, %q; want %d, %q", tc.err, got, b.String(), tc.code, tc.message)
		}
	}
}

// emulatorProcess runs the test binary as etl-emulator with args.
func emulatorProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ETL_EMULATOR_TEST_MAIN=1")
	return cmd
}

func TestMainExitStatus(t *testing.T) {
	for _, tc := range []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string // substrings
	}{
		{"help", []string{"-h"}, 0, "etl-emulator [flags] -- COMMAND [ARGS...]", ""},
		{"long help", []string{"--help"}, 0, "-env-file", ""},
		{"version", []string{"-version"}, 0, "etl-emulator dev\n", ""},
		{"unknown flag", []string{"-nope"}, 2, "", "flag provided but not defined: -nope\nRun 'etl-emulator -h' for usage."},
		{"remote address", []string{"-addr", "0.0.0.0:0"}, 2, "", "pass -allow-remote"},
		{"argument without --", []string{"terraform"}, 2, "", "put a command to run after `--`"},
		{"command status", []string{"-instant", "--", os.Args[0], helperArg, "probe", "3"}, 3, "probe: 200 http://127.0.0.1:", "etl-emulator: listening on http://127.0.0.1:"},
		{"command success", []string{"--", os.Args[0], helperArg, "probe", "0"}, 0, "probe: 200 ", ""},
		{"command not found", []string{"--", "etl-emulator-no-such-command"}, 127, "", "executable file not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			cmd := emulatorProcess(t, tc.args...)
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			code := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
					code, out.String(), errOut.String(), tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// TestMainServesUntilSignal runs etl-emulator as a process: stdout ends
// (EOF) after the export lines while it serves, which is what
// eval "$(etl-emulator &)" needs, and SIGINT or SIGTERM stop it with status 0.
func TestMainServesUntilSignal(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := emulatorProcess(t, "-instant")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			errOut := &syncBuf{}
			cmd.Stderr = errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill() //nolint:errcheck // cleanup after a failure
			lines, err := io.ReadAll(stdout)
			if err != nil {
				t.Fatal(err)
			}
			env := parseExports(t, string(lines))
			if status, err := getTemplates(env["ETL_BASE_URL"], env["ETL_TOKEN_ID"], env["ETL_TOKEN_SECRET"]); err != nil || status != http.StatusOK {
				t.Fatalf("after stdout closed, GET templates: %d %v", status, err)
			}
			waitFor(t, "the listening line", func() bool { return strings.Contains(errOut.String(), "Ctrl-C to stop") })
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("exit after %v: %v (stderr %q)", sig, err, errOut.String())
			}
		})
	}
}

// parseExports reads `export KEY=value` lines (values unquoted here).
func parseExports(t *testing.T, s string) map[string]string {
	t.Helper()
	env := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		if !ok || !strings.HasPrefix(sc.Text(), "export ") {
			t.Fatalf("not an export line: %q", sc.Text())
		}
		env[k] = v
	}
	if env["ETL_TOKEN_ID"] != emulator.DefaultTokenID || env["ETL_TOKEN_SECRET"] != emulator.DefaultTokenSecret || env["ETL_BASE_URL"] == "" {
		t.Fatalf("settings %v", env)
	}
	return env
}
