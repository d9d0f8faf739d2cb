package strict_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
)

// referenceDocs holds the four documents of the reference example, in a
// directory named like the package so that the Skill's name matches it.
const referenceDocs = "testdata/sample-request"

// referenceMarker is the documentation marker of the reference example.
const referenceMarker = "<!-- code2skill-capability-contract-sha256:1ff8f61a55009a1f043fc2a596e44a238af8b34e5dec7d8fa8bcc43a07d38656 -->"

// pkgOption changes the reference package before it is written.
type pkgOption func(t testing.TB, files map[string][]byte)

// withContract replaces the reference contract by a patched copy; the views
// are derived from it.
func withContract(ops ...contracttest.Op) pkgOption {
	return func(t testing.TB, files map[string][]byte) {
		files[contract.ContractFile] = contracttest.Patch(t, files[contract.ContractFile], ops...)
	}
}

// referencePackage writes a complete strict package of the reference
// example to a fresh directory named sample-request and returns its path:
// the four Portable Core inputs, the views derive computes from them, the
// four documents of testdata, and the runtime files.
//
// The JavaScript files are stand-ins with the names compile writes: the
// strict validator only checks that they exist until it runs the runtime
// rules, so their content does not matter here.
func referencePackage(t testing.TB, opts ...pkgOption) string {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		files[name] = contracttest.Reference(t, name)
	}
	for _, o := range opts {
		o(t, files)
	}
	dir := filepath.Join(t.TempDir(), "sample-request")
	write := func(name string, data []byte) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range files {
		write(name, data)
	}
	in, findings, err := derive.ReadInputs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if findings.Merge(derive.Check(in)); findings.HasErrors() {
		t.Fatalf("the package's inputs do not derive: %v", findings.Sorted())
	}
	views := derive.Views(in)
	for _, v := range views {
		write(v.Path, v.Data)
	}
	// The documents carry the marker of the reference contract; a package
	// built from a patched contract carries its own, as derive prints it.
	marker := derive.Marker(views)
	err = fs.WalkDir(os.DirFS(referenceDocs), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(filepath.Join(referenceDocs, filepath.FromSlash(p)))
		write(p, bytes.ReplaceAll(data, []byte(referenceMarker), []byte(marker)))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	write(assets.ErrorNormalizer.Name(), assets.ErrorNormalizer.Bytes())
	write(assets.WorkflowGuard.Name(), assets.WorkflowGuard.Bytes())
	for _, js := range []string{"function-core/index.mjs", "mcp-tool/index.mjs", "mcp-tool/runtime.mjs"} {
		write(js, []byte("// Stand-in for the file code2skill compile writes.\nexport {};\n"))
	}
	return dir
}
