package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestFilesArrowsRunDown: a common_*.go file holds what several kinds of
// Terraform object share (doc.go), so it uses nothing declared in a file
// of one kind (resource_*, action_*, data_source_*, function_*): what such
// a file holds that a common file needs belongs in a common file.
func TestFilesArrowsRunDown(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	// The package is type-checked without its imports (each one an empty
	// package, and its errors ignored): what it declares itself, and where
	// its own declarations are used, is all this needs.
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check("provider", fset, files, info)
	if pkg == nil || len(info.Uses) == 0 {
		t.Fatal("the package could not be read")
	}
	kind := func(file string) string {
		for _, k := range []string{"common_", "resource_", "action_", "data_source_", "function_"} {
			if strings.HasPrefix(file, k) {
				return k
			}
		}
		return ""
	}
	up := map[string][]string{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		from, to := filepath.Base(fset.Position(id.Pos()).Filename), filepath.Base(fset.Position(obj.Pos()).Filename)
		if kind(from) != "common_" || kind(to) == "" || kind(to) == "common_" {
			continue
		}
		if obj.Parent() != pkg.Scope() && !isFieldOrMethod(obj) {
			continue // a local name
		}
		k := from + " uses " + to
		if !slices.Contains(up[k], obj.Name()) {
			up[k] = append(up[k], obj.Name())
		}
	}
	var lines []string
	for k, names := range up {
		sort.Strings(names)
		lines = append(lines, k+": "+strings.Join(names, " "))
	}
	sort.Strings(lines)
	if len(lines) > 0 {
		t.Errorf("%d common files use what a file of one kind declares; move it to a common file named for it:\n%s", len(lines), strings.Join(lines, "\n"))
	}
}

// emptyImporter imports every package as an empty one.
type emptyImporter struct{}

func (emptyImporter) Import(p string) (*types.Package, error) {
	pkg := types.NewPackage(p, filepath.Base(p))
	pkg.MarkComplete()
	return pkg, nil
}

// isFieldOrMethod reports whether obj is a struct field or a method.
func isFieldOrMethod(obj types.Object) bool {
	if v, ok := obj.(*types.Var); ok {
		return v.IsField()
	}
	f, ok := obj.(*types.Func)
	return ok && f.Type().(*types.Signature).Recv() != nil
}
