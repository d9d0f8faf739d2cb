package cli

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pipeline"
)

// pipelineDiagnose is code2skill pipeline diagnose.
func pipelineDiagnose(ctx context.Context, c *command, stdio *Stdio, args []string) int {
	pf := newPipelineFlags(c, true, false)
	stage := pf.fs.String("stage", "", "only the errors the stage `STAGE` is about")
	capability := pf.fs.String("capability", "", "only the errors about the capability `ID`")
	maxErrors := pf.fs.Int("max-errors", pipeline.DefaultMaxErrors, "show at most `N` errors per category (--format sarif: every error, unless given)")
	full := pf.fs.Bool("full", false, "also show what a root cause suppresses")
	pc, code, ok := pf.open(stdio, args, false)
	if !ok {
		return code
	}
	opts := pipeline.DiagnoseOptions{Stage: *stage, Capability: *capability, MaxErrors: *maxErrors, Full: *full}
	if *pc.format == formatSARIF && !flagGiven(pf.fs, "max-errors") {
		// --max-errors bounds what a reader scrolls through; a log for
		// code scanning carries every error.
		opts.MaxErrors = math.MaxInt
	}
	return pc.diagnose(ctx, opts)
}

func (pc *pipelineCommand) diagnose(ctx context.Context, opts pipeline.DiagnoseOptions) int {
	d, err := pc.p.Diagnose(ctx, opts)
	if err != nil {
		return pc.fail(err)
	}
	status := diag.StatusPassed
	if d.Errors > 0 {
		status = diag.StatusFailed
	}
	if *pc.format != formatText {
		var shown diag.List
		for _, cat := range d.Categories {
			shown.Add(cat.Errors...)
		}
		return printReport(pc.stdio, pc.format, &diag.Report{Command: "pipeline diagnose", Status: status, List: &shown, Summary: d,
			Line: d.Summary, Roots: []string{pc.p.Dir}, Anchor: contractAnchor})
	}
	w := pc.stdio.Out
	phase := "final"
	if d.PreFinalize {
		phase = "pre-finalize"
	}
	fmt.Fprintf(w, "DIAGNOSIS candidate=%s errors=%d phase=%s\n", d.Candidate, d.Errors, phase)
	for _, cat := range d.Categories {
		head := "CATEGORY"
		if cat.RootCause {
			head = "ROOT-CAUSE"
		}
		fmt.Fprintf(w, "%s %s (%s):\n", head, cat.Category, plural(cat.Count, "error"))
		for _, e := range cat.Errors {
			fmt.Fprintf(w, "  %s\n", e)
		}
		if more := cat.Count - len(cat.Errors); more > 0 {
			fmt.Fprintf(w, "  ... %d more (--max-errors)\n", more)
		}
	}
	if s := d.SuppressedDownstream; s != nil {
		fmt.Fprintf(w, "DOWNSTREAM-SUPPRESSED %s in %s; fix the root cause first, or pass --full\n", plural(s.Errors, "error"), strings.Join(s.Categories, ", "))
	}
	if d.Errors == 0 {
		fmt.Fprintf(w, "OK no validation errors (%s)\n", d.Summary)
		return ExitPassed
	}
	return ExitFindings
}
