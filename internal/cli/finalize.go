package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/finalize"
	"github.com/code2skill/code2skill/internal/strict"
	"github.com/code2skill/code2skill/internal/verdict"
)

// finalValidator validates a package once finalize has written its final
// files, and decides whether they stay: the full strict validator in final
// mode, whose last stage is the final-files cross-check, verifying the
// attestations with key.
func finalValidator(key *attest.Key) finalize.Validator {
	return finalize.Validator{
		Name: "the strict validator (final)",
		Validate: func(ctx context.Context, dir string, core *derive.Core, sources contract.Sources) (*diag.List, error) {
			res := strict.Validate(ctx, dir, strict.Options{Sources: sources, Key: key, Core: core})
			return &res.Diagnostics, res.Err
		},
	}
}

func finalizeCmd() *command {
	c := &command{
		name:    "finalize",
		summary: "record each capability's verified status and approve what the evidence proves",
		args:    "<pkg> --verification-report F",
		about: `Finalizes the strict package <pkg> from the evidence of its verification and
writes its seven final files: function-core/validation-receipt.json,
preflight-report.json, live-verification.json, verification-matrix.json,
verification-attestation.json, approval-audit.json and export-manifest.json.

Nothing is written unless every input holds up:
  - the package: derived views current (run code2skill derive), the Function
    core, MCP server and Skill present, the Function core, MCP adapter and
    copied assets byte for byte what compile generates, no symbolic link;
  - the verification report (JSON Schema of the published format, then every
    capability and workflow covered once, each check in its phase, runtime
    checks bound to the row's own Tool, bypass checks with zero external
    writes, attachment proofs, every check the contract requires of a passed
    phase);
  - the evidence: each passed check's evidenceHash must be the SHA-256 of a
    file in the evidence directory (by default the report's directory);
    symbolic links are not followed; the report, the evidence and the live
    files must lie outside the package;
  - the live evidence: per capability a tools/call of its own Tool, valid
    against its input schema, and a successful result meeting its output
    contract, without credentials, tokens or cookies;
  - the contamination gate: no secret file, credential, home-directory or
    machine path, private host — and, with the sources located, no host,
    file path or name from the sources that the contract does not declare —
    in the package or in the report.

A check of the report is attested when the evidence directory holds the
check record the pipeline wrote for it, tagged with the evidence key, by
the stage that runs its phase, about this package as it is: finalize tags
it in verification-attestation.json. Any other evidence (a report written
by hand) is accepted, and the output names the rows that rest on it;
code2skill validate --require-attested refuses them.

Each capability and workflow then gets its own status, which never rests on
another's evidence: behaviour-verified (its behaviour checks passed),
runtime-verified (a real MCP call of its own Tool, bound by digest to its
live evidence), host-verified (Host checks passed and the Host profile
enables it). A failed check blocks its own row. The decision is approved
(every row approved), partially-approved, requires-review or blocked.

The files are written in one atomic batch; then the validator runs in final
mode, and if it rejects them the previous files are put back. Running
finalize again on a finalized package gives the same bytes for the same
evidence.`,
		exits: `Exit codes:
  0  the final files were written (whatever the decision)
  1  findings: nothing was written, or the validator rejected the files and
     the previous ones were restored
  2  usage error (bad flags or arguments)
  3  finalize could not do its job (I/O failure, the validator could not run,
     an evidence key that is not a private regular file of 64 hex digits)
`,
		topics: []string{"evidence-key", "formats"},
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		flags := newFlagSet(c)
		report := flags.String("verification-report", "", "the verification report `F` (required)")
		evidence := flags.String("evidence-dir", "", "the directory `D` of the evidence the checks hash (default: the report's)")
		var inputs, results stringsFlag
		flags.Var(&inputs, "live-input", "a file `F` of live Tool calls (repeatable; pairs with --live-result in order)")
		flags.Var(&results, "live-result", "a file `F` of live Tool results (repeatable)")
		sources := addSourcesFlags(flags)
		key := addEvidenceKeyFlag(flags)
		format := addFindingsFormatFlag(flags)
		pos, code, ok := parseOrExit(flags, c, stdio, args)
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
		switch {
		case *report == "":
			return usageError(stdio, c, "--verification-report is required")
		case len(inputs) != len(results):
			return usageError(stdio, c, "--live-input and --live-result come in pairs: got %d inputs and %d results", len(inputs), len(results))
		}
		for _, f := range append([]string{*report}, append(inputs, results...)...) {
			if _, err := os.Lstat(f); errors.Is(err, fs.ErrNotExist) {
				return usageError(stdio, c, "%s: no such file", f)
			}
		}
		if *evidence != "" {
			if fi, err := os.Stat(*evidence); err != nil || !fi.IsDir() {
				return usageError(stdio, c, "--evidence-dir %s is not a directory", *evidence)
			}
		}
		k, err := key.load(true)
		if err != nil {
			return keyFailure(stdio, c, err)
		}
		opts := finalize.Options{
			Report:      *report,
			EvidenceDir: *evidence,
			Sources:     sources.sources,
			Validator:   finalValidator(k),
			Key:         k,
		}
		for i := range inputs {
			opts.Live = append(opts.Live, finalize.LivePair{Input: inputs[i], Result: results[i]})
		}
		return printFinalize(stdio, format, dir, finalize.Run(ctx, dir, opts))
	}
	return c
}

