package importjob

import "strings"

// Value is one value of an import as a plan knows it: known (a null value
// is known, and "") or not yet.
type Value struct {
	Text  string
	Known bool
}

// Known is the known value s; Unknown a value known only at apply.
func Known(s string) Value { return Value{Text: s, Known: true} }

// Unknown is a value known only at apply.
func Unknown() Value { return Value{} }

// The kinds of data an import sends: the attribute that holds it.
const (
	KindFile   = "file"
	KindRows   = "rows"
	KindInputs = "inputs"
)

// Import is what an etl_import (or the action) sends, as the rules read
// it: everything that could tell two imports apart, whether or not it
// defines the job.
type Import struct {
	Template Value
	// Kind is KindFile, KindRows (rows and rows_wo alike) or KindInputs.
	Kind string
	// ContentSHA256 is the hash of exactly the bytes sent; with inputs it
	// covers each input's bytes, format and encoding, and which inputs are
	// loaded (not their paths, names, or whether keyed by step name or
	// input id).
	ContentSHA256 Value
	// File is the file sent, with KindFile.
	File *File
	// WriteOnly: the data is rows_wo or file.content_wo, kept out of the
	// state, rather than rows or file.content.
	WriteOnly bool
}

// File is the file of an import: where its bytes come from and how it is
// named, and how the service reads it.
type File struct {
	Path, Name, PartName Value
	// Inline: the bytes are file.content (or content_wo), not a path's.
	Inline           bool
	Format, Encoding Value
}

// Definition is what defines the job an import starts: what the service
// would import. A change of any part starts a new job; everything else
// about an import is recorded in place.
type Definition struct {
	Kind                                      string
	Template, ContentSHA256, Format, Encoding Value
}

// Definition is i's: the template, the kind, the bytes, and for a file
// the format and encoding it is read with. The file's path, its name and
// part name, inline or not, and write-only or not do not define the job.
func (i Import) Definition() Definition {
	d := Definition{Kind: i.Kind, Template: i.Template, ContentSHA256: i.ContentSHA256, Format: Known(""), Encoding: Known("")}
	if i.File != nil {
		d.Format, d.Encoding = i.File.Format, i.File.Encoding
	}
	return d
}

// Part is one part of a Definition.
type Part int

// The parts of a Definition, in the order they are compared.
const (
	PartKind Part = iota
	PartTemplate
	PartContent
	PartFormat
	PartEncoding
)

// values lists the parts compared one by one (the kind apart).
func (d Definition) values() []Value {
	return []Value{d.Template, d.ContentSHA256, d.Format, d.Encoding}
}

// Text is part p of d as text: the kind, or the value of another part.
func (d Definition) Text(p Part) string {
	if p == PartKind {
		return d.Kind
	}
	return d.values()[p-1].Text
}

// Known reports whether every part is known.
func (d Definition) Known() bool {
	for _, v := range d.values() {
		if !v.Known {
			return false
		}
	}
	return true
}

// String is the definition as one string: equal strings define the same
// job. Only meaningful when Known. (Its spelling is kept in the journal's
// keys: an earlier release's entries match only while it stays.)
func (d Definition) String() string {
	s := []string{d.Kind}
	for _, v := range d.values() {
		s = append(s, v.Text)
	}
	return strings.Join(s, "\x00")
}

// Changed lists the parts whose values differ between prior and next
// where both are known, the kind first when the data moved to another
// attribute (then only the template besides: the kind's change says the
// rest). Unknown parts are compared at apply (Changed again, then known).
func Changed(prior, next Definition) []Part {
	var out []Part
	if prior.Kind != next.Kind {
		out = append(out, PartKind)
	}
	pv, nv := prior.values(), next.values()
	for i := range nv {
		p := Part(i + 1)
		if !pv[i].Known || !nv[i].Known || pv[i].Text == nv[i].Text {
			continue
		}
		if prior.Kind != next.Kind && p != PartTemplate {
			continue
		}
		out = append(out, p)
	}
	return out
}
