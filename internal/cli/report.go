package cli

import (
	"fmt"

	"github.com/code2skill/code2skill/internal/diag"
)

// printReport writes a report in the chosen format and returns the exit code
// its status implies.
func printReport(stdio *Stdio, format *formatFlag, r *diag.Report) int {
	var err error
	if *format == formatJSON {
		err = r.WriteJSON(stdio.Out)
	} else {
		err = r.WriteText(stdio.Out)
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
