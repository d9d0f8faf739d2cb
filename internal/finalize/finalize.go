// Package finalize finalizes a verified vNext package: it checks the
// verification report and the live evidence, passes the contamination gate,
// computes every capability's and workflow's status, and writes the final
// files — or writes nothing and says why.
//
//	res := finalize.Run(ctx, "generated/code2skill/sample-request", finalize.Options{
//		Report:    "state/verification/verification-report.json",
//		Live:      []finalize.LivePair{{Input: "live/in.json", Result: "live/out.json"}},
//		Validator: validator, // the strict validator in final mode
//	})
//
// The steps, in order; each reports every problem it finds, and any error
// stops finalization before anything is written:
//
//  1. the package: no symbolic link, readable Portable Core inputs that
//     pass derive's checks, derived views equal to what derive computes
//     (verification-matrix.json excepted: finalize owns it), the Function
//     core, MCP server and Skill present, the Function core, MCP adapter
//     and copied assets byte for byte what compile generates, and no final
//     file path taken by something other than a regular file;
//  2. the verification report, outside the package: its JSON Schema (the
//     published one, through a real JSON Schema library), then contract,
//     coverage and status (verdict.FromReport), then every check against
//     its phase, Tool, writes and proofs (verdict.CheckEvidence);
//  3. the evidence: every passed check's evidenceHash is the SHA-256 of a
//     regular file in the evidence directory (by default the report's
//     directory; symbolic links are not followed and one that leaves the
//     directory is a finding);
//  4. the live evidence: pairs of Tool calls and results per capability,
//     each a tools/call of the capability's own Tool with arguments its
//     input schema accepts, each a successful result meeting its output
//     contract, neither holding a credential;
//  5. the contamination gate over every package file and over the report,
//     whose checks are copied into the package;
//  6. the statuses (verdict.Compute) and the final files (verdict.Build),
//     written in one atomic batch. With the evidence key, every check of
//     the report that an authenticated record of the evidence directory
//     says exactly (a record the pipeline tagged, written by the stage of
//     its phase, about this contract and this package as it is) is tagged
//     in verification-attestation.json; the others, and the rows resting
//     on them, are unattested (Result.Unattested) — accepted, and said;
//  7. the validator, in final mode. When it reports an error or cannot
//     run, the previous final files are put back (and new ones removed).
//
// Finalize is re-runnable: it never reads its own previous output as input
// (the baseline is derived, not read from verification-matrix.json), so
// identical inputs give byte-identical files.
package finalize

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contamination"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/verdict"
)

// Rules about the package being finalized.
var (
	RulePackageSymlink  = diag.Register("FINALIZE_PACKAGE_SYMLINK", diag.Error, "the package holds a symbolic link; a manifest can vouch only for regular files")
	RuleViewStale       = diag.Register("FINALIZE_VIEW_STALE", diag.Error, "a derived view is missing or differs from what derive computes from the Portable Core")
	RuleArtifactMissing = diag.Register("FINALIZE_ARTIFACT_MISSING", diag.Error, "the Function core, the MCP server or the Skill the final matrix would call generated is missing")
	RuleFinalPath       = diag.Register("FINALIZE_FINAL_PATH", diag.Error, "the path of a final file is taken by something other than a regular file")
	RuleValidator       = diag.Register("FINALIZE_VALIDATOR", diag.Error, "the validator rejected the finalized package; the previous final files were restored")
	RuleIOFailure       = diag.Register("FINALIZE_IO_FAILURE", diag.Error, "finalize could not read an input or write the final files")
)

// artifacts are the generated files the final matrix calls generated: the
// Function core, the MCP server and the Skill.
var artifacts = []string{"function-core/index.mjs", "mcp-tool/index.mjs", "SKILL.md"}

