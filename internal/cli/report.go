package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/code2skill/code2skill/internal/buildinfo"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/sarif"
)

// printReport writes a report in the chosen format and returns the exit code
// its status implies.
func printReport(stdio *Stdio, format *formatFlag, r *diag.Report) int {
	err := writeReport(stdio.Out, *format, r)
	if err == nil && alsoReport != nil {
		err = alsoReport(r)
	}
	if err != nil {
		fmt.Fprintf(stdio.Err, "code2skill %s: writing report: %v\n", r.Command, err)
		return ExitFailure
	}
	switch r.Status {
	case diag.StatusPassed:
		return ExitPassed
	case diag.StatusFailed:
		return ExitFindings
	}
	return ExitFailure
}

// writeReport writes a report in format.
func writeReport(w io.Writer, format formatFlag, r *diag.Report) error {
	switch format {
	case formatJSON:
		return r.WriteJSON(w)
	case formatSARIF:
		return sarif.Write(w, r, sarifProducer())
	}
	return r.WriteText(w)
}

// alsoReport, when set, is given every report printReport prints. The
// tests set it to keep what the same run would print with --format json
// and --format sarif: one run of a command that starts node serves the
// assertions on every format.
var alsoReport func(r *diag.Report) error

// printJSON writes v as one indented JSON document, the way every command's
// --format json output is written, and returns the exit code: ExitPassed,
// or ExitFailure when stdout cannot be written.
func printJSON(stdio *Stdio, command string, v any) int {
	enc := json.NewEncoder(stdio.Out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stdio.Err, "code2skill %s: writing output: %v\n", command, err)
		return ExitFailure
	}
	return ExitPassed
}

// sarifProducer describes this build to a SARIF log: its version, and the
// rules reference of the same revision, which each rule's help links to.
func sarifProducer() sarif.Producer {
	bi, _ := debug.ReadBuildInfo()
	version, revision := buildinfo.FromBuildInfo(bi)
	ref := "main"
	switch {
	case sarif.IsRelease(version):
		ref = version
	case revision != "":
		ref = revision
	}
	return sarif.Producer{Version: version, RulesURL: sarif.InformationURI + "/blob/" + ref + "/docs/rules.md"}
}
