package probe

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// equal reports whether two JSON values are equal as data: objects are
// compared without regard to member order and numbers by value, so 1 and
// 1.0 are equal (the server's JSON.stringify never writes 1.0, a case file
// may).
func equal(a, b canonjson.Value) bool {
	_, same := firstDifference(a, b, "")
	return same
}

// firstDifference returns the JSON Pointer of the first place, in a's member
// order, where a and b differ, and whether they are equal.
func firstDifference(a, b canonjson.Value, at string) (string, bool) {
	switch a := a.(type) {
	case *canonjson.Object:
		b, ok := b.(*canonjson.Object)
		if !ok {
			return at, false
		}
		for k, av := range a.All() {
			bv, ok := b.Get(k)
			if !ok {
				return at + diag.Pointer(k), false
			}
			if p, same := firstDifference(av, bv, at+diag.Pointer(k)); !same {
				return p, false
			}
		}
		for _, k := range b.Keys() {
			if !a.Has(k) {
				return at + diag.Pointer(k), false
			}
		}
		return "", true
	case canonjson.Array:
		b, ok := b.(canonjson.Array)
		if !ok {
			return at, false
		}
		for i := range min(len(a), len(b)) {
			if p, same := firstDifference(a[i], b[i], at+diag.Pointer(i)); !same {
				return p, false
			}
		}
		if len(a) != len(b) {
			return at + diag.Pointer(min(len(a), len(b))), false
		}
		return "", true
	case canonjson.Number:
		b, ok := b.(canonjson.Number)
		if !ok || !sameNumber(a, b) {
			return at, false
		}
		return "", true
	default:
		if a != b {
			return at, false
		}
		return "", true
	}
}

// sameNumber compares two number literals by value.
func sameNumber(a, b canonjson.Number) bool {
	c, ok := canonjson.CompareNumbers(a, b)
	return ok && c == 0
}

// at returns the value at a path of member names, as error contracts
// declare them (["error", "code"]).
func at(v canonjson.Value, path []string) (canonjson.Value, bool) {
	for _, k := range path {
		o, ok := v.(*canonjson.Object)
		if !ok {
			return nil, false
		}
		if v, ok = o.Get(k); !ok {
			return nil, false
		}
	}
	return v, true
}

// show renders a value compactly for a message, clipped to a readable
// length.
func show(v canonjson.Value) string {
	if v == nil {
		return "nothing"
	}
	s := string(canonjson.DigestForm(v))
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return s
}

// keysOf returns the member names of an object, sorted.
func keysOf(o *canonjson.Object) []string {
	keys := o.Keys()
	slices.Sort(keys)
	return keys
}
