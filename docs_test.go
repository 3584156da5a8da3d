package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sourceAddress matches a required_providers entry naming the provider's
// source address.
var sourceAddress = regexp.MustCompile(`source\s*=\s*"(registry\.terraform\.io/)?etl-provider/etl"`)

// Every guide that shows HCL names the provider's source address: its
// example copied into an empty directory must find etl-provider/etl, not
// hashicorp/etl.
func TestGuidesNameTheProviderSource(t *testing.T) {
	guides, err := filepath.Glob(filepath.Join("docs", "guides", "*.md"))
	if err != nil || len(guides) == 0 {
		t.Fatalf("no guides: %v", err)
	}
	for _, g := range guides {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if strings.Contains(text, "```terraform") && !sourceAddress.MatchString(text) {
			t.Errorf("%s shows HCL but never names the provider's source address (source = \"etl-provider/etl\")", g)
		}
	}
}

// bannedWords are words a Terraform user does not know, each with the
// plain words the docs and the diagnostics use instead. They name the
// provider's internals ("settle", "hand over", a job's "definition") or the
// service's endpoints (startWithFile, startWithData) as if they were nouns.
var bannedWords = []struct {
	re      *regexp.Regexp
	instead string
}{
	{regexp.MustCompile(`(?i)\b(un)?settl(e|es|ed|ing|ement)\b`), `"resume" (a job an apply left) or "record"`},
	{regexp.MustCompile(`(?i)\bhand(s|ed|ing)?(\s+\w+)?\s+over\b`), `"pass to"`},
	{regexp.MustCompile(`(?i)\bstart\s+with\s+(file|data)\b`), `"upload a file" or "send rows as a JSON body"`},
	{regexp.MustCompile(`(?i)\bdefinitions?\b`), `"the data it imports" (template, bytes, format, encoding, inputs)`},
}

// definedWords are words the docs use only once defined: on each page, the
// first use (past the front matter) is the definition, in bold (**journal**),
// or the text of a link to the definition.
var definedWords = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bjournal\b`),
}

// definedAt reports whether the word at body[i:j] is in bold or in a link's
// text, on its line.
func definedAt(body string, i, j int) bool {
	if strings.HasSuffix(body[:i], "**") && strings.HasPrefix(body[j:], "**") {
		return true
	}
	line := lineAt(body, i)
	lineStart := strings.LastIndexByte(body[:i], '\n') + 1
	before, after := line[:i-lineStart], line[j-lineStart:]
	open := strings.LastIndexByte(before, '[')
	return open >= 0 && !strings.Contains(before[open:], "]") && regexp.MustCompile(`^[^\[\]]*\]\(`).MatchString(after)
}

// userPages are the pages a user reads: the generated docs, the README and
// the CHANGELOG.
func userPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md", "CHANGELOG.md"}
	err := filepath.WalkDir("docs", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			pages = append(pages, p)
		}
		return err
	})
	if err != nil || len(pages) < 10 {
		t.Fatalf("docs: %d pages, %v", len(pages), err)
	}
	return pages
}

// withoutFrontMatter drops a page's YAML front matter.
func withoutFrontMatter(text string) string {
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		if i := strings.Index(rest, "\n---\n"); i >= 0 {
			return rest[i+5:]
		}
	}
	return text
}

// One vocabulary: no page uses a banned word, and each defined word is
// defined where a reader first meets it on a page.
func TestDocsVocabulary(t *testing.T) {
	for _, p := range userPages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, w := range bannedWords {
			if m := w.re.FindString(text); m != "" {
				t.Errorf("%s says %q: write %s", p, m, w.instead)
			}
		}
		body := withoutFrontMatter(text)
		for _, w := range definedWords {
			loc := w.FindStringIndex(body)
			if loc == nil {
				continue
			}
			if !definedAt(body, loc[0], loc[1]) {
				t.Errorf("%s uses %q first without defining it (as **%[2]s**, or a link to its definition): %q", p, body[loc[0]:loc[1]], lineAt(body, loc[0]))
			}
		}
	}
}

// lineAt is the line of text that holds offset i.
func lineAt(text string, i int) string {
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		return text[start:]
	}
	return text[start : i+end]
}

// The diagnostics and descriptions speak the docs' vocabulary: no string in
// the provider's code uses a banned word (struct tags and comments aside).
func TestDiagnosticsVocabulary(t *testing.T) {
	for _, dir := range []string{"internal/provider", "internal/etl"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files: %v", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			for _, s := range stringLiterals(t, f) {
				for _, w := range bannedWords {
					if m := w.re.FindString(s); m != "" {
						t.Errorf("%s: a string says %q: write %s: %s", f, m, w.instead, s)
					}
				}
			}
		}
	}
}

// stringLiterals are the string literals of a Go file, struct tags left out.
func stringLiterals(t *testing.T, file string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	tags := map[*ast.BasicLit]bool{}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if n.Tag != nil {
				tags[n.Tag] = true
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING && !tags[n] {
				if s, err := strconv.Unquote(n.Value); err == nil {
					out = append(out, s)
				}
			}
		}
		return true
	})
	return out
}

// README.md shows the first import of examples/first-import (which
// `make examples-check` plans) as it is, before its Development section.
func TestReadmeShowsTheFirstImport(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	intro, _, _ := strings.Cut(string(b), "\n## ")
	for _, f := range []string{"examples/first-import/main.tf", "examples/first-import/data/gl.csv"} {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(intro, "\n"+string(want)+"```\n") {
			t.Errorf("README.md's introduction does not show %s as it is, in a code block", f)
		}
	}
}
