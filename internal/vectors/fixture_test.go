package vectors

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/testnode"
)

// Portable Core inputs of the test packages: the published reference
// example and the synthetic derive fixtures.
var sources = map[string]string{
	"reference":      "../contract/testdata/reference",
	"attachment":     "../derive/testdata/synthetic/attachment/input",
	"backend-write":  "../derive/testdata/synthetic/backend-write/input",
	"goals-handoffs": "../derive/testdata/synthetic/goals-handoffs/input",
	"read-only":      "../derive/testdata/synthetic/read-only/input",
	"workflow-write": "../derive/testdata/synthetic/workflow-write/input",
}

// faults maps a capability ID to the faults of its Function (or, under the
// "adapter:" prefix, of its Tool callback); see testdata/core.
type faults map[string]map[string]bool

// buildPackage writes a strict package for the named source into a fresh
// directory: the Portable Core inputs, the derived views, the hand-written
// Function core of testdata/core (with the given faults), its adapter, the
// reviewed normaliser and guard, and the bundled MCP runtime.
func buildPackage(t testing.TB, source string, fs faults) string {
	t.Helper()
	src, ok := sources[source]
	if !ok {
		t.Fatalf("no source %q", source)
	}
	dir := filepath.Join(t.TempDir(), source)
	for _, name := range []string{"canonical-contract.json", "source-topology.json", "host-profile.json", "export-profile.json"} {
		copyFile(t, filepath.Join(src, name), filepath.Join(dir, name))
	}
	in, list, err := derive.ReadInputs(dir)
	if err != nil || list.HasErrors() {
		t.Fatalf("reading %s: %v %v", source, err, list.Sorted())
	}
	for _, v := range derive.Views(in) {
		write(t, filepath.Join(dir, filepath.FromSlash(v.Path)), v.Data)
	}
	copyFile(t, "testdata/core/interpreter.mjs", filepath.Join(dir, "function-core", "interpreter.mjs"))
	var core strings.Builder
	core.WriteString("import { make } from './interpreter.mjs';\n")
	adapterFaults := map[string]map[string]bool{}
	for _, c := range in.Contract.Capabilities {
		fn, _ := json.Marshal(fs[c.ID])
		if fs[c.ID] == nil {
			fn = []byte("{}")
		}
		core.WriteString("export const " + c.FunctionExport + " = make(" + quote(c.ID) + ", " + string(fn) + ");\n")
		if a := fs["adapter:"+c.ID]; a != nil {
			adapterFaults[c.ID] = a
		}
	}
	write(t, filepath.Join(dir, "function-core", "index.mjs"), []byte(core.String()))
	af, _ := json.Marshal(adapterFaults)
	adapter, err := os.ReadFile("testdata/core/adapter.mjs")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "mcp-tool", "index.mjs"), append([]byte("const ADAPTER_FAULTS = "+string(af)+";\n"), adapter...))
	write(t, filepath.Join(dir, "mcp-tool", "runtime.mjs"), testnode.MCPRuntime(t, assets.RuntimeEntry.Bytes()))
	write(t, filepath.Join(dir, assets.ErrorNormalizer.Name()), assets.ErrorNormalizer.Bytes())
	write(t, filepath.Join(dir, assets.WorkflowGuard.Name()), assets.WorkflowGuard.Bytes())
	return dir
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dst, data)
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
