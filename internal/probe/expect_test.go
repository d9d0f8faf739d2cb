package probe

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// portableCore copies a Portable Core from derive's synthetic fixtures into
// a package directory, without any derived view.
func portableCore(t *testing.T, fixture string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), fixture)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "derive", "testdata", "synthetic", fixture, "input"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

func expectationsOf(t *testing.T, dir string) (*expectations, *diag.List) {
	t.Helper()
	pkg, ds, err := pkgdir.Open(dir)
	if err != nil || len(ds) > 0 {
		t.Fatalf("opening %s: %v %v", dir, err, ds)
	}
	var l diag.List
	return loadStrict(pkg, nil, &l), &l
}

// summary renders what the probe expects of each tool.
func summary(e *expectations) []string {
	var out []string
	for _, tool := range e.tools {
		out = append(out, tool.name+" "+string(canonjson.Encode(tool.input))+" "+string(canonjson.Encode(tool.annotations))+" write="+map[bool]string{true: "yes", false: "no"}[tool.write])
	}
	return out
}

// TestExpectationsFromTheContract checks that a strict package without
// derived views is probed against its canonical contract, derived in
// process, exactly as it would be against the views derive writes.
func TestExpectationsFromTheContract(t *testing.T) {
	for _, fixture := range []string{"read-only", "backend-write"} {
		t.Run(fixture, func(t *testing.T) {
			dir := portableCore(t, fixture)
			inProcess, l := expectationsOf(t, dir)
			if inProcess == nil || l.Len() != 0 {
				t.Fatalf("no expectations from the contract: %v", l.Sorted())
			}

			loaded, err := derive.Load(dir)

			in := loaded.Inputs
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range derive.Views(in) {
				p := filepath.Join(dir, filepath.FromSlash(v.Path))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, v.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			fromViews, l := expectationsOf(t, dir)
			if fromViews == nil || l.Len() != 0 {
				t.Fatalf("no expectations from the written views: %v", l.Sorted())
			}
			if len(inProcess.tools) == 0 {
				t.Fatal("the contract yields no tool")
			}
			if diff := cmp.Diff(summary(fromViews), summary(inProcess)); diff != "" {
				t.Errorf("in-process expectations differ from the written views' (-views +in-process)\n%s", diff)
			}
		})
	}
}

func TestExpectationsWithoutViewsOrContract(t *testing.T) {
	dir := portableCore(t, "read-only")
	os.Remove(filepath.Join(dir, contract.ContractFile))
	e, l := expectationsOf(t, dir)
	if e != nil || !slices.Equal(l.RuleIDs(), []string{RuleExpectations.ID}) || !strings.Contains(l.Sorted()[0].Message, contract.ContractFile) {
		t.Errorf("expectations %v, findings %v", e, l.Sorted())
	}
}

func TestExpectationsFromABrokenContract(t *testing.T) {
	dir := portableCore(t, "read-only")
	p := filepath.Join(dir, contract.ContractFile)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `"toolName": "`, `"toolName": "Not A Tool Name `, 1)), 0o644)
	e, l := expectationsOf(t, dir)
	if e != nil || !l.Has(RuleExpectations) || len(l.RuleIDs()) < 2 {
		t.Errorf("expectations %v, findings %v; want the contract's own findings and %s", e, l.Sorted(), RuleExpectations.ID)
	}
}
