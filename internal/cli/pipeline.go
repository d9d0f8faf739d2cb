package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pipeline"
	"github.com/code2skill/code2skill/internal/sandbox"
)

func pipelineCmd() *command {
	c := &command{
		name:    "pipeline",
		summary: "run the strict flow as resumable stages: init, run, status, diagnose",
		usage: `Usage:
  code2skill pipeline init <pkg> [--state-dir D] [--source-map ID=PATH]... [--acknowledge-migration] [--format text|json]
  code2skill pipeline run <pkg> [--state-dir D] [--only STAGE,...] [--force]
                          [--enable-runtime-verify] [--enable-host-verify] [--authorize-write CAPABILITY_ID]...
                          [--runtime-origin ORIGIN=URL]... [--env KEY[=VALUE]]... [--host-env-file F]
                          [--acknowledge-contract-change DIGEST] [--evidence-key FILE]
                          [--format text|json|sarif]
  code2skill pipeline status <pkg> [--state-dir D] [--evidence-key FILE] [--format text|json]
  code2skill pipeline diagnose <pkg> [--state-dir D] [--stage STAGE] [--capability ID]
                          [--max-errors N] [--full] [--format text|json|sarif]

Runs the strict flow of a strict-export-v1 package as ordered stages,
remembering between runs what passed:

  analyze         read and judge the Portable Core, evidence against the mapped sources
  generate        compile the runtime, derive the views, refresh the documents' markers
  verify          strict validation, the offline probe, the behaviour vectors
  runtime-verify  authorised live calls through the package's own host runtime (opt-in)
  host-verify     the Host-phase checks under the Host profile, code2skill playing
                  the reference MCP host (opt-in)
  finalize        the verification report from the records, then the final files

A stage runs again only when its inputs changed (the files it reads, the
mapped source trees, the code2skill build). The state lives outside the
package, in <pkg>.producer-state/ unless --state-dir says otherwise; no
package file ever carries a timestamp.

init detects how the package starts: fresh (missing or empty; the directory
is created), changed-only (it has a canonical contract) or migrate (legacy
files): init never changes a package file, and a migration must be
acknowledged before the first run.

Runtime verification runs only with --enable-runtime-verify, host
verification only with --enable-host-verify, and either calls a write
capability only with --authorize-write <capabilityId>, for this run; none of
them is remembered. Live cases are read from
<state-dir>/verification/cases/live/<capabilityId>.json. Both start the
package through its own host runtime (portable-host-runtime.mjs), with the
network for this run and only the variables the package reads: runtime
verification with --env, --runtime-origin and code2skill's own values, host
verification exactly as MCP-SETUP.md registers it, with the values of
--host-env-file. Live inputs and results are sanitised before they are
stored.

A package is re-finalized only for the interpretation that was reviewed:
the state keeps a copy of the last finalized contract, and when the
contract means something else now (code2skill diff finds a breaking or
compatible change), finalize stops, shows the diff and its digest, and runs
once --acknowledge-contract-change DIGEST acknowledges that diff. The other
stages run first, and like every failed finalize the stop puts back what
they wrote; the acknowledgement is recorded in the state, never in the
package.

Every check record and the finalization the state remembers are tagged with
the evidence key, which lives outside the package and the state (by default
code2skill/evidence.key in your configuration directory, created on first
use with mode 0600): finalize refuses a record written or edited by hand,
tagged with another key, recorded by a stage other than the one that runs
its phase (a runtime check that no runtime verification made), or about
another version of the package. status and run show a decision only when the
finalization verifies and the final files are the ones it wrote. When
finalize fails, every package file the run wrote is put back as it was.

Flags:
  --state-dir D                 the state directory (default <pkg>.producer-state)
  --format text|json            output format (default text); run and diagnose
                                also take sarif: the findings as a SARIF 2.1.0 log
                                (diagnose then lists every error, whatever
                                --max-errors says)
init:
  --source-map ID=PATH          where a declared source is on this machine, an
                                absolute path (repeatable; remembered)
  --acknowledge-migration       accept that a legacy package is migrated
run:
  --only STAGE,...              run only these stages; every stage upstream must be
                                completed and unchanged
  --force                       run the selected stages even when unchanged
  --enable-runtime-verify       run runtime-verify in this run
  --authorize-write ID          let runtime-verify call this write capability in
                                this run (repeatable)
  --runtime-origin ORIGIN=URL   where an allowed runtime origin of the contract is
                                served for this run (repeatable)
  --env KEY[=VALUE]             a value for a variable the package declares: KEY=VALUE,
                                or KEY to pass code2skill's own (repeatable)
  --enable-host-verify          run host-verify in this run
  --host-env-file F             host-verify: KEY=VALUE lines, the values your host's MCP
                                configuration gives the variables MCP-SETUP.md names
  --acknowledge-contract-change DIGEST
                                finalize although the contract changed semantically
                                since the last finalization: the digest of that diff,
                                as the stopped finalize printed it
run, status:
  --evidence-key FILE           the evidence key (default: code2skill/evidence.key in
                                your configuration directory; run creates it)
diagnose:
  --stage STAGE                 only the errors a stage is about
  --capability ID               only the errors about one capability
  --max-errors N                errors shown per category (default 10)
  --full                        also show what a root cause suppresses

Exit codes:
  0  init done; run: every stage that ran completed and no check failed;
     status shown; diagnose: no validation error
  1  a stage failed or a check failed (run; including a finalize stopped
     by an unacknowledged contract change), validation errors (diagnose)
  2  usage error (bad flags, an upstream stage stale for --only, a migration
     not acknowledged, a package not initialized)
  3  the tool could not do its job (node missing, I/O failure, a damaged state)
`,
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		if len(args) == 0 {
			return usageError(stdio, c, "name a subcommand: init, run, status or diagnose")
		}
		sub, args := args[0], args[1:]
		switch sub {
		case "-h", "-help", "--help", "help":
			fmt.Fprint(stdio.Out, c.usage)
			return ExitPassed
		case "init", "run", "status", "diagnose":
		default:
			return usageError(stdio, c, "unknown subcommand %q: want init, run, status or diagnose", sub)
		}
		fs := newFlagSet(c)
		stateDir := fs.String("state-dir", "", "")
		var format *formatFlag
		if sub == "run" || sub == "diagnose" {
			format = addFindingsFormatFlag(fs)
		} else {
			format = addFormatFlag(fs)
		}
		var sources *sourcesFlags
		var ack, force, enable, enableHost, full *bool
		var hostEnvFile *string
		var only, stage, capability, ackChange *string
		var maxErrors *int
		var authorize, origins, env stringsFlag
		var key *evidenceKeyFlag
		if sub == "run" || sub == "status" {
			key = addEvidenceKeyFlag(fs)
		}
		switch sub {
		case "init":
			sources = &sourcesFlags{}
			fs.Func("source-map", "", sources.sources.AddMapping)
			ack = fs.Bool("acknowledge-migration", false, "")
		case "run":
			only = fs.String("only", "", "")
			force = fs.Bool("force", false, "")
			enable = fs.Bool("enable-runtime-verify", false, "")
			enableHost = fs.Bool("enable-host-verify", false, "")
			hostEnvFile = fs.String("host-env-file", "", "")
			fs.Var(&authorize, "authorize-write", "")
			fs.Var(&origins, "runtime-origin", "")
			fs.Var(&env, "env", "")
			ackChange = fs.String("acknowledge-contract-change", "", "")
		case "diagnose":
			stage = fs.String("stage", "", "")
			capability = fs.String("capability", "", "")
			maxErrors = fs.Int("max-errors", pipeline.DefaultMaxErrors, "")
			full = fs.Bool("full", false, "")
		}
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		if len(pos) != 1 {
			return usageError(stdio, c, "pipeline %s: want exactly one package directory, got %d arguments", sub, len(pos))
		}
		p := &pipeline.Pipeline{
			Dir:      pos[0],
			StateDir: *stateDir,
			Steps:    pipelineSteps(),
			Version:  buildIdentity(),
			Progress: stdio.Err,
		}
		if key != nil {
			k, err := key.load(sub == "run")
			if err != nil {
				return keyFailure(stdio, c, err)
			}
			p.Key = k
		}
		pc := &pipelineCommand{c: c, stdio: stdio, format: format, p: p, sub: sub}
		switch sub {
		case "init":
			return pc.init(pipeline.InitOptions{SourceMaps: sources.sources.Map, AcknowledgeMigration: *ack})
		case "run":
			opts := pipeline.RunOptions{Force: *force, EnableRuntimeVerify: *enable, AuthorizeWrites: authorize,
				EnableHostVerify: *enableHost, AcknowledgeContractChange: *ackChange}
			if flagSet(fs, "only") {
				opts.Only = splitList(*only)
			}
			var err error
			if opts.Origins, err = pairs(origins, "--runtime-origin", "ORIGIN=URL"); err != nil {
				return usageError(stdio, c, "%v", err)
			}
			if opts.Env, err = envValues(env); err != nil {
				return usageError(stdio, c, "%v", err)
			}
			if flagSet(fs, "host-env-file") {
				kvs, err := readEnvFile("--host-env-file", *hostEnvFile)
				if err != nil {
					return usageError(stdio, c, "%v", err)
				}
				opts.HostEnv = map[string]string{}
				for _, kv := range kvs {
					k, v, _ := strings.Cut(kv, "=")
					opts.HostEnv[k] = v
				}
			}
			return pc.run(ctx, opts)
		case "status":
			return pc.status()
		}
		opts := pipeline.DiagnoseOptions{Stage: *stage, Capability: *capability, MaxErrors: *maxErrors, Full: *full}
		if *format == formatSARIF && !flagSet(fs, "max-errors") {
			// --max-errors bounds what a reader scrolls through; a log for
			// code scanning carries every error.
			opts.MaxErrors = math.MaxInt
		}
		return pc.diagnose(ctx, opts)
	}
	return c
}

