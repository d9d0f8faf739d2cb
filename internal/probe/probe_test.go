package probe

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// strictPackage lays out testdata/strict as a strict package named
// sample-notes in a temporary directory, with the bundled runtime and the
// reviewed error normalizer, then applies overrides (path -> content; an
// empty content removes the file).
func strictPackage(t *testing.T, overrides map[string]string) string {
	t.Helper()
	testnode.Node(t)
	pkg := filepath.Join(t.TempDir(), "sample-notes")
	if err := os.CopyFS(pkg, os.DirFS(filepath.Join("testdata", "strict"))); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		assets.MCPRuntime.Name():      assets.MCPRuntime.Bytes(),
		assets.ErrorNormalizer.Name(): assets.ErrorNormalizer.Bytes(),
	}
	for name, content := range overrides {
		files[name] = []byte(content)
	}
	for name, content := range files {
		p := filepath.Join(pkg, filepath.FromSlash(name))
		if len(content) == 0 {
			os.Remove(p)
			continue
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return pkg
}

// casesFile writes a case file and returns its path.
func casesFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The cases that prove the sample-notes package: one success and one
// handler error per tool, one dry-run per write tool.
func fullCases(t *testing.T) Options {
	return Options{
		Calls: []string{casesFile(t, "calls.json", `[
			{"name": "list_sample_notes", "arguments": {"tag": "work"}},
			{"name": "create_sample_note", "arguments": {"title": "Buy sample seeds", "body": null, "tag": "home"}},
			{"name": "count_sample_notes", "arguments": {"folder": "inbox"}}
		]`)},
		ErrorCalls: []string{casesFile(t, "errors.json", `[
			{"name": "list_sample_notes", "arguments": {"limit": 13}},
			{"name": "create_sample_note", "arguments": {"title": "reject"}},
			{"name": "count_sample_notes", "arguments": {"folder": "archive"}}
		]`)},
		DryRunCalls: dryRunCases(t),
	}
}

func dryRunCases(t *testing.T) []string {
	return []string{casesFile(t, "dry-run.json",
		`{"name": "create_sample_note", "arguments": {"title": "  Plan the sample day", "tag": "work"}}`)}
}

func offlineCases(t *testing.T) Options {
	return Options{Offline: true, DryRunCalls: dryRunCases(t)}
}

// nodeSlots bounds how many probes run at once: each starts node
// processes, and a machine busy with more of them than it has CPUs makes a
// server look hung.
var nodeSlots = make(chan struct{}, max(2, runtime.NumCPU()))

// run probes pkg. Unless the test sets them, the time limits are what the
// test's deadline leaves: these tests prove behaviour, not speed.
func run(t *testing.T, pkg string, opts Options) *Result {
	t.Helper()
	if opts.TempDir == "" {
		opts.TempDir = t.TempDir()
	}
	for _, d := range []*time.Duration{&opts.RequestTimeout, &opts.InitializeTimeout} {
		if *d == 0 {
			*d = testtier.Budget(t)
		}
	}
	nodeSlots <- struct{}{}
	defer func() { <-nodeSlots }()
	r, err := Run(context.Background(), pkg, opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return r
}

func TestProbeStrictPackage(t *testing.T) {
	t.Parallel()
	pkg := strictPackage(t, nil)
	var transcript strings.Builder
	opts := fullCases(t)
	opts.Transcript = &transcript
	r := run(t, pkg, opts)
	if r.Diagnostics.Len() != 0 {
		t.Fatalf("findings on a good package:\n%v", r.Diagnostics.Sorted())
	}
	want := []*ToolStatus{
		{Name: "list_sample_notes", Discovery: Passed, Success: Passed, Error: Passed, DryRun: NotRun},
		{Name: "create_sample_note", Discovery: Passed, Success: Passed, Error: Passed, DryRun: Passed},
		{Name: "count_sample_notes", Discovery: Passed, Success: Passed, Error: Passed, DryRun: NotRun},
	}
	if diff := cmp.Diff(want, r.Tools); diff != "" {
		t.Errorf("table (-want +got)\n%s", diff)
	}
	wantChecks := Checks{
		Discovery: Count{Passed: 3}, UnknownTool: Count{Passed: 1}, MalformedFrame: Count{Passed: 1}, UnknownMethod: Count{Passed: 1}, InvalidArguments: Count{Passed: 3},
		Success: Count{Passed: 3}, Error: Count{Passed: 3}, DryRun: Count{Passed: 1},
	}
	if diff := cmp.Diff(wantChecks, r.Checks); diff != "" {
		t.Errorf("checks (-want +got)\n%s", diff)
	}
	if r.ProtocolVersion != "2025-11-25" || !r.DetachedCopy || r.Profile != pkgdir.ProfileStrict {
		t.Errorf("protocol %q, detached %v, profile %q", r.ProtocolVersion, r.DetachedCopy, r.Profile)
	}
	if r.UnknownToolAnswer != AnswerToolError {
		t.Errorf("unknown tool answer = %q, want the SDK's isError form", r.UnknownToolAnswer)
	}
	if r.MalformedFrameAnswer != AnswerNoReply {
		t.Errorf("malformed frame answer = %q, want the SDK's silence", r.MalformedFrameAnswer)
	}
	if r.NodeProcesses != 2 {
		t.Errorf("%d node processes, want 2 (protocol and business sessions)", r.NodeProcesses)
	}
	// The transcript holds both sessions, every line one JSON object.
	sessions := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(transcript.String()), "\n") {
		var l struct {
			Session string          `json:"session"`
			Message json.RawMessage `json:"message"`
			Raw     string          `json:"raw"` // the malformed frame the probe sends
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil || (l.Message == nil) == (l.Raw == "") {
			t.Fatalf("transcript line %q: %v", line, err)
		}
		sessions[l.Session] = true
	}
	if !sessions["protocol"] || !sessions["business"] {
		t.Errorf("transcript sessions = %v", sessions)
	}
	// Nothing of the detached copy is left behind.
	if entries, _ := os.ReadDir(opts.TempDir); len(entries) != 0 {
		t.Errorf("detached copy left behind: %v", entries)
	}
}

// offlineStrict is the offline probe of the good strict package, made
// where node_modules is reachable from the detached copy:
// TestProbeStrictOffline, TestProbeWarnsAboutReachableModules and
// TestInspectorAgrees judge it.
var offlineStrict testtier.Shared[*Result]

func offlineStrictProbe(t *testing.T) *Result {
	t.Helper()
	return offlineStrict.Get(t, func(testing.TB) *Result {
		opts := offlineCases(t)
		opts.TempDir = t.TempDir()
		if err := os.Mkdir(filepath.Join(opts.TempDir, "node_modules"), 0o755); err != nil {
			t.Fatal(err)
		}
		return run(t, strictPackage(t, nil), opts)
	})
}

// TestProbeStrictOffline: the offline probe of a good strict package says
// it was offline and finds nothing else (but the reachable node_modules
// TestProbeWarnsAboutReachableModules judges).
func TestProbeStrictOffline(t *testing.T) {
	t.Parallel()
	r := offlineStrictProbe(t)
	rules := slices.DeleteFunc(r.Diagnostics.RuleIDs(), func(id string) bool { return id == RuleReachableModules.ID })
	if diff := cmp.Diff([]string{"PROBE_OFFLINE"}, rules); diff != "" {
		t.Fatalf("rules (-want +got)\n%s\n%v", diff, r.Diagnostics.Sorted())
	}
	if r.Diagnostics.HasErrors() {
		t.Error("an offline probe of a good package has errors")
	}
	if r.NodeProcesses != 2 {
		t.Errorf("%d node processes, want 2 (the protocol session and one listing the Tools without the dry-run variable)", r.NodeProcesses)
	}
	s := r.Summary()
	if !s.RuntimeVerificationRequired || len(s.BusinessCallsNotRun) != 3 {
		t.Errorf("summary: runtime verification %v, business calls not run %v", s.RuntimeVerificationRequired, s.BusinessCallsNotRun)
	}
	if r.Tools[1].DryRun != Passed || r.Tools[0].Success != NotRun {
		t.Errorf("table: %+v %+v", r.Tools[0], r.Tools[1])
	}
}

// TestProbeStrictMisbehaviour probes the strict sample server with one
// fault planted at a time: each is found, with its rule. The fast tier
// runs a tool missing, a dry-run that dispatches and a call that hangs;
// the slow tier the rest.
func TestProbeStrictMisbehaviour(t *testing.T) { probeStrictMisbehaviour(t, true) }

func TestSlowProbeStrictMisbehaviour(t *testing.T) {
	testtier.Slow(t)
	probeStrictMisbehaviour(t, false)
}

func probeStrictMisbehaviour(t *testing.T, fast bool) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		fault     string            // SAMPLE_FAULT
		overrides map[string]string // package files
		online    bool              // full cases instead of offline dry-run only
		timeout   time.Duration
		want      []string
		message   string // a fragment one finding's message must hold
	}{
		{name: "missing tool", fault: "missing-tool", want: []string{"PROBE_TOOL_MISSING"}, message: `lacks "count_sample_notes"`},
		{name: "extra tool", fault: "extra-tool", want: []string{"PROBE_TOOL_UNEXPECTED"}, message: `"debug_sample_notes"`},
		{name: "annotations", fault: "annotations", want: []string{"PROBE_TOOL_ANNOTATIONS"}, message: "readOnlyHint is false, the contract says true"},
		{name: "input schema", fault: "input-schema", want: []string{"PROBE_TOOL_INPUT_SCHEMA"}, message: "at /properties/limit/maximum: the server lists 100, the contract has 50"},
		{name: "output schema", fault: "output-schema", want: []string{"PROBE_TOOL_OUTPUT_SCHEMA"}, message: "/properties/data/properties/count/minimum"},
		{name: "unknown tool accepted", fault: "unknown-tool-accepted", want: []string{"PROBE_UNKNOWN_TOOL"}},
		{name: "no input validation", fault: "no-input-validation", want: []string{"PROBE_INVALID_ARGUMENTS"}, message: `tool "create_sample_note" called without its required arguments`},
		{name: "dry-run dispatches", fault: "dry-run-dispatches", want: []string{"PROBE_DRY_RUN"}, message: "looks dispatched"},
		{name: "dry-run alters input", fault: "dry-run-alters-input", want: []string{"PROBE_DRY_RUN"}, message: "validatedInput differs from the arguments at /title"},
		{name: "dry-run policy", fault: "dry-run-policy", want: []string{"PROBE_DRY_RUN"}, message: "operationPolicy differs from the contract's operationPolicy at /automaticRetry"},
		{name: "protocol version", overrides: map[string]string{profileFile: strings.Replace(readFixture(t, profileFile), "2025-11-25", "2025-01-01", 1)},
			want: []string{"MCP_PROTOCOL_VERSION"}, message: "asked for protocol 2025-01-01 and the server answered 2025-11-25"},
		{name: "no structuredContent", fault: "no-structured-content", online: true, want: []string{"PROBE_CALL_FAILED"},
			message: "returned a Tool error: MCP error -32602: Output validation error: Tool list_sample_notes has an output schema but no structured content was provided"},
		{name: "text mismatch", fault: "text-mismatch", online: true, want: []string{"PROBE_RESULT_TEXT"}},
		{name: "output invalid", fault: "unchecked-output", online: true, want: []string{"PROBE_CLIENT_SUCCESS_REFUSED"},
			message: `structuredContent does not match the listed outputSchema (/data/count: is a string, want "integer"); the client throws instead of returning the result; fails in typescript-sdk Client 1.32.2, Inspector CLI 2.12.0`},
		{name: "output looser than the contract", fault: "loose-output", online: true, want: []string{"PROBE_RESULT_SCHEMA", "PROBE_TOOL_OUTPUT_SCHEMA"}, message: `/data/count: is a string, want "integer"`},
		{name: "dry-run listing the contract's output schema", fault: "dry-run-canonical-output", want: []string{"PROBE_CLIENT_SUCCESS_REFUSED", "PROBE_TOOL_OUTPUT_SCHEMA"},
			message: "under the dry-run variable every call answers with the dry-run envelope"},
		{name: "output schema not an object", fault: "output-not-object", want: []string{"MCP_TOOL_OUTPUT_SCHEMA"}, message: `tool "count_sample_notes": the outputSchema is an object schema of type "array"`},
		{name: "success without isError", fault: "success-no-is-error", online: true, want: []string{"PROBE_CALL_FAILED"}, message: "does not say isError: false"},
		{name: "error with structuredContent", fault: "error-structured", online: true, want: []string{"PROBE_CLIENT_ERROR_STRUCTURED"},
			message: `tool "count_sample_notes": the error result carries structuredContent that does not match the listed outputSchema`},
		{name: "error with structuredContent like a success", fault: "error-structured-valid", online: true, want: []string{"PROBE_CLIENT_ERROR_STRUCTURED"},
			message: `tool "count_sample_notes": the error result carries structuredContent that satisfies the success outputSchema`},
		{name: "error without text", fault: "error-no-text", online: true, want: []string{"PROBE_CLIENT_ERROR_NO_TEXT"}, message: "no text content"},
		{name: "error envelope", fault: "error-envelope", online: true, want: []string{"PROBE_ERROR_ENVELOPE"}, message: "code is a string"},
		{name: "error without its category", fault: "error-category", online: true, want: []string{"PROBE_ERROR_ENVELOPE"}, message: "details.category is absent"},
		{name: "error without structure", fault: "error-text-only", online: true, want: []string{"PROBE_ERROR_ENVELOPE"}, message: "text holds no JSON object"},
		{name: "error succeeds", fault: "error-succeeds", online: true, want: []string{"PROBE_ERROR_CALL"}, message: "succeeded"},
		{name: "malformed frame answered with another code", fault: "malformed-wrong-code", want: []string{"PROBE_MALFORMED_FRAME"}, message: "answered JSON-RPC error -32600 (Invalid Request); a line that is not JSON is parse error -32700"},
		{name: "malformed frame ends the server", fault: "malformed-exits", want: []string{"MCP_SERVER_EXITED", "PROBE_MALFORMED_FRAME"}, message: "did not answer the next request"},
		{name: "unknown method answered", fault: "unknown-method-result", want: []string{"PROBE_UNKNOWN_METHOD"}, message: `"code2skill/unknown-method": it answered with a result ({})`},
		{name: "unknown method another error", fault: "unknown-method-code", want: []string{"PROBE_UNKNOWN_METHOD"}, message: "it answered JSON-RPC error -32603"},
		{name: "crash", fault: "crash", online: true, want: []string{"MCP_SERVER_EXITED"}, message: "exited with code 7 before answering tools/call"},
		// Only the call that hangs has a short limit.
		{name: "hang", fault: "hang", online: true, timeout: testtier.Scaled(2 * time.Second), want: []string{"MCP_REQUEST_TIMEOUT"}},
		{name: "stdout noise", fault: "stdout-noise", online: true, want: []string{"MCP_STDOUT_NOT_JSONRPC"}, message: `"calling list_sample_notes"`},
	} {
		if slices.Contains([]string{"missing tool", "dry-run dispatches", "hang"}, tc.name) != fast {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := offlineCases(t)
			want := append([]string{"PROBE_OFFLINE"}, tc.want...)
			if tc.online {
				opts, want = fullCases(t), tc.want
			}
			slices.Sort(want)
			opts.RequestTimeout = tc.timeout
			if tc.fault != "" {
				opts.Env = []string{"SAMPLE_FAULT=" + tc.fault}
			}
			r := run(t, strictPackage(t, tc.overrides), opts)
			if diff := cmp.Diff(want, r.Diagnostics.RuleIDs()); diff != "" {
				t.Fatalf("rules (-want +got)\n%s\nfindings: %v", diff, r.Diagnostics.Sorted())
			}
			if tc.message != "" && !slices.ContainsFunc(r.Diagnostics.Sorted(), func(d diag.Diagnostic) bool {
				return strings.Contains(d.Message, tc.message)
			}) {
				t.Errorf("no finding says %q:\n%v", tc.message, r.Diagnostics.Sorted())
			}
		})
	}
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "strict", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestProbeOtherAcceptedAnswers: a server that answers a line that is not
// JSON with JSON-RPC's parse error, and an unknown tool with a protocol
// error rather than the SDK's isError result, passes (one server, planted
// with both), and the summary says how it answered the line.
func TestProbeOtherAcceptedAnswers(t *testing.T) {
	t.Parallel()
	opts := offlineCases(t)
	opts.Env = []string{"SAMPLE_FAULT=malformed-parse-error,unknown-tool-protocol-error"}
	r := run(t, strictPackage(t, nil), opts)
	if r.Diagnostics.HasErrors() || r.MalformedFrameAnswer != AnswerParseError || r.Checks.MalformedFrame.Passed != 1 {
		t.Errorf("answer %q, %+v, findings %v", r.MalformedFrameAnswer, r.Checks.MalformedFrame, r.Diagnostics.Sorted())
	}
	if !strings.Contains(r.Message(), "a line that is not JSON answered with parse error -32700") {
		t.Errorf("the summary does not say how: %s", r.Message())
	}
	if r.UnknownToolAnswer != AnswerProtocolError || r.Checks.UnknownTool.Passed != 1 {
		t.Errorf("unknown tool answer %q, %+v", r.UnknownToolAnswer, r.Checks.UnknownTool)
	}
}

