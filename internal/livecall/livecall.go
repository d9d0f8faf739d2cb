// Package livecall makes the live calls of runtime verification: real
// tools/call requests to a strict package's own MCP server, over the official
// Go SDK client, that reach the package's real backend through the real
// network.
//
// The server is started the way a standard MCP stdio host starts it: node
// runs the package's reviewed host runtime (portable-host-runtime.mjs),
// which builds each call's trusted context (the deployed base URLs and the
// credentials from its environment variables, the session's protected
// state, the user's confirmation through elicitation) and loads the
// package's server unchanged. What is verified is what ships: code2skill
// adds no host code of its own. Run copies the package into a temporary
// directory first (the package itself is never written to) and starts the
// runtime there.
//
// The server runs in the sandbox with the network allowed, for this run
// only, and with no environment but the sandbox's allowlist and the
// variables the caller passes (the pipeline passes the host runtime's
// variables and those the package's modules read, see DeclaredVariables).
// All calls share one server, one MCP session, so that a workflow's
// protected values issued by one call are the session's state for the
// next; a server that stops answering is replaced for the calls that
// follow, so that one Tool cannot take the others' evidence with it.
//
// A call's arguments may name a value an earlier call of the run returned
// ({"$result": {"capabilityId": …, "path": […]}}, see Resolve): the quote a
// loan redeems, the loan a return ends.
//
// Run only calls. Deciding which calls are authorised, persisting and
// sanitising their inputs and results, and judging them are the caller's.
package livecall

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/scratch"
)

// DefaultRequestTimeout bounds each live call, and each request the host
// runtime sends for it.
const DefaultRequestTimeout = 15 * time.Second

// Call is one live tools/call.
type Call struct {
	CapabilityID string
	Tool         string
	// Arguments may hold references to results of earlier calls of the
	// run (Resolve); nil means {}.
	Arguments *canonjson.Object
	// Check judges the resolved arguments, saying why they cannot be
	// sent ("" when they can); nil accepts them.
	Check func(args *canonjson.Object) string
}

// Options configure a run.
type Options struct {
	// Env holds KEY=VALUE pairs the server gets on top of the sandbox's
	// allowlist: the host runtime's variables.
	Env []string
	// ProtocolVersion is asked for in initialize; "" means mcpcheck's
	// default.
	ProtocolVersion string
	// RequestTimeout bounds each call; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// TimeoutFlag is how the user raises RequestTimeout, named when a
	// call runs out of time.
	TimeoutFlag string
	// TempDir is where the detached copy is made; "" means the system's.
	TempDir string
	// Progress receives a line per call; nil for none.
	Progress io.Writer
	// Elicitation answers the host runtime's elicitations (a write's
	// trusted confirmation); nil declares no elicitation capability.
	Elicitation func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
}

// Outcome is what one call got.
type Outcome struct {
	CapabilityID string
	Tool         string
	// Arguments are the arguments sent, references resolved; nil when
	// they could not be resolved.
	Arguments *canonjson.Object
	// Result is the tools/call result exactly as the server sent it; nil
	// when there was none.
	Result json.RawMessage
	// ProtocolError is the JSON-RPC error the server answered with, or
	// why there was no answer; "" when Result is set.
	ProtocolError string
	// Upstream, when set, is the capability whose result the call's
	// arguments pass on and that had no successful call before it: the
	// call was not made (see Call.Begin).
	Upstream string
}

// Result is what a run did.
type Result struct {
	Outcomes []*Outcome // in call order
	// NodeProcesses counts the servers started.
	NodeProcesses int
	// Isolation is the sandbox's report on the last server started.
	Isolation sandbox.Isolation
	// Diagnostics are the findings about the server: it did not start,
	// did not initialize, crashed, wrote noise to stdout.
	Diagnostics *diag.List
}

