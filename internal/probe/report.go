package probe

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// Summary is the JSON summary of a probe report. Its keys are part of the
// report format.
type Summary struct {
	diag.Counts
	Profile         string `json:"profile"`
	ProtocolVersion string `json:"protocolVersion"`
	DetachedCopy    bool   `json:"detachedCopy"`
	Offline         bool   `json:"offline"`
	NetworkDenied   bool   `json:"networkDenied"`
	NetworkAllowed  bool   `json:"businessNetworkAllowed"`
	// Isolation is absent when no server ran.
	Isolation         *sandbox.Isolation `json:"isolation,omitempty"`
	UnknownToolAnswer string             `json:"unknownToolAnswer"`
	// MalformedFrameAnswer says how the server met a line that is not
	// JSON: a parse error, or no reply (and the next request answered).
	MalformedFrameAnswer string        `json:"malformedFrameAnswer"`
	NodeProcesses        int           `json:"nodeProcesses"`
	Checks               Checks        `json:"checks"`
	Tools                []*ToolStatus `json:"tools"`
	Calls                []*CallStatus `json:"calls"`
	// BusinessCallsNotRun lists the tools no --call proved: all of them
	// offline, those without a --call otherwise.
	BusinessCallsNotRun []string `json:"businessCallsNotRun,omitempty"`
	// RuntimeVerificationRequired is false only when business calls were
	// made and every one of them passed.
	RuntimeVerificationRequired bool `json:"runtimeVerificationRequired"`
	// GeneratedDryRunCases names the write tools whose dry-run case was
	// generated from the contract rather than given.
	GeneratedDryRunCases []string `json:"generatedDryRunCases"`
	// Message is the text report's summary line, without the package.
	Message string `json:"message"`
}

// Summary returns the JSON summary of the result.
func (r *Result) Summary() *Summary {
	s := &Summary{
		Counts:               diag.CountsOf(r.Diagnostics),
		Profile:              string(r.Profile),
		ProtocolVersion:      r.ProtocolVersion,
		DetachedCopy:         r.DetachedCopy,
		Offline:              r.Offline,
		NetworkDenied:        r.Isolation.NetworkDenied,
		NetworkAllowed:       r.NetworkAllowed,
		UnknownToolAnswer:    r.UnknownToolAnswer,
		MalformedFrameAnswer: r.MalformedFrameAnswer,
		NodeProcesses:        r.NodeProcesses,
		Checks:               r.Checks,
		Tools:                r.Tools,
	}
	if s.Tools == nil {
		s.Tools = []*ToolStatus{}
	}
	if r.Isolation.Level != "" {
		iso := r.Isolation
		s.Isolation = &iso
	}
	s.GeneratedDryRunCases = append([]string{}, r.GeneratedDryRunCases...)
	s.Calls = r.Calls
	if s.Calls == nil {
		s.Calls = []*CallStatus{}
	}
	for _, t := range r.Tools {
		if r.Offline || t.Success == NotRun {
			s.BusinessCallsNotRun = append(s.BusinessCallsNotRun, t.Name)
		}
	}
	s.RuntimeVerificationRequired = r.RuntimeVerificationRequired()
	s.Message = r.Message()
	return s
}

// RuntimeVerificationRequired reports whether the package's business calls
// are still to be verified: the probe was offline, made no --call, or a
// --call failed.
func (r *Result) RuntimeVerificationRequired() bool {
	return r.Offline || r.Checks.Success.Passed == 0 || r.Checks.Success.Failed > 0
}

