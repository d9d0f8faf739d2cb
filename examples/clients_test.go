package examples

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/code2skill/code2skill/examples/equipment-lending/app/server"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
	"github.com/code2skill/code2skill/internal/toolresult"
	"github.com/code2skill/code2skill/internal/tsclient"
)

// The cross-client matrix: each sample server (the core node sample, the
// strict sample through its host runtime, the go-stdio twin) is asked for
// each kind of result it can give (a success, its Tool errors of each
// category, host-runtime refusals, a dry run, an unknown outcome, an
// input-schema violation) by each client a host embeds (the TypeScript SDK
// Client at the pinned version and at one with its upstream output-schema
// fix, the MCP Inspector CLI, the Go SDK client). Every client must hand
// its caller the result, not an exception, and the result must carry what
// the kind promises: for an error, the structured error the model reads.

// mxCall is one tools/call of a kind; args gets the results of the calls
// made before it in the session.
type mxCall struct {
	tool string
	args func(before []*toolresult.Result) any
}

func fixed(tool string, args any) mxCall {
	return mxCall{tool, func([]*toolresult.Result) any { return args }}
}

// mxKind is one kind of result: the server's environment (on top of the
// sample's; "" leaves a variable out), calls made first in the same
// session, the call, and what its result must be.
type mxKind struct {
	name   string
	env    map[string]string
	before []mxCall
	call   mxCall
	// decline, when set, makes the session's client declare elicitation
	// and decline the form with this field.
	decline string
	isError bool
	// sdkText: the error is the SDK's own (an input its schema refuses in
	// a core server), a text without a structured error.
	sdkText bool
	code    string // the structured error's code; "" checks none
	dryRun  bool
}

// session says whether a kind needs a client that holds a session (calls
// before, or elicitation); the Inspector CLI makes one call per process.
func (k *mxKind) session() bool { return len(k.before) > 0 || k.decline != "" }

// mxSample is one sample server: how a host starts it and its kinds.
type mxSample struct {
	name    string
	dir     string
	command string
	args    []string
	env     map[string]string
	binds   []sandbox.Bind
	// strict errors are {code, message, details, retryable}; core ones
	// {error: {name, message, code?, cause?}}.
	strict bool
	kinds  []mxKind
}

func (s *mxSample) environment(k *mxKind) map[string]string {
	env := map[string]string{}
	for _, m := range []map[string]string{s.env, k.env} {
		for name, v := range m {
			env[name] = v
			if v == "" {
				delete(env, name)
			}
		}
	}
	return env
}

// judge says what is wrong with a kind's result, or "".
func (s *mxSample) judge(k *mxKind, r *toolresult.Result) string {
	if r.IsError != k.isError {
		return fmt.Sprintf("isError is %v, want %v: %s", r.IsError, k.isError, r.Text())
	}
	if k.dryRun {
		if o, ok := r.Structured.(*canonjson.Object); !ok || o.At("dryRun") != canonjson.Bool(true) {
			return "a dry run without structuredContent.dryRun true: " + r.Text()
		}
	}
	if !k.isError {
		return ""
	}
	if k.sdkText {
		if strings.TrimSpace(r.Text()) == "" {
			return "an error result without text"
		}
		return ""
	}
	e, _ := r.ReadError()
	if e == nil {
		return "an error result carrying no structured error: " + r.Text()
	}
	members := []string{"code", "message", "details", "retryable"}
	if !s.strict {
		e, _ = e.At("error").(*canonjson.Object)
		members = []string{"name", "message"}
	}
	for _, m := range members {
		if e == nil || e.At(m) == nil {
			return fmt.Sprintf("the structured error has no %s: %s", m, r.Text())
		}
	}
	if code, _ := e.At("code").(canonjson.String); k.code != "" && string(code) != k.code {
		return fmt.Sprintf("the error %s, want %s", code, k.code)
	}
	return ""
}

// mxClient is a client the matrix asks: run opens a session with the
// sample's server for kinds, which share the server's environment and what
// the client declares (sessionKey), makes each kind's calls in turn and
// returns, per kind, the last call's result or what the client did
// instead (an exception, a failure exit).
type mxClient struct {
	name string
	// oneCall: the client makes one call per process (no earlier calls,
	// no elicitation), so each kind gets a server of its own.
	oneCall bool
	run     func(t *testing.T, s *mxSample, kinds []*mxKind) []mxAnswer
}

// mxAnswer is what a client gave for a kind: the result, or why none.
type mxAnswer struct {
	r       *toolresult.Result
	refused string
}

