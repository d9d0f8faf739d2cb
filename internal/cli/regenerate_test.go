package cli

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/pipeline"
	"github.com/code2skill/code2skill/internal/reftest"
)

// Re-generating a package from the same inputs is a fixed point: the
// pipeline's generate stage (compile, derive, the documents' markers), run
// again with the real steps on its own output, changes no byte; and run on
// the same contract re-serialised in another order, it writes the same
// files.
func TestRegenerationIsAFixedPoint(t *testing.T) {
	pkg := reftest.StrictSamplePackage(t)
	key, err := attest.NewKey([]byte("code2skill regeneration test key"))
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Dir: pkg, Steps: realPipelineSteps(), Version: "test", Key: key}
	if _, err := p.Init(pipeline.InitOptions{}); err != nil {
		t.Fatal(err)
	}
	generate := func() map[string][]byte {
		t.Helper()
		rep, err := p.Run(context.Background(), pipeline.RunOptions{Only: []string{pipeline.StageAnalyze, pipeline.StageGenerate}, Force: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Stages {
			if (s.Name == pipeline.StageAnalyze || s.Name == pipeline.StageGenerate) && s.Status != pipeline.StatusCompleted {
				t.Fatalf("%s %s: %s\n%s", s.Name, s.Status, s.ErrorSummary, contracttest.Findings(rep.Findings))
			}
		}
		return tree(t, pkg)
	}
	first := generate()
	if second := generate(); !sameTree(t, first, second, "") {
		t.Error("generating again changed the package")
	}
	file := filepath.Join(pkg, contract.ContractFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, contracttest.Reorder(data, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	if reordered := generate(); !sameTree(t, first, reordered, contract.ContractFile) {
		t.Error("the contract re-serialised in another order generated other files")
	}
}

// tree reads every file of dir.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree reports whether two trees hold the same files with the same
// bytes, except the file named except; it names each difference.
func sameTree(t *testing.T, a, b map[string][]byte, except string) bool {
	t.Helper()
	same := true
	for name, data := range a {
		if other, ok := b[name]; name != except && (!ok || !bytes.Equal(data, other)) {
			t.Errorf("%s differs", name)
			same = false
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			t.Errorf("%s appeared", name)
			same = false
		}
	}
	return same
}
