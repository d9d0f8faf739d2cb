package portableschema

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

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		schema, value string
		want          string // a fragment of the first violation; "" for valid
	}{
		{`{"type": "integer"}`, `3`, ""},
		{`{"type": "integer"}`, `3.0`, `is a number, want "integer"`}, // 1.0 is not an integer
		{`{"type": "integer"}`, `3e0`, `is a number, want "integer"`},
		{`{"type": "number"}`, `3.5`, ""},
		{`{"type": ["string", "null"]}`, `null`, ""},
		{`{"type": ["number", "null"]}`, `"x"`, `is a string, want ["number","null"]`},
		{`{"type": "string", "enum": ["a", "b"]}`, `"c"`, `"c" is not one of ["a","b"]`},
		{`{"enum": [1, 2]}`, `2.0`, ""}, // numbers compare by value
		{`{"type": "string", "const": "a"}`, `"a"`, ""},
		{`{"const": "note"}`, `"task"`, "is not the constant"},
		{`{"type": "string", "minLength": 2, "maxLength": 3}`, `"äöü"`, ""}, // code points
		{`{"type": "string", "maxLength": 2}`, `"äöü"`, "has 3 characters, want at most 2"},
		{`{"type": "string", "minLength": 2.0}`, `"a"`, ""}, // a bound with a fraction bounds nothing
		{`{"type": "string", "pattern": "^[a-f0-9]{4}$"}`, `"beef"`, ""},
		{`{"type": "string", "pattern": "^[a-f0-9]{4}$"}`, `"BEEF"`, "does not match the pattern"},
		{`{"type": "string", "format": "uri"}`, `"https://example.test/x"`, ""},
		{`{"type": "string", "format": "uri"}`, `"urn:isbn:0451450523"`, ""},
		{`{"type": "string", "format": "uri"}`, `"not a uri"`, "is not an absolute URI"},
		{`{"type": "string", "format": "uri"}`, `"mailto:"`, "is not an absolute URI"}, // a scheme and nothing after it
		{`{"type": "integer", "minimum": 0, "maximum": 10}`, `11`, "11 is not at most 10"},
		{`{"type": "integer", "minimum": 0}`, `-1`, "-1 is not at least 0"},
		{`{"type": "number", "exclusiveMinimum": 0}`, `0`, "0 is not more than 0"},
		{`{"type": "integer", "exclusiveMaximum": 10}`, `10`, "10 is not less than 10"},
		{`{"type": "number", "maximum": 0.1}`, `0.1000000000000000000000000000000000000000000000000000000000000000000000000000000001`, "is not at most 0.1"}, // exact
		{`{"type": "number", "maximum": 10}`, `1e308`, "1e308 is not at most 10"},
		{`{"type": "number", "minimum": 5e-324}`, `0`, "0 is not at least 5e-324"},
		{`{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}, "required": ["a"]}`, `{"a": "x"}`, ""},
		{`{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}, "required": ["a"]}`, `{}`, `required property "a" is missing`},
		{`{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}}`, `{"b": 1}`, `/b: property "b" is not allowed`},
		{`{"type": "object", "additionalProperties": {"type": "integer"}}`, `{"b": "x"}`, `/b: is a string, want "integer"`},
		{`{"type": "object", "properties": {"a": {"type": "string"}}}`, `{"a": 1}`, `/a: is an integer, want "string"`},
		{`{"type": "object", "properties": {"a~b/c": {"type": "string"}}}`, `{"a~b/c": 1}`, `/a~0b~1c: `},
		{`{"type": "object"}`, `[]`, `is an array, want "object"`},
		{`{"type": "array", "items": {"type": "integer"}, "minItems": 1, "uniqueItems": true}`, `[1, 2]`, ""},
		{`{"type": "array", "items": {"type": "integer"}, "uniqueItems": true}`, `[1, 1.0]`, "/1: repeats item 0"},
		{`{"type": "array", "minItems": 1}`, `[]`, "has 0 items, want at least 1"},
		{`{"type": "array", "items": {"type": "integer"}, "maxItems": 1}`, `[1, 2]`, "has 2 items, want at most 1"},
		{`{"type": "array", "items": {"type": "integer"}}`, `[1, "x"]`, `/1: is a string`},
		{`{"oneOf": [{"type": "string"}, {"type": "string", "minLength": 2}]}`, `"a"`, ""},
		{`{"oneOf": [{"type": "string"}, {"type": "string", "minLength": 2}]}`, `"ab"`, "matches 2 oneOf branches, want exactly one"},
		{`{"anyOf": [{"type": "string"}, {"type": "null"}]}`, `1`, "matches none of the anyOf branches"},
		{`{"allOf": [{"type": "integer"}, {"minimum": 2}]}`, `1`, "1 is not at least 2"},
		{`true`, `"anything"`, ""},
		{`false`, `"anything"`, "no value is allowed here"},
	} {
		vs := Validate(decode(t, tc.schema), decode(t, tc.value), 0)
		switch {
		case tc.want == "" && len(vs) > 0:
			t.Errorf("Validate(%s, %s): unexpected violations %v", tc.schema, tc.value, vs)
		case tc.want != "" && (len(vs) == 0 || !strings.Contains(vs[0].String(), tc.want)):
			t.Errorf("Validate(%s, %s) = %v, want one holding %q", tc.schema, tc.value, vs, tc.want)
		}
	}
}

func TestValidateLimit(t *testing.T) {
	schema := decode(t, `{"type": "array", "items": {"type": "string"}}`)
	value := decode(t, `[1, 2, 3, 4, 5, 6, 7]`)
	if vs := Validate(schema, value, 0); len(vs) != 7 {
		t.Errorf("no limit: %d violations", len(vs))
	}
	if vs := Validate(schema, value, 5); len(vs) != 5 || vs[4].Pointer != "/4" {
		t.Errorf("limit 5: %v", vs)
	}
}

// TestUnchecked: a pattern Go cannot compile is a violation marked
// Unchecked, and CompilePattern agrees that it cannot be compiled.
func TestUnchecked(t *testing.T) {
	vs := Validate(decode(t, `{"type": "string", "pattern": "(?=a)"}`), decode(t, `"a"`), 0)
	if len(vs) != 1 || !vs[0].Unchecked || !strings.Contains(vs[0].Reason, "cannot be checked") {
		t.Errorf("look-ahead pattern: %+v", vs)
	}
	if _, err := CompilePattern("(?=a)"); err == nil {
		t.Error("CompilePattern compiled a look-ahead")
	}
	vs = Validate(decode(t, `{"type": "string", "pattern": "^b"}`), decode(t, `"a"`), 0)
	if len(vs) != 1 || vs[0].Unchecked {
		t.Errorf("a pattern that fails is a checked violation: %+v", vs)
	}
}
