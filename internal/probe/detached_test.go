package probe

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/pkgdir"
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
