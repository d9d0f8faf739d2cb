package hostverify

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/code2skill/code2skill/internal/buildinfo"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/livecall"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/tsclient"
)

// goSDK is the module of the reference host's own client.
const goSDK = "github.com/modelcontextprotocol/go-sdk"

// GoClientName names the reference host's own client, the official Go SDK
// client, with the SDK version compiled into code2skill:
// "code2skill reference MCP host (go-sdk v1.8.0)".
func GoClientName() string {
	return HostName + " (go-sdk " + cmp.Or(buildinfo.Module(goSDK), "version not recorded") + ")"
}

// client is one MCP client every check runs through: the reference host's
// own (the Go SDK's) or the official TypeScript SDK Client a host embeds.
type client struct {
	name string
	// open starts a server and opens a session with it; its client
	// declares elicitation when asked to.
	open func(ctx context.Context, label string, elicitation bool) (conn, error)
}

// conn is one client's MCP session with one server.
type conn interface {
	// listTools is the session's tools/list.
	listTools(ctx context.Context) ([]mcpcheck.Tool, error)
	// call calls a Tool, answering elicitation forms: accept (true) for a
	// field in accept, decline for one in decline, cancel otherwise. err
	// means the job cannot go on; a call without a result says why in
	// answer.protocol.
	call(ctx context.Context, tool string, args json.RawMessage, accept, decline []string) (*answer, error)
	protocolVersion() string
	// down says why the session can no longer answer, or "".
	down() string
	isolation() sandbox.Isolation
	close(res *Result)
}

// answer is what a client gave the caller of a call.
type answer struct {
	raw      json.RawMessage // the result; nil when there is none
	protocol string          // no result: why
	asked    []canonjson.Value
}

// goClient is the reference host's own client: the official Go SDK client
// of mcpcheck, which reads results as the server sent them.
func (v *verifier) goClient() *client {
	return &client{name: GoClientName(), open: func(ctx context.Context, label string, elicitation bool) (conn, error) {
		g := &goConn{}
		opts := mcpcheck.Options{
			Env:             v.env,
			RequestTimeout:  v.opts.RequestTimeout,
			TimeoutFlag:     v.opts.TimeoutFlag,
			ProtocolVersion: v.in.Export.ProtocolVersion,
			Profile:         mcpcheck.ProfileStrict,
			Label:           label,
			Network:         sandbox.AllowNetwork,
			Entry:           v.runtimePath(),
		}
		if elicitation {
			opts.Elicitation = g.elicit
		}
		s, err := mcpcheck.Start(ctx, v.opts.Dir, opts)
		if err != nil {
			return nil, err
		}
		g.s = s
		return g, nil
	}}
}

// runtimePath is the absolute path of the host runtime MCP-SETUP.md
// registers.
func (v *verifier) runtimePath() string {
	return strings.TrimSuffix(v.opts.Dir, "/") + "/" + hostruntime.RuntimeFile
}

type goConn struct {
	s *mcpcheck.Session
	// answer answers the next elicitation; asked records them.
	mu     sync.Mutex
	answer func(field string) *mcp.ElicitResult
	asked  []canonjson.Value
}

func (g *goConn) listTools(ctx context.Context) ([]mcpcheck.Tool, error) { return g.s.ListTools(ctx) }
func (g *goConn) protocolVersion() string                                { return g.s.ProtocolVersion() }
func (g *goConn) isolation() sandbox.Isolation                           { return g.s.Isolation() }

func (g *goConn) down() string {
	if !g.s.Down() {
		return ""
	}
	return "the server no longer answers: " + firstError(g.s.Diagnostics())
}

func (g *goConn) close(res *Result) {
	g.s.Close()
	res.Diagnostics.Merge(g.s.Diagnostics())
}