// A Validator validates a package in final mode once finalize has written
// its final files. The command line plugs in the strict validator; tests use
// the final-files cross-check alone.
type Validator struct {
	// Name says which validator ran, in summaries.
	Name string
	// Validate returns the validator's findings; err is for a validator
	// that could not run. core is the package's Portable Core, which
	// finalize loaded: the final files leave it unchanged.
	Validate func(ctx context.Context, dir string, core *derive.Core, sources contract.Sources) (*diag.List, error)
}

// Options are the inputs of a finalization.
type Options struct {
	// Report is the path of the verification report.
	Report string
	// EvidenceDir is the directory holding the evidence the report's
	// checks hash; "" means the report's directory.
	EvidenceDir string
	// Live are the live evidence files, in pairs.
	Live []LivePair
	// Sources locate the authorised sources for the contamination gate;
	// without them the source-derived checks do not run.
	Sources   contract.Sources
	Validator Validator
	// Key is the evidence key: the checks of the report that an
	// authenticated record of the evidence directory vouches for are
	// tagged with it in the final files. nil tags nothing.
	Key *attest.Key
	// Core is the package's Portable Core when the command already loaded
	// it (derive.Load); nil loads it here.
	Core *derive.Core
}

// Result is what a finalization found and did.
type Result struct {
	List diag.List
	// Failed: finalize could not do its job (I/O, a validator that could
	// not run); the package is as it was.
	Failed bool
	// Matrix is the verdict written, nil when nothing was written (or it
	// was restored).
	Matrix *verdict.Matrix
	// Files are the final files written and kept, in writing order.
	Files []string
	// Restored: the validator rejected the files and the previous ones
	// were put back.
	Restored bool
	// EvidenceChecked counts the passed checks whose evidence was found.
	EvidenceChecked int
	// Unattested are the rows (capability:<id>, workflow:<id>, package)
	// whose status rests on at least one check no authenticated record
	// vouches for; nil when nothing was written.
	Unattested []string
	// LiveCapabilities counts the capabilities with live evidence.
	LiveCapabilities int
	// SourcesScanned are the sources the contamination gate read.
	SourcesScanned []string
	// Validator names the validator that ran ("" when none did).
	Validator string
}

// Run finalizes the package in dir, in the steps of the package comment;
// each step says whether finalization goes on.
func Run(ctx context.Context, dir string, opts Options) *Result {
	f := &finalization{ctx: ctx, dir: dir, opts: opts, res: &Result{}}
	if opts.Validator.Validate == nil {
		return f.fail(errors.New("no validator to run after writing the final files"))
	}
	for _, step := range []func() bool{
		f.openPackage,    // 1
		f.checkCore,      // 1
		f.checkGenerated, // 1
		f.checkReport,    // 2
		f.checkEvidence,  // 3
		f.checkLive,      // 4
		f.gate,           // 5
		f.writeFinal,     // 6
		f.validateFinal,  // 7
	} {
		if !step() {
			break
		}
	}
	return f.res
}

// finalization is one run of finalize, carried from step to step.
type finalization struct {
	ctx  context.Context
	dir  string
	opts Options
	res  *Result

	pkg   *pkgdir.Package
	core  *derive.Core
	files map[string][]byte // every file of the package, before finalization

	baseline  *verdict.Baseline
	report    *verdict.Report
	reportDoc canonjson.Value
	index     *evidenceIndex
	live      map[string]verdict.Live

	matrix     *verdict.Matrix
	final      []verdict.File
	unattested []string
}

// fail records a failure of the tool: finalize could not do its job.
func (f *finalization) fail(err error) *Result {
	f.res.Failed = true
	f.res.List.Add(RuleIOFailure.New("", "%v", err))
	return f.res
}

// stop records a failure of the tool and stops.
func (f *finalization) stop(err error) bool {
	f.fail(err)
	return false
}

