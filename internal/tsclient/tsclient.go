// Package tsclient drives the official MCP TypeScript SDK Client from Go:
// one sandboxed node process runs the driver (driver.mjs), which opens MCP
// sessions with stdio servers as a host embedding that client does, calls
// their Tools and reports what the client returned, or the error it threw.
// A client that validates a result against the Tool's output schema (the
// pinned SDK 1.32.2 does, error results included) refuses what it judges
// invalid, and the refusal is reported as the caller of callTool meets it.
//
// The client that runs by default is client.mjs: the driver bundled with
// the repository's pinned @modelcontextprotocol/sdk into one file that
// needs no node_modules (go generate ./internal/tsclient rebuilds it; a
// test fails when it is not the build of the current sources and
// install). Options.Script runs another entry instead, such as one built
// on a newer client package.
//
// Every server a session starts is a child of the driver, inside the
// driver's sandbox: it sees what the driver sees.
package tsclient

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/mcpruntime"
	"github.com/code2skill/code2skill/internal/sandbox"
)

//go:generate go run ../mcpruntime/genruntime -client -root ../.. -out client.mjs

// bundle is client.mjs, the driver and the pinned SDK Client in one file.
//
//go:embed client.mjs
var bundle []byte

//go:embed entry.mjs
var entry []byte

// Bundled returns client.mjs as embedded.
func Bundled() []byte { return bundle }

