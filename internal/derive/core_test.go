package derive_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
)

// referenceDir writes the reference inputs into a fresh directory.
func referenceDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		if err := os.WriteFile(filepath.Join(dir, name), contracttest.Reference(t, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The documents a stage reads are what the files hold: each view's
// document encodes to its file and decodes back to an equal value, so a
// stage that reads the document sees what one reading the file sees.
func TestDerivedDocumentsAreTheFiles(t *testing.T) {
	d := derive.Derive(referenceInputs(t))
	docs := map[string]*canonjson.Object{
		derive.BundleFile: d.Bundle, derive.FunctionBundleFile: d.Bundle, derive.DraftFile: d.Draft,
		derive.FunctionSchemaFile: d.SchemaContract, derive.MCPSchemaFile: d.SchemaContract,
		derive.CapabilityContractFile: d.CapabilityContracts, derive.GoalContractFile: d.GoalContract,
		derive.ConsumerRequirementsFile: d.ConsumerRequirements, derive.HostCompatibilityFile: d.HostCompatibility,
		derive.VerificationMatrixFile: d.Matrix,
	}
	var paths []string
	for _, v := range d.Files() {
		paths = append(paths, v.Path)
		doc := docs[v.Path]
		if got := canonjson.Encode(doc); string(got) != string(v.Data) {
			t.Errorf("%s: the document does not encode to the file", v.Path)
		}
		back, err := canonjson.Decode(v.Data)
		if err != nil || !canonjson.Equal(back, doc) {
			t.Errorf("%s: the file does not decode to the document (%v)", v.Path, err)
		}
		if string(d.File(v.Path)) != string(v.Data) {
			t.Errorf("File(%s) is not the view's data", v.Path)
		}
	}
	if !slices.Equal(paths, derive.ViewPaths) {
		t.Errorf("Files gives %v, ViewPaths says %v", paths, derive.ViewPaths)
	}
	if d.Marker() != referenceMarker {
		t.Errorf("marker %s, want %s", d.Marker(), referenceMarker)
	}
}

// Load reads the inputs once; the Core derives and judges on demand, and
// says which input changed on disk since.
func TestLoadAndChanged(t *testing.T) {
	dir := referenceDir(t)
	before := derive.Loads()
	core, err := derive.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := derive.Loads() - before; n != 1 {
		t.Errorf("Load counted %d loads", n)
	}
	requireNoFindings(t, core.Findings())
	views := core.Views()
	if !core.Sound() || core.Views() != views {
		t.Fatal("a sound Core derives its views once")
	}
	if got := core.Views().Marker(); got != referenceMarker {
		t.Errorf("marker %s", got)
	}
	for _, tc := range []struct {
		name string
		edit func(path string) error
		file string
	}{
		{"unchanged", nil, ""},
		{"an edited Host profile", func(p string) error { return os.WriteFile(p, []byte("{}\n"), 0o644) }, contract.HostProfileFile},
		{"a removed export profile", os.Remove, contract.ExportProfileFile},
	} {
		if tc.edit != nil {
			if err := tc.edit(filepath.Join(dir, tc.file)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := core.Changed()
		if err != nil || got != tc.file {
			t.Errorf("%s: Changed() = %q, %v, want %q", tc.name, got, err, tc.file)
		}
		if tc.edit != nil {
			if err := os.WriteFile(filepath.Join(dir, tc.file), contracttest.Reference(t, tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A Core's findings are its own: a caller that adds to what it got does
// not change what the next caller gets.
func TestCoreFindingsAreCopies(t *testing.T) {
	core, _ := derive.Load(t.TempDir()) // no input at all
	first := core.Findings()
	n := first.Len()
	if n == 0 || core.Sound() {
		t.Fatal("a package without inputs has findings")
	}
	first.Merge(first)
	if got := core.Findings().Len(); got != n {
		t.Errorf("the Core's findings grew to %d from %d", got, n)
	}
}
