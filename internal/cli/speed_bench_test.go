package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/testnode"
)

// BenchmarkDeriveCommand measures code2skill derive in process, as the
// command runs it: reading and checking the Portable Core, deriving the
// views and writing those that changed, the contract's full rules, and the
// documents' statements against the contract.
//
//	reference      the reference inputs (four capabilities, no documents)
//	strict-sample  the bundled strict sample (four capabilities, with its
//	               documents)
//
// The package is derived once before timing, so each timed run finds the
// views written, as a re-run of derive does.
func BenchmarkDeriveCommand(b *testing.B) {
	for _, bc := range []struct {
		name string
		dir  func(testing.TB) string
	}{
		{"reference", referencePackage},
		{"strict-sample", func(tb testing.TB) string {
			dir := filepath.Join(tb.TempDir(), examples.StrictSampleName)
			writeTree(tb, examples.StrictSample(), dir)
			return dir
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := bc.dir(b)
			if res := runDerive(dir); res.failed || res.list.HasErrors() {
				b.Fatalf("derive: %v", res.list.Sorted())
			}
			b.ReportAllocs()
			for b.Loop() {
				if res := runDerive(dir); res.failed || res.list.HasErrors() {
					b.Fatalf("derive: %v", res.list.Sorted())
				}
			}
		})
	}
}

// BenchmarkStrictSampleUnchangedRun measures code2skill pipeline run on the
// bundled strict sample after the strict demo finalized it with the real
// steps: nothing changed, so every stage is fingerprinted and skipped and
// no node process starts. The run goes through the command line in
// process, as the command does (state, lock, fingerprints, report).
func BenchmarkStrictSampleUnchangedRun(b *testing.B) {
	testnode.Node(b)
	dir := filepath.Join(b.TempDir(), "demo")
	var out bytes.Buffer
	if code := Run(context.Background(), []string{"demo", "--strict", dir}, &Stdio{Out: &out, Err: io.Discard}); code != ExitPassed {
		b.Fatalf("demo --strict: exit %d\n%s", code, out.String())
	}
	pkg := filepath.Join(dir, examples.StrictSampleName)
	run := func() {
		out.Reset()
		if code := Run(context.Background(), []string{"pipeline", "run", pkg, "--format", "json"}, &Stdio{Out: &out, Err: io.Discard}); code != ExitPassed {
			b.Fatalf("pipeline run: exit %d\n%s", code, out.String())
		}
	}
	run()
	var rep struct {
		Summary struct {
			Stages []struct {
				Name       string `json:"name"`
				LastAction string `json:"lastAction"`
			} `json:"stages"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		b.Fatal(err)
	}
	for _, s := range rep.Summary.Stages {
		if s.LastAction == "executed" {
			b.Fatalf("stage %s ran again on an unchanged package", s.Name)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		run()
	}
}

// writeTree writes every regular file of fsys under dir.
func writeTree(tb testing.TB, fsys fs.FS, dir string) {
	tb.Helper()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
}
