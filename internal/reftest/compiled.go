package reftest

import (
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
)

// Synthetic names the synthetic example packages that compile in full:
// their Portable Cores are derive's fixtures, their Tool prose compile's.
var Synthetic = []string{"attachment", "backend-write", "goals-handoffs", "workflow-write"}

// SyntheticPackage writes the synthetic example package of that name (one
// of Synthetic) into a fresh directory of the same name and returns its
// path: its Portable Core, its authoring/tool-docs.json, every view derive
// computes and the runtime compile writes. It has no documents.
func SyntheticPackage(tb testing.TB, name string) string {
	tb.Helper()
	files := map[string][]byte{}
	core := filepath.Join(dir(), "..", "derive", "testdata", "synthetic", name, "input")
	for _, f := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		files[f] = read(tb, filepath.Join(core, f))
	}
	files[compile.ToolDocsFile] = read(tb, filepath.Join(dir(), "..", "compile", "testdata", "synthetic", name, filepath.FromSlash(compile.ToolDocsFile)))
	return compiledPackage(tb, name, files)
}

// StrictSamplePackage writes the strict sample's package, built from its
// authored files (examples.StrictSample) as a Producer builds it before
// verification, into a fresh directory named examples.StrictSampleName and
// returns its path: the authored files, every view derive computes and the
// runtime compile writes.
func StrictSamplePackage(tb testing.TB) string {
	tb.Helper()
	return StrictSamplePackageWith(tb, nil)
}

// StrictSamplePackageWith is StrictSamplePackage with the authored files
// (path -> content) changed by edit first; nil changes nothing.
func StrictSamplePackageWith(tb testing.TB, edit func(files map[string][]byte)) string {
	tb.Helper()
	files := map[string][]byte{}
	err := fs.WalkDir(examples.StrictSample(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		files[p], err = fs.ReadFile(examples.StrictSample(), p)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	if edit != nil {
		edit(files)
	}
	return compiledPackage(tb, examples.StrictSampleName, files)
}

// compiledPackage writes the authored files into a fresh directory of the
// given name, then the views derive computes from them and the runtime
// compile writes, and returns the directory. It fails the test when the
// files do not derive or compile.
func compiledPackage(tb testing.TB, name string, files map[string][]byte) string {
	tb.Helper()
	pkg := filepath.Join(tb.TempDir(), name)
	for f, data := range files {
		write(tb, pkg, f, data)
	}
	core, err := derive.Load(pkg)
	if err != nil {
		tb.Fatal(err)
	}
	if findings := core.Findings(); findings.HasErrors() {
		tb.Fatalf("reftest: %s does not derive: %v", name, findings.Sorted())
	}
	in := core.Inputs
	for _, v := range core.Views().Files() {
		write(tb, pkg, v.Path, v.Data)
	}
	for _, f := range compiled(tb, in, files[compile.ToolDocsFile]) {
		write(tb, pkg, f.Path, f.Data)
	}
	return pkg
}