func TestProbeStrictExpectations(t *testing.T) {
	t.Parallel()
	bundleWithoutCount := `{"schemaVersion": "v1", "capabilities": [
		{"toolName": "list_sample_notes"}, {"toolName": "create_sample_note"}]}`
	for _, tc := range []struct {
		name      string
		overrides map[string]string
		opts      func(t *testing.T) Options
		want      []string
		runs      bool // the server is still started
	}{
		{name: "no schema contract", overrides: map[string]string{contractFile: ""}, want: []string{"PROBE_EXPECTATIONS"}},
		{name: "malformed profile", overrides: map[string]string{profileFile: `{"dryRunEnvironmentVariable": "x"}`}, want: []string{"PROBE_EXPECTATIONS"}},
		{name: "broken JSON", overrides: map[string]string{bundleFile: `{"capabilities": [`}, want: []string{"JSON_SYNTAX"}},
		{name: "tool sets differ", overrides: map[string]string{bundleFile: bundleWithoutCount}, want: []string{"PROBE_CONTRACT_TOOLS"}},
		{name: "coverage", opts: func(t *testing.T) Options {
			o := fullCases(t)
			o.ErrorCalls, o.DryRunCalls = nil, nil
			return o
		}, want: []string{"PROBE_COVERAGE"}, runs: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := offlineCases(t)
			if tc.opts != nil {
				opts = tc.opts(t)
			}
			r := run(t, strictPackage(t, tc.overrides), opts)
			got := slices.DeleteFunc(r.Diagnostics.RuleIDs(), func(id string) bool { return id == "PROBE_OFFLINE" })
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rules (-want +got)\n%s\n%v", diff, r.Diagnostics.Sorted())
			}
			if ran := r.NodeProcesses > 0; ran != tc.runs {
				t.Errorf("server started: %v, want %v", ran, tc.runs)
			}
		})
	}
}

