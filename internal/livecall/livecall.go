// Package livecall makes the live calls of runtime verification: real
// tools/call requests to a strict package's own MCP server, over the official
// Go SDK client, that reach the package's real backend through the real
// network. code2skill plays the trusted host those calls need, and only that.
//
// A stdio session gives a Tool callback no more than the SDK's request
// extras, and a strict package's Functions send requests only through
// context.dispatch, which the host provides; a write protected by a
// deterministic workflow also needs the host's PortableWorkflowGuard holding
// a protected operation. Run therefore copies the package into a temporary
// directory (the package itself is never written to) and starts, instead of
// mcp-tool/index.mjs, host.mjs: a small module that supplies that context
// from the run's configuration and then loads the package's server
// unchanged. See host.mjs for what the host does and refuses.
//
// The server runs in the sandbox with the network allowed, for this run
// only, and with no environment but the sandbox's allowlist and the
// variables the caller passes (the pipeline passes the package's declared
// variables, see DeclaredVariables). All calls share one server, the one
// guard scope the host keeps; a server that stops answering is replaced for
// the calls that follow, so that one Tool cannot take the others' evidence
// with it.
//
// Run only calls. Deciding which calls are authorised, persisting and
// sanitising their inputs and results, and judging them are the caller's.
package livecall

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/scratch"
)

//go:embed host.mjs
var hostModule []byte

// Where the host lives in the detached copy, relative to its root.
const (
	hostDir    = ".code2skill-host"
	hostEntry  = hostDir + "/host.mjs"
	hostConfig = hostDir + "/config.json"
)

// DefaultRequestTimeout bounds each live call, and each request the host
// sends for it.
const DefaultRequestTimeout = 15 * time.Second

// Call is one live tools/call and what the trusted host supplies for it.
type Call struct {
	CapabilityID string
	Tool         string
	Arguments    *canonjson.Object
	// Context holds the trusted runtime-context claims the Function may
	// read (subjectId, sessionId, ...); nil for none. The host adds
	// dispatch, and for a protected write its guard and operation.
	Context *canonjson.Object
	// Headers are credentials the host adds to the requests whose
	// authentication is not "none" (authentication injection).
	Headers map[string]string
	// Protection is the protected operation of a write guarded by a
	// deterministic workflow; nil otherwise.
	Protection *Protection
}

// Protection is one protected operation of a deterministic workflow, as the
// trusted side records it with PortableWorkflowGuard.protect.
type Protection struct {
	WorkflowID string
	// BindingSources maps each binding name to its actual source, as the
	// contract's workflow declares it.
	BindingSources *canonjson.Object
	// ExpectedValues maps each binding name to its protected value: the
	// contract's constant, or a value from the trusted side.
	ExpectedValues *canonjson.Object
	// ExpiresAt is an ISO 8601 time or epoch milliseconds; nil when the
	// source proves no expiry.
	ExpiresAt canonjson.Value
	// SingleUse consumes the operation at its first dispatch.
	SingleUse bool
}

// Options configure a run.
type Options struct {
	// AllowedOrigins are the export profile's allowedRuntimeOrigins: the
	// host refuses a request to any other origin.
	AllowedOrigins []string
	// Origins maps an allowed origin to the origin that serves it for this
	// run (scheme://host[:port]); unmapped origins are used as they are.
	Origins map[string]string
	// Env holds KEY=VALUE pairs the server gets on top of the sandbox's
	// allowlist.
	Env []string
	// ProtocolVersion is asked for in initialize; "" means mcpcheck's
	// default.
	ProtocolVersion string
	// RequestTimeout bounds each call; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// TempDir is where the detached copy is made; "" means the system's.
	TempDir string
	// Progress receives a line per call; nil for none.
	Progress io.Writer
}

