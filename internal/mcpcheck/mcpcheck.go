// Package mcpcheck talks to a generated stdio MCP server and reports, as
// diagnostics, everything about how the server behaves.
//
// A Session starts "node mcp-tool/index.mjs" in a package directory through
// internal/sandbox (scrubbed environment, temporary HOME, network denied
// where the OS allows) and holds a real MCP session with the official Go
// SDK client: initialize asking for one protocol version, then
// notifications/initialized, then whatever the caller asks (tools/list,
// tools/call). Between the server's stdout and the SDK sits a line filter:
// a stdout line that is not a JSON-RPC message is recorded as a finding
// instead of breaking the session, and every message is kept verbatim for
// transcripts and for checks that must see the exact bytes the server sent
// (the Go SDK decodes results into its own types and would hide them).
//
// Every request has its own deadline. A request that gets no answer in time
// is a finding and the server is killed; a server that crashes or exits is
// reported with the tail of its stderr; at the end the server is stopped the
// way the MCP stdio transport prescribes (close stdin, wait, SIGTERM, wait,
// SIGKILL the process group).
//
// Discover is the one-shot form the validators use: initialize, tools/list,
// the tool shape rules of a profile, shutdown.
//
//	d, err := mcpcheck.Discover(ctx, pkgDir, mcpcheck.Options{Profile: mcpcheck.ProfileCore})
//	if err != nil {
//		return err // node missing, or the session could not be set up
//	}
//	list.Merge(d.Diagnostics)
//
// The returned error means "could not do the job" (node is not installed:
// it wraps sandbox.ErrNotFound); everything the server does wrong is a
// diagnostic. Server-level findings name the file mcp-tool/index.mjs; a
// tool finding carries a JSON Pointer into the tools/list result, such as
// /tools/2/inputSchema, and names the tool in its message.
package mcpcheck

import (
	"context"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/code2skill/code2skill/internal/sandbox"
)

// Profiles whose tool shape rules CheckTools knows.
const (
	ProfileCore   = "core-export-v1"
	ProfileStrict = "strict-export-v1"
)

// ServerFile is the server entry point, relative to the package root. It is
// the File of every server-level finding.
const ServerFile = "mcp-tool/index.mjs"

// Defaults applied when Options leaves a field zero.
const (
	DefaultProtocolVersion = "2025-11-25"
	DefaultRequestTimeout  = 10 * time.Second
	// DefaultShutdownGrace bounds each wait of the shutdown sequence: after
	// stdin is closed, and again after SIGTERM. A well-behaved server exits
	// at once on stdin EOF; the margin is for a machine too busy to let it.
	DefaultShutdownGrace = 5 * time.Second
	// DefaultDiscoveryTimeout is the least time Discover's tools/list
	// pages get together: each has its own request time limit, and a
	// server that answers every one of maxToolPages slowly must not hold
	// discovery for long.
	DefaultDiscoveryTimeout = time.Minute
)

// Options configure a session with a server.
type Options struct {
	// Env holds KEY=VALUE pairs the server gets on top of the sandbox's
	// allowlist, such as a dry-run variable.
	Env []string
	// RequestTimeout bounds each request, initialize included unless
	// InitializeTimeout is set.
	RequestTimeout time.Duration
	// TimeoutFlag is how the user raises RequestTimeout ("validate
	// --request-timeout"); the findings of a request or a listing that
	// ran out of time name it.
	TimeoutFlag string
	// InitializeTimeout, when set, bounds initialize instead: the first
	// request, which waits for the server to start.
	InitializeTimeout time.Duration
	// ProtocolVersion is the version asked for in initialize; the server
	// must answer with exactly this version.
	ProtocolVersion string
	// Profile selects the tool shape rules: ProfileCore (the default) or
	// ProfileStrict.
	Profile string
	// Transcript, when set, receives the whole exchange as NDJSON, one
	// TranscriptLine per message or stray stdout line.
	Transcript io.Writer
	// Redact, when set, rewrites what the transcript records of each line
	// (the probe removes credentials with it).
	Redact Redactor
	// Label names the session in the transcript, e.g. "discovery".
	Label string
	// Network lets the server reach the network; only for a run the user
	// explicitly authorised. The zero value denies it.
	Network sandbox.Network
	// ShutdownGrace bounds each wait of the shutdown sequence.
	ShutdownGrace time.Duration
	// Binds are host paths the server sees besides its package, such as
	// the node_modules directories above an in-place package.
	Binds []sandbox.Bind
	// DiscoveryTimeout bounds Discover's listing of the tools, all pages
	// together; 0 means six requests' time, at least
	// DefaultDiscoveryTimeout, so that TimeoutFlag raises it too.
	DiscoveryTimeout time.Duration
	// Preload is a CommonJS module node loads before the entry (node
	// --require), an absolute path the sandbox shows the server: the
	// request recorder of the reachability calls. Findings still name
	// ServerFile.
	Preload string
	// Entry is the module node runs, relative to the package directory
	// or absolute; "" means ServerFile. A host runtime that wraps the
	// server (portable-host-runtime.mjs) is named here; it imports
	// ServerFile. Findings still name ServerFile: the server is what they
	// are about.
	Entry string
	// Command, when set, is the server's whole command line instead of
	// node and Entry: a go-stdio package's built server, an absolute
	// path the sandbox shows it (through Binds). Findings still name
	// ServerFile.
	Command []string
	// Elicitation answers the server's elicitation/create requests. When
	// set, the session declares the elicitation capability (form mode);
	// nil declares none, and the server must not ask.
	Elicitation func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
}

func (o Options) discoveryTimeout() time.Duration {
	if o.DiscoveryTimeout > 0 {
		return o.DiscoveryTimeout
	}
	return max(DefaultDiscoveryTimeout, 6*o.requestTimeout("tools/list"))
}

// raise says, after a time limit's finding, how to raise it.
func (o Options) raise() string {
	if o.TimeoutFlag == "" {
		return ""
	}
	return " (raise the limit with " + o.TimeoutFlag + ")"
}

// requestTimeout is the time limit of a request of the method.
func (o Options) requestTimeout(method string) time.Duration {
	if method == "initialize" && o.InitializeTimeout > 0 {
		return o.InitializeTimeout
	}
	if o.RequestTimeout > 0 {
		return o.RequestTimeout
	}
	return DefaultRequestTimeout
}

func (o Options) protocolVersion() string {
	if o.ProtocolVersion != "" {
		return o.ProtocolVersion
	}
	return DefaultProtocolVersion
}

func (o Options) shutdownGrace() time.Duration {
	if o.ShutdownGrace > 0 {
		return o.ShutdownGrace
	}
	return DefaultShutdownGrace
}

func (o Options) entry() string {
	if o.Entry != "" {
		return o.Entry
	}
	return ServerFile
}

func (o Options) label() string {
	if o.Label != "" {
		return o.Label
	}
	return "session"
}