func TestProbeRefusesEscapingSymlink(t *testing.T) {
	t.Parallel()
	pkg := strictPackage(t, nil)
	if err := os.Symlink(t.TempDir(), filepath.Join(pkg, "outside")); err != nil {
		t.Fatal(err)
	}
	r := run(t, pkg, offlineCases(t))
	if !r.Diagnostics.Has(pkgdir.RuleSymlinkEscape) || r.NodeProcesses != 0 || r.DetachedCopy {
		t.Errorf("findings %v, %d processes, detached %v", r.Diagnostics.Sorted(), r.NodeProcesses, r.DetachedCopy)
	}
}

func TestProbeWarnsAboutReachableModules(t *testing.T) {
	t.Parallel()
	r := offlineStrictProbe(t)
	if diff := cmp.Diff([]string{"PROBE_DETACHED_MODULES_REACHABLE", "PROBE_OFFLINE"}, r.Diagnostics.RuleIDs()); diff != "" {
		t.Errorf("rules (-want +got)\n%s", diff)
	}
}

func TestProbeUsageErrors(t *testing.T) {
	t.Parallel()
	pkg := strictPackage(t, nil)
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"malformed JSON", Options{Calls: []string{casesFile(t, "bad.json", `{"name": `)}}, "bad.json:1:10:"},
		{"not an object", Options{Calls: []string{casesFile(t, "num.json", `[{"name": "list_sample_notes", "arguments": {}}, 3]`)}}, "num.json[1]: case must be an object"},
		{"no arguments", Options{Calls: []string{casesFile(t, "noargs.json", `{"name": "list_sample_notes"}`)}}, `noargs.json[0]: "arguments" must be an object`},
		{"unknown key", Options{Calls: []string{casesFile(t, "key.json", `{"name": "list_sample_notes", "args": {}, "arguments": {}}`)}}, `unknown key "args"`},
		{"empty array", Options{Calls: []string{casesFile(t, "empty.json", `[]`)}}, "holds no case"},
		{"missing file", Options{Calls: []string{filepath.Join(t.TempDir(), "none.json")}}, "no such file"},
		{"unknown tool", Options{ErrorCalls: []string{casesFile(t, "tool.json", `{"name": "drop_sample_notes", "arguments": {}}`)}},
			`tool.json[0]: the contract has no tool "drop_sample_notes"`},
		{"invalid arguments", Options{ErrorCalls: []string{casesFile(t, "args.json", `{"name": "list_sample_notes", "arguments": {"limit": 0}}`)}},
			`arguments do not satisfy "list_sample_notes"'s inputSchema: /limit: 0 is not at least 1`},
		{"integer as float", Options{DryRunCalls: []string{casesFile(t, "float.json", `{"name": "list_sample_notes", "arguments": {"limit": 2.0}}`)}},
			`/limit: is a number, want "integer"`},
		{"dry-run variable passed", Options{Offline: true, Env: []string{"SAMPLE_NOTES_DRY_RUN=1"}}, "SAMPLE_NOTES_DRY_RUN is the package's dry-run variable"},
		{"offline with calls", Options{Offline: true, Calls: []string{casesFile(t, "ok.json", `{"name": "list_sample_notes", "arguments": {}}`)}}, "--offline makes no business calls"},
		{"expect on a dry-run case", Options{DryRunCalls: []string{casesFile(t, "dx.json", `{"name": "create_sample_note", "arguments": {"title": "x"}, "expect": {"httpStatus": 200}}`)}}, `a dry-run case sends nothing, so it expects no "httpStatus"`},
		{"expect not a status", Options{Calls: []string{casesFile(t, "ex.json", `{"name": "list_sample_notes", "arguments": {}, "expect": {"httpStatus": 99}}`)}}, `"httpStatus" must be an HTTP status (100-599)`},
		{"expect an empty list", Options{Calls: []string{casesFile(t, "el.json", `{"name": "list_sample_notes", "arguments": {}, "expect": {"httpStatus": []}}`)}}, `must not be an empty list`},
		{"equals not an object", Options{Calls: []string{casesFile(t, "eq.json", `{"name": "list_sample_notes", "arguments": {}, "expect": {"equals": ["/x"]}}`)}}, `"equals" must be a non-empty object of JSON Pointers`},
		{"contains not a string", Options{Calls: []string{casesFile(t, "co.json", `{"name": "list_sample_notes", "arguments": {}, "expect": {"contains": {"/x": 3}}}`)}}, `"contains": "/x" must be given a string`},
		{"not a pointer", Options{Calls: []string{casesFile(t, "np.json", `{"name": "list_sample_notes", "arguments": {}, "expect": {"equals": {"x": 1}}}`)}}, `"x" is not a JSON Pointer`},
		{"expect another key", Options{Calls: []string{casesFile(t, "ek.json", `{"name": "list_sample_notes", "arguments": {}, "expect": {"status": 200}}`)}}, `unknown key "status" in "expect"`},
		{"a FIFO case file", Options{Calls: []string{fifo(t)}}, "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), pkg, tc.opts)
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(ue.Msg, tc.want) {
				t.Errorf("err = %v, want a usage error holding %q", err, tc.want)
			}
		})
	}
}

