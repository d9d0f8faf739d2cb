package examples

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

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/probe"
	"github.com/code2skill/code2skill/internal/testtier"
)

// twinRequest is one request a server sent, as the backend saw it.
type twinRequest struct {
	Method, Path, Query, Authorization, Body string
}

// twinBackend answers every request with 200 and a body naming it, and
// records what it received.
type twinBackend struct {
	mu       sync.Mutex
	requests []twinRequest
}

func (b *twinBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := twinRequest{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Authorization"), string(body)}
	b.mu.Lock()
	b.requests = append(b.requests, req)
	b.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"items": []any{}, "seen": req.Method + " " + req.Path})
}

// twinProbeCases are the business calls both probes make: every Tool once
// (the writes in their real branch), and a search the backend would find
// nothing for.
const twinProbeCases = `[
  {"name": "search_seed_varieties", "arguments": {"query": "pea", "limit": 5}},
  {"name": "list_my_reservations", "arguments": {}},
  {"name": "reserve_seed_packets", "arguments": {"selectedVariety": {"varietyId": "var-0001", "lotCode": "lot-a"}, "packetCount": 2, "pickupDate": "2026-04-03", "pickupTime": "09:30"}},
  {"name": "cancel_reservation", "arguments": {"reservationId": "r-1"}}
]`

// TestGoTwinPassesTheProbeAsTheNodeExampleDoes probes the node example and
// its Go twin with the same cases against the same local backend: both
// must pass, with the same per-tool and per-call verdicts, the same HTTP
// statuses, and the same requests reaching the backend.
func TestGoTwinPassesTheProbeAsTheNodeExampleDoes(t *testing.T) {
	nodeDir, goDir := twinDirs(t)
	cases := filepath.Join(t.TempDir(), "calls.json")
	if err := os.WriteFile(cases, []byte(twinProbeCases), 0o644); err != nil {
		t.Fatal(err)
	}

	run := func(dir string) (*probe.Result, []twinRequest) {
		t.Helper()
		backend := &twinBackend{}
		srv := httptest.NewServer(backend)
		defer srv.Close()
		budget := testtier.Budget(t)
		res, err := probe.Run(context.Background(), dir, probe.Options{
			RequestTimeout: budget, InitializeTimeout: budget,
			Calls:        []string{cases},
			AllowNetwork: true, // the local backend only: every base URL names it
			Env: []string{
				"CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL=" + srv.URL + "/api/",
				"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL=" + srv.URL + "/v2",
				"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN=member-token",
			},
		})
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(dir), err)
		}
		if res.Diagnostics.HasErrors() {
			t.Errorf("%s: probe found errors: %v", filepath.Base(dir), res.Diagnostics.Sorted())
		}
		return res, backend.requests
	}
	nodeRes, nodeReqs := run(nodeDir)
	goRes, goReqs := run(goDir)

	if !goRes.DetachedCopy || goRes.ProtocolVersion != nodeRes.ProtocolVersion {
		t.Errorf("the Go twin ran detached %v over %q; node over %q", goRes.DetachedCopy, goRes.ProtocolVersion, nodeRes.ProtocolVersion)
	}
	byName := func(rows []*probe.ToolStatus) []probe.ToolStatus {
		var out []probe.ToolStatus
		for _, r := range rows {
			out = append(out, *r)
		}
		slices.SortFunc(out, func(a, b probe.ToolStatus) int { return strings.Compare(a.Name, b.Name) })
		return out
	}
	if diff := cmp.Diff(byName(nodeRes.Tools), byName(goRes.Tools)); diff != "" {
		t.Errorf("the per-tool verdicts differ (-node +go):\n%s", diff)
	}
	// The generated dry-run cases follow tools/list, which the Go SDK sorts.
	calls := func(rows []*probe.CallStatus) []probe.CallStatus {
		var out []probe.CallStatus
		for _, r := range rows {
			out = append(out, *r)
		}
		slices.SortStableFunc(out, func(a, b probe.CallStatus) int {
			return strings.Compare(a.Kind+a.Tool, b.Kind+b.Tool)
		})
		return out
	}
	if diff := cmp.Diff(calls(nodeRes.Calls), calls(goRes.Calls)); diff != "" {
		t.Errorf("the per-call verdicts differ (-node +go):\n%s", diff)
	}
	// Each SDK rejects an unknown tool its own way (docs/go-stdio.md).
	if nodeRes.UnknownToolAnswer != probe.AnswerToolError || goRes.UnknownToolAnswer != probe.AnswerProtocolError {
		t.Errorf("unknown tool answered with %q (node) and %q (go)", nodeRes.UnknownToolAnswer, goRes.UnknownToolAnswer)
	}
	for _, c := range goRes.Calls {
		if c.Kind == "call" && (c.Verdict != probe.Passed || c.HTTPStatus != 200) {
			t.Errorf("the Go twin's %s: %s with status %d", c.Case, c.Verdict, c.HTTPStatus)
		}
	}
	if len(nodeReqs) != 4 {
		t.Errorf("the node example sent %d requests, want one per business call: %+v", len(nodeReqs), nodeReqs)
	}
	if diff := cmp.Diff(nodeReqs, goReqs); diff != "" {
		t.Errorf("the requests reaching the backend differ (-node +go):\n%s", diff)
	}
	ns, gs := nodeRes.Summary(), goRes.Summary()
	if ns.RuntimeVerificationRequired || gs.RuntimeVerificationRequired || !slices.Equal(ns.BusinessCallsNotRun, gs.BusinessCallsNotRun) ||
		ns.Checks != gs.Checks {
		t.Errorf("the summaries differ or leave runtime verification required:\nnode %+v\ngo   %+v", ns, gs)
	}
}

// TestGoTwinPassesTheSameRequestChecks validates both: the reachability
// calls judge the Go twin's requests, through its compiled-in recorder, as
// they judge the node example's through driver.cjs, with the same number
// of calls and of inputs decided. Each validation runs the package's
// tests too, so it is in the slow tier.
func TestSlowGoTwinPassesTheSameRequestChecks(t *testing.T) {
	testtier.Slow(t)
	nodeDir, goDir := twinDirs(t)
	reachOf := func(dir string) *core.ReachSummary {
		t.Helper()
		res, err := core.Validate(context.Background(), dir, core.Options{TestTimeout: testtier.Budget(t), RequestTimeout: testtier.Budget(t)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Diagnostics.HasErrors() || res.Requests != core.StagePassed || res.Reach == nil {
			t.Fatalf("%s: requests %s:\n%v", filepath.Base(dir), res.Requests, res.Diagnostics.Sorted())
		}
		return res.Reach
	}
	node, golang := reachOf(nodeDir), reachOf(goDir)
	if *node != *golang || node.InputsChecked == 0 {
		t.Errorf("reachability: node %+v, go %+v", *node, *golang)
	}
}
