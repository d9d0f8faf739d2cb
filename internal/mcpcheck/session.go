package mcpcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/code2skill/code2skill/internal/buildinfo"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// ClientInfo is what code2skill's MCP clients tell servers about
// themselves: code2skill and its version.
func ClientInfo() *mcp.Implementation {
	return &mcp.Implementation{Name: "code2skill", Version: buildinfo.Code2skill()}
}

// maxToolPages bounds how many tools/list pages a session follows.
const maxToolPages = 100

// Stderr tail kept in findings about a server that exited.
const (
	stderrTailLines = 20
	stderrTailBytes = 2000
)

// Session is an MCP session with one sandboxed server. Its methods are not
// safe for concurrent use; requests are sent one at a time.
type Session struct {
	opts       Options
	proc       *sandbox.Process
	wire       *wire
	sdkReader  io.Closer // what the SDK reads the server's messages from
	stdoutDone <-chan struct{}
	cs         *mcp.ClientSession
	stdin      io.Writer // the server's stdin, through the wire's tap
	rawIDs     int       // requests sent outside the SDK so far
	version    string    // negotiated protocol version
	diags      diag.List

	down     bool // the server can no longer answer
	killed   bool // the session killed the server (a request timed out)
	reported bool // the server's exit has been reported
	// mayEnd says the server may exit now without that being a finding
	// (SendLine to a server known to end the session there); ended says
	// it did.
	mayEnd, ended bool
	closed        bool
}

// Tool is one entry of a tools/list answer.
type Tool struct {
	// Tool is the entry decoded by the Go SDK; its fields are zero where
	// the entry is malformed (the shape rules report what is wrong).
	mcp.Tool
	// Raw is the entry exactly as the server sent it.
	Raw json.RawMessage
	// Index is the entry's position in the answer; its JSON Pointer is
	// /tools/<Index>.
	Index int
}

// Pointer returns the JSON Pointer of the entry, or of a value inside it,
// in the tools/list result.
func (t *Tool) Pointer(tokens ...any) string {
	return diag.Pointer(append([]any{"tools", t.Index}, tokens...)...)
}

// CallResult is the server's answer to one tools/call: either a result or a
// JSON-RPC error.
type CallResult struct {
	// Raw is the result object exactly as the server sent it; nil when the
	// server answered with a JSON-RPC error.
	Raw json.RawMessage
	// Error is the JSON-RPC error the server answered with.
	Error *jsonrpc.Error
}

// errNoAnswer means a request got no answer; the reason is a finding.
var errNoAnswer = errors.New("no answer")

// Start starts the server of the package in dir and initializes a session:
// initialize asking for opts.ProtocolVersion, then notifications/initialized.
// A server that fails to initialize still yields a Session: its findings say
// why and Close must be called. The error is for what stops the job itself:
// node is not installed (it wraps sandbox.ErrNotFound), the server cannot be
// started, or ctx ended.
func Start(ctx context.Context, dir string, opts Options) (*Session, error) {
	argv := []string{"node", opts.entry()}
	if opts.Preload != "" {
		argv = []string{"node", "--require", opts.Preload, opts.entry()}
	}
	if len(opts.Command) > 0 {
		argv = opts.Command
	}
	proc, err := sandbox.Start(argv, sandbox.Options{
		Dir:     dir,
		Env:     opts.Env,
		Network: opts.Network,
		Binds:   opts.Binds,
	})
	if err != nil {
		return nil, fmt.Errorf("starting the MCP server: %w", err)
	}
	s := &Session{opts: opts, proc: proc, wire: newWire(opts.label(), opts.Transcript)}
	s.wire.redact = opts.Redact
	reader, done := s.wire.serverReader(proc.Stdout)
	s.sdkReader, s.stdoutDone = reader, done
	client := mcp.NewClient(ClientInfo(), &mcp.ClientOptions{
		// Nothing to offer the server but, when asked for, elicitation:
		// no roots, no sampling.
		Capabilities:       &mcp.ClientCapabilities{},
		ElicitationHandler: opts.Elicitation,
	})
	stdin := s.wire.clientWriter(proc.Stdin)
	s.stdin = stdin
	transport := &mcp.IOTransport{Reader: reader, Writer: stdin}
	want := opts.protocolVersion()
	initResp, err := s.request(ctx, "initialize", func(ctx context.Context) error {
		cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: want})
		s.cs = cs
		return err
	})
	if err != nil && !errors.Is(err, errNoAnswer) {
		s.Close()
		return nil, err
	}
	if s.cs == nil {
		// Connect failed; request reported no answer, or there is an answer
		// the SDK refused: say what was wrong with it.
		s.down = true
		if !errors.Is(err, errNoAnswer) {
			if ds := initializeFailure(want, initResp); len(ds) > 0 {
				s.diags.Add(ds...)
			} else {
				s.reportExit("notifications/initialized", errors.New("initialize was answered, the session then broke"))
			}
		}
		return s, nil
	}
	s.version = s.cs.InitializeResult().ProtocolVersion
	if s.version != want {
		s.diags.Add(RuleProtocolVersion.New(ServerFile,
			"initialize asked for protocol %s and the server answered %s", want, s.version))
	}
	return s, nil
}