// coreModules hard-links into pkg/node_modules the packages a core server
// needs (the MCP SDK, zod and their dependencies) from the repository's
// pinned install: a core package brings its own node_modules.
func coreModules(t *testing.T, pkg string) {
	t.Helper()
	root := testnode.Modules(t)
	var dirs []string
	var visit func(name, from string)
	visit = func(name, from string) {
		// Node's resolution: the nearest node_modules/<name> above from,
		// skipping directories that are themselves node_modules.
		dir := ""
		for d := from; ; d = filepath.Dir(d) {
			if filepath.Base(d) == "node_modules" {
				continue
			}
			if _, err := os.Stat(filepath.Join(d, "node_modules", name, "package.json")); err == nil {
				dir = filepath.Join(d, "node_modules", name)
				break
			}
			if d == filepath.Dir(root) || d == filepath.Dir(d) {
				t.Fatalf("cannot resolve %s from %s", name, from)
			}
		}
		if slices.Contains(dirs, dir) {
			return
		}
		dirs = append(dirs, dir)
		var pj struct {
			Dependencies map[string]string `json:"dependencies"`
		}
		b, _ := os.ReadFile(filepath.Join(dir, "package.json"))
		json.Unmarshal(b, &pj)
		for dep := range pj.Dependencies {
			visit(dep, dir)
		}
	}
	visit("@modelcontextprotocol/sdk", filepath.Dir(root))
	visit("zod", filepath.Dir(root))
	slices.Sort(dirs)
	var linked []string
	for _, dir := range dirs {
		if slices.ContainsFunc(linked, func(l string) bool { return strings.HasPrefix(dir, l+string(filepath.Separator)) }) {
			continue // nested inside a package already linked
		}
		rel, _ := filepath.Rel(root, dir)
		if err := testnode.Link(dir, filepath.Join(pkg, "node_modules", rel)); err != nil {
			t.Fatal(err)
		}
		linked = append(linked, dir)
	}
}

