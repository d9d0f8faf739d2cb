package jsonschema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

const outputSchema = `{
  "type": "object", "additionalProperties": false, "required": ["status", "data"],
  "properties": {
    "status": {"type": "integer", "enum": [200]},
    "data": {"type": "object", "additionalProperties": false, "required": ["items"],
      "properties": {"items": {"type": "array", "items": {"type": "object", "additionalProperties": false,
        "required": ["id"], "properties": {"id": {"type": "string", "minLength": 1}, "url": {"type": ["string", "null"], "format": "uri"}}}}}}
  }
}`

func TestValidate(t *testing.T) {
	s, err := Compile([]byte(outputSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, doc string
		want      []string // "pointer: message substring"
	}{
		{"valid", `{"status": 200, "data": {"items": [{"id": "a", "url": null}, {"id": "b", "url": "https://x.example/b"}]}}`, nil},
		{"wrong status", `{"status": 201, "data": {"items": []}}`, []string{"/status"}},
		{"integer as float", `{"status": 200.5, "data": {"items": []}}`, []string{"/status"}},
		{"extra key", `{"status": 200, "data": {"items": [], "more": 1}}`, []string{"/data: additional"}},
		{"nested", `{"status": 200, "data": {"items": [{"id": ""}, {"url": "not a uri"}]}}`,
			[]string{"/data/items/0/id", "/data/items/1: missing", "/data/items/1/url"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Validate([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("violations %v, want %d matching %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i].String(), w) && !strings.Contains(got[i].String(), w) {
					t.Errorf("violation %d = %q, want one matching %q", i, got[i], w)
				}
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct{ name, schema string }{
		{"not JSON", `{`},
		{"bad type", `{"type": "text"}`},
		{"look-around pattern", `{"type": "string", "pattern": "(?=a)"}`},
	} {
		if _, err := Compile([]byte(tc.schema)); err == nil {
			t.Errorf("%s: compiled without error", tc.name)
		} else if strings.Contains(err.Error(), "mem:") {
			t.Errorf("%s: error leaks the internal resource name: %v", tc.name, err)
		}
	}
	s, err := Compile([]byte(`{"type": "object"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate([]byte(`{"a":`)); err == nil {
		t.Error("a malformed document validated without error")
	}
}

func TestPointerEscapes(t *testing.T) {
	if got := pointer([]string{"a/b", "c~d", "0"}); got != "/a~1b/c~0d/0" {
		t.Errorf("pointer = %q", got)
	}
}

func TestNativeMatchesDecode(t *testing.T) {
	s, err := Compile([]byte(outputSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{
		`{"status": 200, "data": {"items": [{"id": "a", "url": null}]}}`,
		`{"status": 200.0, "data": {"items": [{"id": ""}]}}`,
		`{"status": true, "data": []}`,
	} {
		v, err := canonjson.Decode([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.Validate([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		got := s.ValidateValue(Native(v))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: ValidateValue(Native) = %v, Validate = %v", doc, got, want)
		}
	}
}

func TestCompilerCompilesMany(t *testing.T) {
	c := NewCompiler()
	a, err := c.Compile([]byte(`{"type": "string", "maxLength": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Compile([]byte(outputSchema))
	if err != nil {
		t.Fatal(err)
	}
	if vs, _ := a.Validate([]byte(`"abc"`)); len(vs) != 1 {
		t.Errorf("first schema: %v, want one violation", vs)
	}
	if vs, _ := b.Validate([]byte(`{"status": 200, "data": {"items": []}}`)); len(vs) != 0 {
		t.Errorf("second schema: %v, want none", vs)
	}
	if _, err := c.Compile([]byte(`{"type": "text"}`)); err == nil || strings.Contains(err.Error(), "mem:") {
		t.Errorf("bad schema: %v, want an error naming no internal resource", err)
	}
	// A failed compilation leaves the compiler usable.
	if _, err := c.Compile([]byte(`{"type": "integer"}`)); err != nil {
		t.Errorf("after a failure: %v", err)
	}
}
