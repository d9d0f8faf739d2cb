// Package sample makes values for the portable JSON Schema subset of a
// Canonical Contract: the minimal valid value of a schema, further distinct
// valid values, values that break one keyword, and Tool arguments that
// satisfy an input schema together with the contract's conditional rules.
//
// The subset is type (one JSON type, or a type and "null"), enum, const,
// properties, required, additionalProperties, items, minItems, maxItems,
// uniqueItems, pattern, minLength, maxLength, format "uri", minimum,
// maximum, exclusiveMinimum and exclusiveMaximum; description, title,
// default and examples are ignored. Every keyword is honoured:
//
//   - const, then the first enum value (a static value domain reaches the
//     schema as its enum, so it is honoured too);
//   - the first non-null type; true for booleans;
//   - the smallest integer within the bounds (1 without a lower bound that
//     excludes it), a value strictly between the bounds for a number range
//     that holds no integer;
//   - for strings "synthetic-value" within minLength/maxLength,
//     "https://synthetic.example/resource" for format uri, and for a pattern
//     a string built from the pattern itself (literals, the first fitting
//     character of each class, the minimum repetitions, the first
//     alternative);
//   - arrays of minItems elements (distinct ones under uniqueItems);
//   - objects with their required properties only.
//
// Nth(s, n) is the n-th distinct valid value: Nth(s, 0) is the minimal one,
// and later ones vary the first place that can vary (the next enum value,
// the next integer, another character of a class, a suffix). A schema that
// admits too few values, or a pattern Go's regexp/syntax cannot read
// (look-around, back-references) or builds no fitting string from, is an
// error: the sampler never returns a value it believes invalid. Callers that
// must be sure validate the result with a JSON Schema validator; the tests
// of this package do exactly that, with a real one, for every sample.
//
// Lengths are counted in Unicode code points, as JSON Schema counts them;
// the samples are ASCII wherever the schema allows, so that an ECMAScript
// implementation counting UTF-16 units agrees.
package sample

import (
	"errors"
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// ErrNoSample reports a schema the sampler cannot make a (further) value
// for.
var ErrNoSample = errors.New("no sample")

func noSample(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNoSample, fmt.Sprintf(format, args...))
}

// Value returns the minimal valid value of a schema.
func Value(schema canonjson.Value) (canonjson.Value, error) {
	return Nth(schema, 0)
}

// Alternate returns a valid value different from Value(schema), for proving
// that two different values reach the same place.
func Alternate(schema canonjson.Value) (canonjson.Value, error) {
	return Nth(schema, 1)
}

// maxDepth bounds how deep the sampler follows nested schemas.
const maxDepth = 32

// Nth returns the n-th distinct valid value of a schema; Nth(s, 0) is
// Value(s).
func Nth(schema canonjson.Value, n int) (canonjson.Value, error) {
	return nth(schema, n, 0)
}

func nth(schema canonjson.Value, n, depth int) (canonjson.Value, error) {
	if depth > maxDepth {
		return nil, noSample("the schema nests deeper than %d levels", maxDepth)
	}
	s, ok := schema.(*canonjson.Object)
	if !ok {
		if b, isBool := schema.(canonjson.Bool); isBool && bool(b) || schema == nil {
			s = &canonjson.Object{} // true and an absent schema accept anything
		} else {
			return nil, noSample("the schema is %s, not an object", canonjson.TypeName(schema))
		}
	}
	if c, ok := s.Get("const"); ok {
		if n > 0 {
			return nil, noSample("const admits one value")
		}
		return canonjson.Clone(c), nil
	}
	if e, ok := s.Get("enum"); ok {
		values, _ := e.(canonjson.Array)
		if n >= len(values) {
			return nil, noSample("enum admits %d value(s)", len(values))
		}
		return canonjson.Clone(values[n]), nil
	}
	t, nullable := typeOf(s)
	v, err := typed(s, t, n, depth)
	if err != nil && nullable && errors.Is(err, ErrNoSample) && n > 0 {
		// The type ran out of values at n: null is the one more, and
		// there is none after it.
		if _, prev := typed(s, t, n-1, depth); prev == nil {
			return canonjson.Null{}, nil
		}
	}
	return v, err
}