// finalizeSummary is the summary object of the JSON report.
type finalizeSummary struct {
	diag.Counts
	// Decision is the package's approval decision; "" when nothing was
	// written.
	Decision        string   `json:"decision"`
	Files           []string `json:"files"`
	Restored        bool     `json:"restored"`
	Validator       string   `json:"validator"`
	EvidenceChecked int      `json:"evidenceChecked"`
	// Unattested are the rows resting on evidence no authenticated record
	// vouches for.
	Unattested       []string     `json:"unattested"`
	LiveCapabilities int          `json:"liveCapabilities"`
	SourcesScanned   []string     `json:"sourcesScanned"`
	Capabilities     []rowSummary `json:"capabilities"`
	Workflows        []rowSummary `json:"workflows"`
}

// rowSummary is one capability's or workflow's final status.
type rowSummary struct {
	ID               string   `json:"id"`
	Generated        bool     `json:"generated"`
	BehaviorVerified bool     `json:"behaviorVerified"`
	BypassVerified   *bool    `json:"bypassVerified,omitempty"` // workflows only
	RuntimeVerified  bool     `json:"runtimeVerified"`
	HostVerified     bool     `json:"hostVerified"`
	Decision         string   `json:"decision"`
	Reasons          []string `json:"reasons"`
}

func summarise(rows []verdict.Row, workflow bool) []rowSummary {
	out := []rowSummary{}
	for _, r := range rows {
		s := rowSummary{
			ID: r.ID, Generated: true, BehaviorVerified: r.BehaviorVerified, RuntimeVerified: r.RuntimeVerified,
			HostVerified: r.HostVerified, Decision: r.Decision, Reasons: append([]string{}, r.Reasons...),
		}
		if workflow {
			b := r.BypassVerified
			s.BypassVerified = &b
		}
		out = append(out, s)
	}
	return out
}

