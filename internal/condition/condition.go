// Package condition evaluates the conditions of a Canonical Contract:
// requiredWhen and forbiddenWhen of capability inputs, the condition of a
// requiredWhen information need, the condition of a conditional capability.
//
// A condition is a leaf that compares the value at a path,
//
//	{"path": ["selection", "requiresAttachment"], "operator": "equals", "value": true}
//
// or a composite over other conditions: "and" and "or" (children under
// "conditions" or "operands") and "not" (its child under "condition").
//
// Evaluation is three-valued. The first path segment names a root (an input,
// an information need) whose value the caller looks up; a root may be
// present, absent (known not to exist) or unknown (not decided yet, such as
// information a goal has not obtained). A leaf over an unknown root is
// Unknown, and "and", "or" and "not" combine truth values the way Kleene's
// logic does, so a condition decided by its known parts is decided even
// while other parts are unknown.
//
// Operators:
//
//	equals, not-equals   JSON equality (numbers by value: 1 equals 1.0)
//	in, not-in           membership in the array "value"
//	present, absent      the value exists and is not null / it does not
//	non-empty, empty     a string, array or object with / without elements;
//	                     a value that is absent or null is empty
//	gt, gte, lt, lte     numeric comparison with "value"; false for
//	                     anything that is not a number
//
// A "*" segment walks into every element of an array; a leaf over such a path
// holds when it holds for some element.
package condition

import (
	"github.com/code2skill/code2skill/internal/canonjson"
)

// Truth is a three-valued truth value.
type Truth int8

// The three truth values.
const (
	False Truth = iota
	True
	Unknown
)

func (t Truth) String() string {
	switch t {
	case False:
		return "false"
	case True:
		return "true"
	}
	return "unknown"
}

// Of returns True or False.
func Of(b bool) Truth {
	if b {
		return True
	}
	return False
}

// Presence says what is known about a root's value.
type Presence int8

const (
	// Absent means the root is known not to have a value.
	Absent Presence = iota
	// Present means the root has the value returned with it.
	Present
	// Undecided means the root's value is not known yet.
	Undecided
)

// Lookup returns the value of a root (the first segment of a leaf's path).
type Lookup func(root string) (canonjson.Value, Presence)

// Values returns a Lookup over a fixed set of values where every root not in
// values is absent, as for the arguments of one call.
func Values(values *canonjson.Object) Lookup {
	return func(root string) (canonjson.Value, Presence) {
		if v, ok := values.Get(root); ok {
			return v, Present
		}
		return nil, Absent
	}
}

// Leaf operators and composite operators.
const (
	OpEquals    = "equals"
	OpNotEquals = "not-equals"
	OpIn        = "in"
	OpNotIn     = "not-in"
	OpPresent   = "present"
	OpAbsent    = "absent"
	OpNonEmpty  = "non-empty"
	OpEmpty     = "empty"
	OpGT        = "gt"
	OpGTE       = "gte"
	OpLT        = "lt"
	OpLTE       = "lte"
	OpAnd       = "and"
	OpOr        = "or"
	OpNot       = "not"
)

// Eval evaluates a condition. A malformed condition (not an object, an
// unknown operator, a leaf without a path) is Unknown: it decides nothing.
func Eval(cond canonjson.Value, look Lookup) Truth {
	o, ok := cond.(*canonjson.Object)
	if !ok {
		return Unknown
	}
	op, _ := o.At("operator").(canonjson.String)
	switch string(op) {
	case OpAnd:
		children := Children(o)
		if len(children) == 0 {
			return Unknown
		}
		t := True
		for _, c := range children {
			switch Eval(c, look) {
			case False:
				return False
			case Unknown:
				t = Unknown
			}
		}
		return t
	case OpOr:
		children := Children(o)
		if len(children) == 0 {
			return Unknown
		}
		t := False
		for _, c := range children {
			switch Eval(c, look) {
			case True:
				return True
			case Unknown:
				t = Unknown
			}
		}
		return t
	case OpNot:
		switch Eval(o.At("condition"), look) {
		case True:
			return False
		case False:
			return True
		}
		return Unknown
	}
	path, ok := Path(o)
	if !ok {
		return Unknown
	}
	root, presence := look(path[0])
	if presence == Undecided {
		return Unknown
	}
	values := resolve(root, presence == Present, path[1:])
	if len(values) == 0 {
		// Nothing at the path: only the operators about absence hold.
		return Of(leaf(string(op), nil, false, o.At("value")))
	}
	for _, v := range values {
		if leaf(string(op), v, true, o.At("value")) {
			return True
		}
	}
	return False
}