// Run makes the calls, in order, against the package in dir. err means the
// run could not be made: node missing (it wraps sandbox.ErrNotFound), the
// package cannot be copied, ctx ended.
func Run(ctx context.Context, dir string, calls []Call, opts Options) (*Result, error) {
	res := &Result{Diagnostics: &diag.List{}}
	if len(calls) == 0 {
		return res, nil
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	pkg, ds, err := pkgdir.Open(dir)
	if err != nil {
		return nil, err
	}
	res.Diagnostics.Add(ds...)
	refuse := func(why string) (*Result, error) {
		for _, c := range calls {
			res.Outcomes = append(res.Outcomes, &Outcome{CapabilityID: c.CapabilityID, Tool: c.Tool, ProtocolError: why})
		}
		return res, nil
	}
	switch {
	case pkg == nil || res.Diagnostics.Has(pkgdir.RuleSymlinkEscape):
		return refuse("the package cannot be run: " + firstMessage(res.Diagnostics))
	case !pkg.Has(hostruntime.RuntimeFile) || !pkg.Has(hostruntime.BindingFile):
		return refuse("the package carries no host runtime (" + hostruntime.RuntimeFile + " and " + hostruntime.BindingFile +
			"), so no stdio host can reach its backend: declare hostRuntime in export-profile.json and compile")
	}
	tmp, err := scratch.Dir(opts.TempDir, "code2skill-live-")
	if err != nil {
		return nil, fmt.Errorf("making the detached copy: %w", err)
	}
	defer scratch.Remove(tmp)
	copyDir := filepath.Join(tmp, filepath.Base(pkg.Dir()))
	if err := pkg.CopyTo(copyDir, pkgdir.CopyOptions{}); err != nil {
		return nil, fmt.Errorf("making the detached copy: %w", err)
	}

	sessionOpts := mcpcheck.Options{
		Env:             opts.Env,
		RequestTimeout:  opts.RequestTimeout,
		TimeoutFlag:     opts.TimeoutFlag,
		ProtocolVersion: opts.ProtocolVersion,
		Profile:         mcpcheck.ProfileStrict,
		Label:           "runtime-verification",
		Network:         sandbox.AllowNetwork,
		Entry:           hostruntime.RuntimeFile,
		Elicitation:     opts.Elicitation,
	}
	var s *mcpcheck.Session
	closeSession := func() {
		if s != nil {
			s.Close()
			res.Diagnostics.Merge(s.Diagnostics())
			s = nil
		}
	}
	defer closeSession()
	results := Results{}
	for _, c := range calls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out, send := c.Begin(results)
		res.Outcomes = append(res.Outcomes, out)
		if !send {
			continue
		}
		args := out.Arguments
		if s != nil && s.Down() {
			closeSession()
		}
		if s == nil {
			s, err = mcpcheck.Start(ctx, copyDir, sessionOpts)
			if err != nil {
				return nil, err
			}
			res.NodeProcesses++
			res.Isolation = s.Isolation()
		}
		if s.Down() {
			out.ProtocolError = "the server did not start or initialize: " + firstMessage(s.Diagnostics())
			continue
		}
		began := time.Now()
		answer, err := s.CallTool(ctx, c.Tool, json.RawMessage(canonjson.DigestForm(args)))
		switch {
		case err != nil:
			return nil, err
		case answer == nil:
			out.ProtocolError = "no answer: " + firstMessage(s.Diagnostics())
		case answer.Error != nil:
			out.ProtocolError = fmt.Sprintf("JSON-RPC error %d: %s", answer.Error.Code, answer.Error.Message)
		default:
			out.Result = answer.Raw
			results.Record(c.CapabilityID, answer.Raw)
		}
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "runtime-verify: %s (%s) answered in %s\n", c.CapabilityID, c.Tool,
				time.Since(began).Round(time.Millisecond))
		}
	}
	return res, nil
}

func firstMessage(l *diag.List) string {
	for _, d := range l.Sorted() {
		if d.Severity == diag.Error {
			return d.Message
		}
	}
	return "no reason was reported"
}
