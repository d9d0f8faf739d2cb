package sample

import (
	"math/big"
	"regexp"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Violation is a value that breaks a schema, and the keyword it is meant to
// break.
type Violation struct {
	// Keyword is a JSON Pointer-like path to the keyword inside the schema:
	// "type", "properties/note/maxLength", "items/enum".
	Keyword string
	Value   canonjson.Value
}

// maxViolations bounds how many violations Violations returns per schema.
const maxViolations = 32

// Violations returns values that break the schema, each built from the
// minimal sample by breaking one keyword: the type, enum or const, length
// and numeric bounds, pattern, format, item counts and uniqueness, and
// (within objects and arrays) required properties, unexpected properties
// and the keywords of nested schemas. Each is meant to be invalid; callers
// that must be sure check it with a validator, since some combinations
// cannot be broken one keyword at a time.
func Violations(schema canonjson.Value) []Violation {
	var out []Violation
	violations(schema, "", 0, &out)
	if len(out) > maxViolations {
		out = out[:maxViolations]
	}
	return out
}

func violations(schema canonjson.Value, at string, depth int, out *[]Violation) {
	s, ok := schema.(*canonjson.Object)
	if !ok || depth > 3 || len(*out) >= maxViolations {
		return
	}
	add := func(keyword string, v canonjson.Value) {
		*out = append(*out, Violation{Keyword: at + keyword, Value: v})
	}
	t, _ := typeOf(s)
	if types := Types(s); len(types) > 0 {
		add("type", wrongType(t))
	}
	if c, ok := s.Get("const"); ok {
		if v, ok := other(s, func(v canonjson.Value) bool { return !canonjson.Equal(v, c) }); ok {
			add("const", v)
		}
	}
	if e, ok := s.At("enum").(canonjson.Array); ok {
		if v, ok := other(s, func(v canonjson.Value) bool {
			for _, x := range e {
				if canonjson.Equal(v, x) {
					return false
				}
			}
			return true
		}); ok {
			add("enum", v)
		}
	}
	switch t {
	case "string":
		stringViolations(s, add)
	case "integer", "number":
		b := boundsOf(s)
		if b.lo != nil {
			d := int64(-1)
			if b.loExc {
				d = 0
			}
			add(boundKeyword(s, "minimum", "exclusiveMinimum", b.loExc), plus(b.lo, d))
		}
		if b.hi != nil {
			d := int64(1)
			if b.hiExc {
				d = 0
			}
			add(boundKeyword(s, "maximum", "exclusiveMaximum", b.hiExc), plus(b.hi, d))
		}
		if t == "integer" {
			add("type", canonjson.Number(decimal(new(big.Rat).Add(lowest(b), big.NewRat(1, 2)))))
		}
	case "array":
		arrayViolations(s, at, depth, add, out)
	case "object":
		objectViolations(s, at, depth, add, out)
	}
}

// other returns a valid-typed value of s (ignoring enum and const) that
// passes keep.
func other(s *canonjson.Object, keep func(canonjson.Value) bool) (canonjson.Value, bool) {
	open := canonjson.Clone(s).(*canonjson.Object)
	open.Delete("enum")
	open.Delete("const")
	for i := range 8 {
		v, err := Nth(open, i)
		if err != nil {
			break
		}
		if keep(v) {
			return v, true
		}
	}
	// A string outside every enum needs no other keyword to hold.
	if t, _ := typeOf(s); t == "string" {
		v := canonjson.String("__code2skill_not_a_listed_value__")
		if keep(v) {
			return v, true
		}
	}
	return nil, false
}

// wrongType returns a value of another JSON type, never null (which a
// nullable schema accepts).
func wrongType(t string) canonjson.Value {
	switch t {
	case "string":
		return canonjson.Number("12345")
	case "null", "object":
		return canonjson.String("synthetic-value")
	}
	return &canonjson.Object{} // for boolean, number, integer and array
}

func boundKeyword(s *canonjson.Object, inclusive, exclusive string, exc bool) string {
	if exc {
		return exclusive
	}
	return inclusive
}

// lowest returns a number inside the bounds, or 0.
func lowest(b bounds) *big.Rat {
	if lo, _, ok := b.integers(); ok && lo != nil {
		return new(big.Rat).SetInt(lo)
	}
	if b.hi != nil {
		return new(big.Rat).Sub(b.hi, big.NewRat(1, 1))
	}
	return new(big.Rat)
}

// badPatternCandidates are tried, in order, as strings a pattern rejects.
var badPatternCandidates = []string{"", "!", "~", " ", "synthetic-value", "0", "A"}

func stringViolations(s *canonjson.Object, add func(string, canonjson.Value)) {
	minLen, maxLen := lengths(s)
	if minLen > 0 {
		add("minLength", canonjson.String(strings.Repeat("x", minLen-1)))
	}
	if maxLen >= 0 {
		add("maxLength", canonjson.String(strings.Repeat("x", maxLen+1)))
	}
	if p, ok := s.At("pattern").(canonjson.String); ok {
		if re, err := regexp.Compile(string(p)); err == nil {
			for _, c := range badPatternCandidates {
				if !re.MatchString(c) {
					add("pattern", canonjson.String(c))
					break
				}
			}
		}
	}
	if s.At("format") == canonjson.String("uri") {
		add("format", canonjson.String("not a uri"))
	}
}

func arrayViolations(s *canonjson.Object, at string, depth int, add func(string, canonjson.Value), out *[]Violation) {
	base, err := Value(s)
	if err != nil {
		return
	}
	elems := base.(canonjson.Array)
	items := s.At("items")
	one, err := Value(items)
	if err != nil {
		return
	}
	minItems, _ := intKeyword(s, "minItems")
	if minItems > 0 {
		add("minItems", canonjson.Clone(elems[:minItems-1]))
	}
	if maxItems, ok := intKeyword(s, "maxItems"); ok && maxItems < 1<<16 {
		long := make(canonjson.Array, 0, maxItems+1)
		for i := 0; i <= maxItems; i++ {
			v, err := Nth(items, i)
			if err != nil {
				v = one
			}
			long = append(long, v)
		}
		add("maxItems", long)
	}
	if s.At("uniqueItems") == canonjson.Bool(true) {
		// The minimal elements with the first one repeated.
		first := one
		if len(elems) > 0 {
			first = elems[0]
		}
		dup := append(canonjson.Array{canonjson.Clone(first)}, canonjson.Clone(elems).(canonjson.Array)...)
		if len(elems) == 0 {
			dup = append(dup, canonjson.Clone(first))
		}
		if maxItems, ok := intKeyword(s, "maxItems"); !ok || maxItems >= len(dup) {
			add("uniqueItems", dup)
		}
	}
	// A bad element: the first violation of the items schema, in place of
	// (or added as) the first element.
	var inner []Violation
	violations(items, "", depth+1, &inner)
	if len(inner) > 0 {
		v := inner[0]
		arr := canonjson.Clone(elems).(canonjson.Array)
		if len(arr) > 0 {
			arr[0] = v.Value
		} else {
			arr = canonjson.Array{v.Value}
		}
		*out = append(*out, Violation{Keyword: at + "items/" + v.Keyword, Value: arr})
	}
}

// unexpectedProperty is the member name an unexpected-property violation
// adds.
const unexpectedProperty = "__code2skill_unexpected_property__"

func objectViolations(s *canonjson.Object, at string, depth int, add func(string, canonjson.Value), out *[]Violation) {
	base, err := Value(s)
	if err != nil {
		return
	}
	obj := base.(*canonjson.Object)
	if required := canonjson.StringsOf(s.At("required")); len(required) > 0 {
		o := canonjson.Clone(obj).(*canonjson.Object)
		o.Delete(required[0])
		add("required", o)
	}
	if s.At("additionalProperties") == canonjson.Bool(false) {
		o := canonjson.Clone(obj).(*canonjson.Object)
		o.Set(unexpectedProperty, canonjson.Bool(true))
		add("additionalProperties", o)
	}
	props, _ := s.At("properties").(*canonjson.Object)
	for name, ps := range props.All() {
		var inner []Violation
		violations(ps, "", depth+1, &inner)
		for _, v := range inner {
			if len(*out) >= maxViolations {
				return
			}
			o := canonjson.Clone(obj).(*canonjson.Object)
			o.Set(name, v.Value)
			*out = append(*out, Violation{Keyword: at + "properties/" + escape(name) + "/" + v.Keyword, Value: o})
		}
	}
}

// escape escapes a JSON Pointer reference token.
func escape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