func corePackage(t *testing.T) string {
	t.Helper()
	testnode.Node(t)
	pkg := filepath.Join(t.TempDir(), "sample-shelf")
	if err := os.CopyFS(pkg, os.DirFS(filepath.Join("testdata", "core"))); err != nil {
		t.Fatal(err)
	}
	coreModules(t, pkg)
	return pkg
}

func TestProbeCorePackage(t *testing.T) {
	t.Parallel()
	pkg := corePackage(t)
	opts := Options{
		Calls: []string{casesFile(t, "calls.json", `[
			{"name": "list_sample_shelves", "arguments": {"room": "north"}},
			{"name": "list_sample_shelves", "arguments": {"room": "missing"}, "expect": {"httpStatus": [404, 410]}}
		]`)},
		ErrorCalls: []string{casesFile(t, "errors.json", `[
			{"name": "add_sample_shelf", "arguments": {"label": "unreachable"}},
			{"name": "add_sample_shelf", "arguments": {"label": "taken"}},
			{"name": "add_sample_shelf", "arguments": {"label": "taken"}, "expect": {"httpStatus": 409}}
		]`)},
	}
	r := run(t, pkg, opts)
	if r.Diagnostics.Len() != 0 {
		t.Fatalf("findings on a good core package:\n%v", r.Diagnostics.Sorted())
	}
	want := []*ToolStatus{
		{Name: "list_sample_shelves", Discovery: Passed, Success: Passed, Error: NotRun, DryRun: NotRun},
		{Name: "add_sample_shelf", Discovery: Passed, Success: NotRun, Error: Passed, DryRun: Passed},
	}
	if diff := cmp.Diff(want, r.Tools); diff != "" {
		t.Errorf("table (-want +got)\n%s", diff)
	}
	// The write's dry-run case is generated: the protocol session makes it.
	calls := []*CallStatus{
		{Case: "generated case", Tool: "add_sample_shelf", Kind: "dry-run-call", Verdict: Passed},
		{Case: opts.Calls[0] + "[0]", Tool: "list_sample_shelves", Kind: "call", HTTPStatus: 200, Verdict: Passed},
		{Case: opts.Calls[0] + "[1]", Tool: "list_sample_shelves", Kind: "call", HTTPStatus: 404, Verdict: Passed},
		{Case: opts.ErrorCalls[0] + "[0]", Tool: "add_sample_shelf", Kind: "error-call", Verdict: Passed},
		{Case: opts.ErrorCalls[0] + "[1]", Tool: "add_sample_shelf", Kind: "error-call", HTTPStatus: 409, Verdict: Passed},
		{Case: opts.ErrorCalls[0] + "[2]", Tool: "add_sample_shelf", Kind: "error-call", HTTPStatus: 409, Verdict: Passed},
	}
	if diff := cmp.Diff(calls, r.Calls); diff != "" {
		t.Errorf("calls (-want +got)\n%s", diff)
	}
	if r.NodeProcesses != 2 || r.Profile != pkgdir.ProfileCore || !slices.Equal(r.GeneratedDryRunCases, []string{"add_sample_shelf"}) {
		t.Errorf("%d node processes, profile %q, generated %v", r.NodeProcesses, r.Profile, r.GeneratedDryRunCases)
	}
	if s := r.Summary(); s.RuntimeVerificationRequired || !strings.HasPrefix(s.Message, "passed: 2 tool(s)") || s.Message != r.Message() {
		t.Errorf("summary: runtime verification required %v, message %q", s.RuntimeVerificationRequired, s.Message)
	}

	// The same package with closed input schemas breaks a core rule.
	opts.Env = []string{"CORE_FAULT=closed-input"}
	r = run(t, pkg, opts)
	if diff := cmp.Diff([]string{"MCP_TOOL_INPUT_SCHEMA_CLOSED"}, r.Diagnostics.RuleIDs()); diff != "" {
		t.Errorf("rules (-want +got)\n%s", diff)
	}
	if r.Tools[0].Discovery != Failed {
		t.Errorf("discovery of a closed tool = %s", r.Tools[0].Discovery)
	}
}

