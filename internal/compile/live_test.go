package compile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// The live tests run a compiled package's MCP server (node
// mcp-tool/index.mjs, in the sandbox with the network allowed, detached
// from any node_modules) and call its Tools over stdio with the official Go
// SDK, as an MCP client would. The runtime context the SDK hands a Tool
// holds no dispatcher, so every request goes through the package's default
// dispatcher to a real HTTP server of the test, on the loopback interface.

// recorded is one request the test's server received.
type recorded struct {
	Method, URI, Authorization, ContentType string
	Body                                    []byte
}

// upstream is the business API of the reference contract, answering each
// path with a fixed reply and recording every request. A validation
// request gets no answer: the server holds it until its client goes away,
// closing arrived when it comes and left when the client has gone.
type upstream struct {
	*httptest.Server
	mu            sync.Mutex
	requests      []recorded
	arrived, left chan struct{}
	arriveOnce    sync.Once
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{arrived: make(chan struct{}), left: make(chan struct{})}
	replies := map[string]struct {
		status int
		body   string
	}{
		"GET /api/sample-request/kinds": {200, `{"options": [{"label": "Seeds", "internal": 7, "selectionGrant": {"grantId": "g-1", "requiresAttachment": false, "allowsAttachment": true}}], "total": 1}`},
		"PUT /api/sample-request/draft": {409, `{"error": "draft locked"}`},
	}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		u.mu.Lock()
		u.requests = append(u.requests, recorded{r.Method, r.RequestURI, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), body})
		u.mu.Unlock()
		if r.URL.Path == "/api/sample-request/validate" {
			u.arriveOnce.Do(func() { close(u.arrived) })
			<-r.Context().Done()
			close(u.left)
			return
		}
		reply, ok := replies[r.Method+" "+r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(reply.status)
		io.WriteString(w, reply.body)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) received() []recorded {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]recorded(nil), u.requests...)
}

// livePackage compiles the reference package with every step URL moved to
// the upstream's origin, and with authentication auth for every
// capability and step, into a fresh directory.
func livePackage(t *testing.T, origin, auth string) string {
	t.Helper()
	const referenceOrigin = "https://application.example"
	data := bytes.ReplaceAll(contracttest.Reference(t, contract.ContractFile), []byte(referenceOrigin), []byte(origin))
	data = bytes.ReplaceAll(data, []byte(`"authentication": "runtime_context"`), []byte(`"authentication": "`+auth+`"`))
	profile := bytes.ReplaceAll(contracttest.Reference(t, contract.ExportProfileFile), []byte(referenceOrigin), []byte(origin))
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		contract.ContractFile:      data,
		contract.ExportProfileFile: profile,
		contract.TopologyFile:      contracttest.Reference(t, contract.TopologyFile),
		contract.HostProfileFile:   contracttest.Reference(t, contract.HostProfileFile),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := derive.Load(dir)
	in, list := loaded.Inputs, loaded.Read()
	if err != nil {
		t.Fatal(err)
	}
	if list.Merge(derive.Check(in)); list.HasErrors() {
		t.Fatalf("the live contract has errors: %v", list.Sorted())
	}
	docs, _, err := ReadToolDocs(referencePackage.docsDir())
	if err != nil {
		t.Fatal(err)
	}
	res, list := Compile(&Inputs{Core: in, ToolDocs: docs})
	if !res.Compiled() {
		t.Fatalf("the live contract does not compile: %v", list.Sorted())
	}
	if ds, err := Write(dir, res.Files); err != nil || len(ds) > 0 {
		t.Fatal(ds, err)
	}
	return dir
}

// toolResult is the part of a tools/call result the tests read.
type toolResult struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Content           []struct {
		Type, Text string
	} `json:"content"`
	// Error is the structured Tool error of an error result: the JSON of
	// its one text block.
	Error json.RawMessage `json:"-"`
}

