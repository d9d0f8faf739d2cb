// Package portableschema checks JSON values against schemas of the
// portable subset that contracts use (spec 000): JSON type, closed object
// properties and requiredness, array items and size and uniqueness bounds,
// string length and pattern bounds and the "uri" format, numeric bounds,
// enum and const; and anyOf, oneOf and allOf, which a Tool's listed schema
// may use. Other keywords (description, title, …) assert nothing.
//
//	vs := portableschema.Validate(schema, value, 5)
//	for _, v := range vs {
//		fmt.Println(v) // "/count: 1.5 is a number, want \"integer\""
//	}
//
// The contract's semantic rules (internal/contractcheck) check domain and
// condition values with it, and the protocol probe (internal/probe) checks
// Tool arguments and results; both need the contract's own semantics, which
// is why this is not internal/jsonschema, the JSON Schema library that
// validates outputs and reports:
//
//   - values are canonjson values, numbers as written: an integer is a
//     number literal without fraction or exponent, so 1.0 is not one,
//     while numbers compare by value, so 1 and 1.0 are equal;
//   - numbers are exact: 0.1 is one tenth, not a binary approximation;
//   - lengths count code points;
//   - a pattern is a Go (RE2) regular expression; one Go cannot compile
//     (look-around, backreferences) is reported as a violation marked
//     Unchecked, which a caller whose schema rules already refused the
//     pattern may pass over;
//   - findings carry a JSON Pointer into the value and a reason worded for
//     code2skill's own messages.
package portableschema

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// A Violation is one place where a value breaks a schema.
type Violation struct {
	Pointer string // into the value; "" is the value itself
	Reason  string
	// Unchecked marks a pattern that cannot be checked here: the value
	// may or may not satisfy it.
	Unchecked bool
}

func (v Violation) String() string {
	if v.Pointer == "" {
		return v.Reason
	}
	return v.Pointer + ": " + v.Reason
}

// Validate checks value against schema and returns where it breaks it, in
// the order of the schema's checks and the value's members: at most limit
// violations, or all of them when limit is 0.
func Validate(schema, value canonjson.Value, limit int) []Violation {
	v := validator{limit: limit}
	v.check(schema, value, "")
	return v.out
}

type validator struct {
	limit int
	out   []Violation
}

func (v *validator) full() bool { return v.limit > 0 && len(v.out) >= v.limit }

func (v *validator) fail(at, format string, args ...any) {
	if !v.full() {
		v.out = append(v.out, Violation{Pointer: at, Reason: fmt.Sprintf(format, args...)})
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
		if list, ok := e.(canonjson.Array); ok && !slices.ContainsFunc(list, func(x canonjson.Value) bool { return canonjson.Equal(x, value) }) {
			v.fail(at, "%s is not one of %s", show(value), show(e))
		}
	}
	if c, ok := s.Get("const"); ok && !canonjson.Equal(c, value) {
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
		if v.full() {
			return
		}
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
				if canonjson.Equal(a[i], a[j]) {
					v.fail(at+diag.Pointer(i), "repeats item %d", j)
				}
			}
		}
	}
	if items, ok := s.Get("items"); ok {
		for i, item := range a {
			if v.full() {
				return
			}
			v.check(items, item, at+diag.Pointer(i))
		}
	}
}

func (v *validator) string(s *canonjson.Object, str string, at string) {
	n := int64(utf8.RuneCountInString(str))
	if lo, ok := intKeyword(s, "minLength"); ok && n < lo {
		v.fail(at, "has %d characters, want at least %d", n, lo)
	}
	if hi, ok := intKeyword(s, "maxLength"); ok && n > hi {
		v.fail(at, "has %d characters, want at most %d", n, hi)
	}
	if p, ok := s.Get("pattern"); ok {
		if p, ok := p.(canonjson.String); ok {
			re, err := CompilePattern(string(p))
			switch {
			case err != nil:
				if !v.full() {
					v.out = append(v.out, Violation{Pointer: at, Unchecked: true,
						Reason: fmt.Sprintf("pattern %q cannot be checked here (Go regular expressions have no look-around or backreferences)", string(p))})
				}
			case !re.MatchString(str):
				v.fail(at, "%q does not match the pattern %q", clip(str, 80), string(p))
			}
		}
	}
	if f, _ := s.Get("format"); f == canonjson.Value(canonjson.String("uri")) && !IsURI(str) {
		v.fail(at, "%q is not an absolute URI", clip(str, 80))
	}
}

func (v *validator) number(s *canonjson.Object, n canonjson.Number, at string) {
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
		if c, ok := canonjson.CompareNumbers(n, lit); ok && b.bad(c) {
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
			if len(Validate(sub, value, 1)) == 0 {
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
		return HasType(string(t), value)
	case canonjson.Array:
		return slices.ContainsFunc(t, func(name canonjson.Value) bool {
			s, ok := name.(canonjson.String)
			return ok && HasType(string(s), value)
		})
	}
	return true
}

// HasType reports whether value is of the JSON Schema type name: an
// "integer" is a number literal without fraction or exponent.
func HasType(name string, value canonjson.Value) bool {
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

// intKeyword reads an integer keyword such as minItems; a bound written
// with a fraction or an exponent (2.0) bounds nothing.
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

// IsURI reports whether s is an absolute URI: a scheme and something after
// it.
func IsURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "" || u.Path != "")
}

// show renders a value compactly for a message, clipped to a readable
// length.
func show(v canonjson.Value) string {
	if v == nil {
		return "nothing"
	}
	return clip(string(canonjson.DigestForm(v)), 160)
}

// clip shortens s to at most n characters for a message.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// patterns caches compiled patterns: one schema is often checked against
// many values, and the same pattern recurs across inputs, outputs and
// needs. The cache is bounded so that hostile inputs cannot grow it.
var patterns struct {
	sync.Mutex
	m map[string]compiled
}

type compiled struct {
	re  *regexp.Regexp
	err error
}

const maxCachedPatterns = 256

// CompilePattern compiles a schema pattern as a Go (RE2) regular
// expression, as Validate does: a pattern it cannot compile is one
// Validate cannot check.
func CompilePattern(p string) (*regexp.Regexp, error) {
	patterns.Lock()
	defer patterns.Unlock()
	if c, ok := patterns.m[p]; ok {
		return c.re, c.err
	}
	if patterns.m == nil || len(patterns.m) >= maxCachedPatterns {
		patterns.m = map[string]compiled{}
	}
	re, err := regexp.Compile(p)
	patterns.m[p] = compiled{re, err}
	return re, err
}