// TestProbeCoreVerdicts checks that a call passes only on what proves it:
// a 2xx status or the expected one for a --call, an error for an
// --error-call; and that the verdict says what was not proven.
//
// The fast tier runs a 401, no call and --offline; the slow tier the rest.
func TestProbeCoreVerdicts(t *testing.T) { probeCoreVerdicts(t, true) }

func TestSlowProbeCoreVerdicts(t *testing.T) {
	testtier.Slow(t)
	probeCoreVerdicts(t, false)
}

func probeCoreVerdicts(t *testing.T, fast bool) {
	t.Parallel()
	pkg := corePackage(t)
	for _, tc := range []struct {
		name     string
		opts     Options
		rules    []string
		contains string
		verdict  string
	}{
		{"401", Options{Calls: []string{casesFile(t, "c.json", `{"name": "list_sample_shelves", "arguments": {"room": "locked"}}`)},
			Env: []string{"CODE2SKILL_SAMPLE_SHELF_API_TOKEN=x"}},
			[]string{"PROBE_AUTH_FAILED"}, "answered HTTP 401: authentication failed: check the credential variables (the server was given CODE2SKILL_SAMPLE_SHELF_API_TOKEN)", "failed"},
		{"403", Options{Calls: []string{casesFile(t, "c.json", `{"name": "list_sample_shelves", "arguments": {"room": "forbidden"}}`)}},
			[]string{"PROBE_AUTH_FAILED"}, "no credential variable was given (--env or --env-file)", "failed"},
		{"404 without expect", Options{Calls: []string{casesFile(t, "c.json", `{"name": "list_sample_shelves", "arguments": {"room": "missing"}}`)}},
			[]string{"PROBE_CALL_HTTP_STATUS"}, `answered HTTP 404; a --call passes on a 2xx status`, "failed"},
		{"200 where 404 is expected", Options{Calls: []string{casesFile(t, "c.json", `{"name": "list_sample_shelves", "arguments": {}, "expect": {"httpStatus": 404}}`)}},
			[]string{"PROBE_CALL_HTTP_STATUS"}, "answered HTTP 200; the case expects 404", "failed"},
		{"error call that succeeds", Options{ErrorCalls: []string{casesFile(t, "e.json", `{"name": "add_sample_shelf", "arguments": {"label": "new"}}`)}},
			[]string{"PROBE_ERROR_CALL"}, "answered HTTP 201; an --error-call case must fail", "failed"},
		{"network denied", Options{Calls: []string{casesFile(t, "c.json", `{"name": "list_sample_shelves", "arguments": {"room": "offline"}}`)}},
			[]string{"PROBE_CALL_FAILED"}, "add --allow-network", "failed"},
		{"network denied for an error call", Options{ErrorCalls: []string{casesFile(t, "e.json", `{"name": "list_sample_shelves", "arguments": {"room": "offline"}}`)}},
			[]string{"PROBE_ERROR_CALL"}, "failed only because the sandbox denies the network", "failed"},
		{"no call", Options{}, nil, "", "protocol checks passed; no business call was made"},
		{"error calls only", Options{ErrorCalls: []string{casesFile(t, "e.json", `{"name": "add_sample_shelf", "arguments": {"label": "unreachable"}}`)}},
			nil, "", "protocol checks and error calls passed; no successful business call was made"},
		{"offline", Options{Offline: true}, []string{"PROBE_OFFLINE"}, "", "protocol checks passed; business calls not run (--offline)"},
	} {
		if slices.Contains([]string{"401", "no call", "offline"}, tc.name) != fast {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, pkg, tc.opts)
			if diff := cmp.Diff(tc.rules, r.Diagnostics.RuleIDs(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("rules (-want +got)\n%s", diff)
			}
			var messages []string
			for _, d := range r.Diagnostics.Sorted() {
				messages = append(messages, d.Message)
			}
			if !strings.Contains(strings.Join(messages, "\n"), tc.contains) {
				t.Errorf("findings %q do not say %q", messages, tc.contains)
			}
			s := r.Summary()
			if !strings.HasPrefix(s.Message, tc.verdict+": ") && !strings.HasPrefix(s.Message, tc.verdict+"; ") || s.Message != r.Message() {
				t.Errorf("message %q, want the verdict %q", s.Message, tc.verdict)
			}
			if !s.RuntimeVerificationRequired {
				t.Error("runtime verification is not required, yet no --call passed")
			}
		})
	}
}