func (g *goConn) call(ctx context.Context, tool string, args json.RawMessage, accept, decline []string) (*answer, error) {
	g.answers(accept, decline)
	if why := g.down(); why != "" {
		return &answer{protocol: why}, nil
	}
	res, err := g.s.CallTool(ctx, tool, args)
	if err != nil {
		return nil, err
	}
	a := &answer{}
	switch {
	case res == nil:
		a.protocol = "no answer: " + firstError(g.s.Diagnostics())
	case res.Error != nil:
		a.protocol = fmt.Sprintf("JSON-RPC error %d: %s", res.Error.Code, res.Error.Message)
	default:
		a.raw = res.Raw
	}
	g.mu.Lock()
	a.asked = slices.Clone(g.asked)
	g.mu.Unlock()
	return a, nil
}

// elicit answers an elicitation with the session's current answer.
func (g *goConn) elicit(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	field := livecall.FormField(req)
	g.mu.Lock()
	defer g.mu.Unlock()
	params, _ := json.Marshal(req.Params)
	asked, _ := canonjson.Decode(params)
	g.asked = append(g.asked, asked)
	if g.answer == nil {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	return g.answer(field), nil
}

// answers sets how the session answers elicitations until the next call of
// answers.
func (g *goConn) answers(accept []string, decline []string) {
	g.mu.Lock()
	g.answer = func(field string) *mcp.ElicitResult {
		switch {
		case slices.Contains(accept, field):
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{field: true}}
		case slices.Contains(decline, field):
			return &mcp.ElicitResult{Action: "decline"}
		}
		return &mcp.ElicitResult{Action: "cancel"}
	}
	g.asked = nil
	g.mu.Unlock()
}

// typescript is the TypeScript SDK Client, started once per run: one node
// process driving every session of the run (internal/tsclient).
type typescript struct {
	ready  chan struct{}
	driver *tsclient.Driver
	err    error
	client *client
}

// startTypeScript starts the driver now. Its client's sessions open once
// the driver is ready, and its name is known from then.
func (v *verifier) startTypeScript(ctx context.Context) *typescript {
	ts := &typescript{ready: make(chan struct{})}
	env := map[string]string{}
	for _, kv := range v.env {
		k, val, _ := strings.Cut(kv, "=")
		env[k] = val
	}
	c := &client{}
	c.open = func(ctx context.Context, label string, elicitation bool) (conn, error) {
		<-ts.ready
		if ts.err != nil {
			return nil, ts.err
		}
		info := mcpcheck.ClientInfo()
		s, err := ts.driver.Open(ctx, label, tsclient.Server{
			Command:     "node",
			Args:        []string{v.runtimePath()},
			Env:         maps.Clone(env),
			Dir:         v.opts.Dir,
			Elicitation: elicitation,
			ClientInfo:  tsclient.Implementation{Name: info.Name, Version: info.Version},
			Timeout:     v.opts.RequestTimeout,
		})
		if oe, ok := err.(*tsclient.OpenError); ok {
			why := fmt.Sprintf("the %s could not open the session: %s", c.name, oe.Thrown.Message)
			if tail := strings.TrimSpace(oe.Stderr); tail != "" {
				why += " (the server's stderr ends with: " + tail + ")"
			}
			return &tsConn{failed: why, iso: ts.driver.Isolation()}, nil
		}
		if err != nil {
			return nil, err
		}
		return &tsConn{s: s, iso: ts.driver.Isolation()}, nil
	}
	ts.client = c
	go func() {
		defer close(ts.ready)
		ts.driver, ts.err = tsclient.Start(ctx, tsclient.Options{Dir: v.opts.Dir, Network: sandbox.AllowNetwork})
		if ts.err != nil {
			ts.err = fmt.Errorf("starting the TypeScript SDK Client: %w", ts.err)
			return
		}
		c.name = ts.driver.Client().String()
	}()
	return ts
}

// close stops the driver, once every session is closed.
func (ts *typescript) close() {
	<-ts.ready
	if ts.driver != nil {
		ts.driver.Close()
	}
}

type tsConn struct {
	s      *tsclient.Session
	failed string // why the session could not be opened
	iso    sandbox.Isolation
}

func (t *tsConn) protocolVersion() string {
	if t.s == nil {
		return ""
	}
	return t.s.ProtocolVersion
}

