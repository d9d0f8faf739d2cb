package canonjson

import (
	"iter"
	"strconv"
)

// Difference is one place where two JSON values differ.
type Difference struct {
	Pointer string // RFC 6901, into both values
	// A and B are the two values there; the side that lacks the member or
	// the element is nil.
	A, B Value
}

// Differences yields every place where a and b differ by Equal's rule:
// a's members in a's order, then the members only b has; array elements
// by index, up to the longer array's length. Objects and arrays are
// descended into; values of different types, and scalars, are reported
// whole. Nothing is yielded when Equal(a, b).
func Differences(a, b Value) iter.Seq[Difference] {
	return func(yield func(Difference) bool) { differences(a, b, "", yield) }
}

// FirstDifference returns the first of Differences(a, b), and false when
// a and b are equal.
func FirstDifference(a, b Value) (Difference, bool) {
	for d := range Differences(a, b) {
		return d, true
	}
	return Difference{}, false
}

// differences yields the differences below at, returning false once yield
// asked to stop.
func differences(a, b Value, at string, yield func(Difference) bool) bool {
	switch x := a.(type) {
	case *Object:
		y, ok := b.(*Object)
		if !ok {
			break
		}
		for k, av := range x.All() {
			bv, _ := y.Get(k)
			if !differences(av, bv, at+"/"+escapeToken(k), yield) {
				return false
			}
		}
		for k, bv := range y.All() {
			if !x.Has(k) && !yield(Difference{Pointer: at + "/" + escapeToken(k), B: bv}) {
				return false
			}
		}
		return true
	case Array:
		y, ok := b.(Array)
		if !ok {
			break
		}
		for i := range max(len(x), len(y)) {
			var av, bv Value
			if i < len(x) {
				av = x[i]
			}
			if i < len(y) {
				bv = y[i]
			}
			if !differences(av, bv, at+"/"+strconv.Itoa(i), yield) {
				return false
			}
		}
		return true
	}
	return Equal(a, b) || yield(Difference{Pointer: at, A: a, B: b})
}