func typed(s *canonjson.Object, t string, n, depth int) (canonjson.Value, error) {
	switch t {
	case "null":
		if n > 0 {
			return nil, noSample("null admits one value")
		}
		return canonjson.Null{}, nil
	case "boolean":
		if n > 1 {
			return nil, noSample("a boolean admits two values")
		}
		return canonjson.Bool(n == 0), nil
	case "integer":
		return integer(s, n)
	case "number":
		return number(s, n)
	case "string":
		return str(s, n)
	case "array":
		return array(s, n, depth)
	case "object":
		return object(s, n, depth)
	}
	return nil, noSample("unknown type %q", t)
}

// typeOf returns the type to sample: the declared type (the non-null one of
// a nullable pair), or the type the keywords imply when none is declared.
func typeOf(s *canonjson.Object) (t string, nullable bool) {
	switch v := s.At("type").(type) {
	case canonjson.String:
		return string(v), false
	case canonjson.Array:
		for _, e := range v {
			if e == canonjson.String("null") {
				nullable = true
			} else if str, ok := e.(canonjson.String); ok && t == "" {
				t = string(str)
			}
		}
		if t == "" {
			t = "null"
		}
		return t, nullable
	}
	switch {
	case s.Has("properties") || s.Has("required") || s.Has("additionalProperties"):
		return "object", false
	case s.Has("items") || s.Has("minItems") || s.Has("maxItems") || s.Has("uniqueItems"):
		return "array", false
	case s.Has("minimum") || s.Has("maximum") || s.Has("exclusiveMinimum") || s.Has("exclusiveMaximum"):
		return "number", false
	}
	return "string", false
}

// Types returns the JSON types a schema declares ("type" as a string or an
// array); nil when it declares none.
func Types(schema canonjson.Value) []string {
	s, _ := schema.(*canonjson.Object)
	switch v := s.At("type").(type) {
	case canonjson.String:
		return []string{string(v)}
	case canonjson.Array:
		var out []string
		for _, e := range v {
			if str, ok := e.(canonjson.String); ok {
				out = append(out, string(str))
			}
		}
		return out
	}
	return nil
}

// object returns an object with the required properties. Later values vary
// the first required property that can vary, else add the first optional
// property.
func object(s *canonjson.Object, n, depth int) (canonjson.Value, error) {
	props, _ := s.At("properties").(*canonjson.Object)
	required := canonjson.StringsOf(s.At("required"))
	closed := s.At("additionalProperties") == canonjson.Bool(false)
	out := &canonjson.Object{}
	for _, k := range required {
		if closed && !props.Has(k) {
			return nil, noSample("property %q is required but a closed object does not declare it", k)
		}
		v, err := nth(props.At(k), 0, depth+1)
		if err != nil {
			return nil, fmt.Errorf("property %q: %w", k, err)
		}
		out.Set(k, v)
	}
	if n == 0 {
		return out, nil
	}
	for _, k := range required {
		if v, err := nth(props.At(k), n, depth+1); err == nil {
			out.Set(k, v)
			return out, nil
		}
	}
	for _, k := range props.Keys() {
		if slices.Contains(required, k) {
			continue
		}
		if v, err := nth(props.At(k), n-1, depth+1); err == nil {
			out.Set(k, v)
			return out, nil
		}
	}
	return nil, noSample("no property of the object can take another value")
}

// array returns minItems elements (distinct ones under uniqueItems). Later
// values vary the elements, or add one when minItems is 0.
func array(s *canonjson.Object, n, depth int) (canonjson.Value, error) {
	items := s.At("items")
	minItems, _ := intKeyword(s, "minItems")
	maxItems, hasMax := intKeyword(s, "maxItems")
	unique := s.At("uniqueItems") == canonjson.Bool(true)
	if hasMax && minItems > maxItems {
		return nil, noSample("minItems %d exceeds maxItems %d", minItems, maxItems)
	}
	if minItems > 1<<16 {
		return nil, noSample("minItems %d is too large to sample", minItems)
	}
	out := make(canonjson.Array, 0, minItems)
	if minItems == 0 {
		if n == 0 {
			return out, nil
		}
		if hasMax && maxItems == 0 {
			return nil, noSample("maxItems 0 admits only the empty array")
		}
		v, err := nth(items, n-1, depth+1)
		if err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		return append(out, v), nil
	}
	for i := range minItems {
		k := n
		if unique {
			k = n + i
		}
		v, err := nth(items, k, depth+1)
		if err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		out = append(out, v)
	}
	return out, nil
}

// intKeyword returns a non-negative integer keyword such as minItems.
func intKeyword(s *canonjson.Object, key string) (int, bool) {
	n, ok := s.At(key).(canonjson.Number)
	if !ok {
		return 0, false
	}
	f, ok := n.Float64()
	if !ok || f < 0 || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}
