package cli

import (
	"context"
	"errors"
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
		args:    "<pkg>",
		about: `Runs the strict flow of a strict-export-v1 package as ordered stages,
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
package file ever carries a timestamp. Every check record and the
finalization the state remembers are tagged with the evidence key.`,
		exits:  pipelineExits,
		topics: []string{"evidence-key", "formats"},
	}
	c.subs = []*command{
		{
			name:    "pipeline init",
			summary: "record the package's sources and how it starts",
			args:    "<pkg>",
			about: `Detects how the package starts: fresh (missing or empty; the directory is
created), changed-only (it has a canonical contract) or migrate (legacy
files), and records it with the sources --source-map locates, in the state.
init never changes a package file, and a migration must be acknowledged
before the first run.`,
			exits: `Exit codes:
  0  the state was written
  2  usage error (bad flags, a core-export-v1 package)
  3  the tool could not do its job (I/O failure, a damaged state)
`,
		},
		{
			name:    "pipeline run",
			summary: "run every stage whose inputs changed",
			args:    "<pkg>",
			about: `Runs the stages whose inputs changed since they last passed, in order;
--only runs some of them, --rerun runs them although unchanged.

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

finalize refuses a check record written or edited by hand, tagged with
another evidence key, recorded by a stage other than the one that runs its
phase, or about another version of the package. When finalize fails, every
package file the run wrote is put back as it was.`,
			exits: `Exit codes:
  0  every stage that ran completed and no check failed
  1  a stage failed or a check failed (including a finalize stopped by an
     unacknowledged contract change)
  2  usage error (bad flags, an upstream stage stale for --only, a migration
     not acknowledged, a package not initialized, a core-export-v1 package)
  3  the tool could not do its job (node missing, I/O failure, a damaged state)
`,
		},
		{
			name:    "pipeline status",
			summary: "show where every stage and capability stands",
			args:    "<pkg>",
			about: `Shows where every stage and every capability stands, from the state. A
decision is shown only when the finalization verifies with the evidence key
and the final files are the ones it wrote.`,
			exits: `Exit codes:
  0  the status was shown
  2  usage error (bad flags, a package not initialized)
  3  the tool could not do its job (I/O failure, a damaged state)
`,
		},
		{
			name:    "pipeline diagnose",
			summary: "group the validation errors by root cause",
			args:    "<pkg>",
			about: `Validates the package as the verify stage does and groups the errors by
root cause, at most --max-errors per category.`,
			exits: `Exit codes:
  0  no validation error
  1  validation errors
  2  usage error (bad flags, a package not initialized)
  3  the tool could not do its job (I/O failure, a damaged state)
`,
		},
	}
	pInit, pRun, pStatus, pDiagnose := c.subs[0], c.subs[1], c.subs[2], c.subs[3]
	pInit.run = func(ctx context.Context, stdio *Stdio, args []string) int { return pipelineInit(pInit, stdio, args) }
	pRun.run = func(ctx context.Context, stdio *Stdio, args []string) int { return pipelineRun(ctx, pRun, stdio, args) }
	pStatus.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		return pipelineStatus(pStatus, stdio, args)
	}
	pDiagnose.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		return pipelineDiagnose(ctx, pDiagnose, stdio, args)
	}
	return c
}

// pipelineExits are the exit codes of the pipeline's subcommands.
const pipelineExits = `Exit codes:
  0  init done; run: every stage that ran completed and no check failed;
     status shown; diagnose: no validation error
  1  a stage failed or a check failed (run; including a finalize stopped
     by an unacknowledged contract change), validation errors (diagnose)
  2  usage error (bad flags, an upstream stage stale for --only, a migration
     not acknowledged, a package not initialized)
  3  the tool could not do its job (node missing, I/O failure, a damaged state)
`

// pipelineFlags are the flags every pipeline subcommand takes, and the
// evidence key of those that read or write check records.
type pipelineFlags struct {
	c        *command
	sub      string
	fs       *flagSet
	stateDir *string
	format   *formatFlag
	key      *evidenceKeyFlag
}

// newPipelineFlags registers the common flags of a subcommand: --state-dir,
// --format (with sarif when findings is true) and, when withKey is true,
// --evidence-key.
func newPipelineFlags(c *command, findings, withKey bool) *pipelineFlags {
	pf := &pipelineFlags{c: c, sub: c.leaf(), fs: newFlagSet(c)}
	pf.stateDir = pf.fs.String("state-dir", "", "the state directory `D` (default <pkg>.producer-state)")
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
		return nil, usageError(stdio, pf.c, "want exactly one package directory, got %d arguments", len(pos)), false
	}
	if code, ok := strictPackage(stdio, pf.c, pos[0]); !ok {
		return nil, code, false
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
		return usageError(pc.stdio, pc.c, "%s", usage.Msg)
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

// flagGiven reports whether the named flag was given.
func flagGiven(fs *flagSet, name string) bool { return anyFlagSet(fs, []string{name}) }

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
