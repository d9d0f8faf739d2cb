// The MCP server as a host sees it, over a real SDK client session.
package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	functioncore "seed-library/function-core"
)

var env = map[string]string{
	"CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL":      "https://catalog.seed-library.invalid/api/",
	"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL": "https://reservations.seed-library.invalid/v2",
	"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN":    "test-member-token-not-a-real-one",
}

type answering struct {
	status int
	body   string
	calls  int
}

func (a *answering) RoundTrip(req *http.Request) (*http.Response, error) {
	a.calls++
	return &http.Response{StatusCode: a.status, Body: io.NopCloser(strings.NewReader(a.body)), Request: req}, nil
}

func connect(t *testing.T, vars map[string]string, transport http.RoundTripper) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	rt := functioncore.Runtime{HTTP: &http.Client{Transport: transport}, Getenv: func(k string) string { return vars[k] }}
	if _, err := newServer(rt).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "seed-library-test", Version: "1.0.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestToolsListShowsOpenInputSchemasAndNoOutputSchema(t *testing.T) {
	cs := connect(t, env, &answering{status: 200})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var hints [][2]bool
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Title == "" || tool.Description == "" {
			t.Errorf("%s lacks a title or description", tool.Name)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		if strings.Contains(string(schema), `"additionalProperties":false`) {
			t.Errorf("%s closes its input schema", tool.Name)
		}
		if tool.OutputSchema != nil {
			t.Errorf("%s declares an output schema", tool.Name)
		}
		hints = append(hints, [2]bool{tool.Annotations.ReadOnlyHint, *tool.Annotations.DestructiveHint})
	}
	// The Go SDK lists tools by name.
	if strings.Join(names, ",") != "cancel_reservation,list_my_reservations,reserve_seed_packets,search_seed_varieties" {
		t.Errorf("tools %v", names)
	}
	if want := [][2]bool{{false, true}, {true, false}, {false, false}, {true, false}}; len(hints) != 4 || hints[0] != want[0] || hints[1] != want[1] || hints[2] != want[2] || hints[3] != want[3] {
		t.Errorf("hints %v", hints)
	}
}

func TestACallReturnsTheHTTPResultAsStructuredContentAndText(t *testing.T) {
	a := &answering{status: 200, body: `{"varieties":[{"varietyId":"var-0001"}]}`}
	cs := connect(t, env, a)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_seed_varieties", Arguments: map[string]any{"query": "pea", "unknownExtra": true}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"httpStatus":200,"bodyText":"{\"varieties\":[{\"varietyId\":\"var-0001\"}]}"}`
	structured, _ := json.Marshal(res.StructuredContent)
	var fromText any
	_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &fromText)
	fromTextJSON, _ := json.Marshal(fromText)
	if res.IsError || res.Content[0].(*mcp.TextContent).Text != want || string(structured) != string(fromTextJSON) || a.calls != 1 {
		t.Errorf("result %+v (%s), %d request(s)", res, structured, a.calls)
	}
}

func TestACallWithoutAConfiguredServiceIsAToolError(t *testing.T) {
	cs := connect(t, nil, &answering{status: 200})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "reserve_seed_packets",
		Arguments: map[string]any{"selectedVariety": map[string]any{"varietyId": "var-0001"}, "packetCount": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL") {
		t.Errorf("result %+v", res)
	}
}
