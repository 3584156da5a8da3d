package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"
)

// timeoutCreate is every block's timeouts.create: long enough for a job of
// the emulator (which runs 30ms) on busy cores, short enough that a wait
// for a job that never ends (the hang fault) fails soon.
const timeoutCreate = "6s"

// fileBytes is what a file of data set data holds in format and encoding:
// the rows joined by the format's delimiter, a newline after each; UTF-16
// is little-endian with a byte order mark, as the provider encodes content.
func fileBytes(data, format, encoding int) []byte {
	delim := map[string]string{"CSV": ",", "PSV": "|", "TDF": "\t"}[formats[format]]
	var sb strings.Builder
	for _, row := range datasets[data] {
		sb.WriteString(strings.Join(row, delim))
		sb.WriteString("\n")
	}
	text := sb.String()
	if encodings[encoding] != "UTF-16" {
		return []byte(text) // ASCII: the same bytes in UTF-8 and Windows Latin-1
	}
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(text)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

// text is the data of block b as file.content gives it (before encoding).
func text(b block) string {
	return string(fileBytes(b.Data, b.Format, 0))
}

// dataPath is where the file of a kindPath block is, relative to the
// configuration's directory.
func dataPath(b block) string {
	ext := map[string]string{"CSV": "csv", "PSV": "psv", "TDF": "tsv"}[formats[b.Format]]
	return fmt.Sprintf("data/%s/%s.%s", b.Dir, b.Name, ext)
}

// writeConfig writes main.tf and the data files of c into dir, an
// unreadable file as this user cannot read it (writeDataFile: root reads a
// file of mode 000, not a loop of symbolic links).
func writeConfig(dir string, c config) error {
	return writeConfigFiles(dir, c, os.Geteuid() == 0)
}

// writeConfigFiles writes main.tf and the data files of c into dir (loop:
// an unreadable file is a loop of symbolic links).
func writeConfigFiles(dir string, c config, loop bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, b := range c.Blocks {
		if b.Kind != kindPath {
			continue
		}
		if err := writeDataFile(dir, b, fileBytes(b.Data, b.Format, b.Encoding), loop); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(mainTF(c)), 0o644)
}

// mainTF is the configuration c as HCL: the provider (settings from the
// environment), and per block a terraform_data trigger and the resource.
func mainTF(c config) string {
	var sb strings.Builder
	sb.WriteString(`terraform {
  required_providers {
    etl = {
      source = "etl-provider/etl"
    }
  }
}

# ETL_BASE_URL, ETL_TOKEN_ID and ETL_TOKEN_SECRET from the environment.
provider "etl" {
  retry_wait_min = "50ms"
  retry_wait_max = "200ms"
}
`)
	for _, b := range c.Blocks {
		sb.WriteString(blockHCL(b))
	}
	return sb.String()
}

// blockHCL is one block's trigger and resource.
func blockHCL(b block) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\nresource \"terraform_data\" \"%s_trigger\" {\n  input = %d\n}\n", b.Name, b.Trigger)
	fmt.Fprintf(&sb, "\nresource \"etl_import\" %q {\n  count       = %d\n  template_id = %q\n", b.Name, b.Count, templates[b.Template])
	sb.WriteString(dataHCL(b))
	fmt.Fprintf(&sb, "  submit              = %t\n  wait_for_completion = %t\n  cancel_on_destroy   = %t\n", b.Submit, b.Wait, b.Cancel)
	if b.KeepFailed {
		sb.WriteString("  keep_failed         = true\n")
	}
	fmt.Fprintf(&sb, "  timeouts = {\n    create = %q\n  }\n", timeoutCreate)
	fmt.Fprintf(&sb, "  lifecycle {\n    replace_triggered_by = [terraform_data.%s_trigger]\n  }\n}\n", b.Name)
	return sb.String()
}

// dataHCL is the rows or file attribute of block b.
func dataHCL(b block) string {
	if b.Kind == kindRows {
		rows := make([]string, len(datasets[b.Data]))
		for i, row := range datasets[b.Data] {
			cells := make([]string, len(row))
			for j, c := range row {
				cells[j] = strconv.Quote(c)
			}
			rows[i] = "    [" + strings.Join(cells, ", ") + "],\n"
		}
		return "  rows = [\n" + strings.Join(rows, "") + "  ]\n"
	}
	src := fmt.Sprintf("    path     = \"${path.module}/%s\"\n", dataPath(b))
	if b.Kind == kindContent {
		src = fmt.Sprintf("    content  = %s\n", strconv.Quote(text(b)))
	}
	return fmt.Sprintf("  file = {\n%s    format   = %q\n    encoding = %q\n  }\n", src, formats[b.Format], encodings[b.Encoding])
}

// backendHCL is backend.tf for the http backend with the state at url
// (its lock at the same address), or "" for a local state file.
func backendHCL(url string) string {
	if url == "" {
		return ""
	}
	return fmt.Sprintf("terraform {\n  backend \"http\" {\n    address        = %q\n    lock_address   = %q\n    unlock_address = %q\n  }\n}\n", url, url, url)
}

// providerAddrs are the addresses the configuration's etl resolves to.
var providerAddrs = []string{
	"registry.terraform.io/etl-provider/etl", "registry.opentofu.org/etl-provider/etl",
}

// cliConfigText is a CLI configuration whose dev_overrides run the
// provider in bin, and whose filesystem mirror lets terraform init (which
// the journal needs: it lives in .terraform) pick a provider without a
// registry; mirror holds it as version mirrorVersion.
func cliConfigText(bin, mirror string) string {
	var sb strings.Builder
	sb.WriteString("# Written by the explorer (internal/explore).\nprovider_installation {\n  dev_overrides {\n")
	for _, a := range providerAddrs {
		fmt.Fprintf(&sb, "    %q = %q\n", a, bin)
	}
	fmt.Fprintf(&sb, "  }\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror)
	return sb.String()
}

// mirrorVersion is the version the mirror holds the provider as.
const mirrorVersion = "0.0.1"