// Outcome is what one call got.
type Outcome struct {
	CapabilityID string
	Tool         string
	// Result is the tools/call result exactly as the server sent it; nil
	// when there was none.
	Result json.RawMessage
	// ProtocolError is the JSON-RPC error the server answered with, or
	// why there was no answer; "" when Result is set.
	ProtocolError string
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
	if pkg == nil || res.Diagnostics.Has(pkgdir.RuleSymlinkEscape) {
		for _, c := range calls {
			res.Outcomes = append(res.Outcomes, &Outcome{CapabilityID: c.CapabilityID, Tool: c.Tool,
				ProtocolError: "the package cannot be run: " + firstMessage(res.Diagnostics)})
		}
		return res, nil
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
	cfg, err := hostConfiguration(calls, opts)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(copyDir, hostDir), 0o755); err != nil {
		return nil, fmt.Errorf("installing the host: %w", err)
	}
	for name, data := range map[string][]byte{hostEntry: hostModule, hostConfig: cfg} {
		if err := os.WriteFile(filepath.Join(copyDir, filepath.FromSlash(name)), data, 0o644); err != nil {
			return nil, fmt.Errorf("installing the host: %w", err)
		}
	}

	sessionOpts := mcpcheck.Options{
		Env:             opts.Env,
		RequestTimeout:  opts.RequestTimeout,
		ProtocolVersion: opts.ProtocolVersion,
		Profile:         mcpcheck.ProfileStrict,
		Label:           "runtime-verification",
		Network:         sandbox.AllowNetwork,
		Entry:           hostEntry,
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
	for _, c := range calls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
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
		out := &Outcome{CapabilityID: c.CapabilityID, Tool: c.Tool}
		res.Outcomes = append(res.Outcomes, out)
		if s.Down() {
			out.ProtocolError = "the server did not start or initialize: " + firstMessage(s.Diagnostics())
			continue
		}
		began := time.Now()
		answer, err := s.CallTool(ctx, c.Tool, arguments(c.Arguments))
		switch {
		case err != nil:
			return nil, err
		case answer == nil:
			out.ProtocolError = "no answer: " + firstMessage(s.Diagnostics())
		case answer.Error != nil:
			out.ProtocolError = fmt.Sprintf("JSON-RPC error %d: %s", answer.Error.Code, answer.Error.Message)
		default:
			out.Result = answer.Raw
		}
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "runtime-verify: %s (%s) answered in %s\n", c.CapabilityID, c.Tool,
				time.Since(began).Round(time.Millisecond))
		}
	}
	return res, nil
}

// hostConfiguration is config.json: what host.mjs supplies to each Tool.
func hostConfiguration(calls []Call, opts Options) ([]byte, error) {
	allowed := canonjson.Strings(opts.AllowedOrigins)
	origins := &canonjson.Object{}
	for _, o := range opts.AllowedOrigins {
		if to, ok := opts.Origins[o]; ok {
			origins.Set(o, canonjson.String(to))
		}
	}
	tools := &canonjson.Object{}
	protections := canonjson.Array{}
	for _, c := range calls {
		t := &canonjson.Object{}
		if c.Context != nil {
			t.Set("context", c.Context)
		}
		if len(c.Headers) > 0 {
			h := &canonjson.Object{}
			for _, k := range sortedKeys(c.Headers) {
				h.Set(k, canonjson.String(c.Headers[k]))
			}
			t.Set("headers", h)
		}
		if p := c.Protection; p != nil {
			key, err := operationKey()
			if err != nil {
				return nil, err
			}
			op := canonjson.NewObject(
				canonjson.Member{Key: "workflowId", Value: canonjson.String(p.WorkflowID)},
				canonjson.Member{Key: "operationKey", Value: canonjson.String(key)},
				canonjson.Member{Key: "bindingSources", Value: p.BindingSources},
				canonjson.Member{Key: "expectedValues", Value: p.ExpectedValues},
				canonjson.Member{Key: "singleUse", Value: canonjson.Bool(p.SingleUse)},
			)
			if p.ExpiresAt != nil {
				op.Set("expiresAt", p.ExpiresAt)
			}
			protections = append(protections, op)
			t.Set("workflow", canonjson.NewObject(
				canonjson.Member{Key: "workflowId", Value: canonjson.String(p.WorkflowID)},
				canonjson.Member{Key: "operationKey", Value: canonjson.String(key)},
			))
		}
		tools.Set(c.Tool, t)
	}
	return canonjson.Encode(canonjson.NewObject(
		canonjson.Member{Key: "allowedOrigins", Value: allowed},
		canonjson.Member{Key: "origins", Value: origins},
		canonjson.Member{Key: "requestTimeoutMs", Value: canonjson.Int(int(opts.RequestTimeout / time.Millisecond))},
		canonjson.Member{Key: "tools", Value: tools},
		canonjson.Member{Key: "protections", Value: protections},
	)), nil
}

// operationKey returns an unguessable key for one protected operation, as
// the guard asks of the trusted side.
func operationKey() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making an operation key: %w", err)
	}
	return "op-" + hex.EncodeToString(b), nil
}

// arguments returns the JSON of a call's arguments for the SDK client: an
// empty object when there are none.
func arguments(args *canonjson.Object) json.RawMessage {
	if args == nil {
		return json.RawMessage("{}")
	}
	return canonjson.DigestForm(args)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func firstMessage(l *diag.List) string {
	for _, d := range l.Sorted() {
		if d.Severity == diag.Error {
			return d.Message
		}
	}
	return "no reason was reported"
}
