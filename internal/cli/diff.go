package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractdiff"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/gitrev"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sarif"
)

const formatMarkdown = "markdown"

func diffCmd() *command {
	c := &command{
		name:    "diff",
		summary: "compare two canonical contracts field by field and classify every change",
		args:    "OLD NEW",
		about: `Compares the canonical contract OLD with NEW, field by field, and classifies
every change for the consumers of the package: breaking (a call, a result,
a protection or a proof they rely on may no longer hold), compatible
(something was added or relaxed) or cosmetic (prose, presentation order,
where evidence lives). Elements are matched by identity (capabilities by
capabilityId, inputs by name, evidence by evidenceId, ...), never by
position, so a re-serialisation in another order and a drifted line hint
are no change; a capability whose ID changed while its Tool, Function and
meaning stayed is renamed.

OLD and NEW are each a package directory (its canonical-contract.json), a
contract file, or REV:PATH: the package directory or contract file PATH as
it is in revision REV of the git repository around the current directory
(PATH from the repository's top, or from here when it starts with ./ or
../). git runs in the sandbox, with no network.

Both contracts must be read whole and be of the same feature (the same
contractId): otherwise diff reports why and prints no diff.

--format markdown prints a section for a pull-request comment; json and
sarif carry each change as a finding too (DIFF_CHANGE_BREAKING an error,
DIFF_CHANGE_COMPATIBLE a warning, DIFF_CHANGE_COSMETIC a note) at its place
in the new contract.`,
		exits: `Exit codes:
  0  nothing semantic changed (there may be cosmetic changes)
  1  something semantic changed (breaking or compatible changes)
  2  usage error, or OLD or NEW is not a contract diff can compare (missing,
     legacy, broken JSON, another feature, an unknown revision)
  3  the tool could not do its job (a file could not be read, git could not run)
`,
		topics: []string{"formats"},
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		format := &choiceFlag{value: formatText, choices: []string{formatText, formatJSON, formatMarkdown, formatSARIF}}
		fs.Var(format, "format", formatUsage(format.choices...))
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		if len(pos) != 2 {
			return usageError(stdio, c, "want OLD and NEW, got %d arguments", len(pos))
		}
		return runDiff(ctx, stdio, format.value, pos[0], pos[1])
	}
	return c
}

// diffRun is one comparison.
type diffRun struct {
	list     diag.List
	old, new contractdiff.Side
	// oldFile and newFile name the contracts' files in findings.
	oldFile, newFile string
	failed           bool // the tool could not do its job
	diff             *contractdiff.Diff
}

func runDiff(ctx context.Context, stdio *Stdio, format, oldArg, newArg string) int {
	run := &diffRun{old: contractdiff.Side{Source: oldArg}, new: contractdiff.Side{Source: newArg}}
	oldC := run.read(ctx, "old", oldArg, &run.old)
	newC := run.read(ctx, "new", newArg, &run.new)
	if oldC != nil && newC != nil {
		d, err := contractdiff.Compare(oldC, newC)
		var mismatch *contractdiff.MismatchError
		switch {
		case errors.As(err, &mismatch):
			run.list.Add(contractdiff.RuleMismatch.New(run.newFile, "%v; compare two versions of one contract", err).AtPointer("/contractId"))
		case err != nil:
			run.list.Add(contractdiff.RuleCouldNotRead.New("", "%v", err))
			run.failed = true
		default:
			run.diff = d
		}
	}
	if err := run.print(stdio, format); err != nil {
		fmt.Fprintf(stdio.Err, "code2skill diff: writing output: %v\n", err)
		return ExitFailure
	}
	switch {
	case run.failed:
		return ExitFailure
	case run.diff == nil:
		return ExitUsage
	case run.diff.Semantic():
		return ExitFindings
	}
	return ExitPassed
}

// read reads and decodes one argument; nil when it is not a contract diff
// can compare (the findings say why).
func (r *diffRun) read(ctx context.Context, which, arg string, side *contractdiff.Side) *contract.Contract {
	data, label, ok := r.load(ctx, which, arg)
	if !ok {
		return nil
	}
	c, l := contract.DecodeContract(label, data)
	if c == nil || l.HasErrors() {
		r.list.Merge(l)
		r.list.Add(contractdiff.RuleInputInvalid.New(label, "the %s contract is not valid JSON of the contract's format; fix it (code2skill check-contract) before comparing", which))
		return nil
	}
	side.ContractID = c.ContractID
	if which == "new" {
		r.newFile = label
	} else {
		r.oldFile = label
	}
	return c
}