// sessionKey is what a kind's session depends on: the server's
// environment and the form the client declines (elicitation). Kinds with
// the same key are asked in one session, one after the other.
func (s *mxSample) sessionKey(k *mxKind) string {
	return strings.Join(append(envList(s.environment(k)), "decline="+k.decline), "\n")
}

// envList is env as NAME=value entries, sorted.
func envList(env map[string]string) []string {
	var list []string
	for name, v := range env {
		list = append(list, name+"="+v)
	}
	slices.Sort(list)
	return list
}

// askInTurn makes the calls of each kind in one session with call, which
// returns a call's result or what the client did instead.
func askInTurn(kinds []*mxKind, call func(c mxCall, before []*toolresult.Result) (*toolresult.Result, string)) []mxAnswer {
	var answers []mxAnswer
	for _, k := range kinds {
		var before []*toolresult.Result
		var refused string
		for _, c := range append(slices.Clone(k.before), k.call) {
			var r *toolresult.Result
			if r, refused = call(c, before); refused != "" {
				break
			}
			before = append(before, r)
		}
		if refused != "" {
			answers = append(answers, mxAnswer{refused: refused})
			continue
		}
		answers = append(answers, mxAnswer{r: before[len(before)-1]})
	}
	return answers
}

// kindNames names kinds for a failure that concerns them all.
func kindNames(kinds []*mxKind) string {
	var names []string
	for _, k := range kinds {
		names = append(names, k.name)
	}
	return strings.Join(names, "; ")
}

// driverClient asks through a TypeScript SDK Client driver.
func driverClient(t *testing.T, d *tsclient.Driver) *mxClient {
	n := 0
	return &mxClient{name: d.Client().String(), run: func(t *testing.T, s *mxSample, kinds []*mxKind) []mxAnswer {
		n++
		ctx := context.Background()
		k := kinds[0]
		sess, err := d.Open(ctx, fmt.Sprint("s", n), tsclient.Server{Command: s.command, Args: s.args, Env: s.environment(k), Dir: s.dir,
			Elicitation: k.decline != "", ClientInfo: tsclient.Implementation{Name: "code2skill", Version: "test"}, Timeout: testtier.Budget(t)})
		if err != nil {
			t.Fatalf("%s (%s): %v", s.name, kindNames(kinds), err)
		}
		defer sess.Close(ctx)
		return askInTurn(kinds, func(c mxCall, before []*toolresult.Result) (*toolresult.Result, string) {
			got, err := sess.CallTool(ctx, c.tool, c.args(before), nil, []string{k.decline})
			if err != nil {
				t.Fatal(err)
			}
			if got.Thrown != nil {
				return nil, fmt.Sprintf("%s threw: %s", c.tool, got.Thrown.Message)
			}
			r, err := toolresult.Decode(got.Result)
			if err != nil {
				return nil, err.Error()
			}
			return r, ""
		})
	}}
}

// goClient asks through the official Go SDK client (mcpcheck's session).
func goClient() *mxClient {
	return &mxClient{name: "go-sdk client", run: func(t *testing.T, s *mxSample, kinds []*mxKind) []mxAnswer {
		ctx := context.Background()
		k := kinds[0]
		opts := mcpcheck.Options{Env: envList(s.environment(k)), Command: append([]string{s.command}, s.args...), Binds: s.binds,
			Network: sandbox.AllowNetwork, RequestTimeout: testtier.Budget(t)}
		if k.decline != "" {
			opts.Elicitation = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
		}
		sess, err := mcpcheck.Start(ctx, s.dir, opts)
		if err != nil {
			t.Fatalf("%s (%s): %v", s.name, kindNames(kinds), err)
		}
		defer sess.Close()
		return askInTurn(kinds, func(c mxCall, before []*toolresult.Result) (*toolresult.Result, string) {
			got, err := sess.CallTool(ctx, c.tool, c.args(before))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case got == nil:
				return nil, fmt.Sprintf("%s got no answer: %v", c.tool, sess.Diagnostics().Sorted())
			case got.Error != nil:
				return nil, fmt.Sprintf("%s got JSON-RPC error %d: %s", c.tool, got.Error.Code, got.Error.Message)
			}
			r, err := toolresult.Decode(got.Raw)
			if err != nil {
				return nil, err.Error()
			}
			return r, ""
		})
	}}
}