func printFinalize(stdio *Stdio, format *formatFlag, dir string, res *finalize.Result) int {
	counts := diag.CountsOf(&res.List)
	sum := finalizeSummary{
		Counts:           counts,
		Files:            append([]string{}, res.Files...),
		Restored:         res.Restored,
		Validator:        res.Validator,
		EvidenceChecked:  res.EvidenceChecked,
		Unattested:       append([]string{}, res.Unattested...),
		LiveCapabilities: res.LiveCapabilities,
		SourcesScanned:   append([]string{}, res.SourcesScanned...),
		Capabilities:     []rowSummary{},
		Workflows:        []rowSummary{},
	}
	// Findings name package files, or the report and evidence as given on
	// the command line.
	r := &diag.Report{Command: "finalize", Status: diag.StatusPassed, List: &res.List, Summary: &sum, Roots: []string{dir, "."}, Anchor: contractAnchor}
	switch {
	case res.Failed:
		r.Status = diag.StatusError
		r.Line = "finalize: could not finalize " + dir + "; the package is as it was"
	case res.Restored:
		r.Status = diag.StatusFailed
		r.Line = fmt.Sprintf("finalize: %s rejected the final files; the previous ones were restored (errors: %d, warnings: %d)",
			res.Validator, counts.Errors, counts.Warnings)
	case res.Matrix == nil:
		r.Status = diag.StatusFailed
		r.Line = fmt.Sprintf("finalize: nothing was written (errors: %d, warnings: %d)", counts.Errors, counts.Warnings)
	default:
		m := res.Matrix
		sum.Decision = m.Decision
		sum.Capabilities = summarise(m.Capabilities, false)
		sum.Workflows = summarise(m.Workflows, true)
		r.Line = finalizeLine(dir, res)
	}
	if *format != formatText || res.Matrix == nil {
		return printReport(stdio, format, r)
	}
	// Text success: any warnings, the status table, then the summary line.
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	yes := func(v bool) string {
		if v {
			return "yes"
		}
		return "no"
	}
	fmt.Fprintln(tw, "CAPABILITY\tGENERATED\tBEHAVIOR\tRUNTIME\tHOST\tDECISION\tREASONS")
	for _, row := range res.Matrix.Capabilities {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row.ID, "yes", yes(row.BehaviorVerified), yes(row.RuntimeVerified),
			yes(row.HostVerified), row.Decision, reasons(row.Reasons))
	}
	if len(res.Matrix.Workflows) > 0 {
		fmt.Fprintln(tw, "WORKFLOW\tGENERATED\tBYPASS\tRUNTIME\tHOST\tDECISION\tREASONS")
		for _, row := range res.Matrix.Workflows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row.ID, "yes", yes(row.BypassVerified), yes(row.RuntimeVerified),
				yes(row.HostVerified), row.Decision, reasons(row.Reasons))
		}
	}
	tw.Flush()
	line := r.Line
	r.Line = ""
	code := printReport(stdio, format, r)
	fmt.Fprint(stdio.Out, b.String())
	fmt.Fprintln(stdio.Out, line)
	return code
}

func reasons(rs []string) string {
	if len(rs) == 0 {
		return "-"
	}
	return strings.Join(rs, ", ")
}

// finalizeLine is the summary line of a finalization that wrote its files:
// the decision, how many rows it approves, and what was and was not
// checked.
func finalizeLine(dir string, res *finalize.Result) string {
	m := res.Matrix
	approved := func(rows []verdict.Row) int {
		n := 0
		for _, r := range rows {
			if r.Approved {
				n++
			}
		}
		return n
	}
	sources := "sources not scanned (give --source-root or --source-map)"
	if len(res.SourcesScanned) > 0 {
		sources = fmt.Sprintf("%d source(s) scanned", len(res.SourcesScanned))
	}
	return fmt.Sprintf("%s: %s: %d of %d capabilities and %d of %d workflows approved; %d final files written; "+
		"evidence of %d passed checks found, %s; live evidence for %d of %d capabilities; contamination gate passed, %s; validated by %s",
		dir, m.Decision, approved(m.Capabilities), len(m.Capabilities), approved(m.Workflows), len(m.Workflows), len(res.Files),
		res.EvidenceChecked, attestedText(res.Unattested), res.LiveCapabilities, len(m.Capabilities), sources, res.Validator)
}

// attestedText says which rows rest on unattested evidence.
func attestedText(unattested []string) string {
	if len(unattested) == 0 {
		return "all of it attested"
	}
	return "rows resting on unattested evidence: " + strings.Join(unattested, ", ")
}
