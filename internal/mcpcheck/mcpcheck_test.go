package mcpcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// serverPackage lays out testdata/servers/<name>.mjs as the mcp-tool/index.mjs
// of a package in a temporary directory whose parent holds the repository's
// pinned node_modules, and returns the package directory.
func serverPackage(t *testing.T, name string) string {
	t.Helper()
	testnode.Node(t)
	root := t.TempDir()
	if err := os.Symlink(testnode.Modules(t), filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "servers", name+".mjs"))
	if err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(root, "pkg")
	if err := os.MkdirAll(filepath.Join(pkg, "mcp-tool"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, ServerFile), src, 0o644); err != nil {
		t.Fatal(err)
	}
	return pkg
}

// moduleBinds lets a confined server see the node_modules next to its
// package.
func moduleBinds(pkg string) []sandbox.Bind {
	return []sandbox.Bind{{Source: filepath.Join(filepath.Dir(pkg), "node_modules")}}
}

// nodeSlots bounds how many servers run at once: a machine busy with more
// node processes than it has CPUs makes a server look hung.
var nodeSlots = make(chan struct{}, max(2, runtime.NumCPU()))

// discover runs Discover on a test server. Unless the test sets them, the
// time limits are what the test's deadline leaves: these tests prove
// behaviour, not speed.
func discover(t *testing.T, name string, opts Options) *Discovery {
	t.Helper()
	return discoverThen(t, name, opts, nil)
}

// discoverThen is discover with more work in the session (DiscoverThen).
func discoverThen(t *testing.T, name string, opts Options, then func(context.Context, *Session, []Tool) error) *Discovery {
	t.Helper()
	opts = withBudget(t, opts)
	pkg := serverPackage(t, name)
	nodeSlots <- struct{}{}
	defer func() { <-nodeSlots }()
	opts.Binds = moduleBinds(pkg)
	d, err := DiscoverThen(context.Background(), pkg, opts, then)
	if err != nil {
		t.Fatalf("Discover: %v", err)
	}
	return d
}

// withBudget gives every time limit opts leaves unset what the test's
// deadline leaves.
func withBudget(t *testing.T, opts Options) Options {
	t.Helper()
	budget := testtier.Budget(t)
	for _, d := range []*time.Duration{&opts.RequestTimeout, &opts.ShutdownGrace, &opts.DiscoveryTimeout} {
		if *d == 0 {
			*d = budget
		}
	}
	return opts
}

// TestDiscoverGoodServer: a good server passes discovery under each
// profile; under the core one, its session then calls its tools.
func TestDiscoverGoodServer(t *testing.T) {
	t.Parallel()
	for _, profile := range []string{ProfileCore, ProfileStrict} {
		var then func(context.Context, *Session, []Tool) error
		if profile == ProfileCore {
			then = func(ctx context.Context, s *Session, _ []Tool) error {
				sessionCallsTools(t, ctx, s)
				return nil
			}
		}
		d := discoverThen(t, "good", Options{Profile: profile}, then)
		if d.Diagnostics.Len() != 0 {
			t.Errorf("%s: findings on a good server:\n%v", profile, d.Diagnostics.Sorted())
		}
		if d.ProtocolVersion != "2025-11-25" {
			t.Errorf("negotiated %q, want 2025-11-25", d.ProtocolVersion)
		}
		var names []string
		for _, tool := range d.Tools {
			names = append(names, tool.Name)
		}
		if diff := cmp.Diff([]string{"list_sample_items", "create_sample_item"}, names); diff != "" {
			t.Errorf("tools (-want +got)\n%s", diff)
		}
		// The raw entry keeps what the TypeScript SDK adds and the Go types drop.
		if raw := string(d.Tools[0].Raw); !strings.Contains(raw, `"execution"`) || !strings.Contains(raw, `"$schema"`) {
			t.Errorf("raw tool lost fields: %s", raw)
		}
		if d.Tools[0].Annotations == nil || !d.Tools[0].Annotations.ReadOnlyHint {
			t.Errorf("decoded annotations = %+v", d.Tools[0].Annotations)
		}
	}
}