// inspectorClient asks through the MCP Inspector CLI under the tools
// node: one process per call, which exits 0 with a result, 5 with a Tool
// error, and otherwise when it could not give one.
func inspectorClient(t *testing.T) *mxClient {
	inspector := testnode.Bin(t, "mcp-inspector")
	if _, err := os.Stat(inspector); err != nil {
		t.Fatalf("the MCP Inspector CLI is not installed (%v); npm ci at the repository root installs @modelcontextprotocol/inspector@2.12.0", err)
	}
	toolNode := testnode.NodeAtLeast(t, "22.19.0", "the MCP Inspector 2.12.0")
	return &mxClient{name: "Inspector CLI 2.12.0", oneCall: true, run: func(t *testing.T, s *mxSample, kinds []*mxKind) []mxAnswer {
		var answers []mxAnswer
		for _, k := range kinds {
			argv := []string{toolNode, inspector, "--cli"}
			for _, e := range envList(s.environment(k)) {
				argv = append(argv, "-e", e)
			}
			argv = append(append(argv, s.command), s.args...)
			argv = append(argv, "--method", "tools/call", "--tool-name", k.call.tool)
			args, _ := json.Marshal(k.call.args(nil))
			var fields map[string]json.RawMessage
			json.Unmarshal(args, &fields)
			for name, v := range fields {
				argv = append(argv, "--tool-arg", name+"="+string(v))
			}
			res, err := sandbox.Run(context.Background(), argv, sandbox.Options{Dir: s.dir, Timeout: testtier.Budget(t), Network: sandbox.AllowNetwork,
				Binds: append(testnode.Binds(t, filepath.Dir(filepath.Dir(toolNode))), s.binds...)})
			if err != nil {
				t.Fatal(err)
			}
			r, derr := toolresult.Decode(res.Stdout)
			if (res.ExitCode != 0 && res.ExitCode != 5) || derr != nil {
				answers = append(answers, mxAnswer{refused: fmt.Sprintf("the Inspector exited %d: %s%s", res.ExitCode, res.Stdout, res.Stderr)})
				continue
			}
			answers = append(answers, mxAnswer{r: r})
		}
		return answers
	}}
}

// strictDesk serves the sample desk for the matrix: desk answers as the
// desk does; dropping is the same desk, except that a loan request's
// connection is closed unanswered, which leaves the loan's outcome
// unknown to the package. quote is a quote the desk issued outside any
// MCP session.
func strictDesk(t *testing.T, token string) (desk, dropping string, quote map[string]any) {
	t.Helper()
	d := server.New(server.Config{Members: map[string]string{token: "member-matrix"}})
	ts := httptest.NewServer(d)
	t.Cleanup(ts.Close)
	drop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/api/loans" {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		d.ServeHTTP(w, r)
	}))
	t.Cleanup(drop.Close)
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/loans/quotes", strings.NewReader(`{"itemId": "eq-drill-02", "terms": {"days": 2}}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var issued struct{ Quote map[string]any }
	if err := json.NewDecoder(resp.Body).Decode(&issued); err != nil || issued.Quote == nil {
		t.Fatalf("the desk issued no quote: %v", err)
	}
	return ts.URL, drop.URL, issued.Quote
}

// registration is the mcpServers entry of a package's MCP-SETUP.md: a host
// starts command with args (the documented package path replaced by dir),
// setting the variables it names.
func registration(t testing.TB, dir, placeholder string) (command string, args, names []string) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(dir, "MCP-SETUP.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(doc, -1) {
		var cfg struct {
			MCPServers map[string]struct {
				Command string
				Args    []string
				Env     map[string]string
			}
		}
		if json.Unmarshal(m[1], &cfg) != nil || len(cfg.MCPServers) != 1 {
			continue
		}
		for _, e := range cfg.MCPServers {
			for _, a := range e.Args {
				args = append(args, strings.Replace(a, placeholder, dir, 1))
			}
			for name := range e.Env {
				names = append(names, name)
			}
			slices.Sort(names)
			return e.Command, args, names
		}
	}
	t.Fatal("MCP-SETUP.md has no mcpServers registration")
	return
}