// WriteTable prints the per-tool table, one row per tool and one column
// per kind of check, then the per-call table, one row per case with the
// HTTP status its result passed through.
func (r *Result) WriteTable(w io.Writer) error {
	if len(r.Tools) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tDISCOVERY\tSUCCESS\tERROR\tDRY-RUN")
	for _, t := range r.Tools {
		// A tool name comes from the server: escape it, and its tabs,
		// which would break the table.
		name := strings.ReplaceAll(diag.Escape(t.Name), "\t", `\t`)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", name, cell(t.Discovery), cell(t.Success), cell(t.Error), cell(t.DryRun))
	}
	if len(r.Calls) > 0 {
		fmt.Fprintln(tw, "\nCALL\tTOOL\tKIND\tHTTP\tRESULT")
		for _, c := range r.Calls {
			status := "-"
			if c.HTTPStatus != 0 {
				status = strconv.Itoa(c.HTTPStatus)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Case, c.Tool, c.Kind, status, cell(c.Verdict))
		}
	}
	return tw.Flush()
}

func cell(s Status) string { return strings.ReplaceAll(string(s), "-", " ") }

// Line returns the one summary line of the text report.
func (r *Result) Line(dir string) string {
	return dir + ": " + r.Message()
}

// Message says how far the probe proved the package, never more: "passed"
// only when business calls were made and all passed; a probe that made
// none says so.
func (r *Result) Message() string {
	var verdict string
	switch {
	case r.Diagnostics.HasErrors():
		verdict = "failed"
	case r.Offline:
		verdict = "protocol checks passed; business calls not run (--offline)"
	case r.Checks.Success.Passed+r.Checks.Success.Failed == 0 && r.Checks.Error.Passed+r.Checks.Error.Failed == 0:
		verdict = "protocol checks passed; no business call was made"
	case r.Checks.Success.Passed == 0:
		verdict = "protocol checks and error calls passed; no successful business call was made"
	default:
		verdict = "passed"
	}
	var parts []string
	if r.ProtocolVersion != "" {
		parts = append(parts, fmt.Sprintf("%d tool(s) over protocol %s in a detached copy", len(r.Tools), r.ProtocolVersion))
	} else if r.NodeProcesses > 0 {
		parts = append(parts, "the server did not initialize")
	} else {
		parts = append(parts, "nothing was run")
	}
	c := r.Checks
	for _, k := range []struct {
		name  string
		count Count
	}{{"calls", c.Success}, {"error calls", c.Error}, {"dry-run calls", c.DryRun}, {"invalid-argument checks", c.InvalidArguments}} {
		if n := k.count.Passed + k.count.Failed; n > 0 {
			parts = append(parts, fmt.Sprintf("%d/%d %s", k.count.Passed, n, k.name))
		}
	}
	if n := len(r.GeneratedDryRunCases); n > 0 {
		from := "the contract"
		if r.Profile != pkgdir.ProfileStrict {
			from = "the input schemas"
		}
		parts = append(parts, fmt.Sprintf("%d dry-run case(s) generated from %s (%s)", n, from, strings.Join(r.GeneratedDryRunCases, ", ")))
	}
	switch r.UnknownToolAnswer {
	case AnswerProtocolError:
		parts = append(parts, "unknown tool rejected with a JSON-RPC error")
	case AnswerToolError:
		parts = append(parts, "unknown tool rejected with an isError result (-32602)")
	}
	switch r.MalformedFrameAnswer {
	case AnswerParseError:
		parts = append(parts, "a line that is not JSON answered with parse error -32700")
	case AnswerNoReply:
		parts = append(parts, "a line that is not JSON left unanswered (no -32700), the server serving on")
	case AnswerSessionEnded:
		parts = append(parts, "a line that is not JSON ended the session (the Go SDK's way, no -32700)")
	}
	if c.UnknownMethod.Passed > 0 {
		parts = append(parts, "unknown method answered -32601")
	}
	if verdict != "failed" && r.RuntimeVerificationRequired() && r.NodeProcesses > 0 {
		parts = append(parts, "runtime verification still required")
	}
	if r.Isolation.Level != "" {
		parts = append(parts, r.Isolation.Summary())
	}
	sep := "; " // the verdict is a clause of its own
	if verdict == "passed" || verdict == "failed" {
		sep = ": "
	}
	return verdict + sep + strings.Join(parts, "; ")
}