// Children returns the children of an "and" or "or" condition ("conditions",
// or "operands" when "conditions" is absent), or of a "not" condition.
func Children(o *canonjson.Object) []canonjson.Value {
	if c, ok := o.Get("condition"); ok {
		return []canonjson.Value{c}
	}
	key := "conditions"
	if !o.Has(key) {
		key = "operands"
	}
	arr, _ := o.At(key).(canonjson.Array)
	return arr
}

// Path returns the path of a leaf condition: a non-empty list of strings.
func Path(o *canonjson.Object) ([]string, bool) {
	arr, ok := o.At("path").(canonjson.Array)
	if !ok || len(arr) == 0 {
		return nil, false
	}
	out := make([]string, len(arr))
	for i, e := range arr {
		s, ok := e.(canonjson.String)
		if !ok {
			return nil, false
		}
		out[i] = string(s)
	}
	return out, true
}

// Roots returns the distinct roots a condition reads, in order of first use.
func Roots(cond canonjson.Value) []string {
	var out []string
	var walk func(v canonjson.Value)
	walk = func(v canonjson.Value) {
		o, ok := v.(*canonjson.Object)
		if !ok {
			return
		}
		if p, ok := Path(o); ok {
			for _, r := range out {
				if r == p[0] {
					return
				}
			}
			out = append(out, p[0])
			return
		}
		for _, c := range Children(o) {
			walk(c)
		}
	}
	walk(cond)
	return out
}

// resolve returns the values at path below v: none when the path leads
// nowhere, several when it passes a "*".
func resolve(v canonjson.Value, present bool, path []string) []canonjson.Value {
	if !present {
		return nil
	}
	if len(path) == 0 {
		if _, null := v.(canonjson.Null); null {
			return nil
		}
		return []canonjson.Value{v}
	}
	if path[0] == "*" {
		arr, ok := v.(canonjson.Array)
		if !ok {
			return nil
		}
		var out []canonjson.Value
		for _, e := range arr {
			out = append(out, resolve(e, true, path[1:])...)
		}
		return out
	}
	o, ok := v.(*canonjson.Object)
	if !ok {
		return nil
	}
	child, ok := o.Get(path[0])
	return resolve(child, ok, path[1:])
}

// leaf applies a leaf operator to the value found at its path (found is
// false when there is none, or it is null).
func leaf(op string, v canonjson.Value, found bool, operand canonjson.Value) bool {
	switch op {
	case OpEquals:
		return found && canonjson.Equal(v, operand)
	case OpNotEquals:
		return !found || !canonjson.Equal(v, operand)
	case OpIn:
		return found && member(v, operand)
	case OpNotIn:
		return !found || !member(v, operand)
	case OpPresent:
		return found
	case OpAbsent:
		return !found
	case OpNonEmpty:
		return found && size(v) > 0
	case OpEmpty:
		return !found || size(v) == 0
	case OpGT, OpGTE, OpLT, OpLTE:
		if !found {
			return false
		}
		a, ok1 := v.(canonjson.Number)
		b, ok2 := operand.(canonjson.Number)
		if !ok1 || !ok2 {
			return false
		}
		c, ok := canonjson.CompareNumbers(a, b)
		if !ok {
			return false
		}
		switch op {
		case OpGT:
			return c > 0
		case OpGTE:
			return c >= 0
		case OpLT:
			return c < 0
		}
		return c <= 0
	}
	return false
}

func member(v, list canonjson.Value) bool {
	arr, ok := list.(canonjson.Array)
	if !ok {
		return false
	}
	for _, e := range arr {
		if canonjson.Equal(v, e) {
			return true
		}
	}
	return false
}

// size is the length of a string (in code points), array or object; -1 for
// other values, which are neither empty nor non-empty.
func size(v canonjson.Value) int {
	switch v := v.(type) {
	case canonjson.String:
		return len([]rune(string(v)))
	case canonjson.Array:
		return len(v)
	case *canonjson.Object:
		return v.Len()
	}
	return -1
}