func TestDiscoverMisbehavingServers(t *testing.T) {
	t.Parallel()
	// Only the request that hangs gets a short limit: node starts and
	// answers initialize in what the test's deadline leaves, however busy
	// the machine.
	short := testtier.Scaled(2 * time.Second)
	budget := testtier.Budget(t)
	discovery := testtier.Scaled(3 * time.Second)
	for _, tc := range []struct {
		server  string
		opts    Options
		want    []string
		message string // a fragment one finding's message must hold
		detail  string // a fragment one finding's detail must hold
		// pointers are each finding's rule and JSON Pointer, when the case
		// pins them.
		pointers []string
		// transcript is what the transcript of the session (named by
		// opts.Label) records, sorted (transcriptSummary), when the case
		// pins it.
		transcript []string
	}{
		{server: "noise-before", want: []string{"MCP_STDOUT_NOT_JSONRPC"}, message: "before initialize"},
		{server: "noise-after", opts: Options{Label: "discovery"}, want: []string{"MCP_STDOUT_NOT_JSONRPC"}, message: `after initialize was answered is not a JSON-RPC message: "bye"`,
			// "client connected" is printed while the server handles the
			// notification, so it may come before or after the tools/list
			// request: the summary is sorted.
			transcript: []string{
				"client initialize",
				"client notifications/initialized",
				"client tools/list",
				"server bye",
				"server client connected",
				"server response",
				"server response",
			}},
		{server: "hang-initialize", opts: Options{RequestTimeout: short, TimeoutFlag: "validate --request-timeout"}, want: []string{"MCP_REQUEST_TIMEOUT"},
			message: "no answer to initialize within " + short.String() + "; the server was stopped (raise the limit with validate --request-timeout)"},
		{server: "hang-tools-list", opts: Options{InitializeTimeout: budget, RequestTimeout: short}, want: []string{"MCP_REQUEST_TIMEOUT"}, message: "no answer to tools/list"},
		{server: "crash-tools-list", want: []string{"MCP_SERVER_EXITED"}, message: "exited with code 3 before answering tools/list", detail: "fatal: sample configuration missing"},
		{server: "crash-startup", want: []string{"MCP_SERVER_EXITED"}, message: "before answering initialize", detail: "sample startup failure"},
		{server: "bad-exit", want: []string{"MCP_SERVER_EXIT_STATUS"}, message: "exited with code 4"},
		{server: "ignore-eof", opts: Options{ShutdownGrace: testtier.Scaled(300 * time.Millisecond)}, want: []string{"MCP_SERVER_SHUTDOWN_FORCED"}},
		{server: "old-protocol", want: []string{"MCP_PROTOCOL_VERSION"}, message: "answered 2025-06-18"},
		{server: "unknown-protocol", want: []string{"MCP_PROTOCOL_VERSION"}, message: "answered 1999-01-01"},
		{server: "initialize-error", want: []string{"MCP_INITIALIZE_FAILED"}, message: "sample backend not configured"},
		{server: "tools-list-error", want: []string{"MCP_TOOLS_LIST_FAILED"}, message: "tool registry unavailable"},
		{server: "duplicate-tool", want: []string{"MCP_TOOL_NAME_DUPLICATE"}},
		{server: "closed-input", want: []string{"MCP_TOOL_INPUT_SCHEMA_CLOSED", "MCP_TOOL_OUTPUT_SCHEMA_CLOSED"}},
		{server: "closed-input", opts: Options{Profile: ProfileStrict}},
		{server: "no-annotations", want: []string{"MCP_TOOL_ANNOTATIONS"}, message: "lack boolean idempotentHint, openWorldHint"},
		{server: "bad-name", want: []string{"MCP_TOOL_DESCRIPTION", "MCP_TOOL_NAME", "MCP_TOOL_TITLE"}, message: `tool "list sample items!"`,
			pointers: []string{"MCP_TOOL_NAME /tools/0/name", "MCP_TOOL_DESCRIPTION /tools/1/description", "MCP_TOOL_TITLE /tools/1/title"}},
		{server: "unsolicited", want: []string{"MCP_UNSOLICITED_RESPONSE"}, message: "sent 9 responses to requests the client never sent"},
		{server: "endless-pages", opts: Options{DiscoveryTimeout: discovery, TimeoutFlag: "probe --request-timeout"},
			want: []string{"MCP_DISCOVERY_TIMEOUT"}, message: fmt.Sprintf("tools/list did not finish within %s, all pages together; the server was stopped (raise the limit with probe --request-timeout)", discovery)},
	} {
		t.Run(tc.server+"/"+tc.opts.Profile, func(t *testing.T) {
			t.Parallel()
			var transcript bytes.Buffer
			if tc.transcript != nil {
				tc.opts.Transcript = &transcript
			}
			d := discover(t, tc.server, tc.opts)
			if tc.transcript != nil {
				if diff := cmp.Diff(tc.transcript, transcriptSummary(t, transcript.String(), tc.opts.Label)); diff != "" {
					t.Errorf("transcript (-want +got)\n%s\n%s", diff, transcript.String())
				}
			}
			if tc.pointers != nil {
				var got []string
				for _, x := range d.Diagnostics.Sorted() {
					got = append(got, x.Rule+" "+x.Pointer)
				}
				if diff := cmp.Diff(tc.pointers, got); diff != "" {
					t.Errorf("pointers (-want +got)\n%s", diff)
				}
			}
			if diff := cmp.Diff(tc.want, d.Diagnostics.RuleIDs()); diff != "" {
				t.Fatalf("rules (-want +got)\n%s\nfindings: %v", diff, d.Diagnostics.Sorted())
			}
			found := func(f func(diag.Diagnostic) string, frag string) bool {
				return slices.ContainsFunc(d.Diagnostics.Sorted(), func(x diag.Diagnostic) bool { return strings.Contains(f(x), frag) })
			}
			if tc.message != "" && !found(func(x diag.Diagnostic) string { return x.Message }, tc.message) {
				t.Errorf("no finding says %q: %v", tc.message, d.Diagnostics.Sorted())
			}
			if tc.detail != "" && !found(func(x diag.Diagnostic) string { return x.Detail }, tc.detail) {
				t.Errorf("no finding's detail holds %q: %#v", tc.detail, d.Diagnostics.Sorted())
			}
			for _, x := range d.Diagnostics.Sorted() {
				if x.File != ServerFile {
					t.Errorf("finding about %q, want %s: %v", x.File, ServerFile, x)
				}
			}
		})
	}
}