// callLive starts the package's server with the network allowed, makes
// each call in order and returns the results.
func callLive(t *testing.T, dir string, calls ...[2]string) []toolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testtier.Budget(t))
	defer cancel()
	s, err := mcpcheck.Start(ctx, dir, mcpcheck.Options{Profile: mcpcheck.ProfileStrict, Network: sandbox.AllowNetwork, RequestTimeout: testtier.Budget(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Down() {
		t.Fatalf("the server did not start: %v", s.Diagnostics().Sorted())
	}
	var out []toolResult
	for _, c := range calls {
		res, err := s.CallTool(ctx, c[0], json.RawMessage(c[1]))
		if err != nil || res == nil || res.Error != nil {
			t.Fatalf("tools/call %s: %v %+v %v", c[0], err, res, s.Diagnostics().Sorted())
		}
		var r toolResult
		if err := json.Unmarshal(res.Raw, &r); err != nil {
			t.Fatalf("tools/call %s: %v: %s", c[0], err, res.Raw)
		}
		switch {
		case r.IsError && (r.StructuredContent != nil || len(r.Content) != 1 || r.Content[0].Type != "text"):
			t.Errorf("tools/call %s: an error result carries its structured error as the JSON of one text block, without structuredContent: %s", c[0], res.Raw)
		case r.IsError:
			r.Error = json.RawMessage(r.Content[0].Text)
		case len(r.Content) != 1 || r.Content[0].Type != "text" || !jsonEq(r.Content[0].Text, string(r.StructuredContent)):
			t.Errorf("tools/call %s: the text content does not carry structuredContent: %s", c[0], res.Raw)
		}
		out = append(out, r)
	}
	return out
}

func jsonEq(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return bytes.Equal(xs, ys)
}

// TestLiveCallWithoutAuthentication: a compiled package whose requests need
// no authentication reaches its API from a plain stdio session. A read
// returns the response's {status, data}, reduced to the output schema; a
// write the API rejects returns the structured rejection, its outcome
// known from the response.
func TestLiveCallWithoutAuthentication(t *testing.T) {
	testnode.Node(t)
	api := newUpstream(t)
	dir := livePackage(t, api.URL, "none")
	results := callLive(t, dir,
		[2]string{"list_sample_request_kinds", `{"detailLevel": "full"}`},
		[2]string{"save_sample_draft", `{"requestData": {"subject": "Seed swap", "note": "Bring labels"}}`},
	)

	got := api.received()
	if len(got) != 2 {
		t.Fatalf("the API received %d requests, want 2: %+v", len(got), got)
	}
	if r := got[0]; r.Method != "GET" || r.URI != "/api/sample-request/kinds?detail=full" || r.Authorization != "" || len(r.Body) != 0 {
		t.Errorf("list request: %+v", r)
	}
	if r := got[1]; r.Method != "PUT" || r.URI != "/api/sample-request/draft" || r.ContentType != "application/json" ||
		!jsonEq(string(r.Body), `{"requestData": {"subject": "Seed swap", "note": "Bring labels"}}`) {
		t.Errorf("save request: %+v %s", r, r.Body)
	}

	if r := results[0]; r.IsError || !jsonEq(string(r.StructuredContent),
		`{"status": 200, "data": {"options": [{"label": "Seeds", "selectionGrant": {"grantId": "g-1", "requiresAttachment": false, "allowsAttachment": true}}]}}`) {
		t.Errorf("list result: isError %v, %s", r.IsError, r.StructuredContent)
	}
	var rejected struct {
		Code      string
		Retryable bool
		Details   struct {
			StepID       string `json:"stepId"`
			Status       int
			OutcomeKnown bool `json:"outcomeKnown"`
		}
	}
	if err := json.Unmarshal(results[1].Error, &rejected); err != nil {
		t.Fatal(err)
	}
	if !results[1].IsError || rejected.Code != "BUSINESS_REJECTED" || rejected.Retryable ||
		rejected.Details.StepID != "saveDraft" || rejected.Details.Status != 409 || !rejected.Details.OutcomeKnown {
		t.Errorf("save result: isError %v, %s", results[1].IsError, results[1].Error)
	}
}

// TestLiveCallNeedingHostAuthentication: a package whose requests need the
// Host's credentials (runtime_context) refuses every call of a plain stdio
// session before anything is sent, with the structured
// HOST_AUTHENTICATION_REQUIRED error, for reads and writes alike.
func TestLiveCallNeedingHostAuthentication(t *testing.T) {
	testnode.Node(t)
	api := newUpstream(t)
	dir := livePackage(t, api.URL, "runtime_context")
	results := callLive(t, dir,
		[2]string{"list_sample_request_kinds", `{"detailLevel": "full"}`},
		[2]string{"save_sample_draft", `{"requestData": {"subject": "Seed swap"}}`},
	)
	if got := api.received(); len(got) != 0 {
		t.Fatalf("the API received %d requests, want none: %+v", len(got), got)
	}
	for i, tool := range []string{"list_sample_request_kinds", "save_sample_draft"} {
		var e struct {
			Code      string
			Message   string
			Retryable bool
			Details   map[string]any
		}
		if err := json.Unmarshal(results[i].Error, &e); err != nil {
			t.Fatal(err)
		}
		if !results[i].IsError || e.Code != "HOST_AUTHENTICATION_REQUIRED" || e.Retryable || e.Message == "" ||
			e.Details["authentication"] != "runtime_context" {
			t.Errorf("%s: isError %v, %s", tool, results[i].IsError, results[i].Error)
		}
	}
}

// TestLiveCallCancelled: when the MCP client cancels a call, the request
// the Function is waiting for is stopped. The adapter passes the SDK's
// per-call context, whose signal the client's notifications/cancelled
// aborts, and the Function hands that signal to the default dispatcher.
// Without it, the request would run on until the dispatcher's own 30 s
// limit; the test waits for at most 20 s.
func TestLiveCallCancelled(t *testing.T) {
	testnode.Node(t)
	api := newUpstream(t)
	dir := livePackage(t, api.URL, "none")
	ctx, cancel := context.WithTimeout(context.Background(), testtier.Budget(t))
	defer cancel()
	s, err := mcpcheck.Start(ctx, dir, mcpcheck.Options{Profile: mcpcheck.ProfileStrict, Network: sandbox.AllowNetwork, RequestTimeout: testtier.Budget(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Down() {
		t.Fatalf("the server did not start: %v", s.Diagnostics().Sorted())
	}
	call, stop := context.WithCancel(ctx)
	go func() {
		select {
		case <-api.arrived:
		case <-ctx.Done():
		}
		stop()
	}()
	_, err = s.CallTool(call, "validate_sample_request",
		json.RawMessage(`{"selectionGrant": {"grantId": "s-1", "requiresAttachment": false, "allowsAttachment": true}, "requestData": {"subject": "Seeds"}}`))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled call returned %v, want context.Canceled", err)
	}
	select {
	case <-api.left:
	case <-time.After(testtier.Budget(t)):
		t.Fatal("the request of the cancelled call was not stopped")
	}
	if got := api.received(); len(got) != 1 || got[0].URI != "/api/sample-request/validate" {
		t.Errorf("the API received %+v, want the one validation request", got)
	}
}
