package examples

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// The environment both servers run with: .invalid services, a fake member
// token and the dry-run variable, so that nothing can be sent.
var twinEnv = []string{
	"CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL=https://catalog.seed-library.invalid/api/",
	"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL=https://reservations.seed-library.invalid/v2",
	"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN=member-token-from-the-host",
	"CODE2SKILL_DRY_RUN=1",
}

// twinCase is one probe case, called on both servers.
type twinCase struct {
	name      string
	arguments map[string]any
	env       []string // nil: twinEnv
}

// twinCases are the dry-run and error cases of the example's probe, and
// the cases that stop before any request.
var twinCases = []twinCase{
	{"reserve_seed_packets", map[string]any{"selectedVariety": map[string]any{"varietyId": "var-0001", "lotCode": "lot-a"}, "packetCount": 2, "pickupDate": "2026-04-03", "pickupTime": "09:30"}, nil},
	{"reserve_seed_packets", map[string]any{"selectedVariety": map[string]any{"varietyId": 7}, "packetCount": "3", "pickupDate": "2026-04-04", "note": " for the school garden ", "extra": true}, nil},
	{"reserve_seed_packets", map[string]any{"packetCount": 1}, nil},
	{"cancel_reservation", map[string]any{"reservationId": " r/1 "}, nil},
	{"cancel_reservation", map[string]any{}, nil},
	{"search_seed_varieties", map[string]any{"query": "pea"}, []string{"CODE2SKILL_DRY_RUN=1"}},
	{"list_my_reservations", map[string]any{}, []string{"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL=https://reservations.seed-library.invalid/v2"}},
}

// TestGoTwinMatchesTheNodeExample runs the node example and its Go twin
// and compares what a host sees: tools/list (names, titles, descriptions,
// annotations, input schemas) and the results of the same cases. The
// differences docs/go-stdio.md lists as necessary are normalised away
// (normalTool), nothing else.
func TestGoTwinMatchesTheNodeExample(t *testing.T) {
	ctx := context.Background()
	nodeDir, goDir := twinDirs(t)
	server := goTwinServer(t)

	node := func(env []string) mcpcheck.Options {
		return mcpcheck.Options{Env: env, Binds: testnode.Binds(t, nodeDir), RequestTimeout: testtier.Budget(t)}
	}
	golang := func(env []string) mcpcheck.Options {
		return mcpcheck.Options{Env: env, Command: []string{server.Path}, Binds: []sandbox.Bind{server.Bind}, RequestTimeout: testtier.Budget(t)}
	}
	nodeTools, nodeResults := twinRun(t, ctx, nodeDir, node)
	goTools, goResults := twinRun(t, ctx, goDir, golang)

	if diff := compareTools(nodeTools, goTools); diff != "" {
		t.Errorf("tools/list differs (-node +go):\n%s", diff)
	}
	for i, c := range twinCases {
		if diff := cmp.Diff(nodeResults[i], goResults[i]); diff != "" {
			t.Errorf("%s %v: the results differ (-node +go):\n%s", c.name, c.arguments, diff)
		}
	}

	// The comparison fails when one side changes.
	changed := slices.Clone(goTools)
	changed[0] = strings.Replace(changed[0], `"readOnlyHint":false`, `"readOnlyHint":true`, 1)
	if compareTools(nodeTools, changed) == "" {
		t.Error("a changed annotation went unnoticed")
	}
	changed = slices.Clone(goTools)
	changed[1] = strings.Replace(changed[1], `"string","number","null"`, `"string","null"`, 1)
	if compareTools(nodeTools, changed) == "" {
		t.Error("a changed input schema went unnoticed")
	}
	if cmp.Diff(nodeResults[0], strings.Replace(goResults[0], "09:30:00", "09:30", 1)) == "" {
		t.Error("a changed result went unnoticed")
	}
}

// twinRun lists the tools of one server and calls every case, each case
// set in a session of its own environment.
func twinRun(t *testing.T, ctx context.Context, dir string, opts func([]string) mcpcheck.Options) ([]string, []string) {
	t.Helper()
	var tools []string
	results := make([]string, len(twinCases))
	sessions := map[string]*mcpcheck.Session{}
	defer func() {
		for _, s := range sessions {
			s.Close()
		}
	}()
	session := func(env []string) *mcpcheck.Session {
		key := strings.Join(env, "\n")
		if s, ok := sessions[key]; ok {
			return s
		}
		s, err := mcpcheck.Start(ctx, dir, opts(env))
		if err != nil {
			t.Fatal(err)
		}
		if s.Diagnostics().HasErrors() {
			t.Fatalf("%s: %v", dir, s.Diagnostics().Sorted())
		}
		sessions[key] = s
		return s
	}
	s := session(twinEnv)
	listed, err := s.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		tools = append(tools, normalTool(t, l.Raw))
	}
	for i, c := range twinCases {
		env := c.env
		if env == nil {
			env = twinEnv
		}
		res, err := session(env).CallTool(ctx, c.name, c.arguments)
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %v %v", c.name, err, res)
		}
		results[i] = normalResult(t, res.Raw)
	}
	return tools, results
}

// normalTool is a tools/list entry without what one SDK adds and the
// other does not: zod's "$schema" and the TypeScript SDK's "execution".
func normalTool(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var tool map[string]any
	if err := json.Unmarshal(raw, &tool); err != nil {
		t.Fatal(err)
	}
	delete(tool, "execution")
	if s, ok := tool["inputSchema"].(map[string]any); ok {
		delete(s, "$schema")
	}
	b, _ := json.Marshal(tool) // keys sorted
	return string(b)
}

// compareTools compares two listings as a set by name: the Go SDK lists
// tools sorted by name, the TypeScript SDK in registration order.
func compareTools(node, golang []string) string {
	sorted := func(list []string) []string {
		out := slices.Clone(list)
		slices.Sort(out) // each entry starts with its sorted keys; the names decide
		return out
	}
	return cmp.Diff(sorted(node), sorted(golang))
}

// normalResult is a tools/call result as the agent reads it: isError,
// structuredContent, and each text block (parsed when it is JSON, so that
// it compares by value). The SDKs' own _meta is left out.
func normalResult(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var res struct {
		IsError           bool `json:"isError"`
		StructuredContent any  `json:"structuredContent"`
		Content           []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	var texts []any
	for _, c := range res.Content {
		var v any
		if json.Unmarshal([]byte(c.Text), &v) != nil {
			v = c.Text
		}
		texts = append(texts, map[string]any{"type": c.Type, "text": v})
	}
	b, _ := json.MarshalIndent(map[string]any{"isError": res.IsError, "structuredContent": res.StructuredContent, "content": texts}, "", " ")
	return fmt.Sprint(string(b))
}
