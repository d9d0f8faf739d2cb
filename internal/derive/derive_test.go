package derive_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/golden"
)

// decodeInputs decodes the four inputs, as derive reads them, and returns
// them with every finding of decoding and of Check that derive reports.
func decodeInputs(t testing.TB, read func(name string) []byte) (*derive.Inputs, *diag.List) {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		files[name] = read(name)
	}
	in, l := derive.Decode(files)
	l.Merge(derive.Check(in))
	return in, l
}

func referenceInputs(t testing.TB) *derive.Inputs {
	in, l := decodeInputs(t, func(name string) []byte { return contracttest.Reference(t, name) })
	requireNoFindings(t, l)
	return in
}

func dirInputs(t testing.TB, dir string) (*derive.Inputs, *diag.List) {
	return decodeInputs(t, func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	})
}

func requireNoFindings(t testing.TB, l *diag.List) {
	t.Helper()
	for _, d := range l.Sorted() {
		t.Errorf("unexpected finding: %s", d)
	}
	if l.Len() > 0 {
		t.FailNow()
	}
}

const referenceMarker = "<!-- code2skill-capability-contract-sha256:1ff8f61a55009a1f043fc2a596e44a238af8b34e5dec7d8fa8bcc43a07d38656 -->"

// The reference inputs derive to the published views byte for byte. The
// expected files are fixed: this test never rewrites them.
func TestReferenceViewsAreReproducedExactly(t *testing.T) {
	views := derive.Views(referenceInputs(t))
	var paths []string
	for _, v := range views {
		paths = append(paths, v.Path)
		want, err := os.ReadFile(filepath.Join("testdata", "example", "want", filepath.FromSlash(v.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(v.Data, want) {
			t.Errorf("%s differs from the reference (-want +got):\n%s", v.Path, cmp.Diff(string(want), string(v.Data)))
		}
	}
	if got := wantFiles(t, "testdata/example/want"); !slices.Equal(sorted(paths), got) {
		t.Errorf("derived %v, the reference has %v", sorted(paths), got)
	}
	if marker := derive.Marker(views); marker != referenceMarker {
		t.Errorf("Marker = %q, want %s", marker, referenceMarker)
	}
}

// Each synthetic package derives without a finding, and to its golden views.
// CODE2SKILL_UPDATE=1 rewrites the goldens.
func TestSyntheticGoldens(t *testing.T) {
	dirs, err := filepath.Glob("testdata/synthetic/*/input")
	if err != nil || len(dirs) < 5 {
		t.Fatalf("want at least five synthetic packages, found %d (%v)", len(dirs), err)
	}
	for _, dir := range dirs {
		pkg := filepath.Dir(dir)
		t.Run(filepath.Base(pkg), func(t *testing.T) {
			in, l := dirInputs(t, dir)
			requireNoFindings(t, l)
			views := derive.Views(in)
			var paths []string
			for _, v := range views {
				paths = append(paths, v.Path)
				golden.Check(t, filepath.Join(pkg, "want", filepath.FromSlash(v.Path)), v.Data)
			}
			marker := derive.Marker(views)
			golden.Check(t, filepath.Join(pkg, "want", "marker.txt"), []byte(marker+"\n"))
			if got, want := wantFiles(t, filepath.Join(pkg, "want")), sorted(append(paths, "marker.txt")); !slices.Equal(got, want) {
				t.Errorf("golden directory holds %v, want exactly %v (remove orphans)", got, want)
			}
		})
	}
}

// The two bundle files and the two schema contracts are equal, and the
// marker is the hash of the documentation view.
func TestMirroredViewsAreEqual(t *testing.T) {
	views := derive.Views(referenceInputs(t))
	byPath := map[string][]byte{}
	for _, v := range views {
		byPath[v.Path] = v.Data
	}
	for _, pair := range [][2]string{
		{derive.BundleFile, derive.FunctionBundleFile},
		{derive.FunctionSchemaFile, derive.MCPSchemaFile},
	} {
		if !bytes.Equal(byPath[pair[0]], byPath[pair[1]]) {
			t.Errorf("%s and %s differ", pair[0], pair[1])
		}
	}
	if len(views) != 10 || len(byPath) != 10 {
		t.Errorf("want ten distinct views, got %d", len(byPath))
	}
}

// Deriving is a pure function of the inputs: repeated runs, and runs on a
// fresh decoding, give the same bytes (no map order, clock or path leaks in).
func TestDerivationIsDeterministic(t *testing.T) {
	first := derive.Views(referenceInputs(t))
	for range 20 {
		again := derive.Views(referenceInputs(t))
		for i := range first {
			if !bytes.Equal(first[i].Data, again[i].Data) {
				t.Fatalf("%s differs between runs", first[i].Path)
			}
		}
	}
	for _, v := range first {
		if bytes.Contains(v.Data, []byte("/work/")) || bytes.Contains(v.Data, []byte("/tmp/")) {
			t.Errorf("%s contains a machine path", v.Path)
		}
	}
}

func TestMarkerNeedsTheDocumentationView(t *testing.T) {
	if m := derive.Marker([]derive.View{{Path: derive.BundleFile}}); m != "" {
		t.Errorf("Marker without the documentation view = %q", m)
	}
}

// wantFiles lists the files under dir, relative and slash-separated.
func wantFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil && !(golden.Update() && os.IsNotExist(err)) {
		t.Fatal(err)
	}
	return sorted(out)
}

func sorted(ss []string) []string {
	out := slices.Clone(ss)
	slices.SortFunc(out, strings.Compare)
	return out
}