// transcriptSummary reads a transcript, every line of it from the session
// label, as who sent what: the method of a message, "response" for a
// response, or the line a server printed that was not one; sorted.
func transcriptSummary(t *testing.T, transcript, label string) []string {
	t.Helper()
	var got []string
	for l := range strings.Lines(transcript) {
		var tl TranscriptLine
		if err := json.Unmarshal([]byte(l), &tl); err != nil {
			t.Fatalf("transcript line %q: %v", l, err)
		}
		if tl.Session != label {
			t.Errorf("session = %q", tl.Session)
		}
		what := tl.Stdout
		if tl.Message != nil {
			var m struct {
				Method string `json:"method"`
			}
			json.Unmarshal(tl.Message, &m)
			what = m.Method
			if what == "" {
				what = "response"
			}
		}
		got = append(got, tl.From+" "+what)
	}
	slices.Sort(got)
	return got
}

// sessionCallsTools calls the good server's tools in its session: the
// session passes each answer on as it came. The session's closing, and
// its findings (none), are TestDiscoverGoodServer's to judge.
func sessionCallsTools(t *testing.T, ctx context.Context, s *Session) {
	t.Helper()
	res, err := s.CallTool(ctx, "list_sample_items", map[string]any{"kind": "sample"})
	if err != nil || res == nil {
		t.Errorf("CallTool = %v, %v", res, err)
		return
	}
	var got struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(res.Raw, &got); err != nil || got.StructuredContent["httpStatus"] != 200.0 {
		t.Errorf("result = %s (%v)", res.Raw, err)
	}
	// The TypeScript SDK answers an unknown tool with an isError result, not
	// a JSON-RPC error; the session passes the answer on as it came.
	res, err = s.CallTool(ctx, "no_such_tool", nil)
	if err != nil || res == nil || res.Error != nil || !bytes.Contains(res.Raw, []byte("-32602")) {
		t.Errorf("unknown tool answer = %+v, %v", res, err)
	}
}

func TestDiscoverWithoutNode(t *testing.T) {
	pkg := t.TempDir()
	t.Setenv("PATH", t.TempDir())
	_, err := Discover(context.Background(), pkg, Options{})
	if !errors.Is(err, sandbox.ErrNotFound) {
		t.Fatalf("err = %v, want one wrapping sandbox.ErrNotFound", err)
	}
}

// TestSessionEntry runs the server through a wrapping module, as a host
// does: a wrapper that imports the server serves it, and one that throws
// stops the session, which proves the wrapper, not mcp-tool/index.mjs
// directly, is what node started.
func TestSessionEntry(t *testing.T) {
	t.Parallel()
	pkg := serverPackage(t, "good")
	if err := os.WriteFile(filepath.Join(pkg, "host.mjs"), []byte("await import(\"./mcp-tool/index.mjs\");\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "broken.mjs"), []byte("throw new Error('wrapper ran');\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Start(context.Background(), pkg, withBudget(t, Options{Entry: "host.mjs", Binds: moduleBinds(pkg)}))
	if err != nil {
		t.Fatal(err)
	}
	if s.Down() {
		t.Fatalf("the server behind the wrapper did not initialize: %v", s.Diagnostics().Sorted())
	}
	s.Close()

	s, err = Start(context.Background(), pkg, withBudget(t, Options{Entry: "broken.mjs", Binds: moduleBinds(pkg)}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Down() {
		t.Fatal("a session whose entry throws initialized: the entry was not run")
	}
}

// TestDiscoveryTimeoutFollowsTheRequestLimit: the listing's overall limit
// grows with the request limit, so that the flag that raises the one
// raises the other.
func TestDiscoveryTimeoutFollowsTheRequestLimit(t *testing.T) {
	if got := (Options{}).discoveryTimeout(); got != DefaultDiscoveryTimeout {
		t.Errorf("default %s, want %s", got, DefaultDiscoveryTimeout)
	}
	if got := (Options{RequestTimeout: time.Minute}).discoveryTimeout(); got != 6*time.Minute {
		t.Errorf("with a minute per request: %s, want 6m0s", got)
	}
}
