package provider

import (
	"path/filepath"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The action's plan-time checks are the resource's: each bad input fails
// validation or the plan, on the attribute to fix, before any job starts.
func TestImportActionPlanChecks(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.csv", []byte("Account,Amount\n4000,1\n"))
	wide := writeFile(t, dir, "wide.csv", []byte("Account,Amount\n4000,1\n4010,2,3\n"))
	latin := writeFile(t, dir, "latin.csv", []byte("Account,City\n4000,Montr\xe9al\n"))
	noExt := writeFile(t, dir, "gl.data", []byte("Account,Amount\n4000,1\n"))
	file := func(kv ...string) map[string]any {
		f := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			f[kv[i]] = kv[i+1]
		}
		return map[string]any{"file": f}
	}
	cases := []struct {
		name string
		cfg  map[string]any
		path string // "" = no error
		has  []string
	}{
		{"a good file", file("path", good), "", nil},
		{"good rows", map[string]any{"rows": [][]string{{"A"}, {"1"}}}, "", nil},
		{"a missing file", file("path", filepath.Join(dir, "missing.csv")), "file.path", []string{"does not exist"}},
		{"a row wider than the header", file("path", wide), "file.path", []string{"line 3 has 3 fields but the header has 2"}},
		{"bytes not in the encoding", file("path", latin), "file.encoding", []string{"line 2", "0xE9"}},
		{"no format", file("path", noExt), "file.format", []string{"file.format is required"}},
		{"content not in Latin-1", file("content", "A\nΩ\n", "format", "CSV", "encoding", "Windows Latin-1"), "file.content", []string{"U+03A9"}},
		{"content ragged", file("content", "A,B\n1\n", "format", "CSV"), "file.content", []string{"line 2 has 1 field"}},
		{"ragged rows", map[string]any{"rows": [][]string{{"A", "B"}, {"1"}}}, "rows[1]", []string{"rows[1] has 1 cells"}},
		{"file and rows", map[string]any{"file": map[string]any{"path": good}, "rows": [][]string{{"A"}, {"1"}}}, "file", []string{"[file,rows,inputs]"}},
		{"neither file nor rows", map[string]any{}, "", []string{"[file,rows,inputs]"}},
		{"path and content", file("path", good, "content", "A\n1\n"), "file.path", []string{"[file.path,file.content]"}},
		{"a bad timeout", map[string]any{"rows": [][]string{{"A"}, {"1"}}, "timeouts": map[string]any{"invoke": "5"}}, "timeouts.invoke", []string{`"5" must be a string containing a sequence of decimal numbers`}},
		{"a bad encoding name", file("path", good, "encoding", "utf-8"), "file.encoding", []string{"Windows Latin-1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg["template_id"] = emulator.GLActualsTemplateID
			diags := newProtoHarness(t).planAction(tc.cfg)
			if tc.has == nil {
				if len(diags) != 0 {
					t.Fatalf("want no diagnostics:\n%s", describe(diags))
				}
				return
			}
			expectFirstError(t, diags, tc.path, tc.has...)
		})
	}
}
