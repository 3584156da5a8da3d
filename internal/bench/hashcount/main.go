// Command hashcount reads a flat file the ways benchmark target 7
// (scripts/bench-targets.sh) compares, one way per run, and prints what
// it found:
//
//	hashcount -mode sha256 FILE   a plain SHA-256 of the file (io.Copy)
//	hashcount -mode hash FILE     the plan's read before counts: the hash
//	                              and the check of the file's head
//	hashcount -mode plan FILE     the plan's read: hash, check and counts
//	                              (localfile.HashFile with flatfile.RowCounter)
//	hashcount -mode count FILE    the counting alone, over a plain read
//	hashcount -mode split FILE    SHA-256 and the counting timed block by
//	                              block, side by side (split.go)
//
// -format and -encoding name the file's (default CSV, UTF-8).
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// main runs one mode on the file named and prints what it found.
func main() {
	mode := flag.String("mode", "plan", "sha256, hash, plan, count or split")
	format := flag.String("format", "CSV", "the file's format: CSV, PSV or TDF")
	enc := flag.String("encoding", "UTF-8", "the file's encoding: UTF-8, UTF-16 or Windows Latin-1")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: hashcount [-mode sha256|hash|plan|count|split] [-format F] [-encoding E] FILE")
		os.Exit(2)
	}
	out, err := run(*mode, flag.Arg(0), flatfile.Format(*format), flatfile.Encoding(*enc))
	if err != nil {
		fmt.Fprintln(os.Stderr, "hashcount:", err)
		os.Exit(1)
	}
	fmt.Println(out)
}

// run reads the file at p in mode and returns what it found, in one line.
func run(mode, p string, format flatfile.Format, enc flatfile.Encoding) (string, error) {
	// The plan's check and count (flatfile.FileTarget), as the provider's plan
	// does them.
	target := flatfile.FileTarget{Format: format, Encoding: enc}
	counter, err := target.Counter()
	if err != nil {
		return "", err
	}
	switch mode {
	case "sha256":
		return plainSHA256(p)
	case "hash":
		r, checkErr, err := localfile.HashFile(p, localfile.HashOptions{Check: target.CheckHead, Limit: flatfile.FileCheckLimit})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("sha256 %s check %v", r.SHA256, checkErr), nil
	case "plan":
		r, checkErr, err := localfile.HashFile(p, localfile.HashOptions{Check: target.CheckHead, Limit: flatfile.FileCheckLimit, Counter: counter})
		if err != nil {
			return "", err
		}
		c := r.Counts
		return fmt.Sprintf("sha256 %s check %v rows %d columns %q size %d", r.SHA256, checkErr, c.Rows, c.Columns, c.Size), nil
	case "split":
		return split(p, counter)
	case "count":
		f, err := os.Open(p)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if _, err := io.CopyBuffer(counter, struct{ io.Reader }{f}, make([]byte, 1<<20)); err != nil {
			return "", err
		}
		c := counter.Result()
		return fmt.Sprintf("rows %d columns %q size %d", c.Rows, c.Columns, c.Size), nil
	}
	return "", fmt.Errorf("unknown -mode %q", mode)
}

// plainSHA256 returns the SHA-256 of the file at p, read with io.Copy.
func plainSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256 " + hex.EncodeToString(h.Sum(nil)), nil
}
