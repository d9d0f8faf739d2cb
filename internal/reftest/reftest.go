// Package reftest assembles the reference strict-export-v1 package for
// tests: the synthetic "sample request" example whose Portable Core is the
// published format example. Tests of the strict validator, vectors,
// finalize and the pipeline all start from the same complete package:
//
//	dir := reftest.Package(t)                       // a fresh copy, named sample-request
//	dir := reftest.Package(t, reftest.Contract(ops…)) // from a patched contract
//
// SyntheticPackage and StrictSamplePackage build the other examples that
// compile (without the reference documents):
//
//	dir := reftest.SyntheticPackage(t, "workflow-write")
//	dir := reftest.StrictSamplePackage(t)           // named examples.StrictSampleName
//
// The reference package holds the four Portable Core inputs, authoring/tool-docs.json, every
// view derive computes, the runtime compile writes (Function core, MCP
// adapter, the reviewed assets and the self-contained runtime) and the four
// documents, whose marker is the derived one. Nothing is stubbed: the
// package passes strict validation before finalization as it stands.
package reftest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// Name is the directory name of the reference package: its Skill's name.
const Name = "sample-request"

// Marker is the documentation marker of the unpatched reference package.
const Marker = derive.MarkerPrefix + "2391f3ab414fe717a4bd5f5e463377eff40c8e4e4a241b6c2cfacf9340c48b2a" + derive.MarkerSuffix

// Option changes the package's authored files before the rest is derived
// and compiled from them.
type Option func(tb testing.TB, files map[string][]byte)

// Contract patches canonical-contract.json.
func Contract(ops ...contracttest.Op) Option {
	return func(tb testing.TB, files map[string][]byte) {
		files[contract.ContractFile] = contracttest.Patch(tb, files[contract.ContractFile], ops...)
	}
}

// RuntimeOfReference compiles the runtime from the unpatched reference
// contract instead of the package's own: for tests of contracts compile
// refuses, whose other stages must still be judged.
func RuntimeOfReference() Option {
	return func(_ testing.TB, files map[string][]byte) { files[referenceRuntime] = nil }
}

// referenceRuntime marks, in the files map, that RuntimeOfReference was given.
const referenceRuntime = "\x00runtime-of-reference"

// Dir returns the directory of this package's source, for its testdata.
func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// DocumentsDir holds the reference package's four documents, carrying
// Marker.
func DocumentsDir() string {
	return filepath.Join(dir(), "..", "strict", "testdata", Name)
}

// ToolDocsFile is the reference package's authoring/tool-docs.json.
func ToolDocsFile() string {
	return filepath.Join(dir(), "..", "compile", "testdata", "reference", filepath.FromSlash(compile.ToolDocsFile))
}

// Package writes the complete reference package into a fresh directory
// named Name and returns its path. It fails the test when the (patched)
// inputs do not derive or compile.
func Package(tb testing.TB, opts ...Option) string {
	tb.Helper()
	files := map[string][]byte{}
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		files[name] = contracttest.Reference(tb, name)
	}
	files[compile.ToolDocsFile] = read(tb, ToolDocsFile())
	for _, o := range opts {
		o(tb, files)
	}
	_, ofReference := files[referenceRuntime]
	delete(files, referenceRuntime)
	pkg := filepath.Join(tb.TempDir(), Name)
	for name, data := range files {
		write(tb, pkg, name, data)
	}

	loaded, err := derive.Load(pkg)
	if err != nil {
		tb.Fatal(err)
	}
	if findings := loaded.Findings(); findings.HasErrors() {
		tb.Fatalf("reftest: the package's inputs do not derive: %v", findings.Sorted())
	}
	views := loaded.Views()
	for _, v := range views.Files() {
		write(tb, pkg, v.Path, v.Data)
	}

	core := loaded.Inputs
	if ofReference {
		core = referenceInputs(tb)
	}
	writeGenerated(tb, pkg, core, files[compile.ToolDocsFile], views.Marker())
	return pkg
}

// WriteGenerated writes what a Producer adds to a package whose Portable
// Core and derived views are in dir: the reference tool docs, the runtime
// compile writes from the package's own inputs, and the four documents
// carrying the package's marker.
func WriteGenerated(tb testing.TB, dir string) {
	tb.Helper()
	in, toolDocs := writeToolDocs(tb, dir)
	writeGenerated(tb, dir, in, toolDocs, derive.Marker(derive.Views(in)))
}

// WriteRuntime writes the reference tool docs and the runtime compile
// writes from the package's own inputs into dir, which already holds its
// Portable Core: the runtime finalize and the final validation require to
// be exactly what compile generates.
func WriteRuntime(tb testing.TB, dir string) {
	tb.Helper()
	in, toolDocs := writeToolDocs(tb, dir)
	for _, f := range compiled(tb, in, toolDocs) {
		write(tb, dir, f.Path, f.Data)
	}
}

// writeToolDocs reads the Portable Core in dir and writes the reference
// tool docs there.
func writeToolDocs(tb testing.TB, dir string) (*derive.Inputs, []byte) {
	tb.Helper()
	core, err := derive.Load(dir)
	if findings := core.Read(); err != nil || findings.HasErrors() {
		tb.Fatalf("reftest: reading %s: %v %v", dir, err, findings.Sorted())
	}
	in := core.Inputs
	toolDocs := read(tb, ToolDocsFile())
	write(tb, dir, compile.ToolDocsFile, toolDocs)
	return in, toolDocs
}

// writeGenerated writes the compiled runtime of in and the documents with
// the given marker into pkg.
func writeGenerated(tb testing.TB, pkg string, in *derive.Inputs, toolDocs []byte, marker string) {
	tb.Helper()
	for _, f := range compiled(tb, in, toolDocs) {
		write(tb, pkg, f.Path, f.Data)
	}
	// The documents carry the reference marker; a package built from a
	// patched contract carries its own, as derive prints it.
	docsDir := DocumentsDir()
	err := fs.WalkDir(os.DirFS(docsDir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data := read(tb, filepath.Join(docsDir, filepath.FromSlash(p)))
		write(tb, pkg, p, bytes.ReplaceAll(data, []byte(Marker), []byte(marker)))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// compiled compiles the Portable Core with the tool docs.
func compiled(tb testing.TB, in *derive.Inputs, toolDocs []byte) []compile.File {
	tb.Helper()
	docs, list := compile.DecodeToolDocs(compile.ToolDocsFile, toolDocs)
	if list.HasErrors() {
		tb.Fatalf("reftest: tool docs: %v", list.Sorted())
	}
	res, list := compile.Compile(&compile.Inputs{Core: in, ToolDocs: docs})
	if !res.Compiled() {
		tb.Fatalf("reftest: the package does not compile: %v", list.Sorted())
	}
	return res.Files
}

// referenceInputs decodes the unpatched reference inputs.
func referenceInputs(tb testing.TB) *derive.Inputs {
	tb.Helper()
	in := &derive.Inputs{}
	var list *diag.List
	in.Contract, list = contract.DecodeContract(contract.ContractFile, contracttest.Reference(tb, contract.ContractFile))
	if list.HasErrors() {
		tb.Fatal(list.Sorted())
	}
	in.Export, list = contract.DecodeExportProfile(contract.ExportProfileFile, contracttest.Reference(tb, contract.ExportProfileFile))
	if list.HasErrors() {
		tb.Fatal(list.Sorted())
	}
	return in
}

func read(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func write(tb testing.TB, root, name string, data []byte) {
	tb.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}
