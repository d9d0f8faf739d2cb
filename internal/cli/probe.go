package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/probe"
	"github.com/code2skill/code2skill/internal/sandbox"
)

func probeCmd() *command {
	c := &command{
		name:    "probe",
		summary: "prove a package's MCP server works detached, tool by tool, over the real protocol",
		args:    "<pkg>",
		about: `Copies the package to a fresh temporary directory (a strict package without
any node_modules; a core package with its own, mounted read-only into the copy
rather than copied) and runs node mcp-tool/index.mjs there in the sandbox,
with a time limit per request. A module importing a file outside the package
is an error (PROBE_IMPORT_OUTSIDE). A go-stdio package's server is first
built as validate builds it (go build ./mcp-tool in the sandbox, offline, the
module cache read-only; a local replace must lead into --source-root) and
the binary runs in the copy. Over the official Go MCP SDK it checks, in
order:

  initialize     the declared protocol version (export-profile.json, default
                 2025-11-25), exactly, then notifications/initialized;
  tools/list     a strict package lists exactly the contract's tools, each
                 with a title, a description, the contract's four annotation
                 hints, and input/output schemas equal to the contract's
                 projection (mcp-tool/schema-contract.json; under the dry-run
                 variable the output schema is the dry-run envelope's); a
                 core package's tools are checked for shape;
  protocol       an unknown tool is rejected (a JSON-RPC error, or the
                 TypeScript SDK's isError result carrying -32602: both pass,
                 the summary says which); an unknown method gets -32601; each
                 strict tool called with missing required (or an unexpected)
                 argument is rejected; last, a line that is not JSON gets
                 parse error -32700 or no reply, and the server answers the
                 next request (a go-stdio server may end the session: the Go
                 SDK's way; the summary says which);
  cases          each --call succeeds (isError false, stated by a strict
                 Tool; structuredContent an object, a text block with the
                 same JSON, valid against the outputSchema) and, when its
                 result passes an HTTP answer through ({httpStatus,
                 bodyText}), with a 2xx status or the one its case expects
                 (401/403: authentication failed); each --error-call returns
                 isError: true with the contract's error envelope as the JSON
                 of its text, or passes an HTTP error status through; each
                 --dry-run-call, run with the dry-run variable set to 1 and
                 no network, returns exactly {dryRun: true, validatedInput,
                 operationPolicy, operationSummary} (a core package: an
                 object with dryRun: true);
  clients        every result is judged as the TypeScript SDK Client and the
                 Inspector CLI read it, against the output schema its Tool
                 listed: a result they would throw on, or an error without
                 text, is a finding naming the Tool and the clients.

Without --offline, a strict package needs a --call and an --error-call for
every tool. Every write tool's dry-run branch is proven: with its
--dry-run-call, or else with a generated case (strict: minimal valid
arguments of its input schema and conditional rules; core: a value for every
input its schema declares), which the report names. Every answer is scanned
for credentials (the ones given with --env included), and --transcript
writes them as [redacted]. The summary says "passed" only when business
calls were made and passed; a probe that made none says so and reports
runtime verification as still required. A call that fails because the
sandbox denied the network says to add --allow-network.`,
		exits: `Exit codes:
  0  passed
  1  the package did not pass (findings were reported)
  2  usage error (bad flags, a malformed case or env file, or a case the
     package cannot take, named by file and index)
  3  the probe could not run (node missing, I/O failure)
`,
		topics: []string{"case-files", "sandbox", "formats"},
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		var opts probe.Options
		var env stringsFlag
		fs.Var((*stringsFlag)(&opts.Calls), "call", "a case `FILE` of calls that must succeed (repeatable; code2skill help case-files)")
		fs.Var((*stringsFlag)(&opts.ErrorCalls), "error-call", "a case `FILE` of calls that must fail with the error envelope (repeatable)")
		fs.Var((*stringsFlag)(&opts.DryRunCalls), "dry-run-call", "a case `FILE` of dry-run calls (repeatable)")
		fs.BoolVar(&opts.Offline, "offline", false, "make no business calls: initialize, tools/list, the protocol errors and dry-run only")
		fs.BoolVar(&opts.AllowNetwork, "allow-network", false, "let the server reach the network during business calls (the protocol session never can)")
		addEnvFlag(fs, &env)
		var envFiles stringsFlag
		fs.Var(&envFiles, "env-file", "give the server the KEY=VALUE lines of `FILE`, so that credentials stay off the command line (repeatable; --env wins over a file)")
		var sourceRoot string
		addSourceRootFlag(fs, &sourceRoot)
		requestTimeout := addDurationFlag(fs, "request-timeout", mcpcheck.DefaultRequestTimeout, "each MCP request")
		transcript := fs.String("transcript", "", "write the whole JSON-RPC exchange as NDJSON to `FILE`, credentials redacted")
		format := addFindingsFormatFlag(fs)
		isolation := addIsolationFlag(fs)
		fs.deprecate("timeout", "request-timeout")
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		if len(pos) != 1 {
			return usageError(stdio, c, "expected exactly one package directory")
		}
		if opts.Offline && opts.AllowNetwork {
			return usageError(stdio, c, "--offline makes no business calls: --allow-network has nothing to allow")
		}
		var fromFiles [][]string
		for _, f := range envFiles {
			vars, err := readEnvFile("--env-file", f)
			if err != nil {
				return usageError(stdio, c, "%v", err)
			}
			fromFiles = append(fromFiles, vars)
		}
		given, err := serverEnv(env)
		if err != nil {
			return usageError(stdio, c, "%v", err)
		}
		opts.Env = mergeEnv(append(fromFiles, given)...)
		opts.RequestTimeout = *requestTimeout
		if sourceRoot != "" {
			opts.SourceRoots = []string{sourceRoot}
		}
		opts.Progress = stdio.Progress
		var exchange bytes.Buffer
		if *transcript != "" {
			opts.Transcript = &exchange
		}

		dir := pos[0]
		if !isolation.before(stdio, c.name) {
			return ExitFailure
		}
		res, err := probe.Run(ctx, dir, opts)
		var usage *probe.UsageError
		switch {
		case errors.As(err, &usage):
			return usageError(stdio, c, "%s", usage.Msg)
		case errors.Is(err, core.ErrGoMissing):
			fmt.Fprintf(stdio.Err, "code2skill probe: %v: the probe builds the server with it\n", core.ErrGoMissing)
			return ExitFailure
		case errors.Is(err, sandbox.ErrNotFound):
			fmt.Fprintf(stdio.Err, "code2skill probe: node is not installed or not on PATH: %v\n", err)
			return ExitFailure
		case err != nil:
			fmt.Fprintf(stdio.Err, "code2skill probe: %v\n", err)
			return ExitFailure
		}
		if *transcript != "" {
			if err := atomicfile.WriteFile(*transcript, exchange.Bytes(), 0o644); err != nil {
				fmt.Fprintf(stdio.Err, "code2skill probe: writing the transcript: %v\n", err)
				return ExitFailure
			}
		}
		status := diag.StatusPassed
		if res.Diagnostics.HasErrors() {
			status = diag.StatusFailed
		}
		report := &diag.Report{Command: "probe", Status: status, List: res.Diagnostics, Summary: res.Summary(), Line: res.Line(dir),
			Roots: []string{dir}, Anchor: packageAnchor(dir)}
		if *format == formatText {
			if err := res.WriteTable(stdio.Out); err != nil {
				fmt.Fprintf(stdio.Err, "code2skill probe: writing report: %v\n", err)
				return ExitFailure
			}
		}
		code = printReport(stdio, format, report)
		if res.Isolation.Level != "" && !isolation.after(stdio, c.name, res.Isolation) {
			return ExitFailure
		}
		return code
	}
	return c
}

// packageAnchor is the file a finding about the package as a whole is
// shown on: a strict package's contract, else package.json.
func packageAnchor(dir string) string {
	if pkgdir.DetectProfile(dir) == pkgdir.ProfileStrict {
		return contractAnchor
	}
	return "package.json"
}

// serverEnv turns --env values into KEY=VALUE pairs: KEY alone passes
// code2skill's own value, which must be set.
func serverEnv(values []string) ([]string, error) {
	var env []string
	for _, v := range values {
		key, _, hasValue := strings.Cut(v, "=")
		if key == "" || strings.ContainsAny(key, " \t") {
			return nil, fmt.Errorf("--env %q: want KEY=VALUE or KEY", v)
		}
		if !hasValue {
			own, ok := os.LookupEnv(key)
			if !ok {
				return nil, fmt.Errorf("--env %s: the variable is not set", key)
			}
			v = key + "=" + own
		}
		env = append(env, v)
	}
	return env, nil
}
