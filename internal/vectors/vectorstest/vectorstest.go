// Package vectorstest builds strict packages for tests of the behaviour
// vectors, before (and beside) a compiler: the Portable Core inputs of a
// known example, the views derive computes from them, a hand-written
// Function core that runs every capability the way spec §4 describes a
// Function (testdata/interpreter.mjs), a hand-written MCP adapter
// (testdata/adapter.mjs), the reviewed normaliser and guard, and the MCP
// runtime bundled from the repository's pinned node_modules.
//
// Faults break one behaviour of one capability, so that a test can show the
// vector that catches it:
//
//	dir := vectorstest.Package(t, "reference", vectorstest.Faults{
//		"save-sample-draft":         {"retryOnFailure": true}, // its Function
//		"adapter:save-sample-draft": {"dryRunAltersInput": true}, // its Tool callback
//	})
//
// The Function faults are alwaysThrow, noValidation, acceptUnexpected,
// skipKeywords, noConditionalRules, inputErrorUnknownOutcome, freezeInput,
// freezeOutput, extraHeader, dropQuery, sendOmittedAsNull, forwardRawGrant,
// dispatchWithoutResolution, ignoreStatus, businessUnknown,
// collapseCategories (every rejected status is UPSTREAM_STEP_REJECTED),
// retryOnFailure,
// markTransportKnown, forbiddenKey, emptyBodyRefused (an empty body is never
// a success), emptyBodyAnyStatus (an empty body is a success at any
// status), skipConfirmation (a write dispatches without the user's
// confirmation no guard checks), bypassGuard, exitProcess, spin, hang, and
// guardClosure (a guarded write dispatches its HTTP steps through the guard
// instead of handing it context.dispatch); the Tool faults are
// dryRunAltersInput, dryRunDispatches, dryRunExtraMember,
// realCallAltersInput, errorStructured (an error result carrying
// structuredContent) and errorWithoutText.
package vectorstest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/toolresult"
)

var (
	//go:embed testdata/interpreter.mjs
	interpreter []byte
	//go:embed testdata/adapter.mjs
	adapter []byte
)

// Sources are the Portable Core inputs test packages are built from,
// relative to the repository root: the published reference example and the
// synthetic derive fixtures.
var Sources = map[string]string{
	"reference":      "internal/contract/testdata/reference",
	"attachment":     "internal/derive/testdata/synthetic/attachment/input",
	"backend-write":  "internal/derive/testdata/synthetic/backend-write/input",
	"goals-handoffs": "internal/derive/testdata/synthetic/goals-handoffs/input",
	"read-only":      "internal/derive/testdata/synthetic/read-only/input",
	"workflow-write": "internal/derive/testdata/synthetic/workflow-write/input",
}

// Names returns the source names, sorted.
func Names() []string {
	var out []string
	for name := range Sources {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Faults maps a capability ID to the faults of its Function, and
// "adapter:<capabilityId>" to the faults of its Tool callback.
type Faults map[string]map[string]bool

// Package builds a package from a source into a fresh temporary directory
// (named after the source) and returns its path.
func Package(t testing.TB, source string, faults Faults) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), source)
	if err := Build(dir, source, faults, assets.MCPRuntime.Bytes()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Build writes a package from a source into dir, with runtime as its
// mcp-tool/runtime.mjs.
func Build(dir, source string, faults Faults, runtime []byte) error {
	src, ok := Sources[source]
	if !ok {
		return fmt.Errorf("no test package source %q (have %s)", source, strings.Join(Names(), ", "))
	}
	src = filepath.Join(testnode.Root(), filepath.FromSlash(src))
	files := map[string][]byte{}
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return err
		}
		files[name] = data
		if err := write(dir, name, data); err != nil {
			return err
		}
	}
	loaded, err := derive.Load(dir)
	in, list := loaded.Inputs, loaded.Read()
	if err != nil {
		return err
	}
	if list.HasErrors() {
		return fmt.Errorf("reading %s: %v", source, list.Sorted())
	}
	for _, v := range derive.Views(in) {
		files[v.Path] = v.Data
	}
	var core strings.Builder
	core.WriteString("// The Function core of a test package: each capability run by interpreter.mjs.\n")
	core.WriteString("import { make } from './interpreter.mjs';\n")
	toolFaults := map[string]map[string]bool{}
	for _, c := range in.Contract.Capabilities {
		fn, err := json.Marshal(faults[c.ID])
		if err != nil {
			return err
		}
		if faults[c.ID] == nil {
			fn = []byte("{}")
		}
		name, _ := json.Marshal(c.ID)
		fmt.Fprintf(&core, "export const %s = make(%s, %s);\n", c.FunctionExport, name, fn)
		if f := faults["adapter:"+c.ID]; f != nil {
			toolFaults[c.ID] = f
		}
	}
	tf, err := json.Marshal(toolFaults)
	if err != nil {
		return err
	}
	files["function-core/index.mjs"] = []byte(core.String())
	files["function-core/interpreter.mjs"] = interpreter
	files["mcp-tool/adapter.mjs"] = adapter
	files["mcp-tool/dry-run-output-schema.json"] = []byte(toolresult.DryRunOutputSchemaJSON)
	files["mcp-tool/index.mjs"] = []byte("// The MCP adapter of a test package.\nimport { serve } from './adapter.mjs';\nawait serve(" + string(tf) + ");\n")
	files["mcp-tool/runtime.mjs"] = runtime
	files[assets.ErrorNormalizer.Name()] = assets.ErrorNormalizer.Bytes()
	files[assets.WorkflowGuard.Name()] = assets.WorkflowGuard.Bytes()
	for name, data := range files {
		if err := write(dir, name, data); err != nil {
			return err
		}
	}
	return nil
}

func write(dir, name string, data []byte) error {
	path := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
