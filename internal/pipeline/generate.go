package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/strict"
)

// StageGenerate compiles the runtime, derives the views and refreshes the
// documents' markers.
const StageGenerate = "generate"

var generateStage = &stage{
	name:       StageGenerate,
	categories: []string{CategoryCanonical, CategoryDerived, CategoryCapability, CategoryFunction, CategoryDocumentation},
	inputs: func(r *runner) ([]input, error) {
		return inputsOf(
			func() ([]input, error) { return r.files(append(slices.Clone(authoringFiles), toolDocsFile)) },
			r.documents,
		)
	},
	run: (*runner).generate,
}

// generatedFiles are what a strict package needs from compile; generate
// fails when one is missing afterwards.
var generatedFiles = []string{
	"function-core/index.mjs",
	"mcp-tool/index.mjs",
	"mcp-tool/runtime.mjs",
	"portable-error-normalizer.mjs",
}

// generate compiles the runtime, derives the views, refreshes the markers
// of the documents that agree with the contract (one that states a stale
// value keeps its marker, and the statement is an error), and checks that every file the strict flow needs is
// there. It owns the compiled files and the views (the matrix excepted:
// verify and finalize write it), so editing one of them makes it run
// again.
func (r *runner) generate() (*stageOutcome, error) {
	out := &stageOutcome{steps: []string{"code2skill compile", "code2skill derive", "refresh the documentation markers"}}
	in, err := r.checkedCore(out)
	if in == nil || err != nil {
		return out, err
	}

	// What generate writes replaces what the package holds: remember it,
	// to put it back should finalize fail, and to say which hand edits
	// of generated files it replaces.
	derived := r.core.Views()
	views := derived.Files()
	owned := slices.Clone(compiledFiles)
	for _, v := range views {
		if v.Path != derive.VerificationMatrixFile {
			owned = append(owned, v.Path)
		}
	}
	r.keep(owned...)
	language := in.Export.Language()
	marked := strict.MarkedDocuments(language)
	r.keep(marked...)

	compiled, err := r.p.Steps.Compile(r.ctx, r.p.abs, in)
	if err == nil && compiled.Compiled != nil {
		r.keepCompilation(compiled.Compiled)
	}
	if errors.Is(err, ErrNotAvailable) {
		out.findings.Add(RuleStepUnavailable.New("", "compile is not available in this build; generate cannot build the Function core and MCP server"))
		return out.fail("compile is not available in this build"), nil
	}
	if err != nil {
		return out, fmt.Errorf("compile: %w", err)
	}
	out.findings.Merge(compiled.Findings)
	if n := errorCount(compiled.Findings); n > 0 {
		return out.fail("compile: %d finding(s); capabilities that require review are never compiled", n), nil
	}

	var files []atomicfile.File
	for _, v := range views {
		// The matrix belongs to verify (the baseline) and finalize (the
		// final one); generate only starts it.
		if v.Path == derive.VerificationMatrixFile && fileExists(r.p.pkgPath(v.Path)) {
			continue
		}
		files = append(files, atomicfile.File{Path: v.Path, Data: v.Data, Perm: 0o644})
	}
	marker := derived.Marker()
	// A document that states what the contract no longer holds keeps
	// its marker: refreshing it would make a stale document look
	// current. Its statements are reported where they are.
	disagreeing := map[string]bool{}
	for _, d := range strict.DocumentDisagreements(r.p.abs, in, derived) {
		disagreeing[d.File] = true
		out.findings.Add(d)
	}
	for _, doc := range marked {
		if disagreeing[doc] {
			continue
		}
		data, err := readRegular(r.p.pkgPath(doc))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // reported below
		case err != nil:
			if d, ok := pkgdir.ReadFinding(doc, err); ok {
				out.findings.Add(d)
				continue
			}
			return out, err
		}
		files = append(files, atomicfile.File{Path: doc, Data: markerPattern.ReplaceAll(data, []byte(marker)), Perm: 0o644})
	}
	ds, err := r.p.writeChanged(files)
	if err != nil {
		return out, err
	}
	out.findings.Add(ds...)

	for _, f := range append(append([]string{}, generatedFiles...), strict.Documents(language)...) {
		if !regularFile(r.p.pkgPath(f)) {
			out.findings.Add(RuleFileMissing.New(f, "%s is missing; %s", f, whoWrites(f)))
		}
	}
	if n := errorCount(&out.findings); n > 0 {
		return out.fail("%d problem(s) with the generated files", n), nil
	}
	out.outputs = map[string]string{}
	written := append([]string{}, compiled.Files...)
	for _, v := range views {
		if v.Path != derive.VerificationMatrixFile {
			written = append(written, v.Path)
		}
	}
	for _, f := range written {
		if out.outputs[f], err = fileDigest(r.p.pkgPath(f)); err != nil {
			return out, err
		}
	}
	r.replaced(written, out)
	return out, nil
}

