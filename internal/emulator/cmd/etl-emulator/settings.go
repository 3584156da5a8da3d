package main

import (
	"context"
	"crypto/tls"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// settings are what the etl provider needs to reach the emulator, named by
// their environment variables.
type settings struct {
	baseURL, tokenID, tokenSecret string
	caFile                        string // with -tls only
	generatedCA                   bool   // caFile was created here, and is removed on stop
	// pid and logFile: this process and its log file, in the copy
	// -background starts only (logFile is "" otherwise).
	pid     int
	logFile string
}

// vars returns the settings as environment variables, in a stable order;
// ETL_EMULATOR_PID and ETL_EMULATOR_LOG_FILE in the background only.
func (s settings) vars() [][2]string {
	v := [][2]string{{"ETL_BASE_URL", s.baseURL}, {"ETL_TOKEN_ID", s.tokenID}, {"ETL_TOKEN_SECRET", s.tokenSecret}}
	if s.caFile != "" {
		v = append(v, [2]string{"ETL_CA_CERT_FILE", s.caFile})
	}
	if s.logFile != "" {
		v = append(v, [2]string{"ETL_EMULATOR_PID", strconv.Itoa(s.pid)}, [2]string{"ETL_EMULATOR_LOG_FILE", s.logFile})
	}
	return v
}

// exportLines returns one `export KEY=value` line per setting, each value
// quoted for POSIX shells when it needs to be.
func (s settings) exportLines() string {
	var b strings.Builder
	for _, kv := range s.vars() {
		b.WriteString("export " + kv[0] + "=" + shellQuote(kv[1]) + "\n")
	}
	return b.String()
}

// environ returns the settings as KEY=value entries for a command's environment.
func (s settings) environ() []string {
	var env []string
	for _, kv := range s.vars() {
		env = append(env, kv[0]+"="+kv[1])
	}
	return env
}

// removeGenerated removes the certificate file when it was generated here.
func (s settings) removeGenerated() {
	if s.generatedCA {
		_ = os.Remove(s.caFile)
	}
}

// shellQuote returns v as a POSIX shell word: unchanged when it holds only
// characters no shell treats specially, else in single quotes.
func shellQuote(v string) string {
	if v != "" && strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/@%+=") == "" {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

// listen opens the listener c asks for, with TLS and its certificate file
// when c.useTLS, and returns the settings that reach it.
func listen(ctx context.Context, c config) (net.Listener, settings, error) {
	set := settings{tokenID: c.tokenID, tokenSecret: c.tokenSecret}
	if c.backgroundChild != "" {
		set.pid, set.logFile = os.Getpid(), c.backgroundChild
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", c.addr)
	if err != nil {
		return nil, set, err
	}
	if !c.useTLS {
		set.baseURL = "http://" + ln.Addr().String()
		return ln, set, nil
	}
	cert, certPEM, err := emulator.GenerateCertificate()
	if err == nil {
		set.caFile, set.generatedCA, err = writeCertificate(c.caFile, certPEM)
	}
	if err != nil {
		ln.Close()
		return nil, set, err
	}
	set.baseURL = "https://" + ln.Addr().String()
	return tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}), set, nil
}

// writeCertificate writes certPEM to path, or to a new temporary file when
// path is empty (generated is then true).
func writeCertificate(path string, certPEM []byte) (written string, generated bool, err error) {
	if path == "" {
		f, err := os.CreateTemp("", "etl-emulator-ca-*.pem")
		if err != nil {
			return "", false, err
		}
		path, generated = f.Name(), true
		if err := f.Close(); err != nil {
			return "", false, err
		}
	}
	if err := os.WriteFile(path, certPEM, 0o600); err != nil {
		if generated {
			_ = os.Remove(path)
		}
		return "", false, err
	}
	return path, generated, nil
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory, so that a reader never sees it half written.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}
