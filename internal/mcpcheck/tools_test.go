package mcpcheck

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goodTool is a tools/list entry as the TypeScript SDK lists it.
const goodTool = `{
  "name": "sample.list_items-v2",
  "title": "List items",
  "description": "Lists the items.",
  "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
    "properties": {"filter": {"type": "object", "properties": {"kind": {"type": "string"}}}}},
  "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true},
  "execution": {"taskSupport": "forbidden"}
}`

// variant returns goodTool with the given top-level fields replaced; a nil
// value removes the field.
func variant(t *testing.T, fields map[string]any) json.RawMessage {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(goodTool), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range fields {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckTools(t *testing.T) {
	closedNested := map[string]any{"type": "object", "properties": map[string]any{
		"filter": map[string]any{"type": "object", "additionalProperties": false},
		"tags":   map[string]any{"type": "array", "items": map[string]any{"type": "object", "additionalProperties": false}},
	}}
	for _, tc := range []struct {
		name    string
		entries []json.RawMessage
		profile string
		want    []string // "RULE pointer"
	}{
		{name: "good", entries: []json.RawMessage{json.RawMessage(goodTool)}},
		{name: "good strict", entries: []json.RawMessage{json.RawMessage(goodTool)}, profile: ProfileStrict},
		{name: "not an object", entries: []json.RawMessage{json.RawMessage(`"x"`)}, want: []string{"MCP_TOOLS_LIST_FAILED /tools/0"}},
		{name: "no name", entries: []json.RawMessage{variant(t, map[string]any{"name": nil})}, want: []string{"MCP_TOOL_NAME /tools/0"}},
		{name: "name too long", entries: []json.RawMessage{variant(t, map[string]any{"name": strings.Repeat("a", 65)})},
			want: []string{"MCP_TOOL_NAME /tools/0/name"}},
		{name: "64 characters", entries: []json.RawMessage{variant(t, map[string]any{"name": strings.Repeat("a", 64)})}},
		{name: "name with slash", entries: []json.RawMessage{variant(t, map[string]any{"name": "sample/list"})},
			want: []string{"MCP_TOOL_NAME /tools/0/name"}},
		{name: "duplicate", entries: []json.RawMessage{json.RawMessage(goodTool), json.RawMessage(goodTool)},
			want: []string{"MCP_TOOL_NAME_DUPLICATE /tools/1/name"}},
		{name: "blank title", entries: []json.RawMessage{variant(t, map[string]any{"title": "  "})}, want: []string{"MCP_TOOL_TITLE /tools/0/title"}},
		{name: "no description", entries: []json.RawMessage{variant(t, map[string]any{"description": nil})},
			want: []string{"MCP_TOOL_DESCRIPTION /tools/0/description"}},
		{name: "string hint", entries: []json.RawMessage{variant(t, map[string]any{"annotations": map[string]any{
			"readOnlyHint": "true", "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}})},
			want: []string{"MCP_TOOL_ANNOTATIONS /tools/0/annotations"}},
		{name: "no input schema", entries: []json.RawMessage{variant(t, map[string]any{"inputSchema": nil})},
			want: []string{"MCP_TOOL_INPUT_SCHEMA /tools/0/inputSchema"}},
		{name: "array input schema", entries: []json.RawMessage{variant(t, map[string]any{"inputSchema": map[string]any{"type": "array"}})},
			want: []string{"MCP_TOOL_INPUT_SCHEMA /tools/0/inputSchema"}},
		{name: "string output schema", entries: []json.RawMessage{variant(t, map[string]any{"outputSchema": "none"})},
			want: []string{"MCP_TOOL_OUTPUT_SCHEMA /tools/0/outputSchema"}},
		{name: "open output schema", entries: []json.RawMessage{variant(t, map[string]any{"outputSchema": map[string]any{"type": "object"}})}},
		{name: "closed nested input", entries: []json.RawMessage{variant(t, map[string]any{"inputSchema": closedNested})},
			want: []string{
				"MCP_TOOL_INPUT_SCHEMA_CLOSED /tools/0/inputSchema/properties/filter/additionalProperties",
				"MCP_TOOL_INPUT_SCHEMA_CLOSED /tools/0/inputSchema/properties/tags/items/additionalProperties",
			}},
		{name: "closed nested input strict", entries: []json.RawMessage{variant(t, map[string]any{"inputSchema": closedNested})}, profile: ProfileStrict},
		{name: "closed output", entries: []json.RawMessage{variant(t, map[string]any{"outputSchema": map[string]any{"type": "object", "additionalProperties": false}})},
			want: []string{"MCP_TOOL_OUTPUT_SCHEMA_CLOSED /tools/0/outputSchema/additionalProperties"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tools := make([]Tool, len(tc.entries))
			for i, raw := range tc.entries {
				tools[i] = Tool{Raw: raw, Index: i}
			}
			var got []string
			for _, d := range CheckTools(tools, tc.profile) {
				got = append(got, d.Rule+" "+d.Pointer)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", maxLine+10)
	r := bufio.NewReaderSize(strings.NewReader("a\r\n\n"+long+"\nb"), 16)
	var got []string
	for {
		line, tooLong, err := readLine(r)
		switch {
		case tooLong:
			got = append(got, "(too long)")
		default:
			got = append(got, string(line))
		}
		if err != nil {
			break
		}
	}
	if diff := cmp.Diff([]string{"a", "", "(too long)", "b"}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
