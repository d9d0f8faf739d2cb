package livecall

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/examples/equipment-lending/app/server"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
	"github.com/code2skill/code2skill/internal/toolresult"
)

func object(t testing.TB, s string) *canonjson.Object {
	t.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*canonjson.Object)
}

type toolResult struct {
	IsError           bool `json:"isError"`
	StructuredContent struct {
		Status int            `json:"status"`
		Data   map[string]any `json:"data"`
		Code   string         `json:"code"`
	} `json:"structuredContent"`
}

func decodeResult(t *testing.T, o *Outcome) toolResult {
	t.Helper()
	if o.Result == nil {
		t.Fatalf("%s: no result: %s", o.Tool, o.ProtocolError)
	}
	var r toolResult
	if err := json.Unmarshal(o.Result, &r); err != nil {
		t.Fatalf("%s: %v", o.Tool, err)
	}
	return r
}

const token = "token-live"

// desk serves the strict sample's desk for one test and returns it with
// the host runtime's environment that reaches it.
func desk(t *testing.T) (*server.Server, []string) {
	t.Helper()
	d := server.New(server.Config{Members: map[string]string{token: "member-live"}})
	ts := httptest.NewServer(d)
	t.Cleanup(ts.Close)
	return d, []string{examples.StrictSampleBaseURLVariable + "=" + ts.URL, examples.StrictSampleTokenVariable + "=" + token}
}

