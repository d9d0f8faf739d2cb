package probe

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

func decode(t *testing.T, s string) canonjson.Value {
	t.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestNormalizeSchema(t *testing.T) {
	for _, tc := range []struct {
		name             string
		listed, contract string
		equal            bool
	}{
		{"$schema dropped", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {}, "required": []}`,
			`{"type": "object", "properties": {}, "required": []}`, true},
		{"type array order", `{"type": ["null", "string"]}`, `{"type": ["string", "null"]}`, true},
		{"nullable anyOf", `{"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}], "description": "d"}`,
			`{"type": ["string", "null"], "enum": ["a", "b", null], "description": "d"}`, true},
		{"nullable anyOf, null first, const", `{"anyOf": [{"type": "null"}, {"type": "integer", "const": 3}]}`,
			`{"type": ["integer", "null"], "enum": [3, null]}`, true},
		{"anyOf of two types is not nullable", `{"anyOf": [{"type": "string"}, {"type": "integer"}]}`,
			`{"type": ["integer", "string"]}`, false},
		{"absent required", `{"type": "object", "properties": {"a": {"type": "string"}}}`,
			`{"type": "object", "properties": {"a": {"type": "string"}}, "required": []}`, true},
		{"required order", `{"type": "object", "properties": {}, "required": ["b", "a"]}`,
			`{"type": "object", "properties": {}, "required": ["a", "b"]}`, true},
		{"required differs", `{"type": "object", "properties": {}, "required": ["a"]}`,
			`{"type": "object", "properties": {}, "required": []}`, false},
		{"zod safe-integer bounds", `{"type": "integer", "minimum": -9007199254740991, "maximum": 9007199254740991}`,
			`{"type": "integer"}`, true},
		{"real bounds kept", `{"type": "integer", "minimum": 0, "maximum": 9007199254740991}`, `{"type": "integer"}`, false},
		{"nested property", `{"type": "object", "properties": {"x": {"$schema": "s", "type": ["null", "string"]}}, "required": []}`,
			`{"type": "object", "properties": {"x": {"type": ["string", "null"]}}, "required": []}`, true},
		{"items", `{"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}}`,
			`{"type": "array", "items": {"type": ["string", "null"]}}`, true},
		{"enum values untouched", `{"enum": [{"$schema": "kept"}]}`, `{"enum": [{}]}`, false},
		{"numbers by value", `{"type": "number", "maximum": 1.0}`, `{"type": "number", "maximum": 1}`, true},
		{"description differs", `{"type": "string", "description": "a"}`, `{"type": "string", "description": "b"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := canonjson.Equal(normalizeSchema(decode(t, tc.listed)), normalizeSchema(decode(t, tc.contract)))
			if got != tc.equal {
				t.Errorf("equal = %v, want %v\nlisted:   %s\ncontract: %s", got, tc.equal,
					canonjson.DigestForm(normalizeSchema(decode(t, tc.listed))), canonjson.DigestForm(normalizeSchema(decode(t, tc.contract))))
			}
		})
	}
}

func TestValidate(t *testing.T) {
	schema := decode(t, `{
		"type": "object", "additionalProperties": false, "required": ["id", "tags"],
		"properties": {
			"id": {"type": "string", "pattern": "^n-[0-9]+$", "minLength": 3, "maxLength": 6},
			"tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1, "maxItems": 2, "uniqueItems": true},
			"count": {"type": "integer", "minimum": 0, "exclusiveMaximum": 10},
			"ratio": {"type": ["number", "null"]},
			"link": {"type": "string", "format": "uri"},
			"kind": {"const": "note"}
		}
	}`)
	for _, tc := range []struct {
		value string
		want  string // a fragment of the first violation; "" for valid
	}{
		{`{"id": "n-1", "tags": ["a"]}`, ""},
		{`{"id": "n-1", "tags": ["a", "b"], "count": 9, "ratio": null, "link": "https://sample.example/x", "kind": "note"}`, ""},
		{`{"id": "n-1", "tags": ["a"], "ratio": 0.5}`, ""},
		{`{"tags": ["a"]}`, `required property "id" is missing`},
		{`{"id": "n-1", "tags": ["a"], "extra": 1}`, `/extra: property "extra" is not allowed`},
		{`{"id": "x-1", "tags": ["a"]}`, "does not match the pattern"},
		{`{"id": "n-1234567", "tags": ["a"]}`, "has 9 characters, want at most 6"},
		{`{"id": "n-1", "tags": []}`, "has 0 items, want at least 1"},
		{`{"id": "n-1", "tags": ["a", "a"]}`, "/tags/1: repeats item 0"},
		{`{"id": "n-1", "tags": ["c"]}`, `/tags/0: "c" is not one of`},
		{`{"id": "n-1", "tags": ["a"], "count": 10}`, "10 is not less than 10"},
		{`{"id": "n-1", "tags": ["a"], "count": -1}`, "-1 is not at least 0"},
		{`{"id": "n-1", "tags": ["a"], "count": 1.5}`, `is a number, want "integer"`},
		{`{"id": "n-1", "tags": ["a"], "ratio": "x"}`, `is a string, want ["number","null"]`},
		{`{"id": "n-1", "tags": ["a"], "link": "not a uri"}`, "is not an absolute URI"},
		{`{"id": "n-1", "tags": ["a"], "kind": "task"}`, "is not the constant"},
		{`[]`, `is an array, want "object"`},
	} {
		vs := validate(schema, decode(t, tc.value))
		switch {
		case tc.want == "" && len(vs) > 0:
			t.Errorf("%s: unexpected violations %v", tc.value, vs)
		case tc.want != "" && (len(vs) == 0 || !strings.Contains(vs[0].String(), tc.want)):
			t.Errorf("%s: violations %v, want one holding %q", tc.value, vs, tc.want)
		}
	}
}

func TestValidateCombinators(t *testing.T) {
	schema := decode(t, `{"oneOf": [{"type": "string"}, {"type": "string", "minLength": 2}]}`)
	if vs := validate(schema, decode(t, `"a"`)); len(vs) != 0 {
		t.Errorf("one branch matches: %v", vs)
	}
	if vs := validate(schema, decode(t, `"ab"`)); len(vs) == 0 {
		t.Error("two oneOf branches match and it passed")
	}
	if vs := validate(decode(t, `{"anyOf": [{"type": "string"}, {"type": "null"}]}`), decode(t, `1`)); len(vs) == 0 {
		t.Error("no anyOf branch matches and it passed")
	}
	if vs := validate(decode(t, `{"type": "string", "pattern": "(?=a)"}`), decode(t, `"a"`)); len(vs) == 0 || !strings.Contains(vs[0].Reason, "cannot be checked") {
		t.Errorf("look-ahead pattern: %v", vs)
	}
}
