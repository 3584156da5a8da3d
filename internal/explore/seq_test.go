package explore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The emulator's two "GL Actuals" templates (Finance Plan, Sales Model):
// both need the columns Account and Amount that every data set has.
var templates = []string{emulator.GLActualsTemplateID, emulator.SalesGLActualsTemplateID}

// Formats and encodings, spelled as the provider and the service do.
var (
	formats   = []string{"CSV", "PSV", "TDF"}
	encodings = []string{"UTF-8", "UTF-16", "Windows Latin-1"}
)

// datasets are the data a block imports: ASCII, so that UTF-8 and
// Windows Latin-1 hold the same bytes (an encoding change that keeps the
// bytes); the last has one column, so that its bytes are the same in every
// format (a format change that keeps the bytes).
var datasets = [][][]string{
	{{"Account", "Amount"}, {"4000", "100"}, {"4010", "-20"}},
	{{"Account", "Amount"}, {"4000", "100"}, {"4010", "-20"}, {"4020", "5"}},
	{{"Account", "Amount"}, {"5000", "7.5"}},
	{{"Account"}, {"4000"}, {"4010"}},
}

// Kinds of data a block sends.
const (
	kindPath    = "path"    // file = { path = ... }
	kindContent = "content" // file = { content = ... }
	kindRows    = "rows"    // rows = [...]
)

// block is one resource "etl_import" block, with count instances.
type block struct {
	Name     string // r0, r1
	Count    int
	Kind     string // kindPath, kindContent or kindRows
	Data     int    // index in datasets
	Format   int    // index in formats (file kinds only)
	Encoding int    // index in encodings (file kinds only)
	Template int    // index in templates
	Dir      string // "a" or "b": the directory of the path (the same bytes)
	Submit   bool
	Wait     bool
	Cancel   bool // cancel_on_destroy
	// KeepFailed is keep_failed, written only when true: the previous
	// release of the provider, which some sequences start with, has no
	// such attribute.
	KeepFailed bool
	Trigger    int // input of terraform_data.<name>_trigger (replace_triggered_by)
	File       int // the data file of a path block: fileHere, fileGone or fileUnreadable (datafile_test.go)
}

// config is the whole configuration of a sequence at one step.
type config struct{ Blocks []block }

// clone returns a copy that shares nothing with c.
func (c config) clone() config { return config{Blocks: slices.Clone(c.Blocks)} }

// addr is the address of instance i of block b.
func addr(b block, i int) string { return fmt.Sprintf("etl_import.%s[%d]", b.Name, i) }

// instances lists the addresses the configuration declares, with their
// block's index.
func (c config) instances() map[string]int {
	out := map[string]int{}
	for bi, b := range c.Blocks {
		for i := 0; i < b.Count; i++ {
			out[addr(b, i)] = bi
		}
	}
	return out
}

// def is what defines a job, per the resource page's table of changes:
// the template, file or rows, the bytes, the format and the encoding.
type def struct {
	Template string
	Rows     bool // rows (start with data) rather than a file
	Data     int
	Format   string // "" for rows
	Encoding string // "" for rows
}

// defOf is the job block b defines.
func defOf(b block) def {
	d := def{Template: templates[b.Template], Data: b.Data}
	if b.Kind == kindRows {
		d.Rows = true
		return d
	}
	d.Format, d.Encoding = formats[b.Format], encodings[b.Encoding]
	return d
}

// String describes d as a mismatch message does.
func (d def) String() string {
	if d.Rows {
		return fmt.Sprintf("rows of data set %d to template %s", d.Data, d.Template)
	}
	return fmt.Sprintf("%s %s file of data set %d to template %s", d.Format, d.Encoding, d.Data, d.Template)
}

// Step kinds.
const (
	stepEdit = "edit"
	stepOp   = "op"
)

// step is one thing a user does (or one thing that goes wrong during an
// operation): an edit of the configuration, or an operation of the CLI.
type step struct {
	Kind  string // stepEdit or stepOp
	Name  string // the edit (editNames) or the operation (opNames)
	Block int    // the block an edit or an operation targets
	Index int    // the instance an operation targets; end-orphan: the entry
	// Value is an edit's new value; for kill-upload, how many uploads
	// reach the service before one is held; for end-orphan, how the job
	// ends (orphanEnds); for end-job, how (jobEnds); for workspace-select,
	// which workspace.
	Value int
	Fault string // an operation's fault (faultNames, killNames), or ""
}

// targeted is the operations that name an instance.
var targeted = map[string]bool{"replace": true, "taint": true, "untaint": true, "import": true, "purge": true, "adopt": true, "end-job": true}

// String is the step as the figures and the shrunk sequences show it.
func (s step) String() string {
	fault := s.Fault
	if fault == "kill-upload" {
		fault = fmt.Sprintf("kill-upload@%d", s.Value)
	}
	switch {
	case s.Kind == stepEdit && s.Name == "file":
		return fmt.Sprintf("edit file r%d=%s", s.Block, fileStates[s.Value%len(fileStates)])
	case s.Kind == stepEdit:
		return fmt.Sprintf("edit %s r%d=%d", s.Name, s.Block, s.Value)
	case s.Name == "end-job":
		return fmt.Sprintf("end-job r%d[%d] %s", s.Block, s.Index, jobEnds[s.Value%len(jobEnds)])
	case targeted[s.Name]:
		return strings.TrimSpace(fmt.Sprintf("%s r%d[%d] %s", s.Name, s.Block, s.Index, fault))
	case s.Name == "end-orphan":
		return fmt.Sprintf("end-orphan #%d %s", s.Index, orphanEnds[s.Value%len(orphanEnds)])
	case s.Name == "workspace-select":
		return fmt.Sprintf("workspace-select %d", s.Value)
	case s.Name == "delete-template":
		return fmt.Sprintf("delete-template %s", templates[s.Value%len(templates)])
	}
	return strings.TrimSpace(s.Name + " " + fault)
}

// sequence is a generated run: its seed, first configuration and steps,
// its backend, and the provider its first operations run.
type sequence struct {
	Name   string // a scenario's name; "" for a generated sequence
	Seed   int64
	Remote bool // the http backend (a remote state) instead of a local state file
	// Previous: the previous release of the provider runs the operations
	// until the upgrade step, or to the end if a shrunk sequence lost it.
	Previous bool
	Init     config
	Steps    []step
}

// backend is the name of q's backend, as the figures count it.
func (q sequence) backend() string {
	if q.Remote {
		return "http"
	}
	return "local"
}

// configAt is the configuration in effect before step n (after the edits
// of steps[:n]).
func (q sequence) configAt(n int) config {
	c := q.Init.clone()
	for _, s := range q.Steps[:n] {
		if s.Kind == stepEdit {
			c = applyEdit(c, s)
		}
	}
	return c
}