// compiledFiles are the files compile may write: the generated modules
// and the assets it copies.
var compiledFiles = []string{
	compile.FunctionCoreFile, compile.AdapterFile, compile.RuntimeFile,
	compile.NormalizerFile, compile.DispatcherFile, compile.GuardFile,
}

// replaced reports each file generate replaced that held something other
// than what the pipeline last wrote there: a hand edit of a generated file
// (or a file the pipeline never wrote), now gone from the package. Its
// previous content is kept in the state's replaced/ directory.
func (r *runner) replaced(written []string, out *stageOutcome) {
	last := r.st.Stages[StageGenerate].OutputHashes
	for _, f := range written {
		old := r.kept[f]
		if old == nil {
			continue
		}
		now, err := readRegular(r.p.pkgPath(f))
		if err != nil || bytes.Equal(now, old) {
			continue
		}
		if h, ok := last[f]; ok && h == canonjson.SHA256(old) {
			continue // what the pipeline wrote, replaced because its inputs changed
		}
		line := firstDifferingLine(old, now)
		why := "it was edited since the pipeline wrote it"
		if _, ok := last[f]; !ok {
			why = "the pipeline had not written it"
		}
		r.stage(ReplacedDir+"/"+f, old)
		out.findings.Add(RuleGeneratedReplaced.New(f, "generate replaced this file, which differed from what it generates from line %d on (%s); generated files are rewritten from the Portable Core, so edit the contract or authoring/tool-docs.json instead; the previous content is in %s/%s of the state directory",
			line, why, ReplacedDir, f).At(line, 0))
	}
}

// firstDifferingLine returns the 1-based line of the first byte where a
// and b differ.
func firstDifferingLine(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return bytes.Count(a[:i], []byte{'\n'}) + 1
}

func whoWrites(f string) string {
	for _, g := range generatedFiles {
		if g == f {
			return "compile writes it"
		}
	}
	return "it is written by hand (see references/strict-flow.md)"
}

// writeChanged writes the files whose content differs from what the
// package holds, all or none. It writes nothing when a file it would
// replace, or a directory on the way to one, is a symbolic link: writing
// through a link could change a file outside the package, and replacing it
// would delete what its owner made.
func (p *Pipeline) writeChanged(files []atomicfile.File) ([]diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	var changed []atomicfile.File
	seen := map[string]bool{}
	for _, f := range files {
		for d := f.Path; d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			fi, err := os.Lstat(p.pkgPath(d))
			switch {
			case errors.Is(err, fs.ErrNotExist):
				continue
			case err != nil:
				return nil, err
			case fi.Mode()&fs.ModeSymlink != 0:
				ds = append(ds, RuleLinkInTheWay.New(d, "is a symbolic link; the pipeline writes %s only as a plain file in plain directories of the package", f.Path))
			case d == f.Path && !fi.Mode().IsRegular():
				ds = append(ds, RuleLinkInTheWay.New(d, "is not a regular file; the pipeline replaces only plain files"))
			}
		}
		if old, err := readRegular(p.pkgPath(f.Path)); err == nil && bytes.Equal(old, f.Data) {
			continue
		}
		changed = append(changed, f)
	}
	if len(ds) > 0 || len(changed) == 0 {
		return ds, nil
	}
	for _, f := range changed {
		if err := pkgdir.CheckWrite(f.Path, f.Data); err != nil {
			return nil, err
		}
	}
	return nil, atomicfile.WriteAll(p.abs, changed)
}

// regularFile reports whether path is a regular file (not a link).
func regularFile(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().IsRegular()
}
