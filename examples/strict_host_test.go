package examples

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/code2skill/code2skill/examples/equipment-lending/app/server"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// countingDesk serves the sample desk and counts the requests it receives
// by "METHOD path"; GET /__received answers the counts, so that a client
// can tell what reached the desk.
type countingDesk struct {
	desk http.Handler
	mu   sync.Mutex
	seen map[string]int
}

func (c *countingDesk) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/__received" {
		c.mu.Lock()
		data, _ := json.Marshal(c.seen)
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
		return
	}
	c.mu.Lock()
	c.seen[r.Method+" "+r.URL.Path]++
	c.mu.Unlock()
	c.desk.ServeHTTP(w, r)
}

// TestStrictSamplePlainClient runs testdata/plain-client.test.mjs (node
// runs its tests itself, in one process): the official TypeScript SDK
// Client at the pinned version starts the compiled sample exactly as its
// MCP-SETUP.md registers it, with only the variables it names, against the
// sample desk: every read, with confirmation accepted every write (the
// removal succeeding on the desk's 204 without a body, with null data), and
// with decline or cancel nothing reaches the desk; a refused token, a
// missing deployment variable, refused arguments and a dry-run write come
// back as results, not exceptions.
func TestStrictSamplePlainClient(t *testing.T) {
	testnode.Node(t)
	pkg, _ := strictSample(t)
	const token = "token-plain"
	desk := &countingDesk{desk: server.New(server.Config{Members: map[string]string{token: "member-plain"}}), seen: map[string]int{}}
	ts := httptest.NewServer(desk)
	defer ts.Close()
	res, err := sandbox.Run(context.Background(), []string{"node", "--test-reporter=tap", "testdata/plain-client.test.mjs"}, sandbox.Options{
		Dir:     ".",
		Timeout: testtier.Budget(t),
		Network: sandbox.AllowNetwork, // the desk serves on the loopback interface of this process
		Binds:   testnode.Binds(t, pkg),
		Env:     []string{"PLAIN_PACKAGE=" + pkg, "PLAIN_BASE_URL=" + ts.URL, "PLAIN_TOKEN=" + token},
	})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Stdout) + string(res.Stderr)
	pass, fail := testnode.TAPCount(out, "pass"), testnode.TAPCount(out, "fail")
	if res.ExitCode != 0 || pass != 4 || fail != 0 {
		t.Fatalf("node plain-client.test.mjs: exit %d, %d passed, %d failed:\n%s", res.ExitCode, pass, fail, out)
	}
	if loans := desk.desk.(*server.Server).Loans(); len(loans) != 1 || loans[0].LoanID != "loan-0002" || loans[0].Status != server.LoanActive {
		t.Errorf("the desk holds %+v: want only the loan borrowed with the first session's quote (the returned one was removed)", loans)
	}
}

// TestStrictSampleInspector cross-checks the host runtime with a third-party
// client, the pinned MCP Inspector CLI: started as a host starts it (node
// with the runtime's absolute path) with nothing but the environment
// MCP-SETUP.md names, it lists the five Tools and calls a read, which
// reaches the desk with the member's token.
func TestStrictSampleInspector(t *testing.T) {
	testnode.Node(t)
	inspector := testnode.Bin(t, "mcp-inspector")
	if _, err := os.Stat(inspector); err != nil {
		t.Fatalf("the MCP Inspector CLI is not installed (%v); npm ci at the repository root installs @modelcontextprotocol/inspector@2.12.0", err)
	}
	pkg, _ := strictSample(t)
	const token = "token-inspector"
	desk := &countingDesk{desk: server.New(server.Config{Members: map[string]string{token: "member-inspector"}}), seen: map[string]int{}}
	ts := httptest.NewServer(desk)
	defer ts.Close()
	inspect := func(args ...string) map[string]any {
		t.Helper()
		argv := append([]string{"node", inspector, "--cli",
			"-e", StrictSampleBaseURLVariable + "=" + ts.URL, "-e", StrictSampleTokenVariable + "=" + token,
			"node", filepath.Join(pkg, "portable-host-runtime.mjs")}, args...)
		res, err := sandbox.Run(context.Background(), argv, sandbox.Options{Dir: t.TempDir(), Timeout: testtier.Budget(t),
			Network: sandbox.AllowNetwork, Binds: testnode.Binds(t, pkg)})
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode != 0 {
			t.Fatalf("inspector %v exited with %d:\n%s%s", args, res.ExitCode, res.Stdout, res.Stderr)
		}
		var out map[string]any
		if err := json.Unmarshal(res.Stdout, &out); err != nil {
			t.Fatalf("inspector output: %v\n%s", err, res.Stdout)
		}
		return out
	}
	listed, _ := inspect("--method", "tools/list")["tools"].([]any)
	var names []string
	for _, tool := range listed {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	if want := []string{"list_lendable_equipment", "quote_equipment_loan", "create_equipment_loan", "return_equipment_loan", "remove_returned_loan"}; !slices.Equal(names, want) {
		t.Errorf("the Inspector lists %v, want %v", names, want)
	}
	got := inspect("--method", "tools/call", "--tool-name", "list_lendable_equipment", "--tool-arg", "category=camping")
	sc, _ := got["structuredContent"].(map[string]any)
	data, _ := sc["data"].(map[string]any)
	if got["isError"] == true || sc["status"] != float64(200) || len(data["items"].([]any)) == 0 {
		t.Errorf("the Inspector's call returned %v", got)
	}
	if n := desk.seen["GET /api/equipment"]; n != 1 {
		t.Errorf("the desk got %d catalogue request(s), want 1", n)
	}
}
