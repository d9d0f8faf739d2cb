package strict_test

import (
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/verdict"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// BenchmarkFinalEvidence measures what the final validation of the strict
// sample adds to make its verdict trustworthy: verifying the tag of every
// check the final files record (attestation), and compiling the contract
// in memory to compare the Function core, the MCP adapter and the copied
// assets with the package's, read from disk (compile).
func BenchmarkFinalEvidence(b *testing.B) {
	dir := reftest.StrictSamplePackage(b)
	loaded, err := derive.Load(dir)
	in, list := loaded.Inputs, loaded.Read()
	if err != nil || list.HasErrors() {
		b.Fatal(err, list.Sorted())
	}
	key, err := attest.NewKey(make([]byte, 32))
	if err != nil {
		b.Fatal(err)
	}
	// The final files of a finalization whose every check is attested.
	base := verdict.NewBaseline(in, derive.Derive(in))
	g := verdicttest.NewGreenFrom(b, base)
	rep, ds := verdict.FromReport(base, "report.json", g.Report)
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	rep.Evidence.Live = g.Live
	m, ds := verdict.Compute(base, rep.Evidence)
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	pkg, _, err := pkgdir.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	hashes := verdict.Hashes{}
	for _, f := range pkg.Files() {
		data, err := pkg.ReadFile(f.Path)
		if err != nil {
			b.Fatal(err)
		}
		hashes[f.Path] = canonjson.SHA256(data)
	}
	final := verdict.Build(verdict.FilesInput{Baseline: base, Matrix: m, Live: g.Live, GlobalChecks: rep.GlobalChecks, Hashes: hashes,
		Key: key, Attested: func(string, string, *canonjson.Object) bool { return true }})
	docs := map[string][]byte{}
	for _, f := range final {
		docs[f.Path] = f.Data
	}
	decode := func(p string) canonjson.Value {
		v, err := canonjson.Decode(docs[p])
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	matrix, preflight := decode(verdict.MatrixFile), decode(verdict.PreflightFile)
	toolDocs, err := pkg.ReadFile(compile.ToolDocsFile)
	if err != nil {
		b.Fatal(err)
	}
	read := func(p string) ([]byte, bool) {
		data, err := pkgdir.ReadFile(filepath.Join(dir, filepath.FromSlash(p)), 0)
		return data, err == nil
	}

	attestation := func(b *testing.B) {
		doc, err := canonjson.Decode(docs[verdict.AttestationFile])
		if err != nil {
			b.Fatal(err)
		}
		checks := verdict.MatrixChecks(matrix, preflight)
		v := verdict.VerifyAttestation(key, base.ContractID, verdict.CandidateDigest(hashes), doc, checks)
		if rows := verdict.UnattestedRows(checks, v.Outcomes); v.Problem != "" || len(rows) > 0 || len(checks) == 0 {
			b.Fatalf("attestation: %q, unattested %v of %d checks", v.Problem, rows, len(checks))
		}
	}
	compiled := func(b *testing.B) {
		if ds := compile.Verify(in, toolDocs, read); len(ds) > 0 {
			b.Fatal(ds)
		}
	}
	for _, bm := range []struct {
		name string
		f    []func(*testing.B)
	}{
		{"attestation", []func(*testing.B){attestation}},
		{"compile", []func(*testing.B){compiled}},
		{"both", []func(*testing.B){attestation, compiled}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range bm.f {
					f(b)
				}
			}
		})
	}
}
