// Package testnode gives tests the repository's pinned npm install (the MCP
// SDK, zod and the cross-check tools of package.json, installed by "npm ci"
// at the repository root), node itself, and the self-contained MCP runtime
// a strict package ships, bundled from that install.
package testnode

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
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

var (
	runtimeMu    sync.Mutex
	runtimeCache = map[string][]byte{} // entry source -> bundle
)

// MCPRuntime returns a self-contained mcp-tool/runtime.mjs for strict
// fixture packages: entry (the reviewed assets.RuntimeEntry, passed in by
// the caller because assets' own tests use this package) bundled with
// esbuild from the repository's pinned SDK and zod, as a strict package
// ships it. Each entry is bundled once per test binary.
func MCPRuntime(t testing.TB, entry []byte) []byte {
	t.Helper()
	js, err := BundleMCPRuntime(Modules(t), entry)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// BundleMCPRuntime is MCPRuntime for callers without a testing.TB, such as
// testscript commands: it bundles entry against the node_modules directory
// modules.
func BundleMCPRuntime(modules string, entry []byte) ([]byte, error) {
	runtimeMu.Lock()
	defer runtimeMu.Unlock()
	if js, ok := runtimeCache[string(entry)]; ok {
		return js, nil
	}
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{
			Contents:   string(entry),
			ResolveDir: filepath.Dir(modules),
			Sourcefile: "mcp-runtime-entry.mjs",
		},
		Bundle:   true,
		Platform: api.PlatformNode,
		Format:   api.FormatESModule,
		Target:   api.ES2022,
		Outfile:  "runtime.mjs",
		LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return nil, fmt.Errorf("bundling the MCP runtime: %s", res.Errors[0].Text)
	}
	js := res.OutputFiles[0].Contents
	runtimeCache[string(entry)] = js
	return js, nil
}
