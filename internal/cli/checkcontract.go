package cli

import (
	"context"
	"fmt"

	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

func checkContractCmd() *command {
	c := &command{
		name:    "check-contract",
		summary: "check a strict package's Portable Core against every contract rule",
		args:    "<pkg>",
		about: `Checks the Portable Core of the strict-export-v1 package <pkg>
(canonical-contract.json, source-topology.json, host-profile.json and, when
present, export-profile.json) against every rule of the contract: the format
of each file, the structure derive needs, and every semantic family —
topology, evidence, exposure, readiness, inputs, strategies and handoffs,
value domains, target requiredness, conditions, outputs, Host requirements,
policy and annotations, evidence coverage, error contract, runtime
protection, HTTP bindings, attachments, constraints, conflicts, graph,
goals, workflows and the portable schema subset. It reads nothing else and
writes nothing. Run it after each edit of the contract. A core-export-v1
package has no Portable Core: check it with code2skill validate.

Each finding names the file, a JSON Pointer into it, what to change and the
rule ("code2skill rules" lists them all).

Evidence locators are resolved to files only when source locations are
given: every available source's root must be a distinct directory, and
every locator (path[:line][#symbol]) must name a regular file inside its
source's root (a symbolic link may not lead out of it) that declares its
symbol. A symbol the file no longer declares is an error; a line hint
outside the symbol's declaration a warning naming the line it is at now.
Without --source-root or --source-map this is reported as not checked (an
info finding), never as passed; when a --source-map is given, every
available source must be mapped.`,
		topics: []string{"formats"},
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		sources := addSourcesFlags(fs)
		format := addFindingsFormatFlag(fs)
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		dir, code, ok := packageDir(stdio, c, pos)
		if !ok {
			return code
		}
		if code, ok := strictPackage(stdio, c, dir); !ok {
			return code
		}
		return printReport(stdio, format, runCheckContract(dir, contractcheck.Options{Sources: sources.sources}))
	}
	return c
}

// checkContractSummary is the summary object of the JSON report.
type checkContractSummary struct {
	diag.Counts
	Infos int `json:"infos"`
	// EvidenceResolved says whether evidence locators were resolved to
	// files (source locations were given).
	EvidenceResolved bool `json:"evidenceResolved"`
}

// runCheckContract reads and checks the Portable Core in dir.
func runCheckContract(dir string, opts contractcheck.Options) *diag.Report {
	var list diag.List
	r := &diag.Report{Command: "check-contract", Status: diag.StatusPassed, List: &list, Roots: []string{dir}, Anchor: contractAnchor}
	core, err := derive.Load(dir)
	list.Merge(core.Read())
	if err != nil {
		list.Add(derive.RuleIOFailure.New("", "%v", err))
		r.Status = diag.StatusError
		r.Line = "check-contract: could not read the package"
		r.Summary = checkContractSummary{Counts: diag.CountsOf(&list)}
		return r
	}
	list.Merge(contractcheck.Check(core.Inputs, opts))
	counts := diag.CountsOf(&list)
	infos := list.Len() - counts.Errors - counts.Warnings
	r.Summary = checkContractSummary{Counts: counts, Infos: infos, EvidenceResolved: opts.Sources.Given()}
	resolution := "evidence resolution not checked"
	if opts.Sources.Given() {
		resolution = "evidence locators resolved"
	}
	if list.HasErrors() {
		r.Status = diag.StatusFailed
		r.Line = fmt.Sprintf("check-contract: failed (errors: %d, warnings: %d; %s)", counts.Errors, counts.Warnings, resolution)
		return r
	}
	r.Line = fmt.Sprintf("check-contract: passed (warnings: %d; %s)", counts.Warnings, resolution)
	return r
}
