package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pipeline"
)

// printPipeline prints a pipeline report and returns the exit code its
// content implies.
func (pc *pipelineCommand) printPipeline(rep *pipeline.Report, runErr error) int {
	status := diag.StatusPassed
	failed := ""
	for _, s := range rep.Stages {
		if s.Status == pipeline.StatusFailed && s.LastAction == pipeline.ActionExecuted && pc.sub == "run" {
			failed = s.Name
		}
	}
	switch {
	case runErr != nil:
		status = diag.StatusError
	case failed != "" || rep.Findings.HasErrors():
		status = diag.StatusFailed
	}
	r := &diag.Report{Command: "pipeline " + pc.sub, Status: status, List: rep.Findings, Summary: rep,
		Line: pc.line(rep, failed), Roots: []string{pc.p.Dir, pc.stateName()}, Anchor: contractAnchor}
	if *pc.format == formatText {
		writePipelineTables(pc.stdio.Out, rep)
	}
	code := printReport(pc.stdio, pc.format, r)
	if pc.sub == "status" {
		return ExitPassed
	}
	return code
}

// line is the one summary line of run and status.
func (pc *pipelineCommand) line(rep *pipeline.Report, failed string) string {
	var done, notDone []string
	for _, s := range rep.Stages {
		if s.Status == pipeline.StatusCompleted {
			done = append(done, s.Name)
		} else {
			notDone = append(notDone, s.Name+" "+s.Status)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", rep.FeatureID)
	n, _ := rep.Findings.Counts()
	switch {
	case failed != "":
		fmt.Fprintf(&b, "%s failed", failed)
	case n > 0:
		fmt.Fprintf(&b, "%s in the checks", plural(n, "error"))
	default:
		b.WriteString("ok")
	}
	if len(done) > 0 {
		fmt.Fprintf(&b, "; completed: %s", strings.Join(done, ", "))
	}
	if len(notDone) > 0 {
		fmt.Fprintf(&b, "; not completed: %s", strings.Join(notDone, ", "))
	}
	fmt.Fprintf(&b, "; decision: %s; host verification: %s", rep.Decision, hostLine(rep))
	return b.String()
}

// hostLine says how far host verification went, and by which host.
func hostLine(rep *pipeline.Report) string {
	h := rep.HostVerify
	for _, s := range rep.Stages {
		if s.Name == pipeline.StageHostVerify && s.Status != pipeline.StatusCompleted {
			h = nil
		}
	}
	if h == nil {
		return "not run"
	}
	line := fmt.Sprintf("%d of %d checks passed by the %s", h.Passed, h.Checks, pipeline.HostClients(h.Clients, h.Host))
	if h.Skipped > 0 {
		line += fmt.Sprintf(", %d not run", h.Skipped)
	}
	if !h.Elicitation {
		line += " (no elicitation, as the Host profile says)"
	}
	return line
}

// writePipelineTables prints the stage table, the capability and workflow
// tables and the next steps.
func writePipelineTables(w io.Writer, rep *pipeline.Report) {
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "STAGE\tSTATUS\tLAST ACTION\tDURATION\tNOTE")
	for _, s := range rep.Stages {
		note := s.ErrorSummary
		if note == "" {
			note = s.InvalidatedReason
		}
		action := s.LastAction
		if action == "" {
			action = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Name, s.Status, action, time.Duration(s.DurationMs)*time.Millisecond, note)
	}
	tw.Flush()
	writeTrimmed(w, &table)
	for _, t := range []struct {
		title string
		rows  []pipeline.RowReport
	}{{"CAPABILITY", rep.Capabilities}, {"WORKFLOW", rep.Workflows}} {
		if len(t.rows) == 0 {
			continue
		}
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "%s\tGENERATED\tBEHAVIOUR-VERIFIED\tRUNTIME-VERIFIED\tHOST-VERIFIED\tNOTE\n", t.title)
		for _, r := range t.rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Generated, r.BehaviorVerified, r.RuntimeVerified, r.HostVerified, r.Note)
		}
		tw.Flush()
		writeTrimmed(w, &table)
	}
	fmt.Fprintln(w)
	for _, n := range rep.NextSteps {
		fmt.Fprintf(w, "NEXT %s\n", n)
	}
}

// writeTrimmed writes a table's lines to w without the padding a last
// column left empty leaves at their ends, and empties the table.
func writeTrimmed(w io.Writer, table *bytes.Buffer) {
	for line := range strings.Lines(table.String()) {
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
	table.Reset()
}
