package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/golden"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
	"github.com/code2skill/code2skill/internal/vectors/vectorstest"
)

// scriptParams configures the CLI scripts in dir:
//   - $REPO is the repository root, $EXAMPLES its examples directory;
//   - $NODE_MODULES is the repository's pinned npm install (npm ci);
//   - [node] is true when node is on PATH (a script that skips without it
//     fails instead when CODE2SKILL_REQUIRE_NODE=1, as in CI);
//   - [registry] is true when the npm registry answers (demo's install);
//   - [confined] is true when the sandbox can confine a child here (user,
//     mount, network and PID namespaces);
//   - "copy-dir SRC DST" copies a directory tree (node_modules excluded);
//   - "link-node-modules DIR" hard-links into DIR what "npm ci" there would
//     install from the pinned npm install (all of it when DIR has no
//     package.json), so that a fixture package behaves as after "npm ci"
//     without a network;
//   - "mcp-runtime PKG" writes PKG/mcp-tool/runtime.mjs, the self-contained
//     MCP runtime a strict package ships, bundled from the pinned install;
//   - "await-entry DIR PREFIX" waits until DIR holds an entry whose name
//     starts with PREFIX (what a command started in the background made);
//   - "replace FILE OLD NEW" replaces every OLD in FILE with NEW, failing
//     when FILE does not hold OLD (an edit a Producer would make).

//   - "reference-package DIR" writes into DIR the reference example as
//     "code2skill derive DIR" and "code2skill compile DIR" leave it: its
//     Portable Core inputs and tool docs, the views and the runtime (built
//     once per test, by those two commands run in-process);
//   - "strict-package SOURCE DIR [FAULTS]" writes a strict test package
//     built from a known contract (vectorstest.Sources) with its
//     hand-written Function core, FAULTS being vectorstest.Faults as JSON.
//   - $CODE2SKILL_TEST_BUDGET raises the commands' default time limits to
//     what the test's deadline leaves;
//   - $CODE2SKILL_TEST_REPORTS=PREFIX, set by a script, makes its commands
//     keep the JSON and SARIF of what they print in PREFIX.json and
//     PREFIX.sarif (reportsVariable);
//   - $PIPELINE_FIXTURES holds the pipeline scripts' packages, and the
//     commands of pipelineScriptCommands serve and inspect a backend.
func scriptParams(t *testing.T, dir string) testscript.Params {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	referenceBase := t.TempDir()
	reference := sync.OnceValues(func() (string, error) { return buildReferencePackage(referenceBase, repo) })
	params := testscript.Params{
		Dir:                 dir,
		UpdateScripts:       golden.Update(),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			// The directory holding the code2skill test binary alone, so
			// that a script can run it with PATH=$CODE2SKILL_BIN_DIR,
			// without node or npm.
			for _, dir := range filepath.SplitList(env.Getenv("PATH")) {
				if _, err := os.Stat(filepath.Join(dir, "code2skill")); err == nil {
					env.Setenv("CODE2SKILL_BIN_DIR", dir)
					break
				}
			}
			env.Setenv("REPO", repo)
			env.Setenv("EXAMPLES", filepath.Join(repo, "examples"))
			env.Setenv("NODE_MODULES", filepath.Join(repo, "node_modules"))
			env.Setenv("PIPELINE_FIXTURES", filepath.Join(repo, "internal", "cli", "testdata", "pipeline"))
			// The evidence key lives in the script's own configuration
			// directory, never the user's.
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			// The commands wait as long as the test may.
			env.Setenv(budgetVariable, testtier.Budget(t).String())
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "node":
				_, err := exec.LookPath("node")
				if err != nil && os.Getenv(testnode.RequireNodeEnv) == "1" {
					return false, fmt.Errorf("node is not on PATH and %s=1", testnode.RequireNodeEnv)
				}
				return err == nil, nil
			case "registry":
				return registryReachable(), nil
			case "confined":
				iso := sandbox.Available(sandbox.DenyNetwork)
				if iso.Level != sandbox.LevelConfined && os.Getenv("CODE2SKILL_REQUIRE_CONFINED") == "1" {
					return false, fmt.Errorf("the sandbox cannot confine here and CODE2SKILL_REQUIRE_CONFINED=1: %s", iso.Detail)
				}
				return iso.Level == sandbox.LevelConfined, nil
			}
			return false, nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"copy-dir": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: copy-dir SRC DST")
				}
				src := os.DirFS(ts.MkAbs(args[0]))
				ts.Check(os.CopyFS(ts.MkAbs(args[1]), withoutNodeModules{src}))
			},
			"link-node-modules": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: link-node-modules DIR")
				}
				src := filepath.Join(repo, "node_modules")
				if _, err := os.Stat(src); err != nil {
					ts.Fatalf("the pinned npm packages are not installed: run \"npm ci\" at the repository root (%v)", err)
				}
				dir := ts.MkAbs(args[0])
				if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
					ts.Check(testnode.LinkDependenciesFrom(src, dir))
					return
				}
				ts.Check(testnode.Link(src, filepath.Join(dir, "node_modules")))
			},
			"replace": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: replace FILE OLD NEW")
				}
				file := ts.MkAbs(args[0])
				b, err := os.ReadFile(file)
				ts.Check(err)
				if !strings.Contains(string(b), args[1]) {
					ts.Fatalf("%s does not contain %q", args[0], args[1])
				}
				ts.Check(os.WriteFile(file, []byte(strings.ReplaceAll(string(b), args[1], args[2])), 0o644))
			},
			"reference-package": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: reference-package DIR")
				}
				built, err := reference()
				ts.Check(err)
				ts.Check(os.CopyFS(ts.MkAbs(args[0]), os.DirFS(built)))
			},
			"strict-package": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 || len(args) > 3 {
					ts.Fatalf("usage: strict-package SOURCE DIR [FAULTS]")
				}
				var faults vectorstest.Faults
				if len(args) == 3 {
					ts.Check(json.Unmarshal([]byte(args[2]), &faults))
				}
				ts.Check(vectorstest.Build(ts.MkAbs(args[1]), args[0], faults, assets.MCPRuntime.Bytes()))
			},
			"await-entry": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: await-entry DIR PREFIX")
				}
				dir := ts.MkAbs(args[0])
				for deadline := time.Now().Add(testtier.Budget(t)); ; time.Sleep(20 * time.Millisecond) {
					entries, _ := os.ReadDir(dir)
					if slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), args[1]) }) {
						return
					}
					if time.Now().After(deadline) {
						ts.Fatalf("no entry %s* appeared in %s", args[1], args[0])
					}
				}
			},
			"mcp-runtime": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: mcp-runtime PKG")
				}
				dir := filepath.Join(ts.MkAbs(args[0]), "mcp-tool")
				ts.Check(os.MkdirAll(dir, 0o755))
				ts.Check(os.WriteFile(filepath.Join(dir, "runtime.mjs"), assets.MCPRuntime.Bytes(), 0o644))
			},
		},
	}
	for name, cmd := range pipelineScriptCommands() {
		params.Cmds[name] = cmd
	}
	for name, cmd := range schemaScriptCommands() {
		params.Cmds[name] = cmd
	}
	return params
}

