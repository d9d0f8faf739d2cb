package probe

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// JavaScript's safe-integer bounds, which zod writes into the JSON Schema of
// every z.number().int() that declares no bounds of its own.
const (
	minSafeInteger canonjson.Number = "-9007199254740991"
	maxSafeInteger canonjson.Number = "9007199254740991"
)

// normalizeSchema returns a copy of a JSON Schema with the differences that
// SDKs introduce without changing what the schema accepts taken out, so
// that the schema a server lists can be compared with the contract's:
//
//   - "$schema" is dropped (the TypeScript SDK adds draft-07's);
//   - a type array is sorted and deduplicated;
//   - a two-branch anyOf of one typed schema and {"type": "null"} (zod's
//     .nullable()) becomes that schema with "type": [T, "null"], an enum or
//     const of it becoming an enum that includes null;
//   - an object schema's "required" is sorted, and an absent one is [];
//     its absent "properties" is {};
//   - an integer's minimum and maximum are dropped when they are exactly
//     JavaScript's safe-integer bounds (zod's default for .int()).
//
// Subschemas are normalised wherever the portable subset allows them:
// properties, items, additionalProperties and the members of anyOf, oneOf
// and allOf. Values inside enum, const and other keywords are left as they
// are.
func normalizeSchema(v canonjson.Value) canonjson.Value {
	o, ok := v.(*canonjson.Object)
	if !ok {
		return v
	}
	out := canonjson.NewObject()
	for k, sub := range o.All() {
		switch k {
		case "$schema":
			continue
		case "properties":
			if props, ok := sub.(*canonjson.Object); ok {
				np := canonjson.NewObject()
				for name, s := range props.All() {
					np.Set(name, normalizeSchema(s))
				}
				sub = np
			}
		case "items", "additionalProperties":
			sub = normalizeSchema(sub)
		case "anyOf", "oneOf", "allOf":
			if list, ok := sub.(canonjson.Array); ok {
				nl := make(canonjson.Array, len(list))
				for i, s := range list {
					nl[i] = normalizeSchema(s)
				}
				sub = nl
			}
		case "type":
			sub = sortedTypes(sub)
		default:
			sub = canonjson.Clone(sub)
		}
		out.Set(k, sub)
	}
	out = mergeNullable(out)
	if isObjectSchema(out) {
		req, _ := out.Get("required")
		if req == nil {
			req = canonjson.Array{}
		}
		out.Set("required", sortedStrings(req))
		if !out.Has("properties") {
			out.Set("properties", canonjson.NewObject())
		}
	}
	if hasType(out, "integer") {
		for _, b := range []canonjson.Member{{Key: "minimum", Value: minSafeInteger}, {Key: "maximum", Value: maxSafeInteger}} {
			if v, ok := out.Get(b.Key); ok && v == b.Value {
				out.Delete(b.Key)
			}
		}
	}
	return out
}

// mergeNullable rewrites {anyOf: [S, {type: "null"}], ...rest} (in either
// order) into S's keywords plus rest with "type": [T, "null"].
func mergeNullable(o *canonjson.Object) *canonjson.Object {
	v, _ := o.Get("anyOf")
	list, ok := v.(canonjson.Array)
	if !ok || len(list) != 2 {
		return o
	}
	var typed *canonjson.Object
	nulls := 0
	for _, branch := range list {
		b, ok := branch.(*canonjson.Object)
		if !ok {
			return o
		}
		if t, _ := b.Get("type"); t == canonjson.Value(canonjson.String("null")) && b.Len() == 1 {
			nulls++
			continue
		}
		typed = b
	}
	if nulls != 1 || typed == nil {
		return o
	}
	t, ok := typed.Get("type")
	if _, single := t.(canonjson.String); !ok || !single || typed.Has("anyOf") {
		return o
	}
	out := canonjson.NewObject()
	for k, v := range typed.All() {
		out.Set(k, v)
	}
	for k, v := range o.All() {
		if k != "anyOf" {
			out.Set(k, v)
		}
	}
	out.Set("type", sortedTypes(canonjson.Array{t, canonjson.String("null")}))
	if c, ok := out.Get("const"); ok {
		out.Delete("const")
		out.Set("enum", canonjson.Array{c})
	}
	if e, ok := out.Get("enum"); ok {
		if list, ok := e.(canonjson.Array); ok && !slices.ContainsFunc(list, func(v canonjson.Value) bool { return v == canonjson.Value(canonjson.Null{}) }) {
			out.Set("enum", append(slices.Clone(list), canonjson.Null{}))
		}
	}
	return out
}

func isObjectSchema(o *canonjson.Object) bool { return hasType(o, "object") }

// hasType reports whether a schema's type is, or includes, name.
func hasType(o *canonjson.Object, name string) bool {
	switch t, _ := o.Get("type"); t := t.(type) {
	case canonjson.String:
		return string(t) == name
	case canonjson.Array:
		return slices.Contains(t, canonjson.Value(canonjson.String(name)))
	}
	return false
}

// sortedTypes sorts and deduplicates a type array; other values pass.
func sortedTypes(v canonjson.Value) canonjson.Value {
	if _, ok := v.(canonjson.Array); !ok {
		return v
	}
	return sortedStrings(v)
}

// sortedStrings sorts and deduplicates an array of strings; an array holding
// anything else is returned as it is.
func sortedStrings(v canonjson.Value) canonjson.Value {
	list, ok := v.(canonjson.Array)
	if !ok {
		return v
	}
	ss := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(canonjson.String)
		if !ok {
			return v
		}
		ss = append(ss, string(s))
	}
	slices.Sort(ss)
	return canonjson.Strings(slices.Compact(ss))
}
