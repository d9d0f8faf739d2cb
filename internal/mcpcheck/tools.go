package mcpcheck

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/toolresult"
)

// toolNameRE is SEP-986's character set with the 64-character limit that
// every major model API puts on function names (the MCP specification
// itself allows 128).
var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// hints are the four tool annotations every generated tool declares.
var hints = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// CheckTools applies the tool shape rules of a profile (ProfileCore or
// ProfileStrict) to a tools/list answer. It reads each entry's raw JSON, so
// it also sees what the SDK's types drop, and ignores what the TypeScript
// SDK adds on its own ($schema in schemas, execution on each tool).
//
// Both profiles require a valid unique name, a non-empty title and
// description, the four boolean hints and an object inputSchema.
// core-export-v1 further requires open schemas: its tools accept lenient
// input and return pass-through results, so additionalProperties: false
// anywhere in the inputSchema, or in an outputSchema, is an error.
// strict-export-v1 schemas are closed and compared with the contract by
// the probe instead.
func CheckTools(tools []Tool, profile string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	first := map[string]int{}
	for i := range tools {
		t := &tools[i]
		var entry map[string]any
		if err := canonjson.Unmarshal(t.Raw, &entry); err != nil || entry == nil {
			ds = append(ds, RuleToolsList.New(ServerFile, "tools/list entry %d is not an object", t.Index).AtPointer(t.Pointer()))
			continue
		}
		ds = append(ds, checkTool(t, entry, profile)...)
		name, ok := entry["name"].(string)
		if !ok {
			continue
		}
		if j, dup := first[name]; dup {
			ds = append(ds, RuleToolNameDuplicate.New(ServerFile, "tool %q is listed twice, as entries %d and %d", name, j, t.Index).
				AtPointer(t.Pointer("name")))
			continue
		}
		first[name] = t.Index
	}
	return ds
}

func checkTool(t *Tool, entry map[string]any, profile string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	add := func(rule *diag.Rule, pointer string, format string, args ...any) {
		ds = append(ds, rule.New(ServerFile, format, args...).AtPointer(pointer))
	}
	name, _ := entry["name"].(string)
	who := fmt.Sprintf("tool %q", name)
	switch {
	case entry["name"] == nil:
		who = fmt.Sprintf("tools/list entry %d", t.Index)
		add(RuleToolName, t.Pointer(), "%s has no name", who)
	case !toolNameRE.MatchString(name):
		add(RuleToolName, t.Pointer("name"), "%s: a name must be 1-64 characters of A-Z a-z 0-9 _ . -", who)
	}
	if !nonBlank(entry["title"]) {
		add(RuleToolTitle, t.Pointer("title"), "%s has no title; give it a short human-readable one", who)
	}
	if !nonBlank(entry["description"]) {
		add(RuleToolDescription, t.Pointer("description"), "%s has no description; say what it does, when to call it and what it returns", who)
	}
	switch ann, ok := entry["annotations"].(map[string]any); {
	case !ok:
		add(RuleToolAnnotations, t.Pointer("annotations"), "%s has no annotations; declare %s", who, strings.Join(hints, ", "))
	default:
		var bad []string
		for _, h := range hints {
			if _, isBool := ann[h].(bool); !isBool {
				bad = append(bad, h)
			}
		}
		if len(bad) > 0 {
			add(RuleToolAnnotations, t.Pointer("annotations"), "%s: annotations lack boolean %s", who, strings.Join(bad, ", "))
		}
	}
	input, ok := entry["inputSchema"].(map[string]any)
	if !ok || input["type"] != "object" {
		add(RuleToolInputSchema, t.Pointer("inputSchema"), `%s: inputSchema must be a JSON Schema object with "type": "object"`, who)
	} else if profile != ProfileStrict {
		for _, p := range closedObjects(input, nil) {
			add(RuleToolInputClosed, t.Pointer(append([]any{"inputSchema"}, p...)...),
				"%s: the inputSchema forbids additional properties; core-export-v1 input schemas stay open so that lenient input reaches the backend", who)
		}
	}
	if raw, present := entry["outputSchema"]; present {
		output, ok := raw.(map[string]any)
		if !ok || output["type"] != "object" {
			add(RuleToolOutputSchema, t.Pointer("outputSchema"), `%s: outputSchema must be a JSON Schema object with "type": "object"; %s and %s refuse the whole tools/list answer otherwise, so that no Tool of the server can be called`,
				who, toolresult.ClientTypeScript, toolresult.ClientInspector)
		} else if profile != ProfileStrict {
			for _, p := range closedObjects(output, nil) {
				add(RuleToolOutputClosed, t.Pointer(append([]any{"outputSchema"}, p...)...),
					"%s: the outputSchema forbids additional properties; core-export-v1 declares no outputSchema (or an open one) so that real responses are not rejected", who)
			}
		}
	}
	return ds
}

// closedObjects returns the paths, relative to schema, of every subschema
// with "additionalProperties": false, in a stable order.
func closedObjects(schema map[string]any, path []any) [][]any {
	var out [][]any
	if schema["additionalProperties"] == false {
		out = append(out, append(append([]any(nil), path...), "additionalProperties"))
	}
	sub := func(v any, tokens ...any) {
		if m, ok := v.(map[string]any); ok {
			out = append(out, closedObjects(m, append(append([]any(nil), path...), tokens...))...)
		}
	}
	if props, ok := schema["properties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(props)) {
			sub(props[k], "properties", k)
		}
	}
	sub(schema["items"], "items")
	sub(schema["additionalProperties"], "additionalProperties")
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		if list, ok := schema[kw].([]any); ok {
			for i, v := range list {
				sub(v, kw, i)
			}
		}
	}
	return out
}

func nonBlank(v any) bool {
	s, ok := v.(string)
	return ok && strings.TrimSpace(s) != ""
}
