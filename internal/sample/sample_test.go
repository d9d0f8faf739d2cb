package sample

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
	"github.com/code2skill/code2skill/internal/jsonschema"
)

func decode(t testing.TB, s string) canonjson.Value {
	t.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		t.Fatalf("decoding %s: %v", s, err)
	}
	return v
}

func compact(v canonjson.Value) string { return string(canonjson.DigestForm(v)) }

func TestValue(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type": "string"}`, `"synthetic-value"`},
		{`{"type": "string", "maxLength": 4}`, `"synt"`},
		{`{"type": "string", "minLength": 20}`, `"synthetic-valuexxxxx"`},
		{`{"type": "string", "format": "uri"}`, `"https://synthetic.example/resource"`},
		{`{"type": "string", "pattern": "^[a-f0-9]{64}$"}`, `"` + strings.Repeat("a", 64) + `"`},
		{`{"type": "string", "pattern": "^(draft|final)-[0-9]+$"}`, `"draft-0"`},
		{`{"type": "string", "pattern": "^x+$", "minLength": 3}`, `"xxx"`},
		{`{"type": "string", "enum": ["compact", "full"]}`, `"compact"`},
		{`{"type": "string", "const": "fixed"}`, `"fixed"`},
		{`{"type": "integer"}`, `1`},
		{`{"type": "integer", "minimum": 5}`, `5`},
		{`{"type": "integer", "exclusiveMinimum": 5}`, `6`},
		{`{"type": "integer", "maximum": -3}`, `-3`},
		{`{"type": "integer", "minimum": 0.5, "maximum": 2}`, `1`},
		{`{"type": "number", "minimum": 0.1, "maximum": 0.9}`, `0.5`},
		{`{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}`, `0.5`},
		{`{"type": "boolean"}`, `true`},
		{`{"type": "null"}`, `null`},
		{`{"type": ["string", "null"]}`, `"synthetic-value"`},
		{`{"type": "array", "items": {"type": "integer"}, "minItems": 2}`, `[1,1]`},
		{`{"type": "array", "items": {"type": "integer"}, "minItems": 2, "uniqueItems": true}`, `[1,2]`},
		{`{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["b"]}`, `{"b":1}`},
		{`{}`, `"synthetic-value"`},
	}
	for _, tt := range tests {
		got, err := Value(decode(t, tt.schema))
		if err != nil {
			t.Errorf("Value(%s): %v", tt.schema, err)
			continue
		}
		if compact(got) != tt.want {
			t.Errorf("Value(%s) = %s, want %s", tt.schema, compact(got), tt.want)
		}
	}
}

func TestNoSample(t *testing.T) {
	for _, schema := range []string{
		`{"type": "string", "minLength": 5, "maxLength": 2}`,
		`{"type": "integer", "minimum": 1.2, "maximum": 1.8}`,
		`{"type": "string", "pattern": "(?=a)b"}`, // look-around: not readable by RE2
		`{"type": "string", "pattern": "^a$", "minLength": 2}`,
		`{"type": "array", "minItems": 3, "maxItems": 1}`,
		`false`,
	} {
		if v, err := Value(decode(t, schema)); !errors.Is(err, ErrNoSample) {
			t.Errorf("Value(%s) = %v, %v; want ErrNoSample", schema, v, err)
		}
	}
	// A schema with one value has no alternate.
	for _, schema := range []string{`{"const": 1}`, `{"enum": ["only"]}`, `{"type": "null"}`,
		`{"type": "integer", "minimum": 3, "maximum": 3}`} {
		if v, err := Alternate(decode(t, schema)); !errors.Is(err, ErrNoSample) {
			t.Errorf("Alternate(%s) = %v, %v; want ErrNoSample", schema, v, err)
		}
	}
}

