package cli

import (
	"context"
	"fmt"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

func compileCmd() *command {
	c := &command{
		name:    "compile",
		summary: "compile a strict package's Functions and MCP server from its canonical contract",
		args:    "<pkg>",
		about: `Reads the Portable Core of the strict-export-v1 package <pkg>
(canonical-contract.json, source-topology.json, host-profile.json and
export-profile.json), checks it as derive does, reads the authored Tool prose
in authoring/tool-docs.json ({"<tool>": {"title": …, "description": …}}), and
writes the package's runtime:

  function-core/index.mjs        one async Function per capability
  mcp-tool/index.mjs             one literal MCP registration per Tool
  mcp-tool/runtime.mjs           the MCP SDK and zod, self-contained
  portable-error-normalizer.mjs  the reviewed error normalizer
  portable-http-dispatch.mjs     the reviewed dispatcher, when a capability
                                 sends HTTP requests
  portable-workflow-guard.mjs    the reviewed guard, when a write is guarded
  portable-host-runtime.mjs,     the reviewed host runtime and its binding,
  mcp-tool/host-runtime.json     when the export profile declares hostRuntime

All or nothing: when any capability cannot be compiled honestly (a local
implementation that is not fully static, a binding a request cannot carry, a
schema keyword outside the portable subset, a Tool without authored prose,
…), nothing is written and every reason is reported with the capability, the
contract field and why; the capability requires review. Files are written
together, each through a temporary file, never through a symbolic link. The
same inputs always give the same bytes.`,
		topics: []string{"formats"},
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		report := fs.String("report", "", "also write the outcome per capability to `FILE` (compile-report.json format), even when nothing compiled")
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
		return printCompile(stdio, format, dir, runCompile(dir, *report))
	}
	return c
}

// compileResult is what one compile run found and wrote.
type compileResult struct {
	list   diag.List
	failed bool // the tool could not do its job (I/O)
	res    *compile.Result
	files  []string // written, relative to the package
	report string   // the report file written, if any
}

// compileSummary is the summary object of the JSON report.
type compileSummary struct {
	diag.Counts
	ContractID   string              `json:"contractId"`
	Compiled     bool                `json:"compiled"`
	Capabilities []compileCapability `json:"capabilities"`
	Files        []string            `json:"files"`
	Report       string              `json:"report,omitempty"`
}

type compileCapability struct {
	CapabilityID string   `json:"capabilityId"`
	ToolName     string   `json:"toolName"`
	Status       string   `json:"status"`
	Reasons      []string `json:"reasons"`
}

// runCompile reads, checks and compiles the package in dir, writes the
// runtime when every capability compiled, and the report when asked to.
func runCompile(dir, report string) *compileResult {
	out := &compileResult{}
	fail := func(err error) *compileResult {
		out.failed = true
		out.list.Add(compile.RuleIOFailure.New("", "%v", err))
		return out
	}
	loaded, err := derive.Load(dir)
	out.list.Merge(loaded.Read())
	if err != nil {
		return fail(err)
	}
	core := loaded.Inputs
	out.list.Merge(loaded.Structure())
	if out.list.HasErrors() {
		return out // the Portable Core itself is broken: nothing to compile
	}
	docs, list, err := compile.ReadToolDocs(dir)
	out.list.Merge(list)
	if err != nil {
		return fail(err)
	}
	res, list := compile.Compile(&compile.Inputs{Core: core, ToolDocs: docs})
	out.list.Merge(list)
	out.res = res
	// Broken tool docs are errors of their own: even when every capability
	// found its prose, nothing is written.
	if res.Compiled() && !out.list.HasErrors() {
		ds, err := compile.Write(dir, res.Files)
		out.list.Add(ds...)
		if err != nil {
			return fail(err)
		}
		if len(ds) == 0 {
			for _, f := range res.Files {
				out.files = append(out.files, f.Path)
			}
		}
	}
	if report != "" {
		if err := atomicfile.WriteFile(report, res.Report(dir, len(out.files) > 0), 0o644); err != nil {
			return fail(err)
		}
		out.report = report
	}
	return out
}

func printCompile(stdio *Stdio, format *formatFlag, dir string, out *compileResult) int {
	counts := diag.CountsOf(&out.list)
	sum := compileSummary{Counts: counts, Capabilities: []compileCapability{}, Files: append([]string{}, out.files...), Report: out.report}
	review := 0
	if out.res != nil {
		sum.ContractID = out.res.ContractID
		sum.Compiled = len(out.files) > 0
		for _, cp := range out.res.Capabilities {
			sum.Capabilities = append(sum.Capabilities, compileCapability{
				CapabilityID: cp.CapabilityID, ToolName: cp.ToolName, Status: cp.Status, Reasons: append([]string{}, cp.Reasons...),
			})
			if cp.Status == compile.StatusRequiresReview {
				review++
			}
		}
	}
	r := &diag.Report{Command: "compile", Status: diag.StatusPassed, List: &out.list, Summary: sum, Roots: []string{dir}, Anchor: contractAnchor}
	switch {
	case out.failed:
		r.Status = diag.StatusError
		r.Line = "compile: could not read or write the package; the runtime was not written"
	case out.res == nil:
		r.Status = diag.StatusFailed
		r.Line = fmt.Sprintf("compile: nothing was written: the inputs have errors (errors: %d, warnings: %d)", counts.Errors, counts.Warnings)
	case review > 0:
		r.Status = diag.StatusFailed
		r.Line = fmt.Sprintf("compile: nothing was written: %d of %d capabilities require review", review, len(out.res.Capabilities))
	case len(out.files) == 0:
		r.Status = diag.StatusFailed
		r.Line = fmt.Sprintf("compile: nothing was written (errors: %d, warnings: %d)", counts.Errors, counts.Warnings)
	default:
		r.Line = fmt.Sprintf("compile: %d capabilities compiled; wrote %d files", len(out.res.Capabilities), len(out.files))
	}
	if *format != formatText || r.Status != diag.StatusPassed {
		return printReport(stdio, format, r)
	}
	// Text success: any warnings, the written files, then the summary.
	line := r.Line
	r.Line = ""
	code := printReport(stdio, format, r)
	for _, f := range out.files {
		fmt.Fprintln(stdio.Out, f)
	}
	fmt.Fprintln(stdio.Out, line)
	return code
}
