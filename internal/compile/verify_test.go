package compile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
)

// TestVerify: the runtime compile writes verifies; a hand edit of a
// Function, the adapter or a copied asset is an error at its first
// differing line, and so is a missing file or a contract that no longer
// compiles.
func TestVerify(t *testing.T) {
	in := load(t, referencePackage)
	res, _ := Compile(in)
	if !res.Compiled() {
		t.Fatal("the reference does not compile")
	}
	toolDocs, err := os.ReadFile(filepath.Join(referencePackage.docsDir(), filepath.FromSlash(ToolDocsFile)))
	if err != nil {
		t.Fatal(err)
	}
	pkg := func(edit func(files map[string][]byte)) func(string) ([]byte, bool) {
		files := map[string][]byte{}
		for _, f := range res.Files {
			files[f.Path] = bytes.Clone(f.Data)
		}
		if edit != nil {
			edit(files)
		}
		return func(p string) ([]byte, bool) { d, ok := files[p]; return d, ok }
	}
	if ds := Verify(in.Core, toolDocs, pkg(nil)); len(ds) > 0 {
		t.Fatalf("the compiled runtime does not verify: %v", ds)
	}
	replace := func(file, old, new string) func(map[string][]byte) {
		return func(files map[string][]byte) {
			if !bytes.Contains(files[file], []byte(old)) {
				t.Fatalf("%s does not hold %q", file, old)
			}
			files[file] = bytes.Replace(files[file], []byte(old), []byte(new), 1)
		}
	}
	lineOf := func(file, text string) int {
		for _, f := range res.Files {
			if f.Path == file {
				return bytes.Count(f.Data[:bytes.Index(f.Data, []byte(text))], []byte{'\n'}) + 1
			}
		}
		return 0
	}
	for _, tt := range []struct {
		name string
		edit func(map[string][]byte)
		file string
		line int
	}{
		{"an accepted status added", replace(FunctionCoreFile, `"uploadAttachment", [201]`, `"uploadAttachment", [200, 201]`),
			FunctionCoreFile, lineOf(FunctionCoreFile, `"uploadAttachment", [201]`)},
		{"GET turned into DELETE", replace(FunctionCoreFile, `"method": "GET"`, `"method": "DELETE"`),
			FunctionCoreFile, lineOf(FunctionCoreFile, `"method": "GET"`)},
		{"an edited adapter", replace(AdapterFile, "isError: true", "isError: false"), AdapterFile, lineOf(AdapterFile, "isError: true")},
		{"an edited normalizer", replace(NormalizerFile, "const READ = 'read';", "const READ = 'reads';"), NormalizerFile, lineOf(NormalizerFile, "const READ = 'read';")},
		{"a missing dispatcher", func(files map[string][]byte) { delete(files, DispatcherFile) }, DispatcherFile, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ds := Verify(in.Core, toolDocs, pkg(tt.edit))
			if len(ds) != 1 || ds[0].Rule != RuleGeneratedEdited.ID || ds[0].File != tt.file || ds[0].Line != tt.line {
				t.Errorf("got %v, want one %s at %s:%d", ds, RuleGeneratedEdited.ID, tt.file, tt.line)
			}
		})
	}

	// A contract that no longer compiles cannot be what compile wrote.
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
		contracttest.Set("/capabilities/0/implementation/steps/0/url", `"https://application.example/api/{missing}"`))
	c, l := contract.DecodeContract(contract.ContractFile, data)
	if l.HasErrors() {
		t.Fatal(l.Sorted())
	}
	patched := *in.Core
	patched.Contract = c
	if ds := Verify(&patched, toolDocs, pkg(nil)); len(ds) != 1 || !strings.Contains(ds[0].Message, "does not compile") {
		t.Errorf("a contract that does not compile: %v", ds)
	}
	if ds := Verify(in.Core, []byte("[]"), pkg(nil)); len(ds) != 1 || ds[0].File != ToolDocsFile {
		t.Errorf("malformed tool docs: %v", ds)
	}
}