// initializeFailure explains an initialize answer the SDK did not accept.
// It returns nothing when the answer itself was fine.
func initializeFailure(want string, resp *jsonrpc.Response) []diag.Diagnostic {
	if resp == nil {
		return []diag.Diagnostic{RuleInitialize.New(ServerFile, "initialize got no usable answer")}
	}
	if werr := ResponseError(resp); werr != nil {
		return []diag.Diagnostic{RuleInitialize.New(ServerFile,
			"initialize was answered with JSON-RPC error %d: %s", werr.Code, werr.Message)}
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := canonjson.Unmarshal(resp.Result, &res); err != nil || res.ProtocolVersion == "" {
		return []diag.Diagnostic{RuleInitialize.New(ServerFile, "the initialize result has no protocolVersion string")}
	}
	if res.ProtocolVersion != want {
		return []diag.Diagnostic{RuleProtocolVersion.New(ServerFile,
			"initialize asked for protocol %s and the server answered %s", want, res.ProtocolVersion)}
	}
	var typed mcp.InitializeResult
	if err := canonjson.Unmarshal(resp.Result, &typed); err != nil {
		return []diag.Diagnostic{RuleInitialize.New(ServerFile, "the initialize result is malformed: %v", err)}
	}
	return nil
}

// request runs one SDK call under the per-request deadline and returns the
// server's answer to it. When there is none, the reason is recorded as a
// finding and the error is errNoAnswer; any other error means ctx ended.
func (s *Session) request(ctx context.Context, method string, call func(context.Context) error) (*jsonrpc.Response, error) {
	if s.down {
		return nil, errNoAnswer
	}
	before, _ := s.wire.lastRequest(method)
	limit := s.opts.requestTimeout(method)
	rctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	err := call(rctx)
	if id, sent := s.wire.lastRequest(method); sent && id != before {
		if resp := s.wire.take(id); resp != nil {
			// Answered. The SDK may still have refused the answer (a result
			// it cannot decode): the caller judges the raw answer.
			return resp, nil
		}
	}
	if err == nil {
		// Only a notification can succeed without an answer of its own.
		return nil, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if errors.Is(rctx.Err(), context.DeadlineExceeded) {
		s.diags.Add(RuleRequestTimeout.New(ServerFile, "no answer to %s within %s; the server was stopped%s",
			method, limit, s.opts.raise()))
		s.proc.Kill()
		s.down, s.killed = true, true
		return nil, errNoAnswer
	}
	s.down = true
	s.reportExit(method, err)
	return nil, errNoAnswer
}

// reportExit records that the server stopped answering during method.
func (s *Session) reportExit(method string, err error) {
	select {
	case <-s.proc.Exited():
	case <-time.After(s.opts.shutdownGrace()):
	}
	s.reported = true
	select {
	case <-s.proc.Exited():
		if s.mayEnd {
			s.ended = true
			return
		}
		s.diags.Add(RuleServerExited.New(ServerFile, "the server %s before answering %s", exitPhrase(s.proc.ExitCode()), method).
			WithDetail(s.stderrTail()))
	default:
		s.diags.Add(RuleServerExited.New(ServerFile, "the connection to the server was lost before it answered %s: %v", method, err).
			WithDetail(s.stderrTail()))
	}
}

// ProtocolVersion returns the negotiated protocol version, or "" when
// initialize failed.
func (s *Session) ProtocolVersion() string { return s.version }

// Isolation reports the isolation the server got.
func (s *Session) Isolation() sandbox.Isolation { return s.proc.Isolation() }

// Down reports whether the server can no longer answer (it failed to
// initialize, exited, or was stopped after a timeout).
func (s *Session) Down() bool { return s.down }

// Diagnostics returns the findings of the session; they are complete once
// Close has returned.
func (s *Session) Diagnostics() *diag.List { return &s.diags }

// ListTools asks for the server's tools, following pagination. A malformed
// answer is a finding; what could be read is returned.
func (s *Session) ListTools(ctx context.Context) ([]Tool, error) {
	var tools []Tool
	cursor := ""
	for range maxToolPages {
		resp, err := s.request(ctx, "tools/list", func(ctx context.Context) error {
			_, err := s.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
			return err
		})
		if errors.Is(err, errNoAnswer) {
			return tools, nil
		}
		if err != nil {
			return nil, err
		}
		if werr := ResponseError(resp); werr != nil {
			s.diags.Add(RuleToolsList.New(ServerFile, "tools/list was answered with JSON-RPC error %d: %s", werr.Code, werr.Message))
			return tools, nil
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor *string           `json:"nextCursor"`
		}
		if err := canonjson.Unmarshal(resp.Result, &page); err != nil || page.Tools == nil {
			s.diags.Add(RuleToolsList.New(ServerFile, "the tools/list result has no tools array"))
			return tools, nil
		}
		for _, raw := range page.Tools {
			t := Tool{Raw: raw, Index: len(tools)}
			// A malformed entry keeps zero fields; CheckTools says why.
			canonjson.Unmarshal(raw, &t.Tool)
			tools = append(tools, t)
		}
		if page.NextCursor == nil || *page.NextCursor == "" {
			return tools, nil
		}
		cursor = *page.NextCursor
	}
	s.diags.Add(RuleToolsList.New(ServerFile, "tools/list returned more than %d pages", maxToolPages))
	return tools, nil
}

// CallTool calls a tool with the given arguments (any value that marshals
// to a JSON object). It returns nil when the server gave no answer; the
// reason is then a finding.
func (s *Session) CallTool(ctx context.Context, name string, args any) (*CallResult, error) {
	return s.CallToolMeta(ctx, name, args, nil)
}

// CallToolMeta is CallTool with the request's _meta.
func (s *Session) CallToolMeta(ctx context.Context, name string, args any, meta map[string]any) (*CallResult, error) {
	resp, err := s.request(ctx, "tools/call", func(ctx context.Context) error {
		_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: name, Arguments: args})
		return err
	})
	if errors.Is(err, errNoAnswer) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if werr := ResponseError(resp); werr != nil {
		return &CallResult{Error: werr}, nil
	}
	return &CallResult{Raw: resp.Result}, nil
}

