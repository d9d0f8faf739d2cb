package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/strict"
)

func deriveCmd() *command {
	c := &command{
		name:    "derive",
		summary: "derive a strict package's views from its canonical contract (a legacy package's from its bundle)",
		args:    "<pkg>",
		about: `Reads the Portable Core inputs of the package <pkg> (canonical-contract.json,
source-topology.json and host-profile.json, plus export-profile.json when
present), checks their structure, and writes every view derived from them:

  capability-bundle.json, function-core/capability-bundle.json
  capability-draft.json
  function-core/schema-contract.json, mcp-tool/schema-contract.json
  references/capability-contracts.json
  goal-contract.json, consumer-requirements.json
  host-compatibility-report.json
  verification-matrix.json (the baseline, before any verification)

It then prints the paths it wrote (relative to <pkg>) and the documentation
marker the package's documents carry:

  <!-- code2skill-capability-contract-sha256:<hex> -->

The views are written only when no input has an error, all together, each
through a temporary file; a failed run leaves the package as it was. The same
inputs always give the same bytes.

derive judges only what it needs to write views. A contract it accepts may
still break deeper rules; when it does, derive writes the views and says so
in one line before the file list ("views written; run check-contract"):
run code2skill check-contract <pkg> for the findings.

The package's documents (SKILL.md, MCP.<language>.md, MCP-SETUP.md and the
feature context) are then read against the contract the views came from:
each statement that disagrees with it (a stale bound or value, an unknown
error code or Tool, a restated requiredness or policy the other way round)
is listed, one line each with its file and line, before the file list. A
document that makes one must not take the new marker until it is corrected.

A legacy package has no canonical-contract.json: its capability-bundle.json
is authored. derive then checks the bundle (its format, identities,
readiness against missing evidence, the references inside it) and writes
only the two views the bundle gives, saying so in one line before them:

  function-core/capability-bundle.json (the bundle, re-encoded)
  capability-draft.json

The other views and the marker need a canonical contract.`,
		topics: []string{"formats"},
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		format := addFindingsFormatFlag(fs)
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		if len(pos) != 1 {
			return usageError(stdio, c, "want exactly one package directory, got %d arguments", len(pos))
		}
		if d, ok := notAPackage(pos[0]); ok {
			// Reported as validate reports it: a finding, not a usage error.
			res := &deriveResult{}
			res.list.Add(d)
			return printDerive(stdio, format, pos[0], res)
		}
		if code, ok := strictPackage(stdio, c, pos[0]); !ok {
			return code
		}
		return printDerive(stdio, format, pos[0], runDerive(pos[0]))
	}
	return c
}

// notAPackage returns the finding for a path that is not a directory, as
// pkgdir.Open reports it to validate and probe.
func notAPackage(dir string) (diag.Diagnostic, bool) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pkgdir.RuleNotFound.New("", "%s: no such directory", dir), true
	case err != nil:
		return pkgdir.RuleNotFound.New("", "%s: %v", dir, errors.Unwrap(err)), true
	case !fi.IsDir():
		return pkgdir.RuleNotDirectory.New("", "%s is not a directory", dir), true
	}
	return diag.Diagnostic{}, false
}

// deriveResult is what one derive run found and wrote.
type deriveResult struct {
	list   diag.List
	failed bool     // the tool could not do its job (I/O)
	legacy bool     // a legacy package: no canonical contract, the bundle is the input
	files  []string // written views, relative to the package
	marker string
	// contractErrors counts the errors check-contract reports for the
	// inputs views were written from; nil when none were written.
	contractErrors *int
	// documents are what the package's documents state that the contract
	// the views were written from does not hold (strict.DocumentDisagreements).
	documents []diag.Diagnostic
}

// deriveSummary is the summary object of the JSON report.
type deriveSummary struct {
	diag.Counts
	Files  []string `json:"files"`
	Marker string   `json:"marker"`
	// ContractErrors counts the errors check-contract reports for the
	// contract the views were written from (rules derive does not judge);
	// absent when no view was written.
	ContractErrors *int `json:"contractErrors,omitempty"`
	// Legacy is true for a legacy package (no canonical contract), whose
	// only views are the bundle's mirror and the draft.
	Legacy bool `json:"legacy,omitempty"`
	// StaleStatements are the statements of the documents that disagree
	// with the contract the views were written from, each as
	// file:line: message [rule]: a document that makes one must not take
	// the new marker until it is corrected.
	StaleStatements []string `json:"staleStatements,omitempty"`
}

// runDerive reads, checks and derives the package in dir, and writes the
// views when nothing is wrong.
func runDerive(dir string) *deriveResult {
	res := &deriveResult{}
	legacy, err := derive.IsLegacy(dir)
	if err != nil {
		res.failed = true
		res.list.Add(derive.RuleIOFailure.New("", "%v", err))
		return res
	}
	if legacy {
		return runLegacyDerive(dir)
	}
	core, err := derive.Load(dir)
	res.list.Merge(core.Read())
	if err != nil {
		res.failed = true
		res.list.Add(derive.RuleIOFailure.New("", "%v", err))
		return res
	}
	res.list.Merge(core.Structure())
	if res.list.HasErrors() {
		return res
	}

	views := core.Views()
	if !res.write(dir, views.Files()) {
		return res
	}
	res.marker = views.Marker()
	n, _ := contractcheck.Check(core.Inputs, contractcheck.Options{}).Counts()
	res.contractErrors = &n
	var docs diag.List
	docs.Add(strict.DocumentDisagreements(dir, core.Inputs, views)...)
	res.documents = docs.Sorted()
	return res
}

