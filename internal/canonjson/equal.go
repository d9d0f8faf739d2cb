package canonjson

import "math/big"

// Equal reports whether two values are equal as data: objects regardless of
// member order, numbers by value and exactly (1 and 1.0 are equal, 0.1 and
// 0.1000…0001 are not), and a string never equals a number.
func Equal(a, b Value) bool {
	switch a := a.(type) {
	case *Object:
		b, ok := b.(*Object)
		if !ok || a.Len() != b.Len() {
			return false
		}
		for k, av := range a.All() {
			bv, ok := b.Get(k)
			if !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	case Array:
		b, ok := b.(Array)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !Equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case Number:
		b, ok := b.(Number)
		if !ok {
			return false
		}
		c, ok := CompareNumbers(a, b)
		return ok && c == 0
	case nil:
		return b == nil
	}
	return a == b
}

// CompareNumbers compares two number literals exactly, as rationals (0.1 is
// one tenth): -1, 0 or +1, and false when one is not a number.
func CompareNumbers(a, b Number) (int, bool) {
	if a == b {
		return 0, true
	}
	x, okx := new(big.Rat).SetString(string(a))
	y, oky := new(big.Rat).SetString(string(b))
	if !okx || !oky {
		return 0, false
	}
	return x.Cmp(y), true
}