// openPackage is step 1's start: the package, without symbolic links.
func (f *finalization) openPackage() bool {
	pkg, ds, err := pkgdir.Open(f.dir)
	if err != nil {
		return f.stop(err)
	}
	f.res.List.Add(ds...)
	if pkg == nil {
		return false
	}
	f.pkg = pkg
	for _, l := range pkg.Links() {
		if l.Inside {
			f.res.List.Add(RulePackageSymlink.New(l.Path, "symbolic link to %q; replace it with the file it points to", l.Target))
		}
	}
	return true
}

// checkCore is step 1's Portable Core: readable inputs that pass derive's
// checks. Its views are the baseline of the statuses.
func (f *finalization) checkCore() bool {
	res := &f.res.List
	core := f.opts.Core
	if core == nil {
		core, _ = derive.Load(f.dir)
	}
	f.core = core
	res.Merge(core.Read())
	if err := core.Err(); err != nil {
		return f.stop(err)
	}
	if res.HasErrors() {
		return false
	}
	res.Merge(core.Structure())
	if res.HasErrors() {
		return false
	}
	f.baseline = verdict.NewBaseline(core.Inputs, core.Views())
	return true
}

// checkGenerated is the rest of step 1: the derived views equal to their
// derivation, the artifacts present and the generated code what compile
// generates, and the final files' paths free.
func (f *finalization) checkGenerated() bool {
	var err error
	if f.files, err = readAll(f.pkg); err != nil {
		return f.stop(err)
	}
	f.checkViews(f.core.Views())
	f.checkArtifacts()
	f.checkFinalPaths()
	return true
}

// checkArtifacts reports a missing artifact and generated code that is not
// what compile generates: the runtime the evidence is about is what
// compile generates, so a Function edited after it was verified is
// refused, whatever hashes the final files would record for it.
func (f *finalization) checkArtifacts() {
	for _, a := range artifacts {
		if _, ok := f.files[a]; !ok {
			f.res.List.Add(RuleArtifactMissing.New(a, "%s is missing; finalize records only what was generated", a))
		}
	}
	toolDocs, hasDocs := f.files[compile.ToolDocsFile]
	if !hasDocs {
		toolDocs = nil
	}
	f.res.List.Add(compile.Verify(f.core.Inputs, toolDocs, func(p string) ([]byte, bool) { d, ok := f.files[p]; return d, ok })...)
}

// checkFinalPaths reports a final file's path taken by something other
// than a regular file.
func (f *finalization) checkFinalPaths() {
	for _, file := range verdict.FinalFiles {
		if _, regular := f.files[file]; regular {
			continue
		}
		if _, err := os.Lstat(filepath.Join(f.dir, filepath.FromSlash(file))); err == nil {
			f.res.List.Add(RuleFinalPath.New(file, "something other than a regular file takes the path of a final file"))
		}
	}
}

// checkViews compares every derived view but the matrix, which finalize
// replaces, with the file the package holds.
func (f *finalization) checkViews(views *derive.Derived) {
	for _, v := range views.Files() {
		data, ok := f.files[v.Path]
		switch {
		case v.Path == verdict.MatrixFile:
			// Finalize replaces it, whatever it holds.
		case !ok:
			f.res.List.Add(RuleViewStale.New(v.Path, "the derived view is missing; run code2skill derive"))
		case !bytes.Equal(data, v.Data):
			f.res.List.Add(RuleViewStale.New(v.Path, "the view differs from what derive computes from the Portable Core; run code2skill derive"))
		}
	}
}