// accept answers every elicitation as a person who confirms.
func accept(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	var schema struct {
		Properties map[string]any `json:"properties"`
	}
	b, _ := json.Marshal(req.Params.RequestedSchema)
	json.Unmarshal(b, &schema)
	content := map[string]any{}
	for k := range schema.Properties {
		content[k] = true
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// sampleCalls are the strict sample's four Tools, each write passing on
// what the call before it returned.
func sampleCalls(t *testing.T) []Call {
	return []Call{
		{CapabilityID: "list-lendable-equipment", Tool: "list_lendable_equipment", Arguments: object(t, `{"category": "camping"}`)},
		{CapabilityID: "quote-equipment-loan", Tool: "quote_equipment_loan", Arguments: object(t, `{"itemId": "eq-tent-04", "terms": {"days": 2}}`)},
		{CapabilityID: "create-equipment-loan", Tool: "create_equipment_loan",
			Arguments: object(t, `{"quote": {"$result": {"capabilityId": "quote-equipment-loan", "path": ["quote"]}}, "terms": {"days": 2}}`)},
		{CapabilityID: "return-equipment-loan", Tool: "return_equipment_loan",
			Arguments: object(t, `{"loanId": {"$result": {"capabilityId": "create-equipment-loan", "path": ["loanId"]}}}`)},
	}
}

// TestLiveCallsThroughTheHostRuntime makes every call of the strict sample
// through its own host runtime, in one node process: the reads reach the
// desk, the loan redeems the quote the session was issued, and the return,
// confirmed through elicitation, ends that loan.
func TestLiveCallsThroughTheHostRuntime(t *testing.T) {
	t.Parallel()
	testnode.Node(t)
	pkg := reftest.StrictSamplePackage(t)
	d, env := desk(t)
	res, err := Run(context.Background(), pkg, sampleCalls(t), Options{Env: env, RequestTimeout: testtier.Budget(t), Elicitation: accept})
	if err != nil {
		t.Fatal(err)
	}
	if res.NodeProcesses != 1 {
		t.Errorf("%d node processes, want 1", res.NodeProcesses)
	}
	for _, o := range res.Outcomes {
		if r := decodeResult(t, o); r.IsError {
			t.Errorf("%s = %s", o.Tool, o.Result)
		}
	}
	if got := res.Outcomes[3].Arguments.At("loanId"); got != canonjson.String("loan-0001") {
		t.Errorf("the return was sent for %v, want the loan the session created", got)
	}
	if loans := d.Loans(); len(loans) != 1 || loans[0].Status != server.LoanReturned {
		t.Errorf("the desk holds %+v", loans)
	}
}

// TestNoElicitationNoReturn: a client that declares no elicitation gets
// the return refused before anything reaches the desk.
func TestNoElicitationNoReturn(t *testing.T) {
	t.Parallel()
	testnode.Node(t)
	pkg := reftest.StrictSamplePackage(t)
	d, env := desk(t)
	res, err := Run(context.Background(), pkg, sampleCalls(t), Options{Env: env, RequestTimeout: testtier.Budget(t)})
	if err != nil {
		t.Fatal(err)
	}
	if code := toolresult.ErrorCodeOf(res.Outcomes[3].Result); code != "HOST_CONFIRMATION_UNAVAILABLE" {
		t.Errorf("return_equipment_loan = %s", res.Outcomes[3].Result)
	}
	if loans := d.Loans(); len(loans) != 1 || loans[0].Status != server.LoanActive {
		t.Errorf("the desk holds %+v", loans)
	}
}

// TestNoHostRuntimeNoCalls: a package without the host runtime is not run.
func TestNoHostRuntimeNoCalls(t *testing.T) {
	t.Parallel()
	pkg := reftest.StrictSamplePackage(t)
	if err := os.Remove(filepath.Join(pkg, hostruntime.RuntimeFile)); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), pkg, sampleCalls(t)[:1], Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.NodeProcesses != 0 || !strings.Contains(res.Outcomes[0].ProtocolError, "no host runtime") {
		t.Errorf("%d node processes, outcome %+v", res.NodeProcesses, res.Outcomes[0])
	}
}

// TestResolve replaces references with the results they name, and says why
// one cannot be resolved.
func TestResolve(t *testing.T) {
	rs := Results{}
	rs.Record("a", []byte(`{"isError": false, "structuredContent": {"status": 200, "data": {"grant": {"id": "g-1"}, "list": ["x"]}}, "content": []}`))
	rs.Record("b", []byte(`{"isError": true, "content": [{"type": "text", "text": "{\"code\":\"NO\"}"}]}`))
	args := object(t, `{"grant": {"$result": {"capabilityId": "a", "path": ["grant"]}}, "items": [{"$result": {"capabilityId": "a", "path": ["grant", "id"]}}], "kept": 1}`)
	got, err := rs.Resolve(args)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"grant":{"id":"g-1"},"items":["g-1"],"kept":1}`; string(canonjson.DigestForm(got)) != want {
		t.Errorf("Resolve = %s, want %s", canonjson.DigestForm(got), want)
	}
	if _, ok := args.At("grant").(*canonjson.Object); !ok || args.At("grant").(*canonjson.Object).Has("id") {
		t.Error("Resolve changed its argument")
	}
	refs, err := References(args)
	if err != nil || len(refs) != 2 || refs[1].At != "/items/0" || refs[1].CapabilityID != "a" {
		t.Errorf("References = %+v, %v", refs, err)
	}
	for _, bad := range []string{
		`{"x": {"$result": {"capabilityId": "b", "path": ["code"]}}}`,
		`{"x": {"$result": {"capabilityId": "a", "path": ["missing"]}}}`,
		`{"x": {"$result": {"capabilityId": "a", "path": "grant"}}}`,
		`{"x": {"$result": {"capabilityId": "a", "path": []}, "also": 1}}`,
		`{"x": {"$result": {"capabilityId": "a", "path": [], "other": 1}}}`,
	} {
		if _, err := rs.Resolve(object(t, bad)); err == nil {
			t.Errorf("Resolve(%s) gave no error", bad)
		}
	}
}

func TestDeclaredVariables(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("mcp-tool/index.mjs", `if (process.env.ITEMS_DRY_RUN === "1") {} const base = process.env.ITEMS_BASE_URL;`)
	write("function-core/index.mjs", `export async function f() { return process.env["ITEMS_REGION"]; }`)
	write("mcp-tool/runtime.mjs", `export const x = process.env.NODE_DEBUG;`)
	got, err := DeclaredVariables(dir, "ITEMS_DRY_RUN")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ITEMS_BASE_URL", "ITEMS_REGION"}; !slices.Equal(got, want) {
		t.Errorf("DeclaredVariables = %q, want %q (the dry-run variable and the bundled runtime's reads excluded)", got, want)
	}
}

// TestPointerReferenceThroughTheHostRuntime: the return ends the loan the
// session created, named by a JSON Pointer into the creating call's
// result, so a destructive check needs no identifier written by hand.
func TestPointerReferenceThroughTheHostRuntime(t *testing.T) {
	t.Parallel()
	testnode.Node(t)
	pkg := reftest.StrictSamplePackage(t)
	d, env := desk(t)
	calls := sampleCalls(t)
	calls[3].Arguments = object(t, `{"loanId": {"$result": {"capabilityId": "create-equipment-loan", "pointer": "/structuredContent/data/loanId"}}}`)
	res, err := Run(context.Background(), pkg, calls, Options{Env: env, RequestTimeout: testtier.Budget(t), Elicitation: accept})
	if err != nil {
		t.Fatal(err)
	}
	if r := decodeResult(t, res.Outcomes[3]); r.IsError {
		t.Fatalf("return_equipment_loan = %s", res.Outcomes[3].Result)
	}
	if got := res.Outcomes[3].Arguments.At("loanId"); got != canonjson.String("loan-0001") {
		t.Errorf("the return was sent for %v, want the loan the session created", got)
	}
	if loans := d.Loans(); len(loans) != 1 || loans[0].Status != server.LoanReturned {
		t.Errorf("the desk holds %+v", loans)
	}
}

// TestResolvePointer resolves a JSON Pointer into the whole result, array
// items included, and refuses one that is not a pointer or leads nowhere.
func TestResolvePointer(t *testing.T) {
	rs := Results{}
	rs.Record("a", []byte(`{"isError": false, "structuredContent": {"status": 201, "data": {"items": [{"id": "i-1"}], "a/b": 2}}, "content": []}`))
	got, err := rs.Resolve(object(t, `{"id": {"$result": {"capabilityId": "a", "pointer": "/structuredContent/data/items/0/id"}}, "n": {"$result": {"capabilityId": "a", "pointer": "/structuredContent/data/a~1b"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"i-1","n":2}`; string(canonjson.DigestForm(got)) != want {
		t.Errorf("Resolve = %s, want %s", canonjson.DigestForm(got), want)
	}
	for _, bad := range []string{
		`{"x": {"$result": {"capabilityId": "a", "pointer": "structuredContent"}}}`,
		`{"x": {"$result": {"capabilityId": "a", "pointer": "/structuredContent/~2"}}}`,
		`{"x": {"$result": {"capabilityId": "a", "pointer": "/structuredContent/data/items/1"}}}`,
		`{"x": {"$result": {"capabilityId": "a", "pointer": "/x", "path": []}}}`,
		`{"x": {"$result": {"capabilityId": "a", "pointer": 3}}}`,
	} {
		if _, err := rs.Resolve(object(t, bad)); err == nil {
			t.Errorf("Resolve(%s) gave no error", bad)
		}
	}
}

// TestBeginNamesTheFailedUpstream: a call passing on the result of a
// capability that has no successful call is not sent, and its outcome names
// that capability; with the result recorded, it is sent with the value.
func TestBeginNamesTheFailedUpstream(t *testing.T) {
	args, _ := canonjson.Decode([]byte(`{"quote": {"$result": {"capabilityId": "quote-voucher", "path": ["quote"]}}}`))
	c := &Call{CapabilityID: "redeem-voucher", Tool: "redeem_voucher", Arguments: args.(*canonjson.Object)}
	results := Results{}
	out, send := c.Begin(results)
	if send || out.Upstream != "quote-voucher" || out.ProtocolError == "" {
		t.Errorf("without the upstream result: send %v, %+v", send, out)
	}
	results.Record("quote-voucher", []byte(`{"isError": false, "structuredContent": {"data": {"quote": {"id": "q-1"}}}, "content": [{"type": "text", "text": "{\"data\":{\"quote\":{\"id\":\"q-1\"}}}"}]}`))
	out, send = c.Begin(results)
	if !send || out.Upstream != "" || out.ProtocolError != "" {
		t.Fatalf("with the upstream result: send %v, %+v", send, out)
	}
	if got := string(canonjson.DigestForm(out.Arguments)); got != `{"quote":{"id":"q-1"}}` {
		t.Errorf("arguments %s", got)
	}
}
