package examples

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/code2skill/code2skill/examples/equipment-lending/app/server"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
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

// TestStrictSamplePlainClient runs testdata/plain-client.test.mjs: the
// official TypeScript SDK Client starts the compiled sample exactly as its
// MCP-SETUP.md registers it, with only the variables it names, against the
// sample desk: every read, with confirmation accepted every write, and
// with decline or cancel nothing reaches the desk.
func TestStrictSamplePlainClient(t *testing.T) {
	testnode.Node(t)
	pkg, _ := strictSample(t)
	const token = "token-plain"
	desk := &countingDesk{desk: server.New(server.Config{Members: map[string]string{token: "member-plain"}}), seen: map[string]int{}}
	ts := httptest.NewServer(desk)
	defer ts.Close()
	res, err := sandbox.Run(context.Background(), []string{"node", "--test", "--test-reporter=tap", "testdata/plain-client.test.mjs"}, sandbox.Options{
		Dir:     ".",
		Timeout: 2 * time.Minute,
		Network: sandbox.AllowNetwork, // the desk serves on the loopback interface of this process
		Binds:   testnode.Binds(t, pkg),
		Env:     []string{"PLAIN_PACKAGE=" + pkg, "PLAIN_BASE_URL=" + ts.URL, "PLAIN_TOKEN=" + token},
	})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Stdout) + string(res.Stderr)
	pass, fail := tapCount(out, "pass"), tapCount(out, "fail")
	if res.ExitCode != 0 || pass != 3 || fail != 0 {
		t.Fatalf("node --test plain-client.test.mjs: exit %d, %d passed, %d failed:\n%s", res.ExitCode, pass, fail, out)
	}
	if loans := desk.desk.(*server.Server).Loans(); len(loans) != 2 || loans[0].Status != server.LoanReturned {
		t.Errorf("the desk holds %+v: want the returned loan and the one borrowed with the first session's quote", loans)
	}
}

// tapCount reads a "# pass N" summary line of a TAP report; -1 when it is
// missing.
func tapCount(out, key string) int {
	m := regexp.MustCompile(`(?m)^# ` + key + ` (\d+)$`).FindStringSubmatch(out)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
