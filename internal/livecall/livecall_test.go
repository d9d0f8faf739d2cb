package livecall

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/testnode"
)

// itemsPackage lays out testdata/items with the reviewed assets and a
// self-contained MCP runtime, as a strict package ships.
func itemsPackage(t testing.TB) string {
	t.Helper()
	testnode.Node(t)
	dir := filepath.Join(t.TempDir(), "items")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "items"))); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"mcp-tool/runtime.mjs":          assets.MCPRuntime.Bytes(),
		"portable-error-normalizer.mjs": assets.ErrorNormalizer.Bytes(),
		"portable-workflow-guard.mjs":   assets.WorkflowGuard.Bytes(),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// backend is the fictional items service: it records every request it gets.
type backend struct {
	mu       sync.Mutex
	requests []request
}

type request struct {
	Method, Path, Query, Authorization string
	Body                               map[string]any
}

func (b *backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	req := request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Authorization: r.Header.Get("Authorization")}
	json.Unmarshal(data, &req.Body)
	b.mu.Lock()
	b.requests = append(b.requests, req)
	b.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.Method {
	case http.MethodGet:
		json.NewEncoder(w).Encode(map[string]any{"items": []string{"item-a", "item-b"}})
	case http.MethodPost:
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": "item-c"})
	}
}

func (b *backend) got() []request {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.requests)
}

func object(t *testing.T, s string) *canonjson.Object {
	t.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*canonjson.Object)
}

// protection is the protected operation of submit_item: the grant must be
// the one the trusted side recorded, and the subject the session's.
func protection(t *testing.T, grant string) *Protection {
	return &Protection{
		WorkflowID: "submit-item",
		BindingSources: object(t, `{
			"grant": {"kind": "capability-input", "inputName": "grant"},
			"subject": {"kind": "runtime-context", "claim": "subject", "requirementId": "authentication-injection", "path": ["subjectId"]}
		}`),
		ExpectedValues: canonjson.NewObject(
			canonjson.Member{Key: "grant", Value: canonjson.String(grant)},
			canonjson.Member{Key: "subject", Value: canonjson.String("subject-1")},
		),
	}
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

func run(t *testing.T, dir string, calls []Call, be *backend) *Result {
	t.Helper()
	srv := httptest.NewServer(be)
	t.Cleanup(srv.Close)
	res, err := Run(context.Background(), dir, calls, Options{
		AllowedOrigins: []string{"https://items.example"},
		Origins:        map[string]string{"https://items.example": srv.URL},
		RequestTimeout: time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outcomes) != len(calls) {
		t.Fatalf("%d outcomes for %d calls", len(res.Outcomes), len(calls))
	}
	return res
}

// TestLiveCallsReachTheBackend makes a read and a protected write through
// the package's own server and proves both requests reached the backend,
// at the origin the run bound, with the host's credentials on the request
// that needs authentication only, in one node process.
func TestLiveCallsReachTheBackend(t *testing.T) {
	t.Parallel()
	dir := itemsPackage(t)
	be := &backend{}
	res := run(t, dir, []Call{
		{CapabilityID: "list-items", Tool: "list_items", Arguments: object(t, `{"kind": "sample"}`),
			Headers: map[string]string{"Authorization": "Bearer host-token"}},
		{CapabilityID: "submit-item", Tool: "submit_item", Arguments: object(t, `{"name": "item-c", "grant": "grant-7"}`),
			Context: object(t, `{"subjectId": "subject-1"}`), Protection: protection(t, "grant-7"),
			Headers: map[string]string{"Authorization": "Bearer host-token"}},
	}, be)
	if res.NodeProcesses != 1 {
		t.Errorf("%d node processes, want 1", res.NodeProcesses)
	}
	read := decodeResult(t, res.Outcomes[0])
	if read.IsError || read.StructuredContent.Status != 200 || read.StructuredContent.Data["items"] == nil {
		t.Errorf("list_items = %s", res.Outcomes[0].Result)
	}
	write := decodeResult(t, res.Outcomes[1])
	if write.IsError || write.StructuredContent.Status != 201 || write.StructuredContent.Data["id"] != "item-c" {
		t.Errorf("submit_item = %s", res.Outcomes[1].Result)
	}
	got := be.got()
	want := []request{
		{Method: "GET", Path: "/items", Query: "kind=sample", Authorization: "Bearer host-token"},
		{Method: "POST", Path: "/items", Body: map[string]any{"name": "item-c", "grant": "grant-7"}},
	}
	if len(got) != len(want) {
		t.Fatalf("backend got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Method != want[i].Method || got[i].Path != want[i].Path || got[i].Query != want[i].Query ||
			got[i].Authorization != want[i].Authorization || !sameBody(got[i].Body, want[i].Body) {
			t.Errorf("request %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func sameBody(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestGuardRefusalsDispatchNothing proves that a protected write the
// trusted side did not protect, or protected with another value than the
// one the arguments carry, is refused by the package's guard before any
// request: the backend sees nothing, and the result is an error naming
// the refusal.
func TestGuardRefusalsDispatchNothing(t *testing.T) {
	t.Parallel()
	dir := itemsPackage(t)
	for _, tc := range []struct {
		name       string
		protection *Protection
		wantCode   string
	}{
		{"no guard in the session", nil, "WORKFLOW_GUARD_UNAVAILABLE"},
		{"another grant protected", protection(t, "grant-other"), "WORKFLOW_BINDING_VIOLATION"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			be := &backend{}
			res := run(t, dir, []Call{{CapabilityID: "submit-item", Tool: "submit_item",
				Arguments: object(t, `{"name": "item-c", "grant": "grant-7"}`),
				Context:   object(t, `{"subjectId": "subject-1"}`), Protection: tc.protection}}, be)
			r := decodeResult(t, res.Outcomes[0])
			if !r.IsError || !strings.Contains(string(res.Outcomes[0].Result), tc.wantCode) {
				t.Errorf("submit_item = %s, want an error carrying %s", res.Outcomes[0].Result, tc.wantCode)
			}
			if got := be.got(); len(got) != 0 {
				t.Errorf("the backend got %+v; a refused write must dispatch nothing", got)
			}
		})
	}
}

// TestHostRefusesOtherOrigins proves the host sends nothing to an origin
// the export profile does not allow.
func TestHostRefusesOtherOrigins(t *testing.T) {
	t.Parallel()
	dir := itemsPackage(t)
	be := &backend{}
	res := run(t, dir, []Call{{CapabilityID: "fetch-elsewhere", Tool: "fetch_elsewhere"}}, be)
	r := decodeResult(t, res.Outcomes[0])
	if !r.IsError || !strings.Contains(string(res.Outcomes[0].Result), "HOST_DISPATCH_REFUSED") {
		t.Errorf("fetch_elsewhere = %s, want the host's refusal", res.Outcomes[0].Result)
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