// checkReport is step 2: the verification report, outside the package,
// against its JSON Schema, the contract, coverage and statuses, and each
// check against its phase. A report that cannot be read as one leaves
// f.report nil: the steps up to the gate still report what they find.
func (f *finalization) checkReport() bool {
	res := &f.res.List
	file := filepath.ToSlash(f.opts.Report)
	for _, p := range []struct{ what, path string }{{"the verification report", f.opts.Report}, {"the evidence directory", f.evidenceDir()}} {
		if inside(f.pkg.Dir(), p.path) {
			res.Add(RuleEvidenceInside.New(filepath.ToSlash(p.path), "%s lies inside the package; keep verification evidence outside it", p.what))
		}
	}
	data, err := pkgdir.ReadFile(f.opts.Report, 0)
	if err != nil {
		if d, ok := pkgdir.ReadFinding(file, err); ok {
			res.Add(d)
			return true
		}
		return f.stop(fmt.Errorf("reading %s: %w", file, err))
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			res.Add(se.Diagnostic(file))
			return true
		}
		return f.stop(err)
	}
	f.reportDoc = doc
	vs, err := verdict.ValidateReportValue(doc)
	if err != nil {
		return f.stop(err)
	}
	for _, v := range vs {
		res.Add(verdict.RuleReportSchema.New(file, "%s", v.Message).AtPointer(v.Pointer))
	}
	if len(vs) > 0 {
		return true
	}
	rep, ds := verdict.FromReport(f.baseline, file, doc)
	res.Add(ds...)
	res.Add(verdict.CheckEvidence(f.baseline, rep.Evidence, verdict.DecodeChecks(rep.GlobalChecks, "/checks")...)...)
	f.report = rep
	return true
}

// evidenceDir is the directory the report's evidence is in.
func (f *finalization) evidenceDir() string {
	if f.opts.EvidenceDir != "" {
		return f.opts.EvidenceDir
	}
	return filepath.Dir(f.opts.Report)
}

// checkEvidence is step 3: every passed check's evidence is a regular file
// of the evidence directory with the hash the check records.
func (f *finalization) checkEvidence() bool {
	f.index = &evidenceIndex{}
	if f.report == nil {
		return true
	}
	index, ds, err := indexEvidence(f.evidenceDir())
	if err != nil {
		return f.stop(fmt.Errorf("reading the evidence directory %s: %w", f.evidenceDir(), err))
	}
	f.res.List.Add(ds...)
	found, ds := index.checkEvidence(f.report, filepath.ToSlash(f.opts.Report))
	f.res.List.Add(ds...)
	f.res.EvidenceChecked = found
	f.index = index
	return true
}

// checkLive is step 4: the live evidence, outside the package, each pair
// judged against the capability's schemas and output contract.
func (f *finalization) checkLive() bool {
	for _, p := range f.opts.Live {
		for _, file := range []string{p.Input, p.Result} {
			if inside(f.pkg.Dir(), file) {
				f.res.List.Add(RuleEvidenceInside.New(filepath.ToSlash(file), "the live evidence lies inside the package; keep verification evidence outside it"))
			}
		}
	}
	live, list, err := readLive(f.core.Contract, newToolSchemas(f.core.Views()), f.opts.Live)
	f.res.List.Merge(list)
	if err != nil {
		return f.stop(err)
	}
	f.live = live
	f.res.LiveCapabilities = len(live)
	return true
}

// gate is step 5: the contamination gate over every package file but the
// final files, and over the report. Finalization stops here on any error
// found so far.
func (f *finalization) gate() bool {
	in := f.core.Inputs
	scanner, ds := contamination.NewScanner(contamination.Options{
		Contract: in.Contract, Export: in.Export, Topology: in.Topology, Sources: f.opts.Sources,
		MachinePaths: contamination.MachinePaths(f.dir, f.pkg.Dir()),
	})
	f.res.List.Add(ds...)
	f.res.SourcesScanned = scanner.SourcesScanned()
	var paths []string
	for _, file := range f.pkg.Files() {
		paths = append(paths, file.Path)
	}
	scanner.SetPackagePaths(paths)
	scanner.UseRuntimeBundle(f.files[contamination.RuntimeBundle])
	for _, p := range paths {
		if !slices.Contains(verdict.FinalFiles, p) {
			f.res.List.Add(scanner.ScanFile(p, f.files[p])...)
		}
	}
	if f.reportDoc != nil {
		f.res.List.Add(scanner.ScanValue(filepath.ToSlash(f.opts.Report), f.reportDoc)...)
	}
	return !f.res.List.HasErrors() && f.report != nil
}

