// Package strict validates strict-export-v1 packages: the opt-in audit
// profile whose single business authority is canonical-contract.json.
//
// Validate checks a package directory in stages and reports every finding
// at once:
//
//	files           the files every strict package carries (a missing one
//	                stops everything else)
//	exportProfile   export-profile.json
//	portableCore    the contract, topology and Host profile
//	views           every derived view equals what derive computes
//	runtime         the JavaScript of the Function core and MCP server
//	generated       after finalization, the Function core, MCP adapter and
//	                copied assets are byte for byte what compile generates
//	documents       SKILL.md, MCP.<language>.md, MCP-SETUP.md and
//	                references/feature-context.md against the contract
//	forbidden       no PAGE.md or workflow.json
//	contamination   the contamination gate over every file, run here rather
//	                than trusted from a manifest's sanitized: true
//	matrix          before finalization, the baseline verification matrix;
//	                after, the final matrix recomputed from the evidence it
//	                records (with the final files)
//	final           after finalization, the files finalize writes, and the
//	                attestations of the evidence they record
//
// The Result records, stage by stage, what ran, what passed and what did
// not run and why, so that a summary never claims more than was checked.
//
// Nothing here starts a process or writes a file: Validate reads the
// package through pkgdir (regular files only, bounded reads, no symbolic
// links followed) and judges it in-process.
package strict

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/finalcheck"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/strictjs"
)

// Options configure a validation.
type Options struct {
	// PreFinalize validates a package that has not been finalized: the
	// verification matrix must be the baseline, and the final files are
	// neither expected nor checked.
	PreFinalize bool
	// Sources locates the topology's sources on this machine, for the
	// checks that resolve evidence locators and for the contamination
	// gate.
	Sources contract.Sources
	// Key verifies the attestations of a finalized package's evidence; nil
	// when there is no evidence key here, which leaves every row
	// unattested. RequireAttested makes a row resting on unattested
	// evidence an error.
	Key             *attest.Key
	RequireAttested bool
	// Core is the package's Portable Core when the command already loaded
	// it (derive.Load); nil loads it here.
	Core *derive.Core
}

// Result is what one validation found and how far it got.
type Result struct {
	Diagnostics diag.List
	PreFinalize bool
	// Stages lists every stage in order, with its outcome.
	Stages []Stage
	// Capabilities is the number of capabilities the contract declares (0
	// when it could not be read).
	Capabilities int
	// Err is set when the validator could not do its job (an I/O failure
	// or a cancelled context); the findings made so far are kept.
	Err error
	// Attestation is what the attestation check found, nil when it did
	// not run (before finalization, or when the final files could not be
	// checked).
	Attestation *finalcheck.Summary
}

// Stage is the outcome of one stage of a validation.
type Stage struct {
	ID     string `json:"id"`
	Title  string `json:"-"`
	Status Status `json:"status"`
	// Note says what a stage that ran left out or how it checked, or why
	// a stage did not run. It is empty when the stage ran in full in its
	// usual way.
	Note string `json:"note,omitempty"`
}

// Status is the outcome of a stage.
type Status string

const (
	Passed Status = "passed" // ran and found no error
	Failed Status = "failed" // ran and found errors
	NotRun Status = "not-run"
)

// Stage IDs, in the order the stages run.
const (
	StageFiles         = "files"
	StageExportProfile = "exportProfile"
	StagePortableCore  = "portableCore"
	StageViews         = "views"
	StageRuntime       = "runtime"
	StageGenerated     = "generated"
	StageDocuments     = "documents"
	StageForbidden     = "forbidden"
	StageContamination = "contamination"
	StageMatrix        = "matrix"
	StageFinal         = "final"
)

// stageTitles name the stages in summaries, in order.
var stageTitles = []struct{ id, title string }{
	{StageFiles, "required files"},
	{StageExportProfile, "export profile"},
	{StagePortableCore, "Portable Core"},
	{StageViews, "derived views"},
	{StageRuntime, "runtime rules"},
	{StageGenerated, "generated code"},
	{StageDocuments, "documents"},
	{StageForbidden, "forbidden files"},
	{StageContamination, "contamination gate"},
	{StageMatrix, "verification matrix"},
	{StageFinal, "final files"},
}

// Stage returns the outcome of the stage with the given ID.
func (r *Result) Stage(id string) (Stage, bool) {
	for _, s := range r.Stages {
		if s.ID == id {
			return s, true
		}
	}
	return Stage{}, false
}

