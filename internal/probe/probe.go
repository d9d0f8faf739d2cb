// Package probe proves, tool by tool and over the real protocol, that a
// package's MCP server works once it has left the source repository.
//
// Run copies the package into a fresh temporary directory (a strict package
// without any node_modules: its mcp-tool/runtime.mjs must be
// self-contained; a core package with its own node_modules) and talks to
// "node mcp-tool/index.mjs" there through internal/mcpcheck: the official
// Go SDK client, the sandbox (scrubbed environment, temporary HOME, network
// denied where the OS allows), a deadline per request, the process group
// killed at the end. A symbolic link that escapes the package stops the
// probe before anything runs.
//
// What the server must do comes from the package. A strict-export-v1
// package supplies capability-bundle.json, mcp-tool/schema-contract.json
// and export-profile.json (the protocol version and the dry-run variable);
// its tools/list must list exactly the contract's tools, each with a title,
// a description, the contract's four annotation hints, and input and output
// schemas equal to the contract's projection once what SDKs add is
// normalised away ($schema, nullable anyOf versus type arrays, type-array
// order, zod's safe-integer bounds). A core-export-v1 package (or one that
// declares no profile) has its tools/list checked for shape only.
//
// The probe runs these sessions, each a node process of its own:
//
//   - protocol: initialize (the declared version, exactly), tools/list, an
//     unknown tool and a request of an unknown method, then (strict) each
//     tool called with missing required arguments, or with an unexpected
//     one when it has none, and each --dry-run-call, and a generated
//     dry-run case for every write without one, and last a line that is
//     not JSON (protocol.go). This session runs with the dry-run variable set to 1
//     and without the network, so that no protocol check and no dry-run
//     case can dispatch anything even if the server failed to reject it; a
//     core package's gets .invalid addresses and fake credentials for what
//     the user did not give (configuration in httptools.go). A strict
//     Tool lists the dry-run envelope's output schema there;
//   - business (unless --offline, when there are --call or --error-call
//     cases): tools/list, whose output schemas must be the contract's, and
//     the cases, without the dry-run variable;
//   - listing (a strict package without business cases): tools/list
//     without the dry-run variable, for the contract's output schemas.
//
// Every result is also judged as the clients that receive it read it
// (internal/toolresult), against the output schema its Tool listed in the
// same session: a result the TypeScript SDK Client or the Inspector CLI
// would throw on, or whose error no client could read, is a finding
// naming the Tool and those clients.
//
// Every answer is scanned for credentials, and the transcript written
// without them (credentials.go); a case may assert on its result
// (assert.go).
//
// # Verdicts
//
// A result that passes an HTTP answer through ({httpStatus, bodyText}, the
// core-export-v1 shape) is judged by its status: a --call passes on a 2xx
// status or one its case expects, a 401 or 403 is an authentication
// failure, and an --error-call passes on an HTTP error status as on a Tool
// error. The summary says "passed" only when business calls were made and
// all passed; otherwise it says what was not proven and runtime
// verification stays required.
//
// # The unknown-tool answer
//
// The MCP specification makes a call of an unknown tool a JSON-RPC protocol
// error, and so does spec 000. The TypeScript SDK (1.32.x), which strict
// packages must use, cannot send one: it answers with a tool result,
// {"isError": true, "content": [{"type": "text", "text": "MCP error -32602:
// Tool x not found"}]}. The probe accepts both forms as a rejection and
// reports which one the server used (Result.UnknownToolAnswer); anything
// else (a success, an isError result that does not carry -32602, no answer)
// is a finding. Demanding the protocol error would fail every package built
// the way the spec prescribes. Calls with invalid arguments are judged the
// same way: a JSON-RPC error, a structured Tool error with the contract's
// envelope, or the SDK's isError result carrying -32602 all count as a
// rejection.
//
// Offline, business calls are not made: --call and --error-call are refused,
// the probe proves the protocol surface and the dry-run branch only, and
// reports the business calls as not run and runtime verification as still
// required.
//
// A strict package's expectations come from its derived views, or from its
// canonical contract derived in process when it has none.
package probe

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// Options configure one probe run.
type Options struct {
	// Case files of each kind, in the order given.
	Calls, ErrorCalls, DryRunCalls []string
	// Offline proves the protocol surface and dry-run only.
	Offline bool
	// RequestTimeout bounds each request; 0 means mcpcheck's default.
	RequestTimeout time.Duration
	// InitializeTimeout, when set, bounds each session's initialize
	// instead, which waits for the server to start.
	InitializeTimeout time.Duration
	// Transcript, when set, receives the whole JSON-RPC exchange as NDJSON.
	Transcript io.Writer
	// AllowNetwork lets the server reach the network for business calls, a
	// run the user explicitly authorises. The protocol session never gets
	// it.
	AllowNetwork bool
	// Env holds KEY=VALUE pairs the server gets in every session (base URLs,
	// credentials the user chose to pass).
	Env []string
	// TempDir is where the detached copy is made; "" means the system's.
	TempDir string
	// Progress receives a line per session.
	Progress io.Writer
	// SourceRoots authorise the directories a go-stdio package's local
	// replaces lead to (style B), as validate --source-root does; the
	// build sees them read-only.
	SourceRoots []string
	// Core is a strict package's Portable Core when the command already
	// loaded it (derive.Load); nil loads it here.
	Core *derive.Core
}