// load returns the bytes of the contract an argument names, and the name
// findings about it carry.
func (r *diffRun) load(ctx context.Context, which, arg string) ([]byte, string, bool) {
	fi, err := os.Stat(arg)
	if err != nil {
		if spec, ok := gitrev.Parse(arg); ok && errors.Is(err, fs.ErrNotExist) {
			return r.loadRevision(ctx, which, spec)
		}
		if errors.Is(err, fs.ErrNotExist) {
			r.list.Add(contractdiff.RuleInputMissing.New(arg, "the %s contract: no such file or directory (name a package, a contract file or REV:PATH)", which))
			return nil, "", false
		}
		return r.failure(arg, err)
	}
	file := arg
	if fi.IsDir() {
		file = filepath.Join(arg, contract.ContractFile)
		if _, err := os.Lstat(file); errors.Is(err, fs.ErrNotExist) {
			if legacy, _ := derive.IsLegacy(arg); legacy {
				r.list.Add(contractdiff.RuleInputLegacy.New(arg, "the %s package is a legacy one: it has %s but no %s to compare; migrate it first (code2skill pipeline init)", which, derive.BundleFile, contract.ContractFile))
			} else {
				r.list.Add(contractdiff.RuleInputMissing.New(arg, "the %s package has no %s", which, contract.ContractFile))
			}
			return nil, "", false
		}
	}
	label := filepath.ToSlash(file)
	data, err := pkgdir.ReadFile(file, 0)
	if err != nil {
		if d, ok := pkgdir.ReadFinding(label, err); ok {
			r.list.Add(d)
			r.list.Add(contractdiff.RuleInputInvalid.New(label, "the %s contract could not be read", which))
			return nil, "", false
		}
		return r.failure(label, err)
	}
	return data, label, true
}

// loadRevision reads REV:PATH: a contract file, or a package directory's
// contract.
func (r *diffRun) loadRevision(ctx context.Context, which string, spec gitrev.Spec) ([]byte, string, bool) {
	repo, err := gitrev.Find(".")
	if errors.Is(err, gitrev.ErrNotARepository) {
		r.list.Add(contractdiff.RuleRevision.New(spec.String(), "the %s contract names a git revision, but the current directory is in no git repository", which))
		return nil, "", false
	}
	if err != nil {
		return r.failure(spec.String(), err)
	}
	kind, err := repo.Stat(ctx, spec)
	if errors.Is(err, gitrev.ErrNotFound) {
		r.list.Add(contractdiff.RuleRevision.New(spec.String(), "the %s contract: %v", which, err))
		return nil, "", false
	}
	if err != nil {
		return r.failure(spec.String(), err)
	}
	if kind == gitrev.Tree {
		names, err := repo.List(ctx, spec)
		if err != nil {
			return r.failure(spec.String(), err)
		}
		switch {
		case slices.Contains(names, contract.ContractFile):
			spec.Path = strings.TrimSuffix(spec.Path, "/") + "/" + contract.ContractFile
		case slices.Contains(names, derive.BundleFile):
			r.list.Add(contractdiff.RuleInputLegacy.New(spec.String(), "the %s package is a legacy one in revision %s: it has %s but no %s to compare", which, spec.Rev, derive.BundleFile, contract.ContractFile))
			return nil, "", false
		default:
			r.list.Add(contractdiff.RuleInputMissing.New(spec.String(), "the %s package has no %s in revision %s", which, contract.ContractFile, spec.Rev))
			return nil, "", false
		}
	}
	data, err := repo.Read(ctx, spec)
	if err != nil {
		return r.failure(spec.String(), err)
	}
	return data, spec.String(), true
}

func (r *diffRun) failure(file string, err error) ([]byte, string, bool) {
	r.list.Add(contractdiff.RuleCouldNotRead.New(file, "%v", err))
	r.failed = true
	return nil, "", false
}

// print writes the diff, or why there is none, in the chosen format. The
// JSON and SARIF forms list every change as a finding too, after what was
// found about the inputs.
func (r *diffRun) print(stdio *Stdio, format string) error {
	rep := &diag.Report{Command: "diff", Status: diag.StatusError, List: &r.list, Roots: []string{"."}}
	if r.diff != nil {
		rep.Status = diag.StatusPassed
		if r.diff.Semantic() {
			rep.Status = diag.StatusFailed
		}
		r.list.Merge(r.diff.Findings(r.oldFile, r.newFile))
		sum := r.diff.ReportSummary(r.old, r.new)
		sum.Counts = diag.CountsOf(&r.list)
		rep.Summary, rep.Line = sum, r.diff.Line()
	} else {
		rep.Summary = struct {
			diag.Counts
			Old contractdiff.Side `json:"old"`
			New contractdiff.Side `json:"new"`
		}{diag.CountsOf(&r.list), r.old, r.new}
		rep.Line = "diff: not compared: the findings above say why"
	}
	switch {
	case format == formatJSON:
		return rep.WriteJSON(stdio.Out)
	case format == formatSARIF:
		return sarif.Write(stdio.Out, rep, sarifProducer())
	case format == formatMarkdown && r.diff != nil:
		return r.diff.WriteMarkdown(stdio.Out, r.old, r.new)
	case format == formatMarkdown:
		return contractdiff.WriteMarkdownFindings(stdio.Out, &r.list)
	case r.diff != nil:
		return r.diff.WriteText(stdio.Out)
	}
	return rep.WriteText(stdio.Out)
}