func TestProbeCoreDryRun(t *testing.T) {
	t.Parallel()
	pkg := corePackage(t)
	opts := Options{
		Calls:       []string{casesFile(t, "c.json", `{"name": "list_sample_shelves", "arguments": {}}`)},
		DryRunCalls: []string{casesFile(t, "d.json", `{"name": "add_sample_shelf", "arguments": {"label": "new"}}`)},
	}
	r := run(t, pkg, opts)
	if r.Diagnostics.Len() != 0 || r.Checks.DryRun.Passed != 1 || r.Tools[1].DryRun != Passed {
		t.Fatalf("dry-run on a core package that honours it: %v, %+v", r.Diagnostics.Sorted(), r.Checks)
	}
	// The dry-run call runs in a session of its own, with the dry-run
	// variable and no network; the business call in another.
	if r.NodeProcesses != 2 {
		t.Errorf("%d node processes, want 2", r.NodeProcesses)
	}

	opts.Env = []string{"CORE_FAULT=ignore-dry-run"}
	r = run(t, pkg, opts)
	if diff := cmp.Diff([]string{"PROBE_DRY_RUN"}, r.Diagnostics.RuleIDs()); diff != "" {
		t.Errorf("a write ignoring dry-run: rules (-want +got)\n%s", diff)
	}
	if d := r.Diagnostics.Sorted()[0]; !strings.Contains(d.Message, "it answered HTTP 201: the call was sent") {
		t.Errorf("finding %v", d)
	}
}

