package derive_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/canonjson"
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

// referenceMarker is the marker of the reference inputs: the SHA-256 of
// their documentation view in canonical order.
const referenceMarker = "<!-- code2skill-capability-contract-sha256:2391f3ab414fe717a4bd5f5e463377eff40c8e4e4a241b6c2cfacf9340c48b2a -->"

// The reference inputs derive to the published views, up to the order of
// what carries no meaning: derived views are written in canonical order
// (object members in the format's order, sets in declaration order), while
// the published ones keep the reference author's order. Everything else,
// every value and the order of every list of records, is the same. The
// published files are fixed: this test never rewrites them.
func TestReferenceViewsMatchThePublishedOnes(t *testing.T) {
	views := derive.Views(referenceInputs(t))
	var paths []string
	for _, v := range views {
		paths = append(paths, v.Path)
		want, err := os.ReadFile(filepath.Join("testdata", "example", "want", filepath.FromSlash(v.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := orderFree(t, v.Data), orderFree(t, want); got != want {
			t.Errorf("%s differs from the reference beyond order (-want +got):\n%s", v.Path, cmp.Diff(want, got))
		}
	}
	if got := wantFiles(t, "testdata/example/want"); !slices.Equal(sorted(paths), got) {
		t.Errorf("derived %v, the reference has %v", sorted(paths), got)
	}
}

// The reference inputs derive to their golden views, in canonical order,
// and to referenceMarker. CODE2SKILL_UPDATE=1 rewrites the goldens (not
// the marker).
func TestReferenceViewsAreCanonical(t *testing.T) {
	views := derive.Views(referenceInputs(t))
	for _, v := range views {
		golden.Check(t, filepath.Join("testdata", "example", "canonical", filepath.FromSlash(v.Path)), v.Data)
	}
	if marker := derive.Marker(views); marker != referenceMarker {
		t.Errorf("Marker = %q, want %s", marker, referenceMarker)
	}
}

// orderFree renders a JSON document with every object's members sorted and
// every list of plain values sorted: what remains when order is ignored
// wherever the canonical form may reorder.
func orderFree(t testing.TB, data []byte) string {
	t.Helper()
	v, err := canonjson.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	// Lists of plain values are sorted here; EncodeSorted sorts the keys.
	var norm func(canonjson.Value) canonjson.Value
	norm = func(v canonjson.Value) canonjson.Value {
		switch v := v.(type) {
		case *canonjson.Object:
			out := &canonjson.Object{}
			for k, e := range v.All() {
				out.Set(k, norm(e))
			}
			return out
		case canonjson.Array:
			out := make(canonjson.Array, len(v))
			plain := true
			for i, e := range v {
				out[i] = norm(e)
				switch e.(type) {
				case *canonjson.Object, canonjson.Array:
					plain = false
				}
			}
			if plain {
				slices.SortFunc(out, func(a, b canonjson.Value) int {
					return strings.Compare(string(canonjson.DigestForm(a)), string(canonjson.DigestForm(b)))
				})
			}
			return out
		}
		return v
	}
	return string(canonjson.EncodeSorted(norm(v)))
}

// The same contract re-serialised with its members and sets in another
// order derives to byte-identical views and the same marker.
func TestReorderedContractDerivesTheSameViews(t *testing.T) {
	packages := map[string]func(string) []byte{
		"reference": func(name string) []byte { return contracttest.Reference(t, name) },
	}
	dirs, _ := filepath.Glob("testdata/synthetic/*/input")
	for _, dir := range dirs {
		packages[filepath.Base(filepath.Dir(dir))] = func(name string) []byte {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
	for name, read := range packages {
		t.Run(name, func(t *testing.T) {
			in, l := decodeInputs(t, read)
			requireNoFindings(t, l)
			want := derive.Views(in)
			for seed := range uint64(4) {
				reordered := contracttest.Reorder(read(contract.ContractFile), seed)
				if bytes.Equal(reordered, read(contract.ContractFile)) {
					t.Fatalf("seed %d did not reorder anything", seed)
				}
				again, l := decodeInputs(t, func(n string) []byte {
					if n == contract.ContractFile {
						return reordered
					}
					return read(n)
				})
				requireNoFindings(t, l)
				got := derive.Views(again)
				for i := range want {
					if !bytes.Equal(got[i].Data, want[i].Data) {
						t.Errorf("seed %d: %s differs (-want +got):\n%s", seed, want[i].Path, cmp.Diff(string(want[i].Data), string(got[i].Data)))
					}
				}
				if derive.Marker(got) != derive.Marker(want) {
					t.Errorf("seed %d: the marker changed", seed)
				}
			}
		})
	}
}

// Line hints are not part of an evidence locator's identity: moving every
// locator's line leaves every view, and the marker, as they were.
func TestLineHintsDoNotEnterTheViews(t *testing.T) {
	read := func(name string) []byte { return contracttest.Reference(t, name) }
	in, l := decodeInputs(t, read)
	requireNoFindings(t, l)
	var ops, drift []contracttest.Op
	for i, e := range in.Contract.EvidenceCatalog {
		path, symbol, _ := strings.Cut(e.Locator, "#")
		ops = append(ops, contracttest.Set(fmt.Sprintf("/evidenceCatalog/%d/locator", i), fmt.Sprintf("%q", path+":12#"+symbol)))
		drift = append(drift, contracttest.Set(fmt.Sprintf("/evidenceCatalog/%d/locator", i), fmt.Sprintf("%q", path+":40-52#"+symbol)))
	}
	derived := func(ops []contracttest.Op) []derive.View {
		data := contracttest.Patch(t, read(contract.ContractFile), ops...)
		in, l := decodeInputs(t, func(n string) []byte {
			if n == contract.ContractFile {
				return data
			}
			return read(n)
		})
		requireNoFindings(t, l)
		return derive.Views(in)
	}
	want, hinted, drifted := derive.Views(in), derived(ops), derived(drift)
	for i := range want {
		if !bytes.Equal(hinted[i].Data, want[i].Data) || !bytes.Equal(drifted[i].Data, want[i].Data) {
			t.Errorf("%s depends on line hints", want[i].Path)
		}
	}
	if derive.Marker(drifted) != referenceMarker {
		t.Errorf("the marker depends on line hints")
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

// A write that leaves an evidence-coverage category out still derives: the
// gap is what its matrix row records (incomplete-write-evidence), not a
// reason to write nothing. The read beside it keeps its reasons.
func TestAMissingCoverageCategoryIsRecorded(t *testing.T) {
	reasons := func(ops ...contracttest.Op) [][]string {
		t.Helper()
		data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile), ops...)
		in, l := decodeInputs(t, func(n string) []byte {
			if n == contract.ContractFile {
				return data
			}
			return contracttest.Reference(t, n)
		})
		requireNoFindings(t, l)
		var m struct {
			Capabilities []struct {
				Reasons []string `json:"reasons"`
			} `json:"capabilities"`
		}
		if err := json.Unmarshal(viewData(t, derive.Views(in), derive.VerificationMatrixFile), &m); err != nil {
			t.Fatal(err)
		}
		var out [][]string
		for _, c := range m.Capabilities {
			out = append(out, c.Reasons)
		}
		return out
	}
	before := reasons()
	after := reasons(contracttest.Remove("/capabilities/3/evidenceCoverage/idempotency"))
	if slices.Contains(before[3], "incomplete-write-evidence") || !slices.Contains(after[3], "incomplete-write-evidence") {
		t.Errorf("the save's reasons: %v before, %v after", before[3], after[3])
	}
	if !slices.Equal(before[0], after[0]) {
		t.Errorf("the read's reasons changed: %v → %v", before[0], after[0])
	}
}
