package strict

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// difference is where two JSON values first differ.
type difference struct {
	pointer string // RFC 6901, into the value on disk
	message string
}

// firstDifference compares a value read from disk with the value derive
// computes by canonjson's rule (objects whatever the order of their
// members, numbers by value). It returns the first difference in the
// derived value's order, or nil when they are equal.
func firstDifference(got, want canonjson.Value) *difference {
	d, differ := canonjson.FirstDifference(want, got)
	if !differ {
		return nil
	}
	if d.A != nil && d.B != nil || d.Pointer == "" {
		return &difference{d.Pointer, fmt.Sprintf("is %s; derive computes %s", brief(d.B), brief(d.A))}
	}
	// A member or element one side lacks: an array's is told by length.
	parent := d.Pointer[:strings.LastIndexByte(d.Pointer, '/')]
	g, _ := canonjson.Resolve(got, parent)
	w, _ := canonjson.Resolve(want, parent)
	ga, isArray := g.(canonjson.Array)
	wa, _ := w.(canonjson.Array)
	switch {
	case isArray && d.B == nil:
		return &difference{parent, fmt.Sprintf("has %d element(s); derive computes %d, the next being %s", len(ga), len(wa), brief(d.A))}
	case isArray:
		return &difference{d.Pointer, fmt.Sprintf("is %s; derive computes %d element(s), not %d", brief(d.B), len(wa), len(ga))}
	case d.B == nil:
		return &difference{d.Pointer, "is missing; derive computes " + brief(d.A)}
	}
	return &difference{d.Pointer, "is " + brief(d.B) + ", which derive does not compute"}
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
