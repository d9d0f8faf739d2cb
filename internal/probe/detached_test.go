package probe

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

func TestImportsOutside(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"mcp-tool/index.mjs": `import { a } from "/srv/app/outside.mjs";
import "./local.mjs";
import "../function-core/index.mjs";
export * from "../../sibling/x.mjs";
import fs from "node:fs";
import { z } from "zod";
const m = await import("file:///etc/x.mjs");
`,
		"mcp-tool/local.mjs":       "export const b = 1;\n",
		"function-core/index.mjs":  "export const c = 1;\n",
		"node_modules/x/index.mjs": `import "/elsewhere.mjs";`, // dependencies are not the package's code
		// A runtime bundle that is not the reviewed one is the package's
		// code like any other.
		"mcp-tool/runtime.mjs": `import "/opt/sdk/server.mjs";` + "\n",
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(src), 0o644)
	}
	pkg, _, err := pkgdir.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range importsOutside(pkg) {
		got = append(got, d.String())
	}
	want := []string{
		`mcp-tool/index.mjs:1:19: error: import "/srv/app/outside.mjs" is an absolute path [PROBE_IMPORT_OUTSIDE]`,
		`mcp-tool/index.mjs:4:15: error: export-from "../../sibling/x.mjs" leaves the package [PROBE_IMPORT_OUTSIDE]`,
		`mcp-tool/index.mjs:7:24: error: dynamic-import "file:///etc/x.mjs" is a file: URL, an absolute location [PROBE_IMPORT_OUTSIDE]`,
		`mcp-tool/runtime.mjs:1:8: error: import "/opt/sdk/server.mjs" is an absolute path [PROBE_IMPORT_OUTSIDE]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestDetachedCopyNamesNoOriginalPath: the detached server's view names no
// path of the original package, not even in its mount table, where its
// node_modules come from.
func TestDetachedCopyNamesNoOriginalPath(t *testing.T) {
	if !sandbox.Mounts(sandbox.DenyNetwork) {
		t.Skip("no mount namespace: the copy's node_modules is a link to the package's")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	orig := filepath.Join(root, "original-package-location", "pkg")
	for name, text := range map[string]string{
		"mcp-tool/index.mjs":            "export {};\n",
		"node_modules/dep/package.json": `{"name": "dep"}` + "\n",
		"node_modules/dep/index.mjs":    "export const dep = 1;\n",
	} {
		p := filepath.Join(orig, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg, _, err := pkgdir.Open(orig)
	if err != nil {
		t.Fatal(err)
	}
	d, err := detach(pkg, "", pkg.ModuleView(false))
	if err != nil {
		t.Fatal(err)
	}
	defer d.remove()
	for _, file := range []string{"/proc/self/mountinfo", filepath.Join(d.dir, "node_modules", "dep", "index.mjs")} {
		res, err := sandbox.Run(context.Background(), []string{"cat", file}, sandbox.Options{Dir: d.dir, Binds: d.binds})
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode != 0 || strings.Contains(string(res.Stdout), "original-package-location") {
			t.Errorf("%s (exit %d):\n%s", file, res.ExitCode, res.Stdout)
		}
	}
}