// writeFinal is step 6: the statuses, then the final files in one atomic
// batch, attesting the checks authenticated records vouch for.
func (f *finalization) writeFinal() bool {
	f.report.Evidence.Live = f.live
	m, problems := verdict.Compute(f.baseline, f.report.Evidence)
	f.res.List.Add(problems...)
	if f.res.List.HasErrors() {
		return false
	}
	hashes := verdict.Hashes{}
	for p, data := range f.files {
		hashes[p] = canonjson.SHA256(data)
	}
	recs := attestedRecords(f.opts.Key, f.index.records, f.baseline.ContractID, verdict.CandidateDigest(hashes))
	final := verdict.Build(verdict.FilesInput{Baseline: f.baseline, Matrix: m, Live: f.live, GlobalChecks: f.report.GlobalChecks, Hashes: hashes,
		Key: f.opts.Key, Attested: recs.attested})
	batch := make([]atomicfile.File, len(final))
	for i, file := range final {
		batch[i] = atomicfile.File{Path: file.Path, Data: file.Data, Perm: 0o644}
	}
	if err := atomicfile.WriteAll(f.dir, batch); err != nil {
		return f.stop(err)
	}
	f.matrix, f.final, f.unattested = m, final, unattestedRows(final, recs)
	return true
}

// validateFinal is step 7: the validator in final mode. When it rejects
// the package or cannot run, the previous final files are put back.
func (f *finalization) validateFinal() bool {
	res := f.res
	res.Validator = f.opts.Validator.Name
	vlist, verr := f.opts.Validator.Validate(f.ctx, f.dir, f.core, f.opts.Sources)
	if verr == nil && !vlist.HasErrors() {
		res.List.Merge(vlist)
		res.Matrix = f.matrix
		res.Unattested = append([]string{}, f.unattested...)
		for _, file := range f.final {
			res.Files = append(res.Files, file.Path)
		}
		return true
	}
	if rerr := restore(f.dir, f.files); rerr != nil {
		res.Failed = true
		res.List.Add(RuleIOFailure.New("", "the validator rejected the final files and restoring the previous ones failed: %v", rerr))
		return false
	}
	res.Restored = true
	if verr != nil {
		res.Failed = true
		res.List.Add(RuleIOFailure.New("", "%s could not run: %v; the previous final files were restored", f.opts.Validator.Name, verr))
		return false
	}
	res.List.Merge(vlist)
	res.List.Add(RuleValidator.New("", "%s rejected the finalized package; the previous final files were restored", f.opts.Validator.Name))
	return false
}

// readAll reads every file of the package.
func readAll(pkg *pkgdir.Package) (map[string][]byte, error) {
	files := make(map[string][]byte, len(pkg.Files()))
	for _, f := range pkg.Files() {
		data, err := pkg.ReadFile(f.Path)
		if err != nil {
			return nil, err
		}
		files[f.Path] = data
	}
	return files, nil
}

// inside reports whether path (resolved) is dir or lies inside it; dir is
// absolute and symlink-free.
func inside(dir, p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	} else if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs))
	}
	rel, err := filepath.Rel(dir, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// restore puts the final files back as they were before this run: the
// previous bytes where a file existed, no file where none did.
func restore(dir string, previous map[string][]byte) error {
	var batch []atomicfile.File
	var errs []error
	for _, f := range verdict.FinalFiles {
		if data, ok := previous[f]; ok {
			batch = append(batch, atomicfile.File{Path: f, Data: data, Perm: 0o644})
			continue
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(f))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if len(batch) > 0 {
		errs = append(errs, atomicfile.WriteAll(dir, batch))
	}
	return errors.Join(errs...)
}