// pipelineCommand carries one pipeline invocation.
type pipelineCommand struct {
	c      *command
	stdio  *Stdio
	format *formatFlag
	p      *pipeline.Pipeline
	sub    string
}

// fail reports an error of the pipeline: a usage error, or a failure of the
// tool.
func (pc *pipelineCommand) fail(err error) int {
	var usage *pipeline.UsageError
	var state *pipeline.StateError
	switch {
	case errors.As(err, &usage):
		return usageError(pc.stdio, pc.c, "pipeline %s: %s", pc.sub, usage.Msg)
	case errors.As(err, &state):
		fmt.Fprintf(pc.stdio.Err, "code2skill pipeline %s: %s: %v\n", pc.sub, pc.stateName(), err)
	case errors.Is(err, sandbox.ErrNotFound):
		fmt.Fprintf(pc.stdio.Err, "code2skill pipeline %s: node is not installed or not on PATH: %v\n", pc.sub, err)
	default:
		fmt.Fprintf(pc.stdio.Err, "code2skill pipeline %s: %v\n", pc.sub, err)
	}
	return ExitFailure
}

func (pc *pipelineCommand) stateName() string {
	if pc.p.StateDir != "" {
		return pc.p.StateDir
	}
	return pipeline.DefaultStateDir(pc.p.Dir)
}

