package probe

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

func decodeObject(t *testing.T, s string) *canonjson.Object {
	t.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*canonjson.Object)
}

func TestGenerateDryRunCases(t *testing.T) {
	input := decodeObject(t, `{"type": "object", "additionalProperties": false, "required": ["kind"], "properties": {
		"kind": {"type": "string", "enum": ["parcel", "letter"]},
		"weight": {"type": "integer", "minimum": 1}}}`)
	rules := decodeObject(t, `{"weight": {"requiredWhen": [{"path": ["kind"], "operator": "equals", "value": "parcel"}], "forbiddenWhen": []}}`)
	exp := &expectations{strict: true, tools: []*expectedTool{
		{name: "read_tool", input: input},
		{name: "write_tool", input: input, rules: rules, write: true},
		{name: "given_tool", input: input, write: true},
		{name: "odd_tool", pointer: "/capabilities/3", write: true,
			input: decodeObject(t, `{"type": "object", "additionalProperties": false, "required": ["code"], "properties": {"code": {"type": "string", "pattern": "(?=x)y"}}}`)},
	}}
	given := []*Case{{Kind: DryRun, Name: "given_tool", Arguments: &canonjson.Object{}}}
	cases, ds := generateDryRunCases(exp, given)
	if len(cases) != 1 || cases[0].Name != "write_tool" || !cases[0].Generated {
		t.Fatalf("generated %v, want one case for write_tool", cases)
	}
	// The first enum value requires weight: the generated arguments carry it.
	if got := string(canonjson.DigestForm(cases[0].Arguments)); got != `{"kind":"parcel","weight":1}` {
		t.Errorf("arguments %s", got)
	}
	if vs := validate(input, cases[0].Arguments); len(vs) > 0 {
		t.Errorf("generated arguments invalid: %v", vs)
	}
	if cases[0].where() != "generated case" {
		t.Errorf("where() = %q", cases[0].where())
	}
	if len(ds) != 1 || ds[0].Rule != RuleCoverage.ID || !strings.Contains(ds[0].Message, `write tool "odd_tool"`) || ds[0].Pointer != "/capabilities/3/inputSchema" {
		t.Errorf("findings %v, want one PROBE_COVERAGE for odd_tool's input schema", ds)
	}
}