// Status is the outcome of one kind of check for one tool.
type Status string

const (
	Passed Status = "passed"
	Failed Status = "failed"
	NotRun Status = "not-run"
)

// ToolStatus is one row of the per-tool table.
type ToolStatus struct {
	Name      string `json:"name"`
	Discovery Status `json:"discovery"`
	Success   Status `json:"success"`
	Error     Status `json:"error"`
	DryRun    Status `json:"dryRun"`
}

// CallStatus is one row of the per-call table: a case and its verdict.
type CallStatus struct {
	Case string `json:"case"` // the case file and index, file[i]
	Tool string `json:"tool"`
	Kind string `json:"kind"` // call, error-call or dry-run-call
	// HTTPStatus is the status the result passed through (httpStatus), 0
	// when it carries none.
	HTTPStatus int    `json:"httpStatus,omitempty"`
	Verdict    Status `json:"verdict"`
}

// Unknown-tool answer forms.
const (
	AnswerProtocolError = "jsonrpc-error"     // the specification's form
	AnswerToolError     = "tool-error-result" // the TypeScript SDK's form: isError with -32602
)

// Answer forms to a line that is not JSON.
const (
	AnswerParseError   = "jsonrpc-parse-error" // JSON-RPC's form: error -32700 with id null
	AnswerNoReply      = "no-reply"            // the TypeScript SDK's form: nothing, and the next request answered
	AnswerSessionEnded = "session-ended"       // the Go SDK's form (go-stdio): the server ends the session
)

// Result is what a probe found.
type Result struct {
	Profile         pkgdir.Profile
	ProtocolVersion string // negotiated in the protocol session; "" when initialize failed
	DetachedCopy    bool   // the server ran in a detached copy
	Offline         bool
	// NetworkAllowed is true when business calls could reach the network
	// (Options.AllowNetwork).
	NetworkAllowed bool
	// Isolation is the weakest isolation any session's server got.
	Isolation sandbox.Isolation
	// UnknownToolAnswer is AnswerProtocolError, AnswerToolError or "" when
	// the server did not reject the unknown tool (or was not asked).
	UnknownToolAnswer string
	// MalformedFrameAnswer is AnswerParseError, AnswerNoReply or "" when
	// the server did not meet a line that is not JSON as it must (or was
	// not sent one).
	MalformedFrameAnswer string
	Tools                []*ToolStatus
	Calls                []*CallStatus // in the order the calls were made
	Checks               Checks
	// NodeProcesses counts the server processes started.
	NodeProcesses int
	Diagnostics   *diag.List

	// GeneratedDryRunCases names the write tools whose dry-run case the
	// probe generated, for want of a --dry-run-call.
	GeneratedDryRunCases []string
}

// Checks counts the checks of each kind that ran.
type Checks struct {
	Discovery        Count `json:"discovery"`
	UnknownTool      Count `json:"unknownTool"`
	MalformedFrame   Count `json:"malformedFrame"`
	UnknownMethod    Count `json:"unknownMethod"`
	InvalidArguments Count `json:"invalidArguments"`
	Success          Count `json:"success"`
	Error            Count `json:"error"`
	DryRun           Count `json:"dryRun"`
}

// Count is how many checks of one kind passed and failed.
type Count struct {
	Passed int `json:"passed"`
	Failed int `json:"failed"`
}

func (c *Count) add(ok bool) {
	if ok {
		c.Passed++
	} else {
		c.Failed++
	}
}

