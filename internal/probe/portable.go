package probe

import (
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// maxViolations bounds how many violations one validation reports.
const maxViolations = 5

// violation is one place where a value breaks a schema.
type violation struct {
	Pointer string // into the value; "" is the value itself
	Reason  string
}

func (v violation) String() string {
	if v.Pointer == "" {
		return v.Reason
	}
	return v.Pointer + ": " + v.Reason
}

// validate checks a value against a schema of the portable subset that
// contracts use (spec 000: JSON type, closed object properties and
// requiredness, array items and size/uniqueness bounds, string pattern and
// length bounds, numeric bounds, enum, const, and format "uri"), plus
// anyOf/oneOf/allOf. Other keywords (description, title, …) are not
// assertions and are ignored.
//
// An integer is a number literal without fraction or exponent, so 1.0 is
// not one. Lengths count code points. Patterns are Go (RE2) regular
// expressions: a pattern using look-around or backreferences cannot be
// checked and is reported as such.
func validate(schema, value canonjson.Value) []violation {
	var v validator
	v.check(schema, value, "")
	return v.out
}

type validator struct {
	out []violation
}

func (v *validator) fail(at, format string, args ...any) {
	if len(v.out) < maxViolations {
		v.out = append(v.out, violation{at, fmt.Sprintf(format, args...)})
	}
}

func (v *validator) check(schemaV, value canonjson.Value, at string) {
	s, ok := schemaV.(*canonjson.Object)
	if !ok {
		if b, isBool := schemaV.(canonjson.Bool); isBool && !bool(b) {
			v.fail(at, "no value is allowed here")
		}
		return
	}
	if t, ok := s.Get("type"); ok && !typeMatches(t, value) {
		v.fail(at, "is %s, want %s", canonjson.TypeName(value), show(t))
		return
	}
	if e, ok := s.Get("enum"); ok {
		if list, ok := e.(canonjson.Array); ok && !slices.ContainsFunc(list, func(x canonjson.Value) bool { return equal(x, value) }) {
			v.fail(at, "%s is not one of %s", show(value), show(e))
		}
	}
	if c, ok := s.Get("const"); ok && !equal(c, value) {
		v.fail(at, "%s is not the constant %s", show(value), show(c))
	}
	switch x := value.(type) {
	case *canonjson.Object:
		v.object(s, x, at)
	case canonjson.Array:
		v.array(s, x, at)
	case canonjson.String:
		v.string(s, string(x), at)
	case canonjson.Number:
		v.number(s, x, at)
	}
	v.combinators(s, value, at)
}

func (v *validator) object(s *canonjson.Object, o *canonjson.Object, at string) {
	props, _ := s.Get("properties")
	propObj, _ := props.(*canonjson.Object)
	if req, ok := s.Get("required"); ok {
		if list, ok := req.(canonjson.Array); ok {
			for _, r := range list {
				if name, ok := r.(canonjson.String); ok && !o.Has(string(name)) {
					v.fail(at, "required property %q is missing", string(name))
				}
			}
		}
	}
	extra, _ := s.Get("additionalProperties")
	for k, val := range o.All() {
		p := at + diag.Pointer(k)
		if propObj != nil {
			if sub, ok := propObj.Get(k); ok {
				v.check(sub, val, p)
				continue
			}
		}
		switch extra := extra.(type) {
		case canonjson.Bool:
			if !bool(extra) {
				v.fail(p, "property %q is not allowed", k)
			}
		case *canonjson.Object:
			v.check(extra, val, p)
		}
	}
}

func (v *validator) array(s *canonjson.Object, a canonjson.Array, at string) {
	if n, ok := intKeyword(s, "minItems"); ok && int64(len(a)) < n {
		v.fail(at, "has %d items, want at least %d", len(a), n)
	}
	if n, ok := intKeyword(s, "maxItems"); ok && int64(len(a)) > n {
		v.fail(at, "has %d items, want at most %d", len(a), n)
	}
	if u, _ := s.Get("uniqueItems"); u == canonjson.Value(canonjson.Bool(true)) {
		for i := range a {
			for j := range i {
				if equal(a[i], a[j]) {
					v.fail(at+diag.Pointer(i), "repeats item %d", j)
				}
			}
		}
	}
	if items, ok := s.Get("items"); ok {
		for i, item := range a {
			v.check(items, item, at+diag.Pointer(i))
		}
	}
}

func (v *validator) string(s *canonjson.Object, str string, at string) {
	n := int64(utf8.RuneCountInString(str))
	if min, ok := intKeyword(s, "minLength"); ok && n < min {
		v.fail(at, "has %d characters, want at least %d", n, min)
	}
	if max, ok := intKeyword(s, "maxLength"); ok && n > max {
		v.fail(at, "has %d characters, want at most %d", n, max)
	}
	if p, ok := s.Get("pattern"); ok {
		if p, ok := p.(canonjson.String); ok {
			re, err := regexp.Compile(string(p))
			switch {
			case err != nil:
				v.fail(at, "pattern %q cannot be checked here (Go regular expressions have no look-around or backreferences)", string(p))
			case !re.MatchString(str):
				v.fail(at, "%q does not match the pattern %q", clipString(str, 80), string(p))
			}
		}
	}
	if f, _ := s.Get("format"); f == canonjson.Value(canonjson.String("uri")) {
		if u, err := url.Parse(str); err != nil || !u.IsAbs() {
			v.fail(at, "%q is not an absolute URI", clipString(str, 80))
		}
	}
}

func (v *validator) number(s *canonjson.Object, n canonjson.Number, at string) {
	x, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return
	}
	for _, b := range []struct {
		keyword string
		bad     func(cmp int) bool
		want    string
	}{
		{"minimum", func(c int) bool { return c < 0 }, "at least"},
		{"maximum", func(c int) bool { return c > 0 }, "at most"},
		{"exclusiveMinimum", func(c int) bool { return c <= 0 }, "more than"},
		{"exclusiveMaximum", func(c int) bool { return c >= 0 }, "less than"},
	} {
		bound, ok := s.Get(b.keyword)
		if !ok {
			continue
		}
		lit, ok := bound.(canonjson.Number)
		if !ok {
			continue
		}
		y, ok := new(big.Rat).SetString(string(lit))
		if ok && b.bad(x.Cmp(y)) {
			v.fail(at, "%s is not %s %s", n, b.want, lit)
		}
	}
}