// corpus returns schemas to check samples against: hand-picked edge cases
// and every input schema and output schema of the derived example and
// synthetic packages.
func corpus(t testing.TB) []canonjson.Value {
	t.Helper()
	var out []canonjson.Value
	for _, s := range []string{
		`{"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3,5}$", "maxLength": 8}`,
		`{"type": "string", "pattern": "ab|cd|ef"}`,
		`{"type": "string", "format": "uri", "minLength": 40}`,
		`{"type": ["integer", "null"], "minimum": -2, "maximum": 2}`,
		`{"type": "number", "minimum": 2.5, "maximum": 2.75}`,
		`{"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 2, "maxItems": 3, "uniqueItems": true}`,
		`{"type": "object", "additionalProperties": false, "properties": {"n": {"type": "object", "additionalProperties": false, "properties": {"k": {"type": "boolean"}}, "required": ["k"]}}, "required": ["n"]}`,
	} {
		out = append(out, decode(t, s))
	}
	files, err := filepath.Glob("../derive/testdata/synthetic/*/want/mcp-tool/schema-contract.json")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../derive/testdata/example/want/mcp-tool/schema-contract.json")
	if len(files) < 5 {
		t.Fatalf("found %d schema contracts under ../derive/testdata, want the example and the synthetic packages", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc := decode(t, string(data)).(*canonjson.Object)
		caps, _ := doc.Get("capabilities")
		for _, c := range caps.(canonjson.Array) {
			co := c.(*canonjson.Object)
			for _, key := range []string{"inputSchema", "outputSchema"} {
				s, _ := co.Get(key)
				out = append(out, s)
				props, _ := s.(*canonjson.Object).Get("properties")
				for _, p := range props.(*canonjson.Object).All() {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

func compile(t testing.TB, schema canonjson.Value) *jsonschema.Schema {
	t.Helper()
	s, err := jsonschema.Compile(canonjson.Encode(schema))
	if err != nil {
		t.Fatalf("compiling %s: %v", compact(schema), err)
	}
	return s
}

func validate(t testing.TB, s *jsonschema.Schema, v canonjson.Value) []jsonschema.Violation {
	t.Helper()
	vs, err := s.Validate(canonjson.Encode(v))
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestSamplesValidate checks every sample of the corpus against its schema
// with a real JSON Schema validator, and that the first samples differ.
func TestSamplesValidate(t *testing.T) {
	schemas := corpus(t)
	sampled := 0
	for _, schema := range schemas {
		s := compile(t, schema)
		var seen []string
		for n := range 4 {
			v, err := Nth(schema, n)
			if err != nil {
				if !errors.Is(err, ErrNoSample) {
					t.Errorf("Nth(%s, %d): %v does not wrap ErrNoSample", compact(schema), n, err)
				}
				if n < 2 && !singleValued(schema) {
					t.Errorf("Nth(%s, %d): %v", compact(schema), n, err)
				}
				break
			}
			sampled++
			if vs := validate(t, s, v); len(vs) > 0 {
				t.Errorf("Nth(%s, %d) = %s is invalid: %v", compact(schema), n, compact(v), vs)
			}
			for _, prev := range seen {
				if prev == compact(v) {
					t.Errorf("Nth(%s, %d) = %s repeats an earlier sample", compact(schema), n, prev)
				}
			}
			seen = append(seen, compact(v))
		}
	}
	if sampled < 100 {
		t.Errorf("sampled %d values, want the corpus to give at least 100", sampled)
	}
}

// singleValued reports schemas that admit one value, whose Alternate fails
// by design.
func singleValued(schema canonjson.Value) bool {
	o, _ := schema.(*canonjson.Object)
	if o.Has("const") {
		return true
	}
	if e, ok := o.Get("enum"); ok && len(e.(canonjson.Array)) == 1 {
		return true
	}
	// A closed object admits one value when each of its properties does
	// ({} when it has none): a static output domain of one value, such as
	// {"deleted": true}.
	if ap, _ := o.Get("additionalProperties"); ap != canonjson.Bool(false) {
		return false
	}
	props, _ := o.Get("properties")
	for _, p := range props.(*canonjson.Object).All() {
		if !singleValued(p) {
			return false
		}
	}
	return true
}

// TestViolationsAreInvalid checks that every violation the corpus yields is
// rejected by a real validator.
func TestViolationsAreInvalid(t *testing.T) {
	keywords := map[string]bool{}
	for _, schema := range corpus(t) {
		s := compile(t, schema)
		for _, v := range Violations(schema) {
			if vs := validate(t, s, v.Value); len(vs) == 0 {
				t.Errorf("violation %s of %s = %s is valid", v.Keyword, compact(schema), compact(v.Value))
			}
			kw := v.Keyword[strings.LastIndex(v.Keyword, "/")+1:]
			keywords[kw] = true
		}
	}
	for _, kw := range []string{"type", "enum", "minLength", "maxLength", "pattern", "format", "minimum", "maximum",
		"minItems", "maxItems", "uniqueItems", "required", "additionalProperties"} {
		if !keywords[kw] {
			t.Errorf("no violation of %q in the corpus", kw)
		}
	}
}

func TestArguments(t *testing.T) {
	schema := decode(t, `{"type": "object", "additionalProperties": false, "required": ["sel"], "properties": {
		"sel": {"type": "object", "additionalProperties": false, "required": ["needs", "allows"],
			"properties": {"needs": {"type": "boolean"}, "allows": {"type": "boolean"}}},
		"files": {"type": "array", "items": {"type": "string"}},
		"note": {"type": "string"}}}`)
	rules := decode(t, `{
		"files": {"requiredWhen": [{"path": ["sel", "needs"], "operator": "equals", "value": true}],
		          "forbiddenWhen": [{"path": ["sel", "allows"], "operator": "equals", "value": false}]}}`).(*canonjson.Object)
	args, err := Arguments(schema, rules)
	if err != nil {
		t.Fatal(err)
	}
	if got := compact(args); got != `{"files":[],"sel":{"allows":true,"needs":true}}` {
		t.Errorf("Arguments = %s: want files added because sel.needs is true", got)
	}

	// Make the requiredWhen condition false, then settle: files is no longer
	// added, and the note stays optional.
	cond, _ := rules.Get("files")
	req, _ := cond.(*canonjson.Object).Get("requiredWhen")
	off, ok := Solve(req.(canonjson.Array)[0], condition.False, args, schema)
	if !ok {
		t.Fatal("Solve could not make sel.needs false")
	}
	off.Delete("files")
	settled, err := Settle(off, schema, rules)
	if err != nil {
		t.Fatal(err)
	}
	if got := compact(settled); got != `{"sel":{"allows":true,"needs":false}}` {
		t.Errorf("settled = %s", got)
	}

	// Both required and forbidden: no valid arguments.
	both, ok := Solve(decode(t, `{"operator": "and", "conditions": [
		{"path": ["sel", "needs"], "operator": "equals", "value": true},
		{"path": ["sel", "allows"], "operator": "equals", "value": false}]}`), condition.True, args, schema)
	if !ok {
		t.Fatal("Solve could not satisfy an and of two leaves")
	}
	if _, err := Settle(both, schema, rules); !errors.Is(err, ErrNoSample) {
		t.Errorf("Settle of required-and-forbidden = %v, want ErrNoSample", err)
	}
}

func TestSolve(t *testing.T) {
	schema := decode(t, `{"type": "object", "additionalProperties": false, "required": ["kind"], "properties": {
		"kind": {"type": "string", "enum": ["a", "b", "c"]},
		"count": {"type": "integer", "minimum": 0, "maximum": 10},
		"tags": {"type": "array", "items": {"type": "string"}},
		"items": {"type": "array", "items": {"type": "object", "additionalProperties": false,
			"properties": {"flag": {"type": "boolean"}}, "required": ["flag"]}}}}`)
	base, err := Arguments(schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := compile(t, schema)
	for _, c := range []string{
		`{"path": ["kind"], "operator": "equals", "value": "b"}`,
		`{"path": ["kind"], "operator": "in", "value": ["b", "c"]}`,
		`{"path": ["count"], "operator": "gt", "value": 4}`,
		`{"path": ["count"], "operator": "lte", "value": 0}`,
		`{"path": ["tags"], "operator": "non-empty"}`,
		`{"path": ["tags"], "operator": "present"}`,
		`{"path": ["items", "*", "flag"], "operator": "equals", "value": false}`,
		`{"operator": "not", "condition": {"path": ["kind"], "operator": "equals", "value": "a"}}`,
		`{"operator": "or", "operands": [{"path": ["kind"], "operator": "equals", "value": "z"}, {"path": ["count"], "operator": "equals", "value": 3}]}`,
	} {
		cond := decode(t, c)
		for _, want := range []condition.Truth{condition.True, condition.False} {
			got, ok := Solve(cond, want, base, schema)
			if !ok {
				t.Errorf("Solve(%s, %v) found no arguments", c, want)
				continue
			}
			if vs := validate(t, s, got); len(vs) > 0 {
				t.Errorf("Solve(%s, %v) = %s is invalid: %v", c, want, compact(got), vs)
			}
		}
	}
	// "kind" is required and its enum has no "z": equals "z" cannot hold.
	if got, ok := Solve(decode(t, `{"path": ["kind"], "operator": "absent"}`), condition.True, base, schema); ok {
		t.Errorf("Solve removed a required input: %s", compact(got))
	}
}

// FuzzNth checks, for any schema the validator compiles, that every value
// the sampler returns is valid.
func FuzzNth(f *testing.F) {
	for _, s := range corpus(f) {
		f.Add(string(canonjson.DigestForm(s)), 0)
	}
	f.Add(`{"type":"string","pattern":"^[a-z]+(-[a-z]+)*$","maxLength":12}`, 2)
	f.Fuzz(func(t *testing.T, schemaText string, n int) {
		if len(schemaText) > 4096 || n < 0 || n > 8 {
			return
		}
		schema, err := canonjson.Decode([]byte(schemaText))
		if err != nil {
			return
		}
		s, err := jsonschema.Compile([]byte(schemaText))
		if err != nil {
			return
		}
		v, err := Nth(schema, n)
		if err != nil {
			return
		}
		if vs := validate(t, s, v); len(vs) > 0 && portable(schema) {
			t.Errorf("Nth(%s, %d) = %s is invalid: %v", schemaText, n, compact(v), vs)
		}
	})
}

// portable reports whether a schema uses only the keywords the sampler
// knows (the portable subset); for others it may be wrong by design.
func portable(v canonjson.Value) bool {
	known := map[string]bool{"type": true, "enum": true, "const": true, "description": true, "title": true,
		"default": true, "examples": true, "properties": true, "required": true, "additionalProperties": true,
		"items": true, "minItems": true, "maxItems": true, "uniqueItems": true, "pattern": true,
		"minLength": true, "maxLength": true, "format": true, "minimum": true, "maximum": true,
		"exclusiveMinimum": true, "exclusiveMaximum": true}
	switch v := v.(type) {
	case *canonjson.Object:
		for k, e := range v.All() {
			if !known[k] {
				return false
			}
			switch k {
			case "properties":
				props, ok := e.(*canonjson.Object)
				if !ok {
					return false
				}
				for _, p := range props.All() {
					if !portable(p) {
						return false
					}
				}
			case "items":
				if !portable(e) {
					return false
				}
			case "additionalProperties":
				if _, ok := e.(canonjson.Bool); !ok {
					return false
				}
			case "format":
				if e != canonjson.String("uri") {
					return false
				}
			}
		}
		return true
	case canonjson.Bool:
		return true
	}
	return false
}
