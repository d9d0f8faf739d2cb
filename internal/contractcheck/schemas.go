package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/portableschema"
)

// Family X: the portable schema subset. Every input, output and need
// schema (and every schema nested in one) keeps to the keywords all
// runtimes read the same way, each used where it means something.
var (
	RuleSchemaType    = diag.Register("SCHEMA_TYPE", diag.Error, "a schema declares no type, an unknown type, or a type list other than [T, \"null\"]")
	RuleSchemaKeyword = diag.Register("SCHEMA_KEYWORD", diag.Error, "a schema uses a keyword outside the portable subset (anyOf, $ref, if/then, ...) or one its type does not use")
	RuleSchemaEnum    = diag.Register("SCHEMA_ENUM", diag.Error, "an enum is empty or not a list, or an enum or const value is not of the schema's type")
	RuleSchemaFormat  = diag.Register("SCHEMA_FORMAT", diag.Error, "a format other than uri, or a format on a non-string schema")
	RuleSchemaBounds  = diag.Register("SCHEMA_BOUNDS", diag.Error, "a bound is not a number (or a non-negative integer for lengths and item counts), a lower bound exceeds its upper bound, or uniqueItems is not a boolean")
	RuleSchemaObject  = diag.Register("SCHEMA_OBJECT", diag.Error, "an object schema is not closed (additionalProperties: false), has no properties object, or requires a property it does not declare")
	RuleSchemaArray   = diag.Register("SCHEMA_ARRAY", diag.Error, "an array schema declares no items schema")
	RuleSchemaPattern = diag.Register("SCHEMA_PATTERN", diag.Error, "a pattern is not a string or not a regular expression code2skill can run (Go RE2 syntax: no look-around or back-references)")
)

// Keywords of the portable subset, by the type they apply to.
var (
	commonKeywords = []string{"type", "enum", "const", "description", "title", "default", "examples"}
	typeKeywords   = map[string][]string{
		"object":  {"properties", "required", "additionalProperties"},
		"array":   {"items", "minItems", "maxItems", "uniqueItems"},
		"string":  {"pattern", "minLength", "maxLength", "format"},
		"integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
		"number":  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
		"boolean": nil,
		"null":    nil,
	}
	// typedKeywords are the keywords that apply to one type only.
	typedKeywords = slices.Concat(typeKeywords["object"], typeKeywords["array"], typeKeywords["string"], typeKeywords["number"])
)

// schemas checks every schema the contract declares.
func (k *checker) schemas() {
	for i := range k.c.Capabilities {
		cp := &k.c.Capabilities[i]
		for _, in := range cp.Inputs {
			if in.Schema != nil {
				k.schema(in.Schema, child(in.At, "schema"))
			}
		}
		for _, o := range cp.Outputs {
			if o.Schema != nil {
				k.schema(o.Schema, child(o.At, "schema"))
			}
		}
	}
	for _, g := range k.c.Goals {
		for _, n := range g.InformationNeeds {
			if n.Schema != nil {
				k.schema(n.Schema, child(n.At, "schema"))
			}
		}
	}
}

// schema checks one schema of the portable subset and the schemas nested
// in it.
func (k *checker) schema(v canonjson.Value, at string) {
	s, ok := v.(*canonjson.Object)
	if !ok {
		k.contractf(RuleSchemaType, at, "a schema is an object, not %s", canonjson.TypeName(v))
		return
	}
	types := k.schemaType(s, at)
	allowed := slices.Clone(commonKeywords)
	for _, t := range types {
		allowed = append(allowed, typeKeywords[t]...)
	}
	for key := range s.All() {
		if slices.Contains(allowed, key) {
			continue
		}
		if slices.Contains(typedKeywords, key) {
			if len(types) > 0 {
				k.contractf(RuleSchemaKeyword, ptr(at, key), "%q does not apply to a schema of type %q", key, types)
			}
			continue
		}
		k.contractf(RuleSchemaKeyword, ptr(at, key), "%q is outside the portable schema subset; express the rule with type, enum, const, properties, required, items, bounds, pattern or format", key)
	}
	if e, ok := s.Get("enum"); ok {
		list, isList := e.(canonjson.Array)
		if !isList || len(list) == 0 {
			k.contractf(RuleSchemaEnum, child(at, "enum"), "enum lists at least one value")
		}
		for i, x := range list {
			if len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return portableschema.HasType(t, x) }) {
				k.contractf(RuleSchemaEnum, ptr(at, "enum", i), "%s is not of the type %q", show(x), types)
			}
		}
	}
	if c, ok := s.Get("const"); ok && len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return portableschema.HasType(t, c) }) {
		k.contractf(RuleSchemaEnum, child(at, "const"), "const %s is not of the type %q", show(c), types)
	}
	if f, ok := s.Get("format"); ok && (f != canonjson.String("uri") || !slices.Contains(types, "string")) {
		k.contractf(RuleSchemaFormat, child(at, "format"), "the portable subset knows one format, uri, on strings; not %s", show(f))
	}
	if p, ok := s.Get("pattern"); ok {
		ps, isString := p.(canonjson.String)
		if !isString {
			k.contractf(RuleSchemaPattern, child(at, "pattern"), "a pattern is a string")
		} else if _, err := portableschema.CompilePattern(string(ps)); err != nil {
			k.contractf(RuleSchemaPattern, child(at, "pattern"), "pattern %q does not compile: %v", string(ps), err)
		}
	}
	k.bounds(s, at)
	if slices.Contains(types, "object") {
		k.objectSchema(s, at)
	}
	if slices.Contains(types, "array") {
		items, ok := s.Get("items")
		if !ok {
			k.contractf(RuleSchemaArray, at, "an array schema declares its items' schema")
		} else {
			k.schema(items, child(at, "items"))
		}
	}
}

