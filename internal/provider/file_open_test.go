package provider

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestStatImportFile(t *testing.T) {
	dir := t.TempDir()
	var fp *fileError
	if _, _, err := hashFile(filepath.Join(dir, "missing.csv")); !errors.As(err, &fp) || fp.Summary != "File not found" {
		t.Errorf("missing file: %v", err)
	}
	if _, _, err := hashFile(dir); !errors.As(err, &fp) || fp.Summary != "Path is a directory" {
		t.Errorf("directory: %v", err)
	}
}
