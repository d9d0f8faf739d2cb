package testnode

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestResolveLocked(t *testing.T) {
	pkgs := map[string]lockEntry{
		"node_modules/a":                                  {},
		"node_modules/b":                                  {},
		"node_modules/@s/c":                               {},
		"node_modules/@s/c/node_modules/b":                {},
		"node_modules/@s/c/node_modules/d":                {},
		"node_modules/@s/c/node_modules/d/node_modules/e": {},
	}
	for _, tc := range []struct{ from, name, want string }{
		{"", "a", "node_modules/a"},
		{"", "@s/c", "node_modules/@s/c"},
		{"node_modules/a", "b", "node_modules/b"},
		{"node_modules/@s/c", "b", "node_modules/@s/c/node_modules/b"},
		{"node_modules/@s/c/node_modules/d", "b", "node_modules/@s/c/node_modules/b"},
		{"node_modules/@s/c/node_modules/d", "a", "node_modules/a"},
		{"node_modules/@s/c/node_modules/d/node_modules/e", "d", "node_modules/@s/c/node_modules/d"},
		{"node_modules/a", "e", ""},
	} {
		got, ok := resolveLocked(pkgs, tc.from, tc.name)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s from %q: %q %v, want %q", tc.name, tc.from, got, ok, tc.want)
		}
	}
}

// The MCP SDK and zod come with what they import, and nothing else of the
// repository's packages.
func TestDependencyDirs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"dependencies": {"@modelcontextprotocol/sdk": "1.32.2", "zod": "4.6.7"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dirs, err := dependencyDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"@modelcontextprotocol/sdk", "zod", "ajv", "express", "body-parser"} {
		if !slices.Contains(dirs, want) {
			t.Errorf("%s missing from %v", want, dirs)
		}
	}
	for _, not := range []string{"skills-ref", "@modelcontextprotocol/inspector", "body-parser/node_modules/content-type"} {
		if slices.Contains(dirs, not) {
			t.Errorf("%s linked", not)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"dependencies": {"not-in-the-lock": "1.0.0"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := dependencyDirs(dir); err == nil {
		t.Error("a dependency the lock lacks: no error")
	}
}
