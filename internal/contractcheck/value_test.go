package contractcheck

import (
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		schema, value string
		ok            bool
	}{
		{`{"type": "integer"}`, `3`, true},
		{`{"type": "integer"}`, `3.0`, false}, // 1.0 is not an integer
		{`{"type": "number"}`, `3.5`, true},
		{`{"type": ["string", "null"]}`, `null`, true},
		{`{"type": "string", "enum": ["a", "b"]}`, `"c"`, false},
		{`{"type": "string", "const": "a"}`, `"a"`, true},
		{`{"type": "string", "minLength": 2, "maxLength": 3}`, `"äöü"`, true},
		{`{"type": "string", "maxLength": 2}`, `"äöü"`, false},
		{`{"type": "string", "pattern": "^[a-f0-9]{4}$"}`, `"beef"`, true},
		{`{"type": "string", "pattern": "^[a-f0-9]{4}$"}`, `"BEEF"`, false},
		{`{"type": "string", "pattern": "(?=a)"}`, `"b"`, true}, // RuleSchemaPattern reports the pattern
		{`{"type": "string", "pattern": "(?=a)", "maxLength": 1}`, `"bb"`, false},
		{`{"type": "string", "format": "uri"}`, `"https://example.test/x"`, true},
		{`{"type": "string", "format": "uri"}`, `"not a uri"`, false},
		{`{"type": "integer", "minimum": 0, "maximum": 10}`, `11`, false},
		{`{"type": "number", "exclusiveMinimum": 0}`, `0`, false},
		{`{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}, "required": ["a"]}`, `{"a": "x"}`, true},
		{`{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}, "required": ["a"]}`, `{}`, false},
		{`{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}}`, `{"b": 1}`, false},
		{`{"type": "object", "properties": {"a": {"type": "string"}}}`, `{"a": 1}`, false},
		{`{"type": "array", "items": {"type": "integer"}, "minItems": 1, "uniqueItems": true}`, `[1, 2]`, true},
		{`{"type": "array", "items": {"type": "integer"}, "uniqueItems": true}`, `[1, 1.0]`, false},
		{`{"type": "array", "items": {"type": "integer"}, "maxItems": 1}`, `[1, 2]`, false},
		{`{"type": "array", "items": {"type": "integer"}}`, `[1, "x"]`, false},
		{`true`, `"anything"`, true},
		{`false`, `"anything"`, false},
	} {
		s, err1 := canonjson.Decode([]byte(tc.schema))
		v, err2 := canonjson.Decode([]byte(tc.value))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if why := validate(s, v); (why == "") != tc.ok {
			t.Errorf("validate(%s, %s) = %q, want ok=%v", tc.schema, tc.value, why, tc.ok)
		}
	}
}

func TestLocalPathName(t *testing.T) {
	for name, want := range map[string]bool{
		"filePath": true, "local_path": true, "file_path": true, "path": true, "LocalPath": true, "source-path": true,
		"pathway": false, "pathName": false, "detailLevel": false, "hostAttachmentGrant": false, "xpath2": false,
	} {
		if got := localPathName(name); got != want {
			t.Errorf("localPathName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://application.example/api/sample-request/kinds": true,
		"http://localhost:8080/x?fixed=1":                      true,
		"https://trails.example/api/trails/{trailId}":          true,
		"ftp://application.example/x":                          false,
		"//application.example/x":                              false,
		"https:///x":                                           false,
		"https://user:secret@application.example/x":            false,
		"https://exa mple.com/%zz":                             false,
	} {
		if got := checkURL(raw) == ""; got != ok {
			t.Errorf("checkURL(%q) accepted %v, want %v (%s)", raw, got, ok, checkURL(raw))
		}
	}
}

func TestBareOrigin(t *testing.T) {
	for o, want := range map[string]bool{
		"https://application.example":      true,
		"http://localhost:8080":            true,
		"https://application.example/":     false,
		"https://application.example/api":  false,
		"https://application.example?x":    false,
		"https://application.example#f":    false,
		"https://user@application.example": false,
		"HTTPS://application.example":      false,
		"application.example":              false,
	} {
		if got := bareOrigin(o); got != want {
			t.Errorf("bareOrigin(%q) = %v, want %v", o, got, want)
		}
	}
}

func TestSameSchemaIgnoresAnnotations(t *testing.T) {
	a, _ := canonjson.Decode([]byte(`{"type": ["null", "string"], "description": "x", "properties": {"description": {"type": "string", "title": "t"}}}`))
	b, _ := canonjson.Decode([]byte(`{"properties": {"description": {"type": "string"}}, "type": ["string", "null"]}`))
	c, _ := canonjson.Decode([]byte(`{"properties": {"title": {"type": "string"}}, "type": ["string", "null"]}`))
	if !sameSchema(a, b) {
		t.Error("schemas differing only in annotations and type order differ")
	}
	if sameSchema(a, c) {
		t.Error("a property named like an annotation was dropped")
	}
}
