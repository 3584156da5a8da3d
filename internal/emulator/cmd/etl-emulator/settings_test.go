package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestExportLines(t *testing.T) {
	s := settings{baseURL: "http://127.0.0.1:40123", tokenID: "1.1", tokenSecret: "abc"}
	want := "export ETL_BASE_URL=http://127.0.0.1:40123\nexport ETL_TOKEN_ID=1.1\nexport ETL_TOKEN_SECRET=abc\n"
	if got := s.exportLines(); got != want {
		t.Errorf("exportLines = %q, want %q", got, want)
	}
	s.caFile = "/tmp/my certs/ca.pem"
	if got := s.exportLines(); !strings.HasSuffix(got, "export ETL_CA_CERT_FILE='/tmp/my certs/ca.pem'\n") {
		t.Errorf("exportLines with a CA file = %q", got)
	}
	if got := strings.Join(s.environ(), " "); got != "ETL_BASE_URL=http://127.0.0.1:40123 ETL_TOKEN_ID=1.1 ETL_TOKEN_SECRET=abc ETL_CA_CERT_FILE=/tmp/my certs/ca.pem" {
		t.Errorf("environ = %q", got)
	}
	// In the background: the pid and the log file follow.
	s.pid, s.logFile = 4242, "/tmp/etl-emulator-1.log"
	if got := s.exportLines(); !strings.HasSuffix(got, "export ETL_CA_CERT_FILE='/tmp/my certs/ca.pem'\nexport ETL_EMULATOR_PID=4242\nexport ETL_EMULATOR_LOG_FILE=/tmp/etl-emulator-1.log\n") {
		t.Errorf("exportLines in the background = %q", got)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:1": "http://127.0.0.1:1",
		"a.b-c_d@e%f+g=h,i":  "a.b-c_d@e%f+g=h,i",
		"":                   "''",
		"two words":          "'two words'",
		"it's":               `'it'\''s'`,
		"$HOME":              "'$HOME'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// The export lines, evaluated by sh, set exactly the values, whatever they hold.
func TestExportLinesEvalInShell(t *testing.T) {
	s := settings{baseURL: "https://127.0.0.1:1", tokenID: "a b", tokenSecret: `it's "$HOME" \n; echo no`, caFile: ""}
	out, err := exec.Command("sh", "-c", `eval "$1" && printf '%s|%s|%s' "$ETL_BASE_URL" "$ETL_TOKEN_ID" "$ETL_TOKEN_SECRET"`, "sh", s.exportLines()).CombinedOutput()
	if err != nil {
		t.Fatalf("sh: %v: %s", err, out)
	}
	if want := s.baseURL + "|" + s.tokenID + "|" + s.tokenSecret; string(out) != want {
		t.Errorf("sh read %q, want %q", out, want)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "emulator.env")
	if err := os.WriteFile(path, []byte("stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(path, []byte("export A=b\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "export A=b\n" {
		t.Errorf("file holds %q, %v", got, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 (it holds the token secret)", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file", len(entries))
	}
	if err := writeFileAtomic(filepath.Join(dir, "missing", "x.env"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

func TestListenTLSWritesCertificate(t *testing.T) {
	ca := filepath.Join(t.TempDir(), "ca.pem")
	ln, set, err := listen(context.Background(), config{addr: "127.0.0.1:0", useTLS: true, caFile: ca})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if !strings.HasPrefix(set.baseURL, "https://127.0.0.1:") || set.caFile != ca || set.generatedCA {
		t.Errorf("settings %+v", set)
	}
	if b, err := os.ReadFile(ca); err != nil || !strings.HasPrefix(string(b), "-----BEGIN CERTIFICATE-----") {
		t.Errorf("certificate file: %v %q", err, b)
	}
	if _, _, err := listen(context.Background(), config{addr: "127.0.0.1:0", useTLS: true, caFile: filepath.Join(ca, "x")}); err == nil {
		t.Error("an unwritable certificate path was accepted")
	}
}
