package sample

import (
	"math/big"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// bounds is a numeric range; nil ends are open.
type bounds struct {
	lo, hi       *big.Rat
	loExc, hiExc bool
}

func boundsOf(s *canonjson.Object) bounds {
	var b bounds
	if r, ok := rat(s.At("minimum")); ok {
		b.lo = r
	}
	if r, ok := rat(s.At("exclusiveMinimum")); ok && (b.lo == nil || r.Cmp(b.lo) >= 0) {
		b.lo, b.loExc = r, true
	}
	if r, ok := rat(s.At("maximum")); ok {
		b.hi = r
	}
	if r, ok := rat(s.At("exclusiveMaximum")); ok && (b.hi == nil || r.Cmp(b.hi) <= 0) {
		b.hi, b.hiExc = r, true
	}
	return b
}

// integers returns the smallest and largest integer of the range (nil for
// an open end); ok is false when the range holds no integer.
func (b bounds) integers() (lo, hi *big.Int, ok bool) {
	if b.lo != nil {
		lo = ceil(b.lo)
		if b.loExc && new(big.Rat).SetInt(lo).Cmp(b.lo) == 0 {
			lo.Add(lo, big.NewInt(1))
		}
	}
	if b.hi != nil {
		hi = floor(b.hi)
		if b.hiExc && new(big.Rat).SetInt(hi).Cmp(b.hi) == 0 {
			hi.Sub(hi, big.NewInt(1))
		}
	}
	return lo, hi, lo == nil || hi == nil || lo.Cmp(hi) <= 0
}

// nthInteger returns the n-th integer of the range: counting up from the
// lower bound, or from 1 when there is none and 1 fits, else counting down
// from the upper bound.
func (b bounds) nthInteger(n int) (*big.Int, bool) {
	lo, hi, ok := b.integers()
	if !ok {
		return nil, false
	}
	step := big.NewInt(int64(n))
	var v *big.Int
	switch {
	case lo != nil:
		v = new(big.Int).Add(lo, step)
	case hi != nil && hi.Cmp(big.NewInt(int64(n)+1)) < 0:
		start := big.NewInt(1)
		if hi.Cmp(start) < 0 {
			start = hi
		}
		v = new(big.Int).Sub(start, step)
	default:
		v = big.NewInt(int64(n) + 1)
	}
	if hi != nil && v.Cmp(hi) > 0 {
		return nil, false
	}
	return v, true
}

func integer(s *canonjson.Object, n int) (canonjson.Value, error) {
	v, ok := boundsOf(s).nthInteger(n)
	if !ok {
		return nil, noSample("the bounds admit fewer than %d integer(s)", n+1)
	}
	return canonjson.Number(v.String()), nil
}

// number returns an integer when the range holds one, else a decimal strictly
// between the bounds.
func number(s *canonjson.Object, n int) (canonjson.Value, error) {
	b := boundsOf(s)
	if v, ok := b.nthInteger(n); ok {
		return canonjson.Number(v.String()), nil
	}
	if _, _, ok := b.integers(); ok {
		return nil, noSample("the bounds admit fewer than %d value(s)", n+1)
	}
	// A bounded range without an integer: lo + (hi-lo) / 2^(n+1) lies
	// strictly inside it and has a finite decimal form.
	width := new(big.Rat).Sub(b.hi, b.lo)
	if width.Sign() <= 0 {
		return nil, noSample("the bounds admit no number")
	}
	den := new(big.Int).Lsh(big.NewInt(1), uint(n+1))
	v := new(big.Rat).Add(b.lo, new(big.Rat).Quo(width, new(big.Rat).SetInt(den)))
	return canonjson.Number(decimal(v)), nil
}

// plus returns the number n + delta as a JSON number literal.
func plus(n *big.Rat, delta int64) canonjson.Number {
	return canonjson.Number(decimal(new(big.Rat).Add(n, new(big.Rat).SetInt64(delta))))
}

func rat(v canonjson.Value) (*big.Rat, bool) {
	n, ok := v.(canonjson.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(n))
}

func floor(r *big.Rat) *big.Int {
	// Euclidean division by the (always positive) denominator rounds
	// towards negative infinity.
	return new(big.Int).Div(r.Num(), r.Denom())
}

func ceil(r *big.Rat) *big.Int {
	q := floor(r)
	if new(big.Rat).SetInt(q).Cmp(r) != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// decimal writes a rational with a finite decimal expansion exactly, as a
// JSON number literal ("2", "0.5", "-1.25"); others are rounded to 17
// digits.
func decimal(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := new(big.Int).Set(r.Denom())
	two, five := big.NewInt(2), big.NewInt(5)
	var twos, fives int
	zero := new(big.Int)
	for new(big.Int).Mod(d, two).Cmp(zero) == 0 {
		d.Quo(d, two)
		twos++
	}
	for new(big.Int).Mod(d, five).Cmp(zero) == 0 {
		d.Quo(d, five)
		fives++
	}
	digits := max(twos, fives)
	if d.Cmp(big.NewInt(1)) != 0 {
		digits = 17
	}
	s := strings.TrimRight(r.FloatString(digits), "0")
	return strings.TrimSuffix(s, ".")
}