// runLegacyDerive reads and checks the capability bundle of the legacy
// package in dir, and writes its two views when nothing is wrong.
func runLegacyDerive(dir string) *deriveResult {
	res := &deriveResult{legacy: true}
	b, list, err := derive.ReadLegacy(dir)
	res.list.Merge(list)
	if err != nil {
		res.failed = true
		res.list.Add(derive.RuleIOFailure.New("", "%v", err))
		return res
	}
	res.list.Merge(derive.CheckBundle(b))
	if b == nil || res.list.HasErrors() {
		return res
	}
	res.write(dir, derive.LegacyViews(b))
	return res
}

// write writes views into dir all together, and reports whether it could.
func (res *deriveResult) write(dir string, views []derive.View) bool {
	files := make([]atomicfile.File, len(views))
	for i, v := range views {
		if err := pkgdir.CheckWrite(v.Path, v.Data); err != nil {
			res.failed = true
			res.list.Add(derive.RuleIOFailure.New(v.Path, "%v; nothing was written", err))
			return false
		}
		files[i] = atomicfile.File{Path: v.Path, Data: v.Data, Perm: 0o644}
	}
	// A re-run on an unchanged package finds the views there and writes
	// nothing.
	var err error
	if !written(dir, views) {
		err = atomicfile.WriteAll(dir, files)
	}
	if err != nil {
		res.failed = true
		// A symbolic link in the way is named as the finding's file.
		var link *atomicfile.SymlinkError
		file := ""
		if errors.As(err, &link) {
			file = link.Path
		}
		res.list.Add(derive.RuleIOFailure.New(file, "%v", err))
		return false
	}
	for _, v := range views {
		res.files = append(res.files, v.Path)
	}
	return true
}

// written reports whether every view is already in dir, as derive writes
// it: a regular file of the package (Files follows no symbolic link), with
// the view's bytes and mode.
func written(dir string, views []derive.View) bool {
	pkg, _, err := pkgdir.Open(dir)
	if err != nil || pkg == nil {
		return false
	}
	modes := make(map[string]fs.FileMode, len(pkg.Files()))
	for _, f := range pkg.Files() {
		modes[f.Path] = f.Mode
	}
	for _, v := range views {
		if m, ok := modes[v.Path]; !ok || m != 0o644 {
			return false
		}
		if data, err := pkg.ReadFile(v.Path); err != nil || !bytes.Equal(data, v.Data) {
			return false
		}
	}
	return true
}

func printDerive(stdio *Stdio, format *formatFlag, dir string, res *deriveResult) int {
	counts := diag.CountsOf(&res.list)
	r := &diag.Report{
		Command: "derive",
		Status:  diag.StatusPassed,
		List:    &res.list,
		Summary: deriveSummary{Counts: counts, Files: append([]string{}, res.files...), Marker: res.marker,
			ContractErrors: res.contractErrors, Legacy: res.legacy, StaleStatements: statements(res.documents)},
		Roots:  []string{dir},
		Anchor: contractAnchor,
	}
	switch {
	case res.failed:
		r.Status = diag.StatusError
		r.Line = "derive: could not read or write the package; nothing was written"
	case res.list.HasErrors():
		r.Status = diag.StatusFailed
		r.Line = fmt.Sprintf("derive: nothing was written (errors: %d, warnings: %d)", counts.Errors, counts.Warnings)
	case res.legacy:
		r.Line = "derive: legacy package (no " + contract.ContractFile + "): mirrored the bundle and derived the draft; " +
			"the schema contracts, documentation view and marker, goal contract, consumer requirements, " +
			"Host compatibility report and verification matrix need a canonical contract and were not derived"
	case res.contractErrors != nil && *res.contractErrors > 0:
		r.Line = fmt.Sprintf("derive: views written; run check-contract (it reports %s that views do not depend on)",
			plural(*res.contractErrors, "error"))
	case len(res.documents) > 0:
		r.Line = fmt.Sprintf("derive: views written; the documents make %s the contract does not hold: correct them before they take the marker", plural(len(res.documents), "statement"))
	}
	if *format != formatText || r.Status != diag.StatusPassed {
		return printReport(stdio, format, r)
	}
	// Text success: any warnings, the written files, then the marker as the
	// last line, where scripts and people look for it.
	code := printReport(stdio, format, r)
	for _, s := range statements(res.documents) {
		fmt.Fprintln(stdio.Out, s)
	}
	for _, f := range res.files {
		fmt.Fprintln(stdio.Out, f)
	}
	if res.marker != "" { // a legacy package has no documentation view
		fmt.Fprintln(stdio.Out, res.marker)
	}
	return code
}

// statements renders document findings one per line.
func statements(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.String())
	}
	return out
}
