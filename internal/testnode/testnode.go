// Package testnode gives tests the repository's pinned npm install (the MCP
// SDK, zod and the cross-check tools of package.json, installed by "npm ci"
// at the repository root) and node itself. The self-contained MCP runtime a
// strict package ships is assets.MCPRuntime, not built here.
package testnode

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Root returns the repository root.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Modules returns the repository's node_modules directory. It fails the test
// with the command to run when the packages are not installed: tests that
// need them must not pass silently without them.
func Modules(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(Root(), "node_modules")
	if _, err := os.Stat(filepath.Join(dir, "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("the pinned npm packages are not installed: run \"npm ci\" at the repository root")
	}
	return dir
}

// RequireNodeEnv names the variable that turns a missing node into a
// failure rather than a skip; CI sets it, so that no test it runs passes by
// skipping.
const RequireNodeEnv = "CODE2SKILL_REQUIRE_NODE"

// Node returns the path of node. When node is not on PATH the test is
// skipped, saying so, unless CODE2SKILL_REQUIRE_NODE=1 makes it fail.
func Node(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv(RequireNodeEnv) == "1" {
			t.Fatalf("node is not on PATH and %s=1: this test runs real node", RequireNodeEnv)
		}
		t.Skipf("node is not on PATH: this test runs real node (set %s=1 to make that a failure)", RequireNodeEnv)
	}
	return p
}

// Bin returns the path of an executable installed by the pinned npm
// packages (node_modules/.bin/<name>).
func Bin(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(Modules(t), ".bin", name)
}

// LinkInto hard-links the repository's node_modules into pkgDir/node_modules,
// so that a fixture package behaves as it would after "npm ci".
func LinkInto(t testing.TB, pkgDir string) {
	t.Helper()
	if err := Link(Modules(t), filepath.Join(pkgDir, "node_modules")); err != nil {
		t.Fatal(err)
	}
}

// Link recreates the tree src at dst with hard links for regular files and
// copies of symlinks. Hard links are cheap and, unlike a symlinked
// node_modules, stay inside the package for checks that refuse symlinks
// escaping it.
func Link(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			if err := os.Link(p, target); err != nil {
				return fmt.Errorf("linking node_modules: %w", err)
			}
		}
		return nil
	})
}