// Validate checks the strict package in dir.
func Validate(ctx context.Context, dir string, opts Options) *Result {
	v := &validator{ctx: ctx, opts: opts, dir: dir, res: &Result{PreFinalize: opts.PreFinalize}}
	v.run()
	// Stages that never started did not run; list every stage in order.
	recorded := make(map[string]Stage, len(v.res.Stages))
	for _, s := range v.res.Stages {
		recorded[s.ID] = s
	}
	v.res.Stages = v.res.Stages[:0]
	for _, st := range stageTitles {
		s, ok := recorded[st.id]
		if !ok {
			s = Stage{ID: st.id, Title: st.title, Status: NotRun, Note: v.stopped}
		}
		v.res.Stages = append(v.res.Stages, s)
	}
	return v.res
}

// validator carries one validation.
type validator struct {
	ctx     context.Context
	opts    Options
	dir     string
	res     *Result
	pkg     *pkgdir.Package
	stopped string // why the stages not recorded did not run

	// Carried between stages.
	fileFindings  []diag.Diagnostic
	inputFindings *diag.List
	core          contractCheck
}

// unsound is why the stages that judge the package against its Portable
// Core do not run.
const unsound = "the Portable Core has errors"

// run runs the stages in order. Each method records the outcome of its
// stage; one that returns false stops the validation.
func (v *validator) run() {
	if !v.files() {
		return
	}
	core := v.inputs()
	if core == nil {
		return
	}
	in := core.Inputs
	v.exportProfile(in)
	sound := v.portableCore(in)
	var views *derive.Derived
	if sound {
		views = core.Views()
	}
	v.views(views, sound)
	v.runtime(in, sound)
	v.generated(in, sound)
	v.documents(in, views, sound)
	v.record(StageForbidden, "", checkForbidden(v.pkg))
	v.contamination(in)
	if !v.live() {
		return
	}
	v.matrix(views, sound)
	v.final(in, views, sound)
}

// files inventories the package and checks that every base file is there.
// The files stage is recorded by inputs, which adds the files the contract
// asks for.
func (v *validator) files() bool {
	if !v.live() {
		return false
	}
	pkg, ds, err := pkgdir.Open(v.dir)
	if err != nil {
		v.fail(err)
		return false
	}
	if pkg == nil {
		v.record(StageFiles, "", ds)
		v.stopped = "there is no package to check"
		return false
	}
	v.pkg = pkg
	v.fileFindings = append(ds, requireFiles(pkg, append(slices.Clone(baseFiles), MCPDocFile(v.language())), RuleFileMissing, "every strict-export-v1 package carries it")...)
	if hasRule(v.fileFindings, RuleFileMissing) {
		v.record(StageFiles, "", v.fileFindings)
		v.stopped = "a required file is missing"
		return false
	}
	return true
}

// inputs reads the Portable Core inputs (unless the command gave them)
// and completes the files stage with the files the contract asks for. It
// returns nil when the validation cannot go on.
func (v *validator) inputs() *derive.Core {
	core := v.opts.Core
	if core == nil {
		core, _ = derive.Load(v.pkg.Dir())
	}
	if err := core.Err(); err != nil {
		v.fail(err)
	}
	in := core.Inputs
	v.inputFindings = core.Read()
	ds := v.fileFindings
	if in.Contract != nil {
		v.res.Capabilities = len(in.Contract.Capabilities)
		if sendsHTTP(in.Contract) {
			ds = append(ds, requireFiles(v.pkg, []string{dispatcherFile}, RuleFileMissing,
				"a package whose capabilities send HTTP requests carries the reviewed default dispatcher")...)
		}
		if needsGuard(in.Contract) {
			ds = append(ds, requireFiles(v.pkg, []string{guardFile}, RuleFileMissing,
				"a package whose writes are protected by a deterministic workflow carries the reviewed guard")...)
		}
		if hostruntime.Declared(in) {
			ds = append(ds, requireFiles(v.pkg, hostRuntimeFiles, RuleFileMissing,
				"a package whose export profile declares hostRuntime carries the host runtime and its binding")...)
		}
	}
	v.record(StageFiles, "", ds)
	if !v.live() {
		return nil
	}
	return core
}

