package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/strict"
)

func validateCmd() *command {
	c := &command{
		name:    "validate",
		summary: "check a package: core structure, MCP discovery and tests, or the strict rules",
		args:    "<pkg>",
		about: `Checks a package and reports every finding at once, each with a stable rule
ID ("code2skill rules" lists them), then one summary line that says how far
the package was checked. The profile decides what is checked: package.json's
"code2skill.profile", or strict-export-v1 when canonical-contract.json or
export-profile.json is present; a flag of the other profile is a usage error.

A core-export-v1 package is checked in four stages:

  structure   layout, Skills, package.json, MCP-SETUP.md and every .mjs/.js
              file, checked in-process;
  discovery   node mcp-tool/index.mjs started in the sandbox, initialize
              (protocol 2025-11-25) and tools/list over the official Go SDK;
  requests    every Tool called over MCP in the same server, with a recorded
              fetch: each input reaches the request, nothing leaves the
              process;
  tests       the package's tests/**/*.test.mjs under node --test in the
              sandbox, with CODE2SKILL_DRY_RUN=1, CI=1 and no network.

A go-stdio package (go.mod carries "// code2skill:profile core-export-v1
runtime=go-stdio") gets the same structure and discovery checks, its Go code
read through go/ast, and go vet, go build ./mcp-tool, discovery of the built
server and go test, offline in the sandbox (GOPROXY=off, the module cache
read-only): run go mod download first.

validate never installs dependencies, never runs npm scripts and never
reaches the network itself: run npm ci (or npm install) in the package
first. The package's code runs in the sandbox, and the summary says which
isolation level was reached.

A strict-export-v1 package is checked in-process, nothing of it runs: the
required files; export-profile.json; the Portable Core; every derived view
against what derive computes; the runtime rules of its JavaScript; after
finalization, the Function core, MCP adapter and copied assets byte for byte
what compile generates; SKILL.md, MCP.<language>.md (MCP.zh-CN.md,
MCP.en.md), MCP-SETUP.md and references/feature-context.md against the
contract, in the export profile's documentation language; no PAGE.md or
workflow.json; the contamination gate over every file; with --pre-finalize
the baseline verification matrix, otherwise the final matrix recomputed
from the evidence it records, the files finalize writes and the
attestations of that evidence, verified with the evidence key. The summary
names the mode and lists the stages that passed, failed and did not run,
and which rows rest on unattested evidence.`,
		topics: []string{"sandbox", "formats", "evidence-key"},
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		format := addFindingsFormatFlag(fs)
		// --source-root serves both profiles: a strict package's source
		// roots, a go-stdio package's replace directives.
		sources := &sourcesFlags{}
		addSourceRootFlag(fs, &sources.sources.Base)
		fs.section("Flags (core-export-v1)")
		skipTests := fs.Bool("skip-tests", false, "check the structure only; nothing of the package runs")
		testTimeout := addDurationFlag(fs, "test-timeout", core.DefaultTestTimeout, "the whole test run")
		requestTimeout := addDurationFlag(fs, "request-timeout", core.DefaultRequestTimeout, "each MCP request")
		isolation := addIsolationFlag(fs)
		fs.section("Flags (strict-export-v1)")
		preFinalize := fs.Bool("pre-finalize", false, "check a package that is not finalized yet")
		addSourceMapFlag(fs, &sources.sources)
		key := addEvidenceKeyFlag(fs)
		requireAttested := fs.Bool("require-attested", false, "fail when a row rests on evidence no attestation of the evidence key vouches for (for CI)")
		fs.deprecate("timeout", "test-timeout")
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		if len(pos) != 1 {
			return usageError(stdio, c, "expected exactly one package directory")
		}
		// A directory of no known profile is checked as the flags ask:
		// strict with a strict-only flag, else core.
		profile := pkgdir.DetectProfile(pos[0])
		goStdio := pkgdir.DetectCoreGo(pos[0])
		isStrict := !goStdio && (profile == pkgdir.ProfileStrict || profile == pkgdir.ProfileUnknown && anyFlagSet(fs, strictOnlyFlags))
		if msg := profileFlagError(fs, isStrict, goStdio); msg != "" {
			return usageError(stdio, c, "%s", msg)
		}
		var sourceRoots []string
		if goStdio && sources.sources.Base != "" {
			// A go-stdio package's replace directives must lead inside
			// the authorised source root (style B).
			sourceRoots = []string{sources.sources.Base}
		}
		if isStrict {
			k, err := key.load(false)
			if err != nil {
				return keyFailure(stdio, c, err)
			}
			return runStrictValidate(ctx, stdio, format, pos[0], strict.Options{PreFinalize: *preFinalize, Sources: sources.sources,
				Key: k, RequireAttested: *requireAttested})
		}
		if *testTimeout <= 0 || *requestTimeout <= 0 {
			return usageError(stdio, c, "time limits must be positive")
		}
		if !*skipTests && !isolation.before(stdio, c.name) {
			return ExitFailure
		}
		return runValidate(ctx, stdio, format, pos[0], core.Options{
			SkipTests:      *skipTests,
			TestTimeout:    *testTimeout,
			RequestTimeout: *requestTimeout,
			Progress:       stdio.Progress,
			SourceRoots:    sourceRoots,
		}, isolation)
	}
	return c
}