// Run probes the package at dir. Findings about the package and its server
// are diagnostics. The error is a *UsageError when the request itself is
// wrong (a malformed case file, a case the package cannot take, --offline
// with business cases); any other error means the probe could not do its
// job (node missing: it wraps sandbox.ErrNotFound; I/O failure; ctx ended).
func Run(ctx context.Context, dir string, opts Options) (*Result, error) {
	r := &Result{Offline: opts.Offline, NetworkAllowed: opts.AllowNetwork, Diagnostics: &diag.List{}}
	pkg, ds, err := pkgdir.Open(dir)
	if err != nil {
		return nil, err
	}
	r.Diagnostics.Add(ds...)
	if pkg == nil || r.Diagnostics.Has(pkgdir.RuleSymlinkEscape) {
		// Nothing to probe, or a copy that would reach outside itself.
		return r, nil
	}
	r.Profile = pkgdir.DetectProfile(dir)
	goStdio := pkgdir.DetectCoreGo(dir)
	if goStdio {
		r.Profile = pkgdir.ProfileCore
	}
	strict := r.Profile == pkgdir.ProfileStrict
	if !strict && r.Profile != pkgdir.ProfileCore && r.Profile != pkgdir.ProfileUnknown {
		return nil, usagef("%s declares the profile %q; the probe knows %s and %s", dir, r.Profile, pkgdir.ProfileCore, pkgdir.ProfileStrict)
	}

	// What the server would see of node_modules: a core package's own,
	// walked whole while the cases are read and the modules parsed (a
	// strict package runs without any). A FIFO or a link out of the
	// package stops the probe before anything runs.
	views := make(chan *pkgdir.ModuleView, 1)
	go func() {
		if strict || goStdio {
			views <- &pkgdir.ModuleView{Findings: pkg.SpecialFiles()}
			return
		}
		views <- pkg.ModuleView(false)
	}()

	cases, err := readAllCases(opts)
	if err != nil {
		return nil, err
	}
	if opts.Offline && len(opts.Calls)+len(opts.ErrorCalls) > 0 {
		return nil, usagef("--offline makes no business calls: drop --call and --error-call, or drop --offline")
	}
	exp := coreExpectations()
	var goPkg *core.GoPackage
	switch {
	case goStdio:
		goPkg = core.InspectGo(pkg, opts.SourceRoots)
		exp.httpTools = goPkg.HTTPTools
		exp.config = configuration(pkg, goPkg.EnvReads, opts.Env, exp.dryRunVariable)
	case !strict:
		modules := packageModules(pkg)
		exp.httpTools = httpTools(modules)
		exp.config = configuration(pkg, moduleEnvReads(modules), opts.Env, exp.dryRunVariable)
	}
	if strict {
		if exp = loadStrict(pkg, opts.Core, r.Diagnostics); exp == nil {
			return r, nil
		}
	}
	for _, kv := range opts.Env {
		if k, _, _ := strings.Cut(kv, "="); k == exp.dryRunVariable {
			return nil, usagef("%s is the package's dry-run variable: the probe sets it itself, only for the dry-run cases", k)
		}
	}
	if strict {
		if err := checkCases(exp, cases); err != nil {
			return nil, err
		}
		generated, ds := generateDryRunCases(exp, cases)
		r.Diagnostics.Add(ds...)
		for _, c := range generated {
			r.GeneratedDryRunCases = append(r.GeneratedDryRunCases, c.Name)
		}
		cases = append(cases, generated...)
		r.Diagnostics.Add(coverage(exp, cases, opts.Offline)...)
	}

	if goStdio {
		r.Diagnostics.Add(goPkg.Findings...)
	} else {
		r.Diagnostics.Add(importsOutside(pkg)...)
	}
	view := <-views
	r.Diagnostics.Add(view.Findings...)
	if !view.Runnable() || r.Diagnostics.HasErrors() && goStdio {
		return r, nil
	}
	d, err := detach(pkg, opts.TempDir, view)
	if err != nil {
		return nil, err
	}
	defer d.remove()
	r.DetachedCopy = true
	var command []string
	if goStdio {
		// The server is built from the package where it is, since a
		// replace's relative path holds there, and runs in the copy.
		server, findings, err := core.BuildGoServer(ctx, pkg.Dir(), goPkg.Replaced)
		if err != nil {
			return nil, err
		}
		if server == nil {
			r.Diagnostics.Add(findings...)
			return r, nil
		}
		defer server.Remove()
		command = []string{server.Path}
		d.binds = append(d.binds, server.Bind)
	} else if above := reachableModules(d.dir); above != "" {
		r.Diagnostics.Add(RuleReachableModules.New("",
			"node resolves packages from %s, above the detached copy; the copy is not fully detached", above))
	} else if d.linked {
		// The copy's node_modules is a link to the package's: node resolves
		// what those packages import from where they really are, up to the
		// directories above the package.
		if above := reachableModules(pkg.Dir()); above != "" {
			r.Diagnostics.Add(RuleReachableModules.New("",
				"node resolves packages from %s, above the package whose node_modules the detached copy links to (the sandbox cannot confine the file system here); the copy is not fully detached", above))
		}
	}

	p := &prober{opts: opts, exp: exp, dir: d.dir, binds: d.binds, command: command, goStdio: goStdio, result: r, cases: cases}
	if opts.Transcript != nil {
		p.redact, p.redacted = p.transcriptRedactor()
	}
	p.initTable()
	if err := p.run(ctx); err != nil {
		return nil, err
	}
	if p.redacted != nil && *p.redacted > 0 {
		r.Diagnostics.Add(RuleTranscriptRedacted.New("", "%d line(s) of the transcript held a credential, written as [redacted] and noted \"credentials redacted\"", *p.redacted))
	}
	if opts.Offline {
		r.Diagnostics.Add(RuleOffline.New("", "business calls were not run (--offline); runtime verification is still required"))
	}
	r.Diagnostics.Add(sandbox.Findings(r.Isolation)...)
	if goStdio {
		// The session checks name node's entry point; here it is main.go.
		ds := diag.Relocate(r.Diagnostics.Sorted(), mcpcheck.ServerFile, pkgdir.GoServerFile)
		r.Diagnostics = &diag.List{}
		r.Diagnostics.Add(ds...)
	}
	return r, nil
}

