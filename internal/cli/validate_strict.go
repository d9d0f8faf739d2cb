package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/finalcheck"
	"github.com/code2skill/code2skill/internal/strict"
)

// Flags of validate that apply to one profile only.
var (
	coreOnlyFlags   = []string{"skip-tests", "test-timeout", "timeout", "request-timeout"}
	strictOnlyFlags = []string{"pre-finalize", "source-root", "source-map", "evidence-key", "require-attested"}
)

// anyFlagSet reports whether one of the named flags was set on the command
// line.
func anyFlagSet(fs *flagSet, names []string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || slices.Contains(names, f.Name) })
	return set
}

// profileFlagError returns a usage error when a flag set on the command
// line does not apply to the package's profile, else "".
func profileFlagError(fs *flagSet, isStrict, goStdio bool) string {
	wrong, profile := strictOnlyFlags, "core-export-v1"
	if goStdio {
		// --source-root authorises the application's source a go-stdio
		// package's replace directives lead to.
		wrong, profile = slices.DeleteFunc(slices.Clone(strictOnlyFlags), func(f string) bool { return f == "source-root" }), "core-export-v1 (go-stdio)"
	}
	if isStrict {
		wrong, profile = coreOnlyFlags, "strict-export-v1"
	}
	var set []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(wrong, f.Name) {
			set = append(set, "--"+f.Name)
		}
	})
	if len(set) == 0 {
		return ""
	}
	return fmt.Sprintf("%s does not apply to a %s package", strings.Join(set, ", "), profile)
}

// contractAnchor is the file a finding about a strict package as a whole
// is shown on: the package's one authority.
const contractAnchor = "canonical-contract.json"

// runStrictValidate validates the strict package in dir and prints the
// report.
func runStrictValidate(ctx context.Context, stdio *Stdio, format *formatFlag, dir string, opts strict.Options) int {
	return printReport(stdio, format, strictReport(dir, strict.Validate(ctx, dir, opts)))
}

// strictSummary is the JSON summary of validate on a strict package.
type strictSummary struct {
	diag.Counts
	Profile      string         `json:"profile"`
	Mode         string         `json:"mode"` // pre-finalize or final
	Capabilities int            `json:"capabilities"`
	Stages       []strict.Stage `json:"stages"`
	// Attestation is what the attestation check found (final mode).
	Attestation *finalcheck.Summary `json:"attestation,omitempty"`
	Message     string              `json:"message"`
}

func strictReport(dir string, res *strict.Result) *diag.Report {
	s := strictSummary{
		Counts:       diag.CountsOf(&res.Diagnostics),
		Profile:      "strict-export-v1",
		Mode:         strictMode(res),
		Capabilities: res.Capabilities,
		Stages:       res.Stages,
		Attestation:  res.Attestation,
	}
	status := diag.StatusPassed
	switch {
	case res.Err != nil:
		status = diag.StatusError
	case s.Errors > 0:
		status = diag.StatusFailed
	}
	s.Message = strictMessage(res, s.Counts)
	return &diag.Report{
		Command: "validate",
		Status:  status,
		List:    &res.Diagnostics,
		Summary: s,
		Line:    fmt.Sprintf("%s: %s", dir, s.Message),
		Roots:   []string{dir},
		Anchor:  contractAnchor,
	}
}

// attestationText says how far the evidence the final files record is
// attested.
func attestationText(a *finalcheck.Summary) string {
	switch {
	case a.Checks == 0:
		return "no evidence to attest"
	case len(a.Unattested) == 0:
		return fmt.Sprintf("evidence attested (%d checks)", a.Attested)
	}
	why := ""
	if a.Problem != "" {
		why = " (" + a.Problem + ")"
	}
	return fmt.Sprintf("evidence attested for %d of %d checks; rows resting on unattested evidence: %s%s", a.Attested, a.Checks, strings.Join(a.Unattested, ", "), why)
}

func strictMode(res *strict.Result) string {
	if res.PreFinalize {
		return "pre-finalize"
	}
	return "final"
}

// strictMessage says which mode was checked and, stage by stage, what
// passed, what failed and what did not run. A stage that passed with a
// limitation carries it in parentheses ("Portable Core (structural rules
// only)"), so that the line never claims more than ran.
func strictMessage(res *strict.Result, n diag.Counts) string {
	var passed, failed, notRun []string
	for _, st := range res.Stages {
		switch st.Status {
		case strict.Passed:
			title := st.Title
			if limit, _, _ := strings.Cut(st.Note, ";"); limit != "" {
				title += " (" + limit + ")"
			}
			passed = append(passed, title)
		case strict.Failed:
			failed = append(failed, st.Title)
		default:
			notRun = append(notRun, st.Title)
		}
	}
	var b strings.Builder
	mode := strictMode(res)
	switch {
	case res.Err != nil:
		fmt.Fprintf(&b, "could not validate (%s): %v", mode, res.Err)
	case n.Errors > 0:
		fmt.Fprintf(&b, "failed (%s): %s in %s", mode, plural(n.Errors, "error"), strings.Join(failed, ", "))
		if len(passed) > 0 {
			fmt.Fprintf(&b, "; passed: %s", strings.Join(passed, ", "))
		}
	default:
		capabilities := "1 capability"
		if res.Capabilities != 1 {
			capabilities = fmt.Sprintf("%d capabilities", res.Capabilities)
		}
		fmt.Fprintf(&b, "passed (%s, %s): %s", mode, capabilities, strings.Join(passed, ", "))
	}
	if len(notRun) > 0 {
		fmt.Fprintf(&b, "; not run: %s", strings.Join(notRun, ", "))
	}
	if a := res.Attestation; a != nil {
		b.WriteString("; ")
		b.WriteString(attestationText(a))
	}
	if n.Warnings > 0 {
		fmt.Fprintf(&b, "; %s", plural(n.Warnings, "warning"))
	}
	return b.String()
}