// strictMatrixSample is the strict sample through its host runtime,
// started from its MCP-SETUP.md registration against the desk, with every
// kind of result it gives.
func strictMatrixSample(t *testing.T) *mxSample {
	pkg, _ := strictSample(t)
	const token = "token-matrix"
	desk, dropping, quote := strictDesk(t, token)
	command, args, names := registration(t, pkg, "/absolute/path/to/"+StrictSampleName)
	values := map[string]string{StrictSampleBaseURLVariable: desk, StrictSampleTokenVariable: token}
	if want := []string{StrictSampleBaseURLVariable, StrictSampleTokenVariable}; !slices.Equal(names, want) {
		t.Fatalf("MCP-SETUP.md registers %v, the matrix knows %v", names, want)
	}
	terms := map[string]any{"days": 2, "note": "matrix"}
	quoted := func(before []*toolresult.Result) any {
		data, _ := before[0].Data()
		q, _ := canonjson.Resolve(data, "/quote")
		return map[string]any{"quote": json.RawMessage(canonjson.Encode(q)), "terms": terms}
	}
	return &mxSample{name: "strict (host runtime)", dir: pkg, command: command, args: args, env: values, binds: []sandbox.Bind{{Source: pkg}}, strict: true,
		kinds: []mxKind{
			{name: "success", call: fixed("list_lendable_equipment", map[string]any{"category": "power-tools"})},
			{name: "backend refuses the token", env: map[string]string{StrictSampleTokenVariable: "token-refused"},
				call: fixed("list_lendable_equipment", map[string]any{}), isError: true, code: "AUTHORIZATION_REJECTED"},
			{name: "backend finds no item", call: fixed("quote_equipment_loan", map[string]any{"itemId": "eq-none", "terms": terms}),
				isError: true, code: "BUSINESS_REJECTED"},
			{name: "credential variable unset", env: map[string]string{StrictSampleTokenVariable: ""},
				call: fixed("list_lendable_equipment", map[string]any{}), isError: true, code: "HOST_CREDENTIAL_MISSING"},
			{name: "confirmation unavailable", call: fixed("return_equipment_loan", map[string]any{"loanId": "loan-0001"}),
				isError: true, code: "HOST_CONFIRMATION_UNAVAILABLE"},
			{name: "confirmation declined", decline: "confirm", call: fixed("return_equipment_loan", map[string]any{"loanId": "loan-0001"}),
				isError: true, code: "HOST_CONFIRMATION_DECLINED"},
			{name: "protected value not issued in the session", call: fixed("create_equipment_loan", map[string]any{"quote": quote, "terms": terms}),
				isError: true, code: "PROTECTED_OPERATION_MISSING"},
			{name: "dry run of a write", env: map[string]string{"LENDING_DESK_DRY_RUN": "1"},
				call: fixed("create_equipment_loan", map[string]any{"quote": quote, "terms": terms}), dryRun: true},
			{name: "unknown outcome", env: map[string]string{StrictSampleBaseURLVariable: dropping},
				before: []mxCall{fixed("quote_equipment_loan", map[string]any{"itemId": "eq-drill-02", "terms": terms})},
				call:   mxCall{"create_equipment_loan", quoted}, isError: true, code: "UNKNOWN_DISPATCH_OUTCOME"},
			{name: "input-schema violation", call: fixed("list_lendable_equipment", map[string]any{"category": 5}),
				isError: true, code: "INVALID_INPUT"},
		}}
}

// coreBackend serves the seed library's two services for the matrix: the
// catalog answers, a reservation that does not exist is 404, and a new
// reservation's connection is closed unanswered.
func coreBackend(t *testing.T) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost:
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error": "no such reservation"}`)
		default:
			fmt.Fprint(w, `{"items": []}`)
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// coreKinds are the kinds of result the seed library (node or Go) gives.
func coreKinds() []mxKind {
	reserve := map[string]any{"selectedVariety": map[string]any{"varietyId": "var-0001", "lotCode": "lot-a"}, "packetCount": 2, "pickupDate": "2026-04-03"}
	catalog := "CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL"
	return []mxKind{
		{name: "success", call: fixed("search_seed_varieties", map[string]any{"query": "pea"})},
		{name: "backend answers 404", call: fixed("cancel_reservation", map[string]any{"reservationId": "missing"})},
		{name: "configuration missing", env: map[string]string{catalog: ""}, call: fixed("search_seed_varieties", map[string]any{}),
			isError: true, code: "MISSING_CONFIGURATION"},
		{name: "input missing", call: fixed("cancel_reservation", map[string]any{}), isError: true, code: "MISSING_INPUT"},
		{name: "backend unreachable", env: map[string]string{catalog: "https://catalog.seed-library.invalid/api/"},
			call: fixed("search_seed_varieties", map[string]any{}), isError: true},
		{name: "dry run of a write", env: map[string]string{"CODE2SKILL_DRY_RUN": "1"}, call: fixed("reserve_seed_packets", reserve)},
		{name: "unknown outcome", call: fixed("reserve_seed_packets", reserve), isError: true},
		{name: "input-schema violation", call: fixed("search_seed_varieties", map[string]any{"query": map[string]any{"not": "text"}}), isError: true, sdkText: true},
	}
}

