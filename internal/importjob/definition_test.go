package importjob

import (
	"slices"
	"testing"
)

// Each part of the definition, changed alone, is the one change reported,
// and so forces a new job; an unknown part is left to the apply; the
// file's path, name and part name define nothing.
func TestChanged(t *testing.T) {
	base := fileImport("t1", "s1", "CSV", "UTF-8")
	moved := base
	moved.File = &File{Path: Known("b/a.csv"), Name: Known("x.csv"), PartName: Known("data"), Format: Known("CSV"), Encoding: Known("UTF-8")}
	unknownFormat := fileImport("t1", "s1", "CSV", "UTF-8")
	unknownFormat.File.Format = Unknown()
	rows := Import{Template: Known("t1"), Kind: KindRows, ContentSHA256: Known("s1")}
	rowsNewTemplate := Import{Template: Known("t2"), Kind: KindRows, ContentSHA256: Known("s9")}
	cases := []struct {
		name string
		next Import
		want []Part
	}{
		{"unchanged", base, nil},
		{"moved and renamed", moved, nil},
		{"template", fileImport("t2", "s1", "CSV", "UTF-8"), []Part{PartTemplate}},
		{"bytes", fileImport("t1", "s2", "CSV", "UTF-8"), []Part{PartContent}},
		{"format", fileImport("t1", "s1", "PSV", "UTF-8"), []Part{PartFormat}},
		{"encoding", fileImport("t1", "s1", "CSV", "UTF-16"), []Part{PartEncoding}},
		{"format unknown", unknownFormat, nil},
		{"file to rows", rows, []Part{PartKind}},
		{"file to rows, new template", rowsNewTemplate, []Part{PartKind, PartTemplate}},
	}
	for _, tc := range cases {
		b, n := base.Definition(), tc.next.Definition()
		if got := Changed(b, n); !slices.Equal(got, tc.want) {
			t.Errorf("%s: changed %v, want %v", tc.name, got, tc.want)
		}
		if same := b.String() == n.String(); same != (len(tc.want) == 0 && n.Known()) {
			t.Errorf("%s: keys equal %v, but changed parts %v", tc.name, same, tc.want)
		}
	}
}

// The key is the spelling the journal's entries keep (an earlier
// release's entries match only while it stays): the kind, then template,
// bytes, format and encoding, NUL-separated; rows have no format.
func TestDefinition_key(t *testing.T) {
	if got, want := fileImport("t", "s", "TDF", "UTF-16").Definition().String(), "file\x00t\x00s\x00TDF\x00UTF-16"; got != want {
		t.Errorf("file key %q, want %q", got, want)
	}
	if got, want := (Import{Template: Known("t"), Kind: KindRows, ContentSHA256: Known("s")}).Definition().String(), "rows\x00t\x00s\x00\x00"; got != want {
		t.Errorf("rows key %q, want %q", got, want)
	}
	if (Import{Template: Unknown(), Kind: KindRows, ContentSHA256: Known("s")}).Definition().Known() {
		t.Error("a definition with an unknown template is known")
	}
}

// TestDefinition_Text: each part of a definition by its Part.
func TestDefinition_Text(t *testing.T) {
	d := Definition{Kind: KindFile, Template: Known("t1"), ContentSHA256: Known("aa"), Format: Known("CSV"), Encoding: Known("UTF-8")}
	for p, want := range map[Part]string{PartKind: "file", PartTemplate: "t1", PartContent: "aa", PartFormat: "CSV", PartEncoding: "UTF-8"} {
		if got := d.Text(p); got != want {
			t.Errorf("Text(%d) = %q, want %q", p, got, want)
		}
	}
}
