package probe

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
)

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