func (v *validator) combinators(s *canonjson.Object, value canonjson.Value, at string) {
	if all, ok := s.Get("allOf"); ok {
		if list, ok := all.(canonjson.Array); ok {
			for _, sub := range list {
				v.check(sub, value, at)
			}
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		sv, ok := s.Get(kw)
		if !ok {
			continue
		}
		list, ok := sv.(canonjson.Array)
		if !ok {
			continue
		}
		matches := 0
		for _, sub := range list {
			if len(validate(sub, value)) == 0 {
				matches++
			}
		}
		switch {
		case matches == 0:
			v.fail(at, "%s matches none of the %s branches", show(value), kw)
		case kw == "oneOf" && matches > 1:
			v.fail(at, "%s matches %d oneOf branches, want exactly one", show(value), matches)
		}
	}
}

// typeMatches reports whether value has the schema type t (a name or an
// array of names).
func typeMatches(t, value canonjson.Value) bool {
	switch t := t.(type) {
	case canonjson.String:
		return hasJSONType(string(t), value)
	case canonjson.Array:
		return slices.ContainsFunc(t, func(name canonjson.Value) bool {
			s, ok := name.(canonjson.String)
			return ok && hasJSONType(string(s), value)
		})
	}
	return true
}

func hasJSONType(name string, value canonjson.Value) bool {
	switch v := value.(type) {
	case canonjson.Null:
		return name == "null"
	case canonjson.Bool:
		return name == "boolean"
	case canonjson.String:
		return name == "string"
	case canonjson.Array:
		return name == "array"
	case *canonjson.Object:
		return name == "object"
	case canonjson.Number:
		return name == "number" || name == "integer" && v.IsInteger()
	}
	return false
}

// intKeyword reads a non-negative integer keyword such as minItems.
func intKeyword(s *canonjson.Object, key string) (int64, bool) {
	v, ok := s.Get(key)
	if !ok {
		return 0, false
	}
	n, ok := v.(canonjson.Number)
	if !ok {
		return 0, false
	}
	return n.Int64()
}

// clipString shortens s to at most n characters for a message.
func clipString(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
