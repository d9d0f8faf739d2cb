package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/code2skill/code2skill/internal/pipeline"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// pipelineCmd is code2skill pipeline; each subcommand lives in its own
// file: pipeline_init.go, pipeline_run.go, pipeline_status.go and
// pipeline_diagnose.go.
func pipelineCmd() *command {
	c := &command{
		name:    "pipeline",
		summary: "run the strict flow as resumable stages: init, run, status, diagnose",
		usage: `Usage:
  code2skill pipeline init <pkg> [--state-dir D] [--source-map ID=PATH]... [--acknowledge-migration] [--format text|json]
  code2skill pipeline run <pkg> [--state-dir D] [--only STAGE,...] [--force]
                          [--enable-runtime-verify] [--enable-host-verify] [--authorize-write CAPABILITY_ID]...
                          [--runtime-origin ORIGIN=URL]... [--env KEY[=VALUE]]... [--host-env-file F]
                          [--acknowledge-contract-change DIGEST] [--request-timeout D]
                          [--evidence-key FILE] [--format text|json|sarif]
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
  --request-timeout D           time limit of each MCP request of runtime-verify and
                                host-verify, as a Go duration (30s); default 15s
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
		case "init":
			return pipelineInit(c, stdio, args)
		case "run":
			return pipelineRun(ctx, c, stdio, args)
		case "status":
			return pipelineStatus(c, stdio, args)
		case "diagnose":
			return pipelineDiagnose(ctx, c, stdio, args)
		}
		return usageError(stdio, c, "unknown subcommand %q: want init, run, status or diagnose", sub)
	}
	return c
}

// pipelineFlags are the flags every pipeline subcommand takes, and the
// evidence key of those that read or write check records.
type pipelineFlags struct {
	c        *command
	sub      string
	fs       *flag.FlagSet
	stateDir *string
	format   *formatFlag
	key      *evidenceKeyFlag
}

// newPipelineFlags registers the common flags of a subcommand: --state-dir,
// --format (with sarif when findings is true) and, when withKey is true,
// --evidence-key.
func newPipelineFlags(c *command, sub string, findings, withKey bool) *pipelineFlags {
	pf := &pipelineFlags{c: c, sub: sub, fs: newFlagSet(c)}
	pf.stateDir = pf.fs.String("state-dir", "", "")
	if findings {
		pf.format = addFindingsFormatFlag(pf.fs)
	} else {
		pf.format = addFormatFlag(pf.fs)
	}
	if withKey {
		pf.key = addEvidenceKeyFlag(pf.fs)
	}
	return pf
}

// open parses the command line and prepares the pipeline of its one
// package directory; ok is false when the subcommand should stop with the
// returned exit code. createKey says whether a missing default evidence
// key is created.
func (pf *pipelineFlags) open(stdio *Stdio, args []string, createKey bool) (pc *pipelineCommand, code int, ok bool) {
	pos, code, ok := parseOrExit(pf.fs, pf.c, stdio, args)
	if !ok {
		return nil, code, false
	}
	if len(pos) != 1 {
		return nil, usageError(stdio, pf.c, "pipeline %s: want exactly one package directory, got %d arguments", pf.sub, len(pos)), false
	}
	p := &pipeline.Pipeline{
		Dir:      pos[0],
		StateDir: *pf.stateDir,
		Steps:    pipelineSteps(),
		Version:  buildIdentity(),
		Progress: stdio.Err,
	}
	if pf.key != nil {
		k, err := pf.key.load(createKey)
		if err != nil {
			return nil, keyFailure(stdio, pf.c, err), false
		}
		p.Key = k
	}
	return &pipelineCommand{c: pf.c, stdio: stdio, format: pf.format, p: p, sub: pf.sub}, 0, true
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
