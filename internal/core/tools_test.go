package core

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/mcpcheck"
)

// listed builds a tools/list answer from raw entries.
func listed(t *testing.T, entries ...string) []mcpcheck.Tool {
	t.Helper()
	var tools []mcpcheck.Tool
	for i, e := range entries {
		if !json.Valid([]byte(e)) {
			t.Fatalf("entry %d is not JSON: %s", i, e)
		}
		tools = append(tools, mcpcheck.Tool{Raw: json.RawMessage(e), Index: i})
	}
	return tools
}

func tool(name, properties string) string {
	return fmt.Sprintf(`{"name": %q, "inputSchema": {"type": "object", "properties": {%s}}}`, name, properties)
}

func TestToolInputs(t *testing.T) {
	const text = `{"type": "string"}`
	for _, tc := range []struct {
		name  string
		tools []string
		want  []string
	}{
		{"business inputs", []string{
			tool("search_orders", `"query": `+text+`, "imageUrl": `+text+`, "pageToken": `+text+`, "orderId": `+text),
			tool("reserve", `"selected": {"type": "object", "properties": {"id": `+text+`}}`),
		}, []string{}},
		{"credential", []string{tool("search_orders", `"query": `+text+`, "apiToken": `+text)},
			[]string{"CORE_TOOL_INPUT_CREDENTIAL /tools/0/inputSchema/properties/apiToken"}},
		{"nested credentials", []string{tool("login", `"account": {"type": "object", "properties": {"password": `+text+`}}, "headers": {"type": "array", "items": {"anyOf": [{"type": "object", "properties": {"Authorization": `+text+`}}]}}`)},
			[]string{"CORE_TOOL_INPUT_CREDENTIAL /tools/0/inputSchema/properties/account/properties/password",
				"CORE_TOOL_INPUT_CREDENTIAL /tools/0/inputSchema/properties/headers/items/anyOf/0/properties/Authorization"}},
		{"session and cookie", []string{tool("a", `"session": `+text), tool("b", `"cookie": `+text)},
			[]string{"CORE_TOOL_INPUT_CREDENTIAL /tools/0/inputSchema/properties/session", "CORE_TOOL_INPUT_CREDENTIAL /tools/1/inputSchema/properties/cookie"}},
		{"address", []string{tool("search_orders", `"baseUrl": `+text+`, "host": `+text)},
			[]string{"CORE_TOOL_INPUT_ADDRESS /tools/0/inputSchema/properties/baseUrl", "CORE_TOOL_INPUT_ADDRESS /tools/0/inputSchema/properties/host"}},
		{"generic proxy by its inputs", []string{tool("orders", `"method": `+text+`, "path": `+text+`, "body": {"type": "object"}`)},
			[]string{"CORE_TOOL_GENERIC_PROXY /tools/0/inputSchema"}},
		{"generic proxy by its URL", []string{tool("fetch_anything", `"httpMethod": `+text+`, "url": `+text)},
			[]string{"CORE_TOOL_INPUT_ADDRESS /tools/0/inputSchema/properties/url", "CORE_TOOL_GENERIC_PROXY /tools/0/inputSchema"}},
		{"generic proxy by its name", []string{tool("call_api", `"operation": `+text), tool("invokeMethod", ""), tool("publish_message", "")},
			[]string{"CORE_TOOL_GENERIC_PROXY /tools/0/name", "CORE_TOOL_GENERIC_PROXY /tools/1/name", "CORE_TOOL_GENERIC_PROXY /tools/2/name"}},
		{"a path alone is business input", []string{tool("read_file", `"path": `+text)}, []string{}},
		{"a method alone is business input", []string{tool("pay", `"method": `+text+`, "amount": {"type": "number"}`)}, []string{}},
		{"malformed entries are left to the shape rules", []string{`{"inputSchema": 3}`, `[]`}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := []string{}
			for _, d := range checkToolInputs(listed(t, tc.tools...)) {
				if d.File != mcpcheck.ServerFile {
					t.Errorf("finding in %s", d.File)
				}
				got = append(got, d.Rule+" "+d.Pointer)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
