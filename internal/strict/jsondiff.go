package strict

import (
	"fmt"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// difference is where two JSON values first differ.
type difference struct {
	pointer string // RFC 6901, into the value on disk
	message string
}

// firstDifference compares a value read from disk with the value derive
// computes, as JSON values: objects are equal whatever the order of their
// members, numbers by value. It returns the first difference in the
// derived value's order, or nil when they are equal.
func firstDifference(got, want canonjson.Value, at string) *difference {
	switch w := want.(type) {
	case *canonjson.Object:
		g, ok := got.(*canonjson.Object)
		if !ok {
			return mismatch(at, got, want)
		}
		for key, wv := range w.All() {
			gv, ok := g.Get(key)
			if !ok {
				return &difference{at + diag.Pointer(key), "is missing; derive computes " + brief(wv)}
			}
			if d := firstDifference(gv, wv, at+diag.Pointer(key)); d != nil {
				return d
			}
		}
		for key, gv := range g.All() {
			if !w.Has(key) {
				return &difference{at + diag.Pointer(key), "is " + brief(gv) + ", which derive does not compute"}
			}
		}
		return nil
	case canonjson.Array:
		g, ok := got.(canonjson.Array)
		if !ok {
			return mismatch(at, got, want)
		}
		for i := range min(len(g), len(w)) {
			if d := firstDifference(g[i], w[i], at+diag.Pointer(i)); d != nil {
				return d
			}
		}
		switch {
		case len(g) > len(w):
			return &difference{at + diag.Pointer(len(w)), fmt.Sprintf("is %s; derive computes %d element(s), not %d", brief(g[len(w)]), len(w), len(g))}
		case len(g) < len(w):
			return &difference{at, fmt.Sprintf("has %d element(s); derive computes %d, the next being %s", len(g), len(w), brief(w[len(g)]))}
		}
		return nil
	case canonjson.Number:
		if g, ok := got.(canonjson.Number); ok && sameNumber(g, w) {
			return nil
		}
		return mismatch(at, got, want)
	}
	if got != want {
		return mismatch(at, got, want)
	}
	return nil
}

func mismatch(at string, got, want canonjson.Value) *difference {
	return &difference{at, fmt.Sprintf("is %s; derive computes %s", brief(got), brief(want))}
}

// sameNumber compares two number literals by value, the way JSON readers
// compare them (1 and 1.0 are equal). Integers compare by their digits so
// that large ones keep their precision.
func sameNumber(a, b canonjson.Number) bool {
	if a == b {
		return true
	}
	if a.IsInteger() && b.IsInteger() {
		x, okx := a.Int64()
		y, oky := b.Int64()
		return okx && oky && x == y
	}
	x, okx := a.Float64()
	y, oky := b.Float64()
	return okx && oky && x == y
}

// brief renders a value for a message: compact JSON, cut at 80 bytes.
func brief(v canonjson.Value) string {
	const limit = 80
	s := string(canonjson.DigestForm(v))
	if len(s) > limit {
		cut := limit
		for cut > 0 && s[cut]&0xc0 == 0x80 { // do not split a UTF-8 sequence
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