func (pc *pipelineCommand) init(opts pipeline.InitOptions) int {
	res, err := pc.p.Init(opts)
	if err != nil {
		return pc.fail(err)
	}
	summary := struct {
		Mode                  string                `json:"mode"`
		StateDir              string                `json:"stateDir"`
		Created               bool                  `json:"created"`
		MigrationAcknowledged bool                  `json:"migrationAcknowledged"`
		ModeSummary           *pipeline.ModeSummary `json:"modeSummary"`
	}{res.Mode, pc.stateName(), res.Created, res.MigrationAcknowledged, res.Summary}
	if *pc.format == formatJSON {
		return printReport(pc.stdio, pc.format, &diag.Report{Command: "pipeline init", Status: diag.StatusPassed, Summary: summary})
	}
	w := pc.stdio.Out
	fmt.Fprintf(w, "MODE %s\n", res.Mode)
	fmt.Fprintf(w, "STATE-DIR %s\n", pc.stateName())
	s := res.Summary
	switch res.Mode {
	case pipeline.ModeChangedOnly:
		fmt.Fprintf(w, "CHANGE-SUMMARY added=%d removed=%d changed=%d unchanged=%d\n", len(s.Added), len(s.Removed), len(s.Changed), len(s.Unchanged))
		for _, group := range []struct {
			word string
			ids  []string
		}{{"added", s.Added}, {"removed", s.Removed}, {"changed", s.Changed}} {
			for _, id := range group.ids {
				fmt.Fprintf(w, "  %s %s\n", group.word, id)
			}
		}
	case pipeline.ModeMigrate:
		ack := "no"
		if res.MigrationAcknowledged {
			ack = "yes"
		}
		fmt.Fprintf(w, "MIGRATION-SUMMARY files=%d actions=%d acknowledged=%s (see %s)\n", len(s.Files), len(s.RequiredActions), ack, pipeline.ModeSummaryFile)
		for _, a := range s.RequiredActions {
			fmt.Fprintf(w, "  action: %s\n", a)
		}
	}
	for _, n := range s.NextSteps {
		fmt.Fprintf(w, "NEXT %s\n", n)
	}
	return ExitPassed
}

func (pc *pipelineCommand) run(ctx context.Context, opts pipeline.RunOptions) int {
	rep, err := pc.p.Run(ctx, opts)
	if rep == nil {
		return pc.fail(err)
	}
	code := pc.printPipeline(rep, err)
	if err != nil {
		pc.fail(err)
		return ExitFailure
	}
	return code
}

func (pc *pipelineCommand) status() int {
	rep, err := pc.p.Status()
	if err != nil {
		return pc.fail(err)
	}
	pc.printPipeline(rep, nil)
	return ExitPassed
}

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
	line := fmt.Sprintf("%d of %d checks passed by the %s", h.Passed, h.Checks, h.Host)
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

// buildIdentity identifies this build in every stage's fingerprint: the
// version, the Go version and the VCS revision, so that a new build runs
// every stage again while the same build skips what is unchanged.
func buildIdentity() string {
	bi, _ := debug.ReadBuildInfo()
	return versionLine(bi)
}

// flagSet reports whether the named flag was given.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// splitList splits "a,b" into its non-empty items.
func splitList(s string) []string {
	out := []string{}
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// pairs parses repeated KEY=VALUE flags into a map.
func pairs(values []string, flagName, form string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range values {
		k, val, ok := strings.Cut(v, "=")
		if !ok || k == "" || val == "" {
			return nil, fmt.Errorf("%s %q: want %s", flagName, v, form)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s %s is given twice", flagName, k)
		}
		out[k] = val
	}
	return out, nil
}

// envValues parses --env: KEY=VALUE, or KEY for code2skill's own value.
func envValues(values []string) (map[string]string, error) {
	kvs, err := serverEnv(values)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out, nil
}