func (t *tsConn) down() string                 { return t.failed }
func (t *tsConn) isolation() sandbox.Isolation { return t.iso }

func (t *tsConn) listTools(context.Context) ([]mcpcheck.Tool, error) {
	if t.s == nil {
		return nil, nil
	}
	var tools []mcpcheck.Tool
	for i, raw := range t.s.Tools {
		tool := mcpcheck.Tool{Raw: raw, Index: i}
		canonjson.Unmarshal(raw, &tool.Tool) // a malformed entry keeps zero fields
		tools = append(tools, tool)
	}
	return tools, nil
}

func (t *tsConn) call(ctx context.Context, tool string, args json.RawMessage, accept, decline []string) (*answer, error) {
	if t.failed != "" {
		return &answer{protocol: t.failed}, nil
	}
	c, err := t.s.CallTool(ctx, tool, args, accept, decline)
	if err != nil {
		return nil, err
	}
	a := &answer{raw: c.Result}
	if c.Thrown != nil {
		// The caller of callTool meets an exception, not a result.
		a.raw, a.protocol = nil, "an exception instead of a result: "+c.Thrown.Message
	}
	for _, raw := range c.Asked {
		if asked, err := canonjson.Decode(raw); err == nil {
			a.asked = append(a.asked, asked)
		}
	}
	return a, nil
}

func (t *tsConn) close(*Result) {
	if t.s == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t.s.Close(ctx)
}

// session is one MCP session of the host: the same session held by each
// client, each with a server of its own.
type session struct {
	label string
	// declares: the session's clients declare elicitation.
	declares bool
	peers    []*peer
}

// peer is one client's side of a session.
type peer struct {
	client *client
	conn   conn
	// results are the data of the peer's successful calls.
	results livecall.Results
}

// results returns each peer's results.
func (ss *session) results() []livecall.Results {
	out := make([]livecall.Results, len(ss.peers))
	for i, p := range ss.peers {
		out[i] = p.results
	}
	return out
}

// start starts a session; with elicitation its clients declare it.
func (v *verifier) start(ctx context.Context, label string, elicitation bool) (*session, error) {
	return v.early(ctx, label, elicitation).wait(v.res)
}

// early starts a session's servers now, one per client, while other
// checks run; wait returns the session. Every session started early must
// be waited for.
func (v *verifier) early(ctx context.Context, label string, elicitation bool) *starting {
	st := &starting{done: make(chan struct{})}
	go func() {
		defer close(st.done)
		clients := v.clients
		ss := &session{label: label, declares: elicitation, peers: make([]*peer, len(clients))}
		errs := make([]error, len(clients))
		var wg sync.WaitGroup
		for i, c := range clients {
			ss.peers[i] = &peer{client: c, results: livecall.Results{}}
			wg.Add(1)
			go func() {
				defer wg.Done()
				ss.peers[i].conn, errs[i] = c.open(ctx, label, elicitation)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				st.err = err
				for i, p := range ss.peers {
					if errs[i] == nil {
						p.conn.close(&Result{Diagnostics: &diag.List{}})
					}
				}
				return
			}
		}
		st.ss = ss
	}()
	return st
}

// starting is a session whose servers are starting.
type starting struct {
	done   chan struct{}
	ss     *session
	err    error
	waited bool
}

// wait waits for the servers and counts them.
func (st *starting) wait(res *Result) (*session, error) {
	<-st.done
	if st.waited {
		return st.ss, st.err
	}
	st.waited = true
	if st.err != nil {
		return nil, st.err
	}
	// Each client's side of the session started one node process: its
	// server.
	for _, p := range st.ss.peers {
		res.NodeProcesses++
		res.Isolation = p.conn.isolation()
	}
	return st.ss, nil
}

// discard closes a session started early that was not used, as when a
// check before it could not be done.
func (st *starting) discard(res *Result) {
	if st == nil || st.waited {
		return
	}
	if ss, err := st.wait(res); err == nil {
		ss.close(res)
	}
}

func (ss *session) close(res *Result) {
	for _, p := range ss.peers {
		p.conn.close(res)
	}
}
