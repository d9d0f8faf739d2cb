package testnode

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLinkDependencies: a package that depends on the MCP SDK and zod gets
// them and what they depend on (express and ajv, which the SDK needs), and
// none of the repository's own tools (the Inspector and what only it
// needs).
func TestLinkDependencies(t *testing.T) {
	pkg := t.TempDir()
	manifest := `{"dependencies": {"@modelcontextprotocol/sdk": "1.32.2", "zod": "4.6.7"}}`
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := LinkDependencies(Modules(t), pkg); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"@modelcontextprotocol/sdk", "zod", "express", "ajv"} {
		if _, err := os.Stat(filepath.Join(pkg, "node_modules", name, "package.json")); err != nil {
			t.Errorf("%s is not installed: %v", name, err)
		}
	}
	for _, name := range []string{"@modelcontextprotocol/inspector", "vite"} {
		if _, err := os.Stat(filepath.Join(pkg, "node_modules", name)); !os.IsNotExist(err) {
			t.Errorf("%s is installed, which the package does not depend on: %v", name, err)
		}
	}
}