// exportProfile records the findings about export-profile.json: how it
// decodes, and the rules that relate it to the contract.
func (v *validator) exportProfile(in *derive.Inputs) {
	v.core = checkContract(in, v.opts)
	var ds []diag.Diagnostic
	for _, l := range []*diag.List{v.inputFindings, v.core.findings} {
		for _, d := range l.Sorted() {
			if d.File == contract.ExportProfileFile {
				ds = append(ds, d)
			}
		}
	}
	v.record(StageExportProfile, "", ds)
}

// portableCore records the findings about the contract, topology and Host
// profile, and reports whether they are sound enough to judge the package
// against.
func (v *validator) portableCore(in *derive.Inputs) bool {
	var ds []diag.Diagnostic
	for _, l := range []*diag.List{v.inputFindings, v.core.findings} {
		for _, d := range l.Sorted() {
			if d.File != contract.ExportProfileFile {
				ds = append(ds, d)
			}
		}
	}
	v.record(StagePortableCore, v.core.note, ds)
	return in.Contract != nil && in.Topology != nil && in.Host != nil && !hasErrors(ds)
}

// views compares every derived view but the matrix with its derivation.
func (v *validator) views(views *derive.Derived, sound bool) {
	if !sound {
		v.skip(StageViews, unsound)
		return
	}
	var ds []diag.Diagnostic
	for _, view := range viewsToCompare(views.Files()) {
		if data, ok := v.read(view.Path, pkgdir.MaxInputSize, &ds); ok {
			ds = append(ds, checkView(view.Path, data, view.Data)...)
		}
	}
	v.record(StageViews, "", ds)
}

// runtime checks the JavaScript of the package: the Function core, the
// MCP adapter, the runtime bundle and the reviewed assets they import.
func (v *validator) runtime(in *derive.Inputs, sound bool) {
	if !sound {
		v.skip(StageRuntime, unsound)
		return
	}
	v.record(StageRuntime, "", append(strictjs.Check(v.pkg, in).Sorted(), checkHostRuntime(v.pkg, in)...))
}

func (v *validator) documents(in *derive.Inputs, views *derive.Derived, sound bool) {
	if !sound {
		v.skip(StageDocuments, unsound)
		return
	}
	var unread []diag.Diagnostic
	read := func(file string) ([]byte, bool) {
		return v.read(file, readLimit(file), &unread)
	}
	f := packageFacts(packageName(v.dir, v.pkg), in, views, read)
	docs := checkDocuments(f, read)
	v.record(StageDocuments, "", append(unread, docs...))
}

// matrix checks the verification matrix of a package that is not
// finalized; a finalized one is checked with the final files.
func (v *validator) matrix(views *derive.Derived, sound bool) {
	switch {
	case !v.opts.PreFinalize:
		// The final matrix is recomputed with the final files: final
		// records the stage.
	case !sound:
		v.skip(StageMatrix, unsound)
	default:
		var ds []diag.Diagnostic
		if data, ok := v.read(derive.VerificationMatrixFile, pkgdir.MaxInputSize, &ds); ok {
			ds = append(ds, checkMatrix(data, views.File(derive.VerificationMatrixFile))...)
		}
		v.record(StageMatrix, "", ds)
	}
}

// final checks the files finalize writes, after finalization.
func (v *validator) final(in *derive.Inputs, views *derive.Derived, sound bool) {
	if v.opts.PreFinalize {
		v.skip(StageFinal, "--pre-finalize: the package is not finalized yet")
		return
	}
	ds := requireFiles(v.pkg, finalFiles, RuleFinalFileMissing,
		"finalize writes it; validate a package that is not finalized with --pre-finalize")
	if len(ds) > 0 {
		v.skip(StageMatrix, "the final matrix is recomputed with the final files, and some are missing")
		v.record(StageFinal, "", ds)
		return
	}
	if !sound {
		v.skip(StageMatrix, unsound)
		v.skip(StageFinal, unsound)
		return
	}
	// The receipt, preflight report, live verification, approval audit
	// and manifest against the package, the final matrix recomputed from
	// the evidence it records, and the attestations of that evidence.
	l, sum := finalcheck.CheckWith(v.pkg, in, finalcheck.Options{Attestation: true, Key: v.opts.Key, Require: v.opts.RequireAttested, Views: views})
	if sum.Checked {
		v.res.Attestation = sum
	}
	// The matrix's findings are among the final files' (each finding is
	// reported once); its stage says whether it was recomputed and held.
	switch {
	case !sum.MatrixChecked:
		v.skip(StageMatrix, "the final matrix was not recomputed: the live verification it rests on could not be read")
	case sum.MatrixFailed:
		v.res.Stages = append(v.res.Stages, Stage{ID: StageMatrix, Title: stageTitle(StageMatrix), Status: Failed, Note: matrixRecomputed})
	default:
		v.res.Stages = append(v.res.Stages, Stage{ID: StageMatrix, Title: stageTitle(StageMatrix), Status: Passed, Note: matrixRecomputed})
	}
	v.record(StageFinal, "", l.Sorted())
}