// buildReferencePackage writes the reference example's Portable Core inputs
// and tool docs under base and runs derive and compile on them, as a
// Producer would, and returns the package's directory.
func buildReferencePackage(base, repo string) (string, error) {
	dir := filepath.Join(base, "sample-request")
	files := map[string]string{
		"canonical-contract.json":  "internal/contract/testdata/reference/canonical-contract.json",
		"source-topology.json":     "internal/contract/testdata/reference/source-topology.json",
		"host-profile.json":        "internal/contract/testdata/reference/host-profile.json",
		"export-profile.json":      "internal/contract/testdata/reference/export-profile.json",
		"authoring/tool-docs.json": "internal/compile/testdata/reference/authoring/tool-docs.json",
	}
	for dst, src := range files {
		data, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(src)))
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, dst)), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(dst)), data, 0o644); err != nil {
			return "", err
		}
	}
	// The documents are the scripts' own, in references/ and beside.
	if err := os.MkdirAll(filepath.Join(dir, "references"), 0o755); err != nil {
		return "", err
	}
	for _, command := range []string{"derive", "compile"} {
		var out bytes.Buffer
		if code := Run(context.Background(), []string{command, dir}, &Stdio{Out: &out, Err: &out}); code != ExitPassed {
			return "", fmt.Errorf("code2skill %s on the reference example: exit %d\n%s", command, code, out.String())
		}
	}
	return dir, nil
}

// withoutNodeModules hides node_modules directories of a file system.
type withoutNodeModules struct{ fs.FS }

func (w withoutNodeModules) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(w.FS, name)
	out := entries[:0]
	for _, e := range entries {
		if e.Name() != "node_modules" {
			out = append(out, e)
		}
	}
	return out, err
}

var (
	registryOnce sync.Once
	registryUp   bool
)

// registryReachable reports whether the npm registry that demo's install
// would use answers within a few seconds.
func registryReachable() bool {
	registryOnce.Do(func() {
		url := cmp.Or(os.Getenv("npm_config_registry"), os.Getenv("NPM_CONFIG_REGISTRY"), "https://registry.npmjs.org/")
		client := &http.Client{Timeout: testtier.Scaled(5 * time.Second)}
		resp, err := client.Get(strings.TrimSuffix(url, "/") + "/zod")
		if err == nil {
			resp.Body.Close()
			registryUp = resp.StatusCode == http.StatusOK
		}
	})
	return registryUp
}
