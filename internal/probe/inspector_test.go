package probe

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// TestInspectorAgrees cross-checks a package the probe passes with an
// independent client, the MCP Inspector CLI: it must list the tools the
// probe saw, with the contract's annotations and schemas, and a call must
// return what the probe accepted.
func TestInspectorAgrees(t *testing.T) {
	t.Parallel()
	inspector := testnode.Bin(t, "mcp-inspector")
	if _, err := os.Stat(inspector); err != nil {
		t.Skip("the MCP Inspector CLI is not installed; npm ci at the repository root installs @modelcontextprotocol/inspector@2.12.0")
	}
	// The Inspector runs under a node its engines accept; the package's
	// server, which it starts as "node", under the node on PATH.
	toolNode := testnode.NodeAtLeast(t, "22.19.0", "the MCP Inspector 2.12.0")
	pkg := strictPackage(t, nil)
	r := offlineStrictProbe(t)
	if r.Diagnostics.HasErrors() {
		t.Fatalf("the probe fails the package: %v", r.Diagnostics.Sorted())
	}

	inspect := func(args ...string) canonjson.Value {
		t.Helper()
		argv := append([]string{toolNode, inspector, "--cli", "node", "mcp-tool/index.mjs"}, args...)
		res, err := sandbox.Run(context.Background(), argv, sandbox.Options{Dir: pkg, Timeout: testtier.Budget(t), Binds: testnode.Binds(t, filepath.Dir(filepath.Dir(toolNode)))})
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode != 0 {
			t.Fatalf("inspector %v exited with %d:\n%s", args, res.ExitCode, res.Stderr)
		}
		v, err := canonjson.Decode(res.Stdout)
		if err != nil {
			t.Fatalf("inspector output: %v\n%s", err, res.Stdout)
		}
		return v
	}

	pk, _, err := pkgdir.Open(pkg)
	if err != nil {
		t.Fatal(err)
	}
	exp := loadStrict(pk, nil, &diag.List{})
	listed, _ := field(inspect("--method", "tools/list").(*canonjson.Object), "tools").(canonjson.Array)
	if len(listed) != len(r.Tools) {
		t.Fatalf("the Inspector lists %d tools, the probe saw %d", len(listed), len(r.Tools))
	}
	for i, entry := range listed {
		tool := entry.(*canonjson.Object)
		name, _ := field(tool, "name").(canonjson.String)
		if string(name) != r.Tools[i].Name {
			t.Errorf("tool %d: the Inspector lists %q, the probe saw %q", i, name, r.Tools[i].Name)
			continue
		}
		want := exp.tool(string(name))
		if !canonjson.Equal(field(tool, "annotations"), want.annotations) {
			t.Errorf("%s: annotations %s, contract %s", name, show(field(tool, "annotations")), show(want.annotations))
		}
		for _, s := range []struct {
			key    string
			schema *canonjson.Object
		}{{"inputSchema", want.input}, {"outputSchema", want.output}} {
			if !canonjson.Equal(normalizeSchema(field(tool, s.key)), normalizeSchema(s.schema)) {
				t.Errorf("%s: the Inspector's %s differs from the contract", name, s.key)
			}
		}
	}

	got := inspect("--method", "tools/call", "--tool-name", "create_sample_note", "--tool-arg", "title=Plan")
	want := decode(t, `{"status": 201, "data": {"id": "note-4"}}`)
	if sc := field(got.(*canonjson.Object), "structuredContent"); !canonjson.Equal(sc, want) {
		t.Errorf("the Inspector's call returned %s", show(got))
	}
}
