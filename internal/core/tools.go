package core

import (
	"maps"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
)

// Spec 003: a Tool's arguments carry business input only. Credentials and
// service addresses are the host's configuration, and no generic Tool
// (call_rpc, invoke_method, publish_message) lets an agent send whatever
// request it likes.

// genericToolNames are the names of "call anything" Tools, spelled
// snake_case.
var genericToolNames = []string{
	"call_api", "call_rpc", "call_endpoint", "call_method", "invoke_api", "invoke_method", "invoke_rpc",
	"publish_message", "http_request", "api_request", "raw_request", "make_request", "send_request",
	"proxy_request", "execute_request", "generic_request", "request", "fetch_url", "proxy",
}

// methodInputs and targetInputs are the inputs of a generic proxy: a free
// HTTP method, and a free path or URL.
var (
	methodInputs = []string{"method", "httpmethod", "verb", "httpverb"}
	targetInputs = []string{"path", "url", "uri", "endpoint", "route", "apipath", "resource", "resourcepath"}
)

// checkToolInputs applies the input rules to a tools/list answer: no
// credential-like property anywhere in an input schema, no address-like
// property at its top level, no generic proxy Tool.
func checkToolInputs(tools []mcpcheck.Tool) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for i := range tools {
		t := &tools[i]
		var entry struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		}
		if canonjson.Unmarshal(t.Raw, &entry) != nil || entry.Name == "" {
			continue // the shape rules report a malformed entry
		}
		props, _ := entry.InputSchema["properties"].(map[string]any)
		var method, target string
		for _, name := range slices.Sorted(maps.Keys(props)) {
			ptr := t.Pointer("inputSchema", "properties", name)
			if credential.Address(name) {
				ds = append(ds, RuleToolInputAddress.New(mcpcheck.ServerFile,
					"tool %q takes the service address %q as an argument; the host configures where requests go "+
						"(a CODE2SKILL_<FEATURE>_<SERVICE>_BASE_URL variable), never the agent", entry.Name, name).AtPointer(ptr))
			}
			switch key := strings.Join(credential.Words(name), ""); {
			case slices.Contains(methodInputs, key):
				method = name
			case slices.Contains(targetInputs, key):
				target = name
			}
		}
		ds = append(ds, credentialInputs(entry.Name, entry.InputSchema, t.Pointer("inputSchema"))...)
		switch {
		case method != "" && target != "":
			ds = append(ds, RuleToolGenericProxy.New(mcpcheck.ServerFile,
				"tool %q takes a free HTTP method (%q) and a free path or URL (%q): a generic proxy lets an agent send any request; "+
					"register one Tool per business capability the source proves", entry.Name, method, target).AtPointer(t.Pointer("inputSchema")))
		case slices.Contains(genericToolNames, strings.Join(credential.Words(entry.Name), "_")):
			ds = append(ds, RuleToolGenericProxy.New(mcpcheck.ServerFile,
				"tool %q is named like a generic call (call_api, invoke_method, publish_message); "+
					"register one Tool per business capability the source proves", entry.Name).AtPointer(t.Pointer("name")))
		}
	}
	return ds
}

// credentialInputs reports the credential-like properties of a schema and
// of the schemas nested in it, in a stable order.
func credentialInputs(tool string, schema map[string]any, at string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	var walk func(s map[string]any, ptr string, depth int)
	walk = func(s map[string]any, ptr string, depth int) {
		if s == nil || depth > 16 {
			return
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for _, name := range slices.Sorted(maps.Keys(props)) {
				p := ptr + diag.Pointer("properties", name)
				if credential.Name(name) {
					ds = append(ds, RuleToolInputCredential.New(mcpcheck.ServerFile,
						"tool %q takes the credential %q as an argument; credentials are injected by the host into the server's "+
							"environment (CODE2SKILL_<FEATURE>_<SERVICE>_TOKEN, _API_KEY, _PASSWORD …), never passed by the agent", tool, name).AtPointer(p))
				}
				sub, _ := props[name].(map[string]any)
				walk(sub, p, depth+1)
			}
		}
		for _, kw := range []string{"items", "additionalProperties"} {
			if sub, ok := s[kw].(map[string]any); ok {
				walk(sub, ptr+diag.Pointer(kw), depth+1)
			}
		}
		for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
			if list, ok := s[kw].([]any); ok {
				for i, v := range list {
					sub, _ := v.(map[string]any)
					walk(sub, ptr+diag.Pointer(kw, i), depth+1)
				}
			}
		}
	}
	walk(schema, at, 0)
	return ds
}