// coreEnv is the seed library's environment against the matrix backend.
func coreEnv(backend string) map[string]string {
	return map[string]string{
		"CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL":      backend + "/catalog/",
		"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL": backend + "/reservations",
		"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN":    "member-token-from-the-host",
	}
}

// runMatrix asks every client for every kind of every sample, each
// (sample, client) a subtest. A client that holds sessions is asked the
// kinds of one session key in one session, in the kinds' order; the
// Inspector CLI, which makes one call per process, is asked each kind it
// can be on its own. Every failure names its kind.
func runMatrix(t *testing.T, samples []*mxSample, clients []*mxClient) {
	for _, s := range samples {
		for _, c := range clients {
			t.Run(s.name+"/"+c.name, func(t *testing.T) {
				var skipped, keys []string
				sessions := map[string][]*mxKind{}
				for i := range s.kinds {
					k := &s.kinds[i]
					if c.oneCall && k.session() {
						skipped = append(skipped, k.name)
						continue
					}
					key := s.sessionKey(k)
					if c.oneCall {
						key = k.name
					}
					if _, ok := sessions[key]; !ok {
						keys = append(keys, key)
					}
					sessions[key] = append(sessions[key], k)
				}
				for _, key := range keys {
					kinds := sessions[key]
					if len(kinds) > 1 {
						t.Logf("asked in one session: %s", kindNames(kinds))
					}
					answers := c.run(t, s, kinds)
					if len(answers) != len(kinds) {
						t.Fatalf("%d answers for the %d kinds %s", len(answers), len(kinds), kindNames(kinds))
					}
					for i, k := range kinds {
						a := answers[i]
						switch {
						case a.refused != "":
							t.Errorf("%s: no result: %s", k.name, a.refused)
						case s.judge(k, a.r) != "":
							t.Errorf("%s: %s", k.name, s.judge(k, a.r))
						}
					}
				}
				if len(skipped) > 0 {
					t.Logf("not asked of the %s, which makes one call per process without elicitation: %s", c.name, strings.Join(skipped, "; "))
				}
			})
		}
	}
}

// threeSamples starts what the three sample servers need (the backends,
// the Go twin's build) and returns how a host starts each, with the kinds
// of result each gives.
func threeSamples(t *testing.T) []*mxSample {
	t.Helper()
	nodeDir, goDir := twinDirs(t)
	backend := coreBackend(t)
	goServer := goTwinServer(t)
	return []*mxSample{
		{name: "core node", dir: nodeDir, command: "node", args: []string{filepath.Join(nodeDir, "mcp-tool", "index.mjs")},
			env: coreEnv(backend), binds: []sandbox.Bind{{Source: nodeDir}}, kinds: coreKinds()},
		strictMatrixSample(t),
		{name: "go-stdio", dir: goDir, command: goServer.Path, env: coreEnv(backend), binds: []sandbox.Bind{{Source: goDir}, goServer.Bind}, kinds: coreKinds()},
	}
}

// TestSlowEveryClientReadsEveryResult is the whole matrix: the three
// samples, the four clients, every kind of result.
func TestSlowEveryClientReadsEveryResult(t *testing.T) {
	testtier.Slow(t)
	samples := threeSamples(t)
	var binds []sandbox.Bind
	for _, s := range samples {
		binds = append(binds, s.binds...)
	}
	pinned := startDriver(t, "", binds)
	fixedClient := startDriver(t, filepath.Join(testnode.Root(), "internal", "tsclient", "testdata", "client-v2.mjs"),
		append(binds, sandbox.Bind{Source: filepath.Join(testnode.Root(), "internal", "tsclient")}))
	runMatrix(t, samples, []*mxClient{driverClient(t, pinned), driverClient(t, fixedClient), inspectorClient(t), goClient()})
}

// startDriver starts a TypeScript SDK Client driver (script "" for the
// bundled pinned client) that sees binds and the pinned npm install.
func startDriver(t *testing.T, script string, binds []sandbox.Bind) *tsclient.Driver {
	t.Helper()
	d, err := tsclient.Start(context.Background(), tsclient.Options{Dir: t.TempDir(), Script: script, Network: sandbox.AllowNetwork,
		Binds: append(testnode.Binds(t), binds...)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
