// Command etl-emulator serves the in-memory ETL import API emulator on
// loopback, for quickstarts, demos and scripts.
//
// It prints shell-eval friendly lines (ETL_BASE_URL, ETL_TOKEN_ID,
// ETL_TOKEN_SECRET) once listening, then serves until SIGINT or SIGTERM.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
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

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "etl-emulator:", err)
		os.Exit(1)
	}
}

// run serves until ctx is done.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("etl-emulator", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address (loopback only unless -allow-remote)")
	allowRemote := fs.Bool("allow-remote", false, "allow a non-loopback listen address")
	tokenID := fs.String("token-id", emulator.DefaultTokenID, "application token id to accept")
	tokenSecret := fs.String("token-secret", emulator.DefaultTokenSecret, "application token secret to accept")
	runTime := fs.Duration("run-time", 100*time.Millisecond, "how long a started or submitted job runs")
	instant := fs.Bool("instant", false, "jobs are final as soon as they start")
	faultRate := fs.Float64("fault-rate", 0, "probability (0..1) of answering any request with 503")
	urlFile := fs.String("url-file", "", "write the base URL to this file once listening")
	verbose := fs.Bool("log", false, "log requests to stderr")
	useTLS := fs.Bool("tls", false, "serve https with a generated self-signed certificate, written as PEM to -ca-file (printed as ETL_CA_CERT_FILE)")
	caFile := fs.String("ca-file", "", "with -tls: where to write the certificate (default: a new file in the temporary directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if !*allowRemote {
		if err := checkLoopback(*addr); err != nil {
			return err
		}
	}
	if *faultRate < 0 || *faultRate > 1 {
		return fmt.Errorf("-fault-rate must be between 0 and 1")
	}
	opts := emulator.Options{TokenID: *tokenID, TokenSecret: *tokenSecret, RunTime: *runTime, Instant: *instant}
	if *verbose {
		logger := log.New(os.Stderr, "", log.LstdFlags|log.Lmicroseconds)
		opts.Logf = logger.Printf
	}
	srv := emulator.New(opts)
	if *faultRate > 0 {
		srv.InjectFault(emulator.Fault{Status: http.StatusServiceUnavailable, Probability: *faultRate})
	}

	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", *addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	caLine := ""
	if *useTLS {
		cert, certPEM, err := emulator.GenerateCertificate()
		if err != nil {
			ln.Close()
			return err
		}
		path := *caFile
		if path == "" {
			f, err := os.CreateTemp("", "etl-emulator-ca-*.pem")
			if err != nil {
				ln.Close()
				return err
			}
			path = f.Name()
			f.Close()
		}
		if err := os.WriteFile(path, certPEM, 0o600); err != nil {
			ln.Close()
			return err
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		base = "https://" + ln.Addr().String()
		caLine = "ETL_CA_CERT_FILE=" + path + "\n"
	}
	if *urlFile != "" {
		if err := os.WriteFile(*urlFile, []byte(base+"\n"), 0o600); err != nil {
			ln.Close()
			return err
		}
	}
	fmt.Fprintf(stdout, "ETL_BASE_URL=%s\nETL_TOKEN_ID=%s\nETL_TOKEN_SECRET=%s\n%s", base, *tokenID, *tokenSecret, caLine)

	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
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
