package compile

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// The portable JSON Schema subset the compiled validator implements, by the
// keywords each position of a schema may hold. Annotations are accepted and
// carry no constraint.
var (
	annotationKeywords = []string{"description", "title", "default", "examples"}
	schemaKeywords     = []string{
		"type", "enum", "const",
		"properties", "required", "additionalProperties",
		"items", "minItems", "maxItems", "uniqueItems",
		"pattern", "minLength", "maxLength", "format",
		"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	}
	jsonTypes = []string{"null", "boolean", "string", "integer", "number", "array", "object"}
)

// schemas refuses every declared input and output schema the compiled
// validator would not honour in full.
func (pl *planner) schemas() {
	for i := range pl.cp.cap.Inputs {
		in := &pl.cp.cap.Inputs[i]
		if in.Schema != nil {
			pl.schema(in.Schema, ptr(in.At, "schema"))
		}
	}
	for i := range pl.cp.cap.Outputs {
		o := &pl.cp.cap.Outputs[i]
		if o.Schema != nil {
			pl.schema(o.Schema, ptr(o.At, "schema"))
		}
	}
}

// schema checks one schema and the schemas nested in it.
func (pl *planner) schema(v canonjson.Value, at string) {
	s, ok := v.(*canonjson.Object)
	if !ok {
		pl.refuseContract(RuleSchemaUnsupported, at, "a schema must be an object, not %s", canonjson.TypeName(v))
		return
	}
	for k, val := range s.All() {
		kat := ptr(at, k)
		if slices.Contains(annotationKeywords, k) {
			continue
		}
		if !slices.Contains(schemaKeywords, k) {
			pl.refuseContract(RuleSchemaUnsupported, kat, "the keyword %q is outside the portable subset; the compiled validator would ignore it", k)
			continue
		}
		if why := pl.keyword(k, val, kat); why != "" {
			pl.refuseContract(RuleSchemaUnsupported, kat, "%s %s", k, why)
		}
	}
}

// keyword returns why a keyword's value is unsupported, or "" (after
// checking the schemas nested under it).
func (pl *planner) keyword(k string, v canonjson.Value, at string) string {
	switch k {
	case "type":
		types := []canonjson.Value{v}
		if a, ok := v.(canonjson.Array); ok {
			types = a
			if len(a) == 0 {
				return "must name at least one type"
			}
		}
		for _, t := range types {
			if s, ok := t.(canonjson.String); !ok || !slices.Contains(jsonTypes, string(s)) {
				return "must name JSON types (" + strings.Join(jsonTypes, ", ") + ")"
			}
		}
	case "enum":
		if a, ok := v.(canonjson.Array); !ok || len(a) == 0 {
			return "must be a non-empty array"
		}
	case "properties":
		props, ok := v.(*canonjson.Object)
		if !ok {
			return "must be an object of schemas"
		}
		for name, sub := range props.All() {
			pl.schema(sub, ptr(at, name))
		}
	case "required":
		a, ok := v.(canonjson.Array)
		if !ok || slices.ContainsFunc(a, func(e canonjson.Value) bool { _, ok := e.(canonjson.String); return !ok }) {
			return "must be an array of member names"
		}
	case "additionalProperties", "uniqueItems":
		if _, ok := v.(canonjson.Bool); !ok {
			return "must be true or false"
		}
	case "items":
		if _, ok := v.(*canonjson.Object); !ok {
			return "must be one schema for every element"
		}
		pl.schema(v, at)
	case "minItems", "maxItems", "minLength", "maxLength":
		if n, ok := v.(canonjson.Number); !ok || !n.IsInteger() || strings.HasPrefix(string(n), "-") {
			return "must be a non-negative integer"
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		if _, ok := v.(canonjson.Number); !ok {
			return "must be a number"
		}
	case "format":
		if s, ok := v.(canonjson.String); !ok || s != "uri" {
			return `supports only "uri"`
		}
	case "pattern":
		s, ok := v.(canonjson.String)
		if !ok {
			return "must be a string"
		}
		if why := portablePattern(string(s)); why != "" {
			return why
		}
	}
	return ""
}

// portablePattern returns why a pattern is not portable, or "". A portable
// pattern means the same to every judge of the package: the compiled
// Function and zod read it as an ECMAScript RegExp, the probe and the
// finalizer as a Go regular expression. So it must compile in Go (no
// look-around, no backreferences) and use none of the Go-only syntax that
// ECMAScript reads differently: flag groups (?i), (?P<name>…), \p and \P
// classes, \A \z \Q \E \C, \x{…} and [[:alpha:]] classes.
func portablePattern(p string) string {
	if _, err := regexp.Compile(p); err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return "is not a portable regular expression: " + string(se.Code)
		}
		return "is not a portable regular expression"
	}
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 < len(p) {
				switch c := p[i+1]; c {
				case 'p', 'P', 'A', 'z', 'Q', 'E', 'C':
					return `uses \` + string(c) + `, which ECMAScript reads differently`
				case 'x':
					if i+2 < len(p) && p[i+2] == '{' {
						return `uses \x{…}, which ECMAScript reads differently`
					}
				}
			}
			i++
		case '(':
			if strings.HasPrefix(p[i:], "(?") && !strings.HasPrefix(p[i:], "(?:") &&
				!(strings.HasPrefix(p[i:], "(?<") && !strings.HasPrefix(p[i:], "(?<=") && !strings.HasPrefix(p[i:], "(?<!")) {
				return "uses a (?…) group ECMAScript does not read the same way; only (?:…) and (?<name>…) are portable"
			}
		case '[':
			if strings.HasPrefix(p[i:], "[[:") {
				return "uses a [[:class:]] bracket, which ECMAScript reads differently"
			}
		}
	}
	return ""
}

// validationSchema returns the schema reduced to what validation needs: the
// annotations (description, title, default, examples) are dropped wherever
// they are keywords, never where they name properties.
func validationSchema(v canonjson.Value) canonjson.Value {
	s, ok := v.(*canonjson.Object)
	if !ok {
		return v
	}
	out := &canonjson.Object{}
	for k, val := range s.All() {
		switch {
		case slices.Contains(annotationKeywords, k):
		case k == "properties":
			props := &canonjson.Object{}
			if p, ok := val.(*canonjson.Object); ok {
				for name, sub := range p.All() {
					props.Set(name, validationSchema(sub))
				}
			}
			out.Set(k, props)
		case k == "items":
			out.Set(k, validationSchema(val))
		default:
			out.Set(k, val)
		}
	}
	return out
}
