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
		usage: `Usage: code2skill probe <pkg> [--call F]... [--error-call F]... [--dry-run-call F]...
                       [--offline] [--timeout S] [--transcript FILE] [--format text|json|sarif]
                       [--allow-network] [--env KEY[=VALUE]]... [--env-file FILE]... [--require-isolation]
                       [--source-root D]...

Copies the package to a fresh temporary directory (a strict package without
any node_modules; a core package with its own, mounted read-only into the copy
rather than copied) and runs node mcp-tool/index.mjs there in the sandbox:
allowlisted environment, private HOME, and where the OS allows nothing of the
host but the copy, node and the system libraries, no network, a PID namespace;
a time limit per request; everything it started killed at the end. A module
importing a file outside the package is an error (PROBE_IMPORT_OUTSIDE). A
go-stdio package's server is first built as validate builds it (go build
./mcp-tool in the sandbox, offline, the module cache read-only; a local
replace must lead into a --source-root) and the binary runs in the copy.
Over the official Go MCP SDK it checks, in order:

  initialize     the declared protocol version (export-profile.json, default
                 2025-11-25), exactly, then notifications/initialized;
  tools/list     a strict package lists exactly the contract's tools, each
                 with a title, a description, the contract's four annotation
                 hints, and input/output schemas equal to the contract's
                 projection (mcp-tool/schema-contract.json); a core package's
                 tools are checked for shape;
  protocol       an unknown tool is rejected (a JSON-RPC error, or the
                 TypeScript SDK's isError result carrying -32602: both pass,
                 the summary says which); each strict tool called with missing
                 required (or an unexpected) argument is rejected;
  cases          each --call succeeds (structuredContent an object, a text
                 block with the same JSON, valid against the outputSchema)
                 and, when its result passes an HTTP answer through
                 ({httpStatus, bodyText}), with a 2xx status or the one its
                 case expects (401/403: authentication failed); each
                 --error-call returns isError: true with the contract's error
                 envelope, or passes an HTTP error status through; each
                 --dry-run-call, run with the dry-run variable set to 1 and
                 no network, returns exactly {dryRun: true, validatedInput,
                 operationPolicy, operationSummary} (a core package: an
                 object with dryRun: true).

A case file holds one {"name": "<tool>", "arguments": {...}} object or an array
of them, each with an optional "expect": {"httpStatus": 404} (or a list of
statuses) and assertions on its result, "equals": {"/pointer": value} and
"contains": {"/pointer": "text"} (a pointer goes on into a string holding
JSON, as /bodyText/id); a case naming a tool the package does not have is a
usage error, and a strict case must satisfy the tool's inputSchema. Without
--offline, a strict package needs a --call and an --error-call for every
tool. Every write tool's dry-run branch is proven: with its --dry-run-call,
or else with a generated case (strict: minimal valid arguments of its input
schema and conditional rules; core: a value for every input its schema
declares), which the report names. Every answer is scanned for credentials
(the ones given with --env included), and --transcript writes them as
[redacted]. --offline makes
no business calls: it proves initialize, tools/list, the protocol errors and
dry-run only. The summary says "passed" only when business calls were made
and passed; a probe that made none says so and reports runtime verification
as still required. A call that fails because the sandbox denied the network
says to add --allow-network.

Flags:
  --call FILE           a success case file (repeatable)
  --error-call FILE     a handler-error case file (repeatable)
  --dry-run-call FILE   a dry-run case file (repeatable)
  --offline             no business calls: protocol and dry-run only
  --timeout S           time limit of each request, in seconds or as a
                        duration such as 1m (default 10)
  --transcript FILE     write the whole JSON-RPC exchange as NDJSON
  --format text|json|sarif
                        output format (default text); sarif: the findings
                        as a SARIF 2.1.0 log for code scanning
  --allow-network       let the server reach the network during business
                        calls (the protocol session never can)
  --env KEY[=VALUE]     give the server a variable: KEY=VALUE, or KEY to pass
                        code2skill's own value (repeatable)
  --env-file FILE       give the server the KEY=VALUE lines of FILE, so that
                        credentials stay off the command line (repeatable;
                        --env wins over a file)
  --source-root D       authorise the directory a go-stdio package's local
                        replace leads to (style B); the build reads it
                        read-only (repeatable)
` + isolationHelp + `
` + exitCodesHelp,
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		var opts probe.Options
		var env stringsFlag
		fs.Var((*stringsFlag)(&opts.Calls), "call", "")
		fs.Var((*stringsFlag)(&opts.ErrorCalls), "error-call", "")
		fs.Var((*stringsFlag)(&opts.DryRunCalls), "dry-run-call", "")
		fs.BoolVar(&opts.Offline, "offline", false, "")
		fs.BoolVar(&opts.AllowNetwork, "allow-network", false, "")
		fs.Var(&env, "env", "")
		var envFiles stringsFlag
		fs.Var(&envFiles, "env-file", "")
		fs.Var((*stringsFlag)(&opts.SourceRoots), "source-root", "")
		timeout := addDurationFlag(fs, "timeout", mcpcheck.DefaultRequestTimeout)
		transcript := fs.String("transcript", "", "")
		format := addFindingsFormatFlag(fs)
		isolation := addIsolationFlag(fs)
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
		opts.RequestTimeout = *timeout
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