// runValidate validates the package at dir and prints the report. demo
// shares it.
func runValidate(ctx context.Context, stdio *Stdio, format *formatFlag, dir string, opts core.Options, isolation isolationFlag) int {
	switch p := pkgdir.DetectProfile(dir); p {
	case pkgdir.ProfileCore, pkgdir.ProfileUnknown:
		// Unknown packages get the core checks, whose findings say what
		// is missing to make them core-export-v1.
	default:
		fmt.Fprintf(stdio.Err, "code2skill validate: %s is a %s package; validate checks core-export-v1 and strict-export-v1 packages\n", dir, p)
		return ExitFailure
	}
	res, err := core.Validate(ctx, dir, opts)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, core.ErrNodeMissing) {
			msg = core.ErrNodeMissing.Error()
		}
		if errors.Is(err, core.ErrGoMissing) {
			msg = core.ErrGoMissing.Error() + ", or pass --skip-tests to check the structure only"
		}
		fmt.Fprintf(stdio.Err, "code2skill validate: %s\n", msg)
		return ExitFailure
	}
	code := printReport(stdio, format, validateReport(dir, res))
	if res.Isolation != nil && !isolation.after(stdio, "validate", *res.Isolation) {
		return ExitFailure
	}
	return code
}

// validateSummary is the JSON summary of validate.
type validateSummary struct {
	diag.Counts
	Profile                 string             `json:"profile"`
	Runtime                 string             `json:"runtime"`
	Structure               core.Stage         `json:"structure"`
	Discovery               core.Stage         `json:"discovery"`
	Requests                core.Stage         `json:"requests"`
	Tests                   core.Stage         `json:"tests"`
	RequiresHostIntegration bool               `json:"requiresHostIntegration"`
	ProtocolVersion         string             `json:"protocolVersion,omitempty"`
	Tools                   []string           `json:"tools"`
	TestCounts              *core.TestCounts   `json:"testCounts,omitempty"`
	Reach                   *core.ReachSummary `json:"reach,omitempty"`
	Isolation               *sandbox.Isolation `json:"isolation,omitempty"`
	NodeProcesses           int                `json:"nodeProcesses"`
	Message                 string             `json:"message"`
}

func validateReport(dir string, res *core.Result) *diag.Report {
	s := validateSummary{
		Counts:                  diag.CountsOf(&res.Diagnostics),
		Profile:                 core.Profile,
		Runtime:                 string(res.Runtime),
		Structure:               res.Structure,
		Discovery:               res.Discovery,
		Requests:                res.Requests,
		Tests:                   res.Tests,
		RequiresHostIntegration: res.RequiresHostIntegration,
		ProtocolVersion:         res.ProtocolVersion,
		Tools:                   append([]string{}, res.Tools...),
		TestCounts:              res.TestCounts,
		Reach:                   res.Reach,
		NodeProcesses:           res.NodeProcesses,
		Isolation:               res.Isolation,
	}
	status := diag.StatusPassed
	if s.Errors > 0 {
		status = diag.StatusFailed
	}
	s.Message = validateMessage(status, res, s.Counts)
	return &diag.Report{
		Command: "validate",
		Status:  status,
		List:    &res.Diagnostics,
		Summary: s,
		Line:    fmt.Sprintf("%s: %s", dir, s.Message),
		Roots:   []string{dir},
		Anchor:  "package.json",
	}
}

// validateMessage says exactly how far the package was checked, never more.
func validateMessage(status string, res *core.Result, n diag.Counts) string {
	var details []string
	if res.ProtocolVersion != "" {
		details = append(details, fmt.Sprintf("%d tool(s), protocol %s", len(res.Tools), res.ProtocolVersion))
	}
	if r := res.Reach; r != nil {
		details = append(details, fmt.Sprintf("%d Tool calls with recorded requests", r.Calls))
	}
	if tc := res.TestCounts; tc != nil {
		d := fmt.Sprintf("%d/%d tests passed", tc.Passed, tc.Tests)
		if n := tc.Skipped + tc.Todo; n > 0 {
			d += fmt.Sprintf(", %d skipped or todo", n)
		}
		details = append(details, d)
	}
	if n.Warnings > 0 {
		details = append(details, plural(n.Warnings, "warning"))
	}
	unisolated := ""
	if iso := res.Isolation; iso != nil {
		details = append(details, iso.Summary())
		if iso.Missing() {
			unisolated = ", run without full isolation"
		}
	}
	suffix := ""
	if len(details) > 0 {
		suffix = " (" + strings.Join(details, "; ") + ")"
	}
	if status != diag.StatusPassed {
		return fmt.Sprintf("failed: %s; structure %s, MCP discovery %s, Tool requests %s%s, package tests %s%s",
			plural(n.Errors, "error"), stageWords(res.Structure), stageWords(res.Discovery), stageWords(res.Requests), inputsChecked(res), stageWords(res.Tests), suffix)
	}
	switch {
	case res.Discovery == core.StageNotRun && res.Tests == core.StageNotRun:
		return "passed: structure only, package not run" + suffix
	case res.RequiresHostIntegration:
		return "static structure and MCP discovery passed" + unisolated + "; runtime verification not completed (requires-host-integration)" + suffix
	}
	if res.Runtime == pkgdir.RuntimeGo {
		return "passed: structure, go vet, go build, MCP discovery, Tool requests" + inputsChecked(res) + " and package tests" + unisolated + suffix
	}
	return "passed: structure, MCP discovery, Tool requests" + inputsChecked(res) + " and package tests" + unisolated + suffix
}

// inputsChecked says how many of the Tools' inputs the reachability calls
// decided: " (9 of 12 inputs checked)"; the warnings name the others.
func inputsChecked(res *core.Result) string {
	r := res.Reach
	if r == nil {
		return ""
	}
	return fmt.Sprintf(" (%d of %d inputs checked)", r.InputsChecked, r.InputsChecked+r.InputsUnchecked)
}

func stageWords(s core.Stage) string {
	if s == core.StageNotRun {
		return "not run"
	}
	return string(s)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