func TestProbeCoreUsageErrors(t *testing.T) {
	t.Parallel()
	pkg := corePackage(t)
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"unknown tool", Options{Calls: []string{casesFile(t, "u.json", `[{"name": "list_sample_shelves", "arguments": {}}, {"name": "drop_sample_shelf", "arguments": {}}]`)}},
			`u.json[1]: the server lists no tool "drop_sample_shelf" (it lists "list_sample_shelves", "add_sample_shelf")`},
		{"dry-run variable passed", Options{Env: []string{"CODE2SKILL_DRY_RUN=1"}}, "CODE2SKILL_DRY_RUN is the package's dry-run variable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodeSlots <- struct{}{}
			defer func() { <-nodeSlots }()
			_, err := Run(context.Background(), pkg, Options{TempDir: t.TempDir(), RequestTimeout: testtier.Budget(t), Calls: tc.opts.Calls, Env: tc.opts.Env})
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(ue.Msg, tc.want) {
				t.Errorf("err = %v, want a usage error holding %q", err, tc.want)
			}
		})
	}
}

// fifo returns the path of a named pipe: reading it would block forever.
func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cases.json")
	if err := mkfifo(p); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	return p
}

// A success without a body: a Tool whose contract lets its data be null
// (a backend answering 204, emptyBodyStatusCodes) passes its --call with
// {status: 204, data: null}; against a contract whose data is an object,
// the same result breaks the output schema (the server's SDK refuses it,
// or the probe does).
func TestProbeStrictEmptyBody(t *testing.T) {
	t.Parallel()
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "strict", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	const countStart = "export async function countSampleNotes(input) {\n"
	core := read("function-core/index.mjs")
	if !strings.Contains(core, countStart) {
		t.Fatal("the sample's countSampleNotes is not where the test expects it")
	}
	core = strings.Replace(core, countStart, countStart+"  if (input.folder === undefined) {\n    return { status: 204, data: null };\n  }\n", 1)
	var contract map[string]any
	if err := json.Unmarshal([]byte(read("mcp-tool/schema-contract.json")), &contract); err != nil {
		t.Fatal(err)
	}
	for _, c := range contract["capabilities"].([]any) {
		c := c.(map[string]any)
		if c["toolName"] == "count_sample_notes" {
			props := c["outputSchema"].(map[string]any)["properties"].(map[string]any)
			props["status"].(map[string]any)["enum"] = []any{200, 204}
			props["data"].(map[string]any)["type"] = []any{"object", "null"}
		}
	}
	nullable, err := json.MarshalIndent(contract, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	calls := Options{Calls: []string{casesFile(t, "calls.json", `{"name": "count_sample_notes", "arguments": {}}`)}}
	r := run(t, strictPackage(t, map[string]string{"function-core/index.mjs": core, "mcp-tool/schema-contract.json": string(nullable)}), calls)
	if slices.Contains(r.Diagnostics.RuleIDs(), RuleResultSchema.ID) || slices.Contains(r.Diagnostics.RuleIDs(), RuleCallFailed.ID) {
		t.Errorf("the bodiless success fails: %v", r.Diagnostics.Sorted())
	}
	if r.Checks.Success != (Count{Passed: 1}) {
		t.Errorf("success checks %+v, want one passed", r.Checks.Success)
	}
	r = run(t, strictPackage(t, map[string]string{"function-core/index.mjs": core}), calls)
	if ids := r.Diagnostics.RuleIDs(); !slices.Contains(ids, RuleResultSchema.ID) && !slices.Contains(ids, RuleCallFailed.ID) || r.Checks.Success.Passed != 0 {
		t.Errorf("null data against an object schema: %v", ids)
	}
}