// matrixRecomputed is how the final matrix is checked.
const matrixRecomputed = "recomputed from the evidence it records"

// record adds the outcome of a stage that ran, and its findings.
func (v *validator) record(id, note string, ds []diag.Diagnostic) {
	s := Stage{ID: id, Title: stageTitle(id), Status: Passed, Note: note}
	if hasErrors(ds) {
		s.Status = Failed
	}
	v.res.Diagnostics.Add(ds...)
	v.res.Stages = append(v.res.Stages, s)
}

// skip adds a stage that did not run, saying why.
func (v *validator) skip(id, why string) {
	v.res.Stages = append(v.res.Stages, Stage{ID: id, Title: stageTitle(id), Status: NotRun, Note: why})
}

func stageTitle(id string) string {
	for _, st := range stageTitles {
		if st.id == id {
			return st.title
		}
	}
	panic("strict: unknown stage " + id)
}

// live reports whether the validation may go on: the context is not done
// and the tool has not failed.
func (v *validator) live() bool {
	if err := v.ctx.Err(); err != nil && v.res.Err == nil {
		v.res.Err = err
		v.stopped = "the validation was cancelled"
	}
	return v.res.Err == nil
}

func (v *validator) fail(err error) {
	v.res.Err = errors.Join(v.res.Err, err)
	v.stopped = "the validator could not read the package"
}

// contractCheck is the outcome of the Portable Core rules.
type contractCheck struct {
	findings *diag.List
	note     string // what the rules left out
}

// checkContract judges the Portable Core with every rule of check-contract.
// Evidence locators are resolved only against the sources the options
// locate; without any, the findings say they were not checked and so does
// the stage's note.
func checkContract(in *derive.Inputs, opts Options) contractCheck {
	cc := contractCheck{findings: contractcheck.Check(in, contractcheck.Options{Sources: opts.Sources})}
	if !opts.Sources.Given() {
		cc.note = "evidence locators not resolved: no --source-root or --source-map"
	}
	return cc
}

// read reads a file of the package that the inventory lists as a regular
// file, at most limit bytes. A file the package lacks was reported by the
// required-file gate; one that cannot be read as an input is reported into
// ds; an I/O failure stops the validation.
func (v *validator) read(file string, limit int64, ds *[]diag.Diagnostic) ([]byte, bool) {
	if !v.pkg.Has(file) {
		return nil, false
	}
	data, err := pkgdir.ReadFile(filepath.Join(v.pkg.Dir(), filepath.FromSlash(file)), limit)
	if err != nil {
		if d, ok := pkgdir.ReadFinding(file, err); ok {
			*ds = append(*ds, d)
		} else {
			v.fail(fmt.Errorf("reading %s: %w", file, err))
		}
		return nil, false
	}
	return data, true
}

// language returns the documentation language the package's export
// profile declares, Chinese when it cannot be read: the MCP document's
// name depends on it.
func (v *validator) language() string {
	var ds []diag.Diagnostic
	data, ok := v.read(contract.ExportProfileFile, maxDocumentSize, &ds)
	if !ok {
		return contract.LanguageChinese
	}
	p, _ := contract.DecodeExportProfile(contract.ExportProfileFile, data)
	return p.Language()
}

// packageName returns the name of the package directory as the user named
// it (not where a symbolic link leads): the name its Skill installs under.
func packageName(dir string, pkg *pkgdir.Package) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return filepath.Base(abs)
	}
	return filepath.Base(pkg.Dir())
}

func hasRule(ds []diag.Diagnostic, r *diag.Rule) bool {
	for _, d := range ds {
		if d.Rule == r.ID {
			return true
		}
	}
	return false
}

func hasErrors(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}
