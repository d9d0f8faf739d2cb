package derive

import "github.com/code2skill/code2skill/internal/canonjson"

// m is a member of an object under construction: m{"key", value}.
type m struct {
	key   string
	value canonjson.Value
}

// object returns an object with the given members, in order.
func object(members ...m) *canonjson.Object {
	o := &canonjson.Object{}
	for _, mb := range members {
		o.Set(mb.key, mb.value)
	}
	return o
}

func str(s string) canonjson.Value { return canonjson.String(s) }

func boolean(b bool) canonjson.Value { return canonjson.Bool(b) }

// strs returns the strings as an array; nil gives [] (never null).
func strs(ss []string) canonjson.Array { return canonjson.Strings(ss) }

// raw returns a record's object as a value: a nil object (a record that was
// not an object, already reported) becomes null instead of a nil pointer.
func raw(o *canonjson.Object) canonjson.Value {
	if o == nil {
		return canonjson.Null{}
	}
	return o
}

// member returns o's value for key as written, or def when o has no such
// member.
func member(o *canonjson.Object, key string, def canonjson.Value) canonjson.Value {
	if o != nil {
		if v, ok := o.Get(key); ok {
			return v
		}
	}
	return def
}

// subset returns the members of o named by keys, in the order of keys; absent
// keys are left out. Values are shared, not copied: views never change them.
func subset(o *canonjson.Object, keys []string) canonjson.Value {
	if o == nil {
		return canonjson.Null{}
	}
	out := &canonjson.Object{}
	for _, k := range keys {
		if v, ok := o.Get(k); ok {
			out.Set(k, v)
		}
	}
	return out
}

// emptyArray is the default of list members a view always writes.
var emptyArray = canonjson.Array{}