// Close stops the server as the MCP stdio transport prescribes (close its
// stdin, wait, SIGTERM, wait, SIGKILL the process group), collects the
// last findings and returns an error only when the transcript could not be
// written. Close is idempotent.
func (s *Session) Close() error {
	if s.closed {
		return s.wire.err()
	}
	s.closed = true
	exitedEarly := false
	select {
	case <-s.proc.Exited():
		exitedEarly = true
	default:
	}
	grace := s.opts.shutdownGrace()
	s.proc.Close(grace)
	// The SDK reads no more: unblock the line filter should it be passing
	// a message on. Stray lines written at exit still count, but don't wait
	// for a stdout held open by something that escaped the process group.
	// Once stdout is closed the filter ends, and with it the SDK's reader,
	// so that closing the client session cannot block.
	s.sdkReader.Close()
	select {
	case <-s.stdoutDone:
	case <-time.After(grace):
	}
	s.proc.Stdout.Close()
	<-s.stdoutDone
	if s.cs != nil {
		s.cs.Close()
	}
	switch code := s.proc.ExitCode(); {
	case s.killed || s.reported:
	case exitedEarly:
		s.diags.Add(RuleServerExited.New(ServerFile, "the server %s during the session", exitPhrase(code)).
			WithDetail(s.stderrTail()))
	case s.proc.Forced():
		s.diags.Add(RuleShutdownForced.New(ServerFile,
			"the server did not exit within %s of its stdin being closed and was signalled", grace))
	case code != 0:
		s.diags.Add(RuleExitStatus.New(ServerFile, "the server %s when its stdin was closed", exitPhrase(code)).
			WithDetail(s.stderrTail()))
	}
	s.diags.Add(s.wire.findings()...)
	return s.wire.err()
}

// stderrTail returns the last lines the server wrote to stderr.
func (s *Session) stderrTail() string {
	tail := strings.TrimRight(string(s.proc.Stderr()), "\n")
	if len(tail) > stderrTailBytes {
		tail = tail[len(tail)-stderrTailBytes:]
		if i := strings.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	lines := strings.Split(tail, "\n")
	if len(lines) > stderrTailLines {
		lines = lines[len(lines)-stderrTailLines:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return "(stderr was empty)"
	}
	return "stderr ends with:\n" + strings.Join(lines, "\n")
}

func exitPhrase(code int) string {
	if code < 0 {
		return "was killed by a signal"
	}
	return fmt.Sprintf("exited with code %d", code)
}

// ResponseError returns the JSON-RPC error a response carries, or nil.
func ResponseError(resp *jsonrpc.Response) *jsonrpc.Error {
	var werr *jsonrpc.Error
	if resp != nil && resp.Error != nil && errors.As(resp.Error, &werr) {
		return werr
	}
	return nil
}