// readAllCases reads every case file, in flag order.
func readAllCases(opts Options) ([]*Case, error) {
	var all []*Case
	for _, kind := range []struct {
		kind  Kind
		files []string
	}{{Success, opts.Calls}, {Failure, opts.ErrorCalls}, {DryRun, opts.DryRunCalls}} {
		for _, f := range kind.files {
			cs, err := readCases(kind.kind, f)
			if err != nil {
				return nil, err
			}
			all = append(all, cs...)
		}
	}
	return all, nil
}

// checkCases makes sure every case names a contract tool and that its
// arguments satisfy the tool's input schema, so that an error case really
// reaches the handler instead of failing input validation.
func checkCases(exp *expectations, cases []*Case) error {
	for _, c := range cases {
		t := exp.tool(c.Name)
		if t == nil {
			return usagef("%s %s: the contract has no tool %q", c.Kind.flag(), c.where(), c.Name)
		}
		if vs := validate(t.input, c.Arguments); len(vs) > 0 {
			return usagef("%s %s: the arguments do not satisfy %q's inputSchema: %s", c.Kind.flag(), c.where(), c.Name, vs[0])
		}
	}
	return nil
}

// coverage reports tools the cases leave unproven: without --offline every
// tool needs a --call and an --error-call (spec 000: one supplied success
// and one handler-level structured execution error per Tool), and every
// write tool always needs a --dry-run-call.
func coverage(exp *expectations, cases []*Case, offline bool) []diag.Diagnostic {
	has := func(kind Kind, name string) bool {
		for _, c := range cases {
			if c.Kind == kind && c.Name == name {
				return true
			}
		}
		return false
	}
	var ds []diag.Diagnostic
	for _, kind := range []Kind{Success, Failure, DryRun} {
		if offline && kind != DryRun {
			continue
		}
		var missing []string
		for _, t := range exp.tools {
			if (kind != DryRun || t.write) && !has(kind, t.name) {
				missing = append(missing, t.name)
			}
		}
		if len(missing) > 0 {
			what := "tool"
			if kind == DryRun {
				what = "write tool"
			}
			ds = append(ds, RuleCoverage.New(contractFile, "no %s case for %s %s", kind.flag(), what, quoteList(missing)).
				AtPointer("/capabilities"))
		}
	}
	return ds
}

// reachableModules returns the first directory above dir that holds a
// node_modules directory node would resolve bare imports from, or "".
func reachableModules(dir string) string {
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "node_modules")); err == nil && fi.IsDir() {
			return filepath.Join(d, "node_modules")
		}
		if parent := filepath.Dir(d); parent == d {
			return ""
		}
	}
}

// serverOptions returns the session options shared by every session.
func (p *prober) serverOptions(label string, env []string, network sandbox.Network) mcpcheck.Options {
	profile := mcpcheck.ProfileCore
	if p.exp.strict {
		profile = mcpcheck.ProfileStrict
	}
	return mcpcheck.Options{
		Env:               append(append([]string(nil), p.opts.Env...), env...),
		RequestTimeout:    p.opts.RequestTimeout,
		InitializeTimeout: p.opts.InitializeTimeout,
		TimeoutFlag:       "probe --request-timeout",
		ProtocolVersion:   p.exp.protocolVersion,
		Profile:           profile,
		Transcript:        p.opts.Transcript,
		Redact:            p.redact,
		Label:             label,
		Network:           network,
		Binds:             p.binds,
		Command:           p.command,
	}
}