// Build bundles entry.mjs and driver.mjs (in root/internal/tsclient) with
// the pinned @modelcontextprotocol/sdk of root/node_modules into client.mjs.
func Build(root string) ([]byte, error) {
	manifest, err := os.ReadFile(filepath.Join(root, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	if err != nil {
		return nil, fmt.Errorf("bundling the TypeScript SDK Client: %w (run \"npm ci\" at the repository root)", err)
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if err := canonjson.Unmarshal(manifest, &pkg); err != nil || pkg.Version == "" {
		return nil, fmt.Errorf("bundling the TypeScript SDK Client: the SDK's package.json names no version")
	}
	js, _, err := mcpruntime.Bundle(mcpruntime.Options{
		Root:       root,
		Entry:      entry,
		EntryDir:   filepath.Join(root, "internal", "tsclient"),
		Sourcefile: "entry.mjs",
		About:      "client.mjs: the official MCP TypeScript SDK Client, driven by code2skill,",
		Define:     map[string]string{"CODE2SKILL_CLIENT_VERSION": strconv.Quote(pkg.Version)},
		// The stdio transport starts servers with cross-spawn, a CommonJS
		// package that requires child_process.
		Require: true,
	})
	return js, err
}

// Implementation names an MCP client or server, as clientInfo does.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// String is the implementation as a report names it: "typescript-sdk
// Client v1.32.2".
func (i Implementation) String() string { return i.Name + " v" + i.Version }

// Options configure the driver's process.
type Options struct {
	// Dir is the driver's working directory; it must exist.
	Dir string
	// Script is the driver's entry module, an absolute path the sandbox
	// shows the driver (through Binds); "" runs client.mjs.
	Script string
	// Binds are host paths the driver, and the servers it starts, see.
	Binds []sandbox.Bind
	// Network lets the driver and its servers reach the network.
	Network sandbox.Network
	// StartTimeout bounds the driver's start; 0 means a minute.
	StartTimeout time.Duration
}

// Driver is a running driver. Its methods are safe for concurrent use:
// requests of different sessions may overlap.
type Driver struct {
	proc   *sandbox.Process
	dir    string // the temporary directory holding client.mjs, or ""
	client Implementation
	node   string

	mu      sync.Mutex
	next    int
	pending map[int]chan reply
	broken  error // set once the driver stopped answering
	done    chan struct{}
}

// reply is one line the driver writes.
type reply struct {
	ID     *int              `json:"id"`
	Ready  *ready            `json:"ready"`
	OK     json.RawMessage   `json:"ok"`
	Thrown *Thrown           `json:"thrown"`
	Asked  []json.RawMessage `json:"asked"`
	Stderr string            `json:"stderr"`
}

type ready struct {
	Client Implementation `json:"client"`
	Node   string         `json:"node"`
}

// Thrown is an error the client threw: callTool's, or connect's.
type Thrown struct {
	// Code is the MCP error code, when the error carried one (an
	// McpError, such as -32602 for a result its output schema refused).
	Code    *int   `json:"code"`
	Name    string `json:"name"`
	Message string `json:"message"`
}

func (t *Thrown) Error() string { return t.Message }

// Start starts the driver and waits until it is ready. err wraps
// sandbox.ErrNotFound when node is not installed.
func Start(ctx context.Context, opts Options) (*Driver, error) {
	d := &Driver{pending: map[int]chan reply{}, done: make(chan struct{})}
	script := opts.Script
	binds := opts.Binds
	if script == "" {
		dir, err := os.MkdirTemp("", "code2skill-tsclient-")
		if err == nil {
			dir, err = filepath.EvalSymlinks(dir)
		}
		if err == nil {
			d.dir = dir
			script = filepath.Join(dir, "client.mjs")
			err = os.WriteFile(script, bundle, 0o444)
		}
		if err != nil {
			d.removeDir()
			return nil, fmt.Errorf("writing the TypeScript SDK Client: %w", err)
		}
		binds = append(binds[:len(binds):len(binds)], sandbox.Bind{Source: dir})
	}
	proc, err := sandbox.Start([]string{"node", script}, sandbox.Options{Dir: opts.Dir, Network: opts.Network, Binds: binds})
	if err != nil {
		d.removeDir()
		return nil, fmt.Errorf("starting the TypeScript SDK Client: %w", err)
	}
	d.proc = proc
	readyc := make(chan ready, 1)
	go d.read(readyc)
	timeout := opts.StartTimeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-readyc:
		d.client, d.node = r.Client, r.Node
		return d, nil
	case <-d.done:
		err = fmt.Errorf("the TypeScript SDK Client exited before it was ready: %s", d.stderr())
	case <-timer.C:
		err = fmt.Errorf("the TypeScript SDK Client was not ready within %s", timeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	d.Close()
	return nil, err
}

// Client is the client that runs: its name and its SDK's version, as the
// driver reports them.
func (d *Driver) Client() Implementation { return d.client }

// Node is the version of node the driver runs on.
func (d *Driver) Node() string { return d.node }

// Isolation reports the isolation the driver, and its servers, got.
func (d *Driver) Isolation() sandbox.Isolation { return d.proc.Isolation() }

// read dispatches the driver's lines to their requests until its stdout
// ends; then every request still waiting fails.
func (d *Driver) read(readyc chan<- ready) {
	sc := bufio.NewScanner(d.proc.Stdout)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		var r reply
		if canonjson.Unmarshal(sc.Bytes(), &r) != nil {
			continue // node's own warnings go to stderr; a stray line is ignored
		}
		if r.Ready != nil {
			readyc <- *r.Ready
			continue
		}
		if r.ID == nil {
			continue
		}
		d.mu.Lock()
		c := d.pending[*r.ID]
		delete(d.pending, *r.ID)
		d.mu.Unlock()
		if c != nil {
			c <- r
		}
	}
	d.mu.Lock()
	d.broken = fmt.Errorf("the TypeScript SDK Client stopped answering: %s", d.stderr())
	for id, c := range d.pending {
		close(c)
		delete(d.pending, id)
	}
	d.mu.Unlock()
	close(d.done)
}

func (d *Driver) stderr() string {
	select {
	case <-d.proc.Exited():
	case <-time.After(time.Second):
	}
	tail := string(d.proc.Stderr())
	if len(tail) > 2000 {
		tail = tail[len(tail)-2000:]
	}
	if tail == "" {
		return "its stderr was empty"
	}
	return "its stderr ends with: " + tail
}

// request sends one request and waits for its reply, at most wait.
func (d *Driver) request(ctx context.Context, req map[string]any, wait time.Duration) (reply, error) {
	c := make(chan reply, 1)
	d.mu.Lock()
	if d.broken != nil {
		d.mu.Unlock()
		return reply{}, d.broken
	}
	d.next++
	id := d.next
	d.pending[id] = c
	req["id"] = id
	line, err := json.Marshal(req)
	if err == nil {
		_, err = d.proc.Stdin.Write(append(line, '\n'))
	}
	d.mu.Unlock()
	if err != nil {
		return reply{}, fmt.Errorf("writing to the TypeScript SDK Client: %w", err)
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case r, ok := <-c:
		if !ok {
			d.mu.Lock()
			defer d.mu.Unlock()
			return reply{}, d.broken
		}
		return r, nil
	case <-timer.C:
		d.proc.Kill()
		return reply{}, fmt.Errorf("the TypeScript SDK Client did not answer %s within %s and was stopped", req["op"], wait)
	case <-ctx.Done():
		return reply{}, ctx.Err()
	}
}

// Server is how a session starts its server and what its client declares.
type Server struct {
	// Command, Args, Env and Dir are the registration's: the command and
	// its arguments, the variables the host sets, the working directory
	// ("" for the driver's).
	Command string
	Args    []string
	Env     map[string]string
	Dir     string
	// Elicitation declares the elicitation capability (form mode).
	Elicitation bool
	// ClientInfo is what the client tells the server about itself.
	ClientInfo Implementation
	// Timeout bounds each request of the session: initialize and
	// tools/list together, and each call.
	Timeout time.Duration
}

// Session is an MCP session of the client with one server.
type Session struct {
	d       *Driver
	id      string
	timeout time.Duration
	// ProtocolVersion is the version initialize negotiated.
	ProtocolVersion string
	// ServerInfo is the server's initialize serverInfo.
	ServerInfo json.RawMessage
	// Tools are the server's tools/list entries, as the client read them
	// once connected (a host lists them before any call).
	Tools []json.RawMessage
}

// OpenError is a session that could not be opened: the client threw
// while connecting or listing the tools.
type OpenError struct {
	Thrown *Thrown
	// Stderr is the last the server wrote to stderr.
	Stderr string
}

func (e *OpenError) Error() string {
	return "the client could not open the session: " + e.Thrown.Message
}

// grace is what the driver may take beyond a request's own time limit.
const grace = 10 * time.Second

// Open starts a server and opens a session with it: initialize, then
// tools/list. An *OpenError means the client threw; any other error that
// the driver failed or ctx ended.
func (d *Driver) Open(ctx context.Context, id string, s Server) (*Session, error) {
	if s.Timeout <= 0 {
		s.Timeout = time.Minute
	}
	env := s.Env
	if env == nil {
		env = map[string]string{}
	}
	req := map[string]any{"op": "open", "session": id, "command": s.Command, "args": s.Args, "env": env,
		"elicitation": s.Elicitation, "clientInfo": s.ClientInfo, "timeoutMs": s.Timeout.Milliseconds()}
	if s.Dir != "" {
		req["cwd"] = s.Dir
	}
	r, err := d.request(ctx, req, 2*s.Timeout+grace)
	if err != nil {
		return nil, err
	}
	if r.Thrown != nil {
		return nil, &OpenError{Thrown: r.Thrown, Stderr: r.Stderr}
	}
	var ok struct {
		ProtocolVersion string            `json:"protocolVersion"`
		ServerInfo      json.RawMessage   `json:"serverInfo"`
		Tools           []json.RawMessage `json:"tools"`
	}
	if err := canonjson.Unmarshal(r.OK, &ok); err != nil {
		return nil, fmt.Errorf("the TypeScript SDK Client's answer to open: %w", err)
	}
	return &Session{d: d, id: id, timeout: s.Timeout, ProtocolVersion: ok.ProtocolVersion, ServerInfo: ok.ServerInfo, Tools: ok.Tools}, nil
}

// Call is what callTool gave its caller.
type Call struct {
	// Result is the result callTool returned; nil when it threw.
	Result json.RawMessage
	// Thrown is the error callTool threw.
	Thrown *Thrown
	// Asked are the elicitation requests the server sent during the call.
	Asked []json.RawMessage
}

// CallTool calls a Tool with arguments (any value that marshals to a JSON
// object). The server's elicitations during the call are answered: accept
// (true) for a form whose one field is in accept, decline for decline,
// cancel otherwise. err means the driver failed or ctx ended.
func (s *Session) CallTool(ctx context.Context, name string, args any, accept, decline []string) (*Call, error) {
	if accept == nil {
		accept = []string{}
	}
	if decline == nil {
		decline = []string{}
	}
	r, err := s.d.request(ctx, map[string]any{"op": "call", "session": s.id, "name": name, "arguments": args,
		"accept": accept, "decline": decline, "timeoutMs": s.timeout.Milliseconds()}, s.timeout+grace)
	if err != nil {
		return nil, err
	}
	c := &Call{Thrown: r.Thrown, Asked: r.Asked}
	if r.Thrown == nil {
		var ok struct {
			Result json.RawMessage `json:"result"`
		}
		if err := canonjson.Unmarshal(r.OK, &ok); err != nil || len(ok.Result) == 0 {
			return nil, fmt.Errorf("the TypeScript SDK Client's answer to a call has no result")
		}
		c.Result = ok.Result
	}
	return c, nil
}

// Close closes the session: the client closes the server's stdin, waits,
// then signals it. It returns the end of the server's stderr.
func (s *Session) Close(ctx context.Context) (string, error) {
	r, err := s.d.request(ctx, map[string]any{"op": "close", "session": s.id}, 2*grace)
	if err != nil {
		return "", err
	}
	var ok struct {
		Stderr string `json:"stderr"`
	}
	canonjson.Unmarshal(r.OK, &ok)
	return ok.Stderr, nil
}

// Close ends the driver: its stdin is closed, so that it closes every
// session, then it is stopped. Close is idempotent.
func (d *Driver) Close() error {
	if d.proc != nil {
		d.proc.Close(2 * grace)
		d.proc.Stdout.Close()
		<-d.done
	}
	d.removeDir()
	return nil
}

func (d *Driver) removeDir() {
	if d.dir != "" {
		os.RemoveAll(d.dir)
		d.dir = ""
	}
}