// schemaType checks a schema's type and returns the types it allows.
func (k *checker) schemaType(s *canonjson.Object, at string) []string {
	t, ok := s.Get("type")
	if !ok {
		k.contractf(RuleSchemaType, at, "the schema declares no type")
		return nil
	}
	known := func(v canonjson.Value) (string, bool) {
		name, ok := v.(canonjson.String)
		_, isType := typeKeywords[string(name)]
		return string(name), ok && isType
	}
	switch t := t.(type) {
	case canonjson.String:
		name, ok := known(t)
		if !ok {
			k.contractf(RuleSchemaType, child(at, "type"), "%q is not a JSON type", string(t))
			return nil
		}
		return []string{name}
	case canonjson.Array:
		if len(t) == 2 {
			a, okA := known(t[0])
			b, okB := known(t[1])
			if okA && okB && a != b && (a == "null" || b == "null") {
				return []string{a, b}
			}
		}
		k.contractf(RuleSchemaType, child(at, "type"), `a type list is [T, "null"]: one type and null`)
		return nil
	}
	k.contractf(RuleSchemaType, child(at, "type"), "type is a string or [T, \"null\"], not %s", canonjson.TypeName(t))
	return nil
}

// bounds checks numeric, length and item-count bounds.
func (k *checker) bounds(s *canonjson.Object, at string) {
	numbers := map[string]canonjson.Number{}
	for _, key := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if v, ok := s.Get(key); ok {
			n, isNumber := v.(canonjson.Number)
			if !isNumber {
				k.contractf(RuleSchemaBounds, ptr(at, key), "%s is a number", key)
				continue
			}
			numbers[key] = n
		}
	}
	for _, lo := range []string{"minimum", "exclusiveMinimum"} {
		for _, hi := range []string{"maximum", "exclusiveMaximum"} {
			a, okA := numbers[lo]
			b, okB := numbers[hi]
			if !okA || !okB {
				continue
			}
			if c, ok := canonjson.CompareNumbers(a, b); ok && c > 0 {
				k.contractf(RuleSchemaBounds, ptr(at, lo), "%s %s exceeds %s %s", lo, string(a), hi, string(b))
			}
		}
	}
	counts := map[string]int64{}
	for _, key := range []string{"minLength", "maxLength", "minItems", "maxItems"} {
		v, ok := s.Get(key)
		if !ok {
			continue
		}
		n, isNumber := v.(canonjson.Number)
		i, fits := n.Int64()
		if !isNumber || !n.IsInteger() || !fits || i < 0 {
			k.contractf(RuleSchemaBounds, ptr(at, key), "%s is a non-negative integer", key)
			continue
		}
		counts[key] = i
	}
	for _, pair := range [][2]string{{"minLength", "maxLength"}, {"minItems", "maxItems"}} {
		lo, okLo := counts[pair[0]]
		hi, okHi := counts[pair[1]]
		if okLo && okHi && lo > hi {
			k.contractf(RuleSchemaBounds, ptr(at, pair[0]), "%s %d exceeds %s %d", pair[0], lo, pair[1], hi)
		}
	}
	if v, ok := s.Get("uniqueItems"); ok {
		if _, isBool := v.(canonjson.Bool); !isBool {
			k.contractf(RuleSchemaBounds, child(at, "uniqueItems"), "uniqueItems is a boolean")
		}
	}
}

// objectSchema checks that an object schema is closed and that its
// required properties are declared.
func (k *checker) objectSchema(s *canonjson.Object, at string) {
	if ap, ok := s.Get("additionalProperties"); !ok || ap != canonjson.Bool(false) {
		k.contractf(RuleSchemaObject, at, "an object schema is closed: set \"additionalProperties\": false and declare every property")
	}
	props, ok := member[*canonjson.Object](s, "properties")
	if !ok {
		k.contractf(RuleSchemaObject, at, "an object schema declares its properties (an object)")
	}
	for name, ps := range props.All() {
		k.schema(ps, child(child(at, "properties"), name))
	}
	if r, ok := s.Get("required"); ok {
		list, isList := r.(canonjson.Array)
		if !isList {
			k.contractf(RuleSchemaObject, child(at, "required"), "required is a list of property names")
			return
		}
		for i, e := range list {
			name, isString := e.(canonjson.String)
			switch {
			case !isString:
				k.contractf(RuleSchemaObject, ptr(at, "required", i), "required lists property names (strings)")
			case !props.Has(string(name)):
				k.contractf(RuleSchemaObject, ptr(at, "required", i), "%q is required but not among the properties", string(name))
			case slices.Contains(list[:i], e):
				k.contractf(RuleSchemaObject, ptr(at, "required", i), "%q is required twice", string(name))
			}
		}
	}
}
