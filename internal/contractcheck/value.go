package contractcheck

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// validate checks a value against a schema of the portable subset and
// returns why it does not satisfy it, or "" when it does. It checks type,
// enum, const, closed object properties and requiredness, array items and
// size and uniqueness, string length, pattern and the uri format, and
// numeric bounds. An integer is a number literal without fraction or
// exponent, so 1.0 is not one; lengths count code points; a pattern that
// does not compile (reported by the schema rules) asserts nothing.
func validate(schema, value canonjson.Value) string { return validateAt(schema, value, "") }

func validateAt(schema, value canonjson.Value, at string) string {
	s, ok := schema.(*canonjson.Object)
	if !ok {
		if b, isBool := schema.(canonjson.Bool); isBool && !bool(b) {
			return at + "no value is allowed"
		}
		return ""
	}
	if types := schemaTypes(s); types != nil && !slices.ContainsFunc(types, func(t string) bool { return hasType(t, value) }) {
		return fmt.Sprintf("%s%s is %s, not %q", at, show(value), canonjson.TypeName(value), types)
	}
	if enum, ok := member[canonjson.Array](s, "enum"); ok && !slices.ContainsFunc(enum, func(e canonjson.Value) bool { return jsonEqual(e, value) }) {
		return fmt.Sprintf("%s%s is not one of %s", at, show(value), show(enum))
	}
	if c, ok := s.Get("const"); ok && !jsonEqual(c, value) {
		return fmt.Sprintf("%s%s is not %s", at, show(value), show(c))
	}
	switch v := value.(type) {
	case *canonjson.Object:
		props, _ := member[*canonjson.Object](s, "properties")
		if req, ok := member[canonjson.Array](s, "required"); ok {
			for _, r := range req {
				if name, ok := r.(canonjson.String); ok && !v.Has(string(name)) {
					return fmt.Sprintf("%sthe required member %q is missing", at, string(name))
				}
			}
		}
		closed := false
		if ap, ok := member[canonjson.Bool](s, "additionalProperties"); ok && !bool(ap) {
			closed = true
		}
		for k, mv := range v.All() {
			ps, declared := canonjson.Value(nil), false
			if props != nil {
				ps, declared = props.Get(k)
			}
			if !declared {
				if closed {
					return fmt.Sprintf("%sthe member %q is not allowed", at, k)
				}
				continue
			}
			if why := validateAt(ps, mv, at+"/"+k+": "); why != "" {
				return why
			}
		}
	case canonjson.Array:
		if n, ok := intKeyword(s, "minItems"); ok && int64(len(v)) < n {
			return fmt.Sprintf("%shas %d items, fewer than %d", at, len(v), n)
		}
		if n, ok := intKeyword(s, "maxItems"); ok && int64(len(v)) > n {
			return fmt.Sprintf("%shas %d items, more than %d", at, len(v), n)
		}
		if u, ok := member[canonjson.Bool](s, "uniqueItems"); ok && bool(u) {
			for i := range v {
				for j := range i {
					if jsonEqual(v[i], v[j]) {
						return fmt.Sprintf("%sitems %d and %d are equal", at, j, i)
					}
				}
			}
		}
		if items, ok := s.Get("items"); ok {
			for i, e := range v {
				if why := validateAt(items, e, fmt.Sprintf("%s/%d: ", at, i)); why != "" {
					return why
				}
			}
		}
	case canonjson.String:
		n := int64(utf8.RuneCountInString(string(v)))
		if m, ok := intKeyword(s, "minLength"); ok && n < m {
			return fmt.Sprintf("%s%s is shorter than %d characters", at, show(v), m)
		}
		if m, ok := intKeyword(s, "maxLength"); ok && n > m {
			return fmt.Sprintf("%s%s is longer than %d characters", at, show(v), m)
		}
		if p, ok := member[canonjson.String](s, "pattern"); ok {
			if re, err := compilePattern(string(p)); err == nil && !re.MatchString(string(v)) {
				return fmt.Sprintf("%s%s does not match the pattern %q", at, show(v), string(p))
			}
		}
		if f, ok := member[canonjson.String](s, "format"); ok && f == "uri" && !isURI(string(v)) {
			return fmt.Sprintf("%s%s is not a URI", at, show(v))
		}
	case canonjson.Number:
		x, ok := numberValue(v)
		if !ok {
			return ""
		}
		for _, b := range []struct {
			key  string
			fail func(c int) bool
			word string
		}{
			{"minimum", func(c int) bool { return c < 0 }, "less than"},
			{"maximum", func(c int) bool { return c > 0 }, "more than"},
			{"exclusiveMinimum", func(c int) bool { return c <= 0 }, "not more than"},
			{"exclusiveMaximum", func(c int) bool { return c >= 0 }, "not less than"},
		} {
			bound, ok := member[canonjson.Number](s, b.key)
			if !ok {
				continue
			}
			if y, ok := numberValue(bound); ok && b.fail(x.Cmp(y)) {
				return fmt.Sprintf("%s%s is %s %s", at, string(v), b.word, string(bound))
			}
		}
	}
	return ""
}

// hasType reports whether value is of the JSON type name.
func hasType(name string, value canonjson.Value) bool {
	switch value := value.(type) {
	case canonjson.Null:
		return name == "null"
	case canonjson.Bool:
		return name == "boolean"
	case canonjson.Number:
		return name == "number" || name == "integer" && value.IsInteger()
	case canonjson.String:
		return name == "string"
	case canonjson.Array:
		return name == "array"
	case *canonjson.Object:
		return name == "object"
	}
	return false
}

// intKeyword returns a non-negative integer keyword.
func intKeyword(s *canonjson.Object, key string) (int64, bool) {
	n, ok := member[canonjson.Number](s, key)
	if !ok || !n.IsInteger() {
		return 0, false
	}
	return n.Int64()
}

// isURI reports whether s is an absolute URI: a scheme and something after
// it.
func isURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "" || u.Path != "")
}

// show renders a value for a message, shortened.
func show(v canonjson.Value) string {
	b := canonjson.DigestForm(v)
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
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

// compilePattern compiles a schema pattern as a Go (RE2) regular
// expression.
func compilePattern(p string) (*regexp.Regexp, error) {
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
