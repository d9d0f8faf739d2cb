package compile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
)

// conditionJS returns a JavaScript expression, over the arguments held in
// the variable in, that is true exactly when condition.Eval finds the
// condition True for those arguments, or why the condition has no such
// expression.
//
// internal/condition is the one definition of what a condition means; this
// is a translation of it, read with its own Children and Path. Under one
// call's arguments every root is decided (the input is there or it is
// not), so a well-formed condition is True or False and the expression is
// an ordinary boolean. What makes a condition Unknown there is only a
// malformed one (a composite without children, a leaf without a path or
// with an unknown operator, an operand of the wrong kind), and that is
// refused instead of compiled: an Unknown condition would silently decide
// nothing.
//
// A leaf becomes someAt(in, path, ifNone, test): the values at its path
// (none when the path leads nowhere or ends at null; one per array element
// under "*"), test applied to each, and ifNone when there are none. ifNone
// is not written by hand: it is condition.Eval's own answer for the leaf
// over an absent root. "and", "or" and "not" become &&, || and !.
func conditionJS(cond canonjson.Value, in string) (string, error) {
	return conditionExpr(cond, in, 0)
}

// maxConditionDepth bounds how deeply composites nest.
const maxConditionDepth = 32

func conditionExpr(cond canonjson.Value, in string, depth int) (string, error) {
	if depth > maxConditionDepth {
		return "", fmt.Errorf("conditions nest more than %d deep", maxConditionDepth)
	}
	o, ok := cond.(*canonjson.Object)
	if !ok {
		return "", fmt.Errorf("a condition must be an object, not %s", canonjson.TypeName(cond))
	}
	op, _ := member(o, "operator").(canonjson.String)
	switch string(op) {
	case condition.OpAnd, condition.OpOr:
		children := condition.Children(o)
		if len(children) == 0 {
			return "", fmt.Errorf("an %q condition needs at least one child condition", op)
		}
		parts := make([]string, len(children))
		for i, c := range children {
			var err error
			if parts[i], err = conditionExpr(c, in, depth+1); err != nil {
				return "", err
			}
		}
		if len(parts) == 1 {
			return parts[0], nil
		}
		sep := " && "
		if op == condition.OpOr {
			sep = " || "
		}
		return "(" + strings.Join(parts, sep) + ")", nil
	case condition.OpNot:
		child, ok := o.Get("condition")
		if !ok {
			return "", fmt.Errorf(`a "not" condition needs its child under "condition"`)
		}
		e, err := conditionExpr(child, in, depth+1)
		if err != nil {
			return "", err
		}
		return "!" + e, nil
	}
	path, ok := condition.Path(o)
	if !ok {
		return "", fmt.Errorf("the leaf condition %s has no path of names", compact(o))
	}
	test, err := leafTest(string(op), member(o, "value"), o.Has("value"))
	if err != nil {
		return "", err
	}
	none := condition.Eval(o, func(string) (canonjson.Value, condition.Presence) { return nil, condition.Absent }) == condition.True
	return "someAt(" + in + ", " + strList(path) + ", " + strconv.FormatBool(none) + ", " + test + ")", nil
}

// leafTest returns the test a leaf operator applies to each value found at
// its path (a JSON value other than null): the JavaScript form of
// condition's leaf semantics for a found value.
func leafTest(op string, operand canonjson.Value, hasOperand bool) (string, error) {
	needs := func(kind string) error {
		return fmt.Errorf("the operator %q needs %s as its value", op, kind)
	}
	switch op {
	case condition.OpPresent:
		return "() => true", nil
	case condition.OpAbsent:
		return "() => false", nil
	case condition.OpNonEmpty:
		return "(v) => sizeOf(v) > 0", nil
	case condition.OpEmpty:
		return "(v) => sizeOf(v) === 0", nil
	case condition.OpEquals, condition.OpNotEquals:
		if !hasOperand {
			return "", needs("a JSON value")
		}
		if op == condition.OpNotEquals {
			return "(v) => !jsonEqual(v, " + compact(operand) + ")", nil
		}
		return "(v) => jsonEqual(v, " + compact(operand) + ")", nil
	case condition.OpIn, condition.OpNotIn:
		if _, ok := operand.(canonjson.Array); !ok {
			return "", needs("an array")
		}
		some := compact(operand) + ".some((item) => jsonEqual(v, item))"
		if op == condition.OpNotIn {
			return "(v) => !" + some, nil
		}
		return "(v) => " + some, nil
	case condition.OpGT, condition.OpGTE, condition.OpLT, condition.OpLTE:
		if _, ok := operand.(canonjson.Number); !ok {
			return "", needs("a number")
		}
		cmp := map[string]string{condition.OpGT: ">", condition.OpGTE: ">=", condition.OpLT: "<", condition.OpLTE: "<="}[op]
		return `(v) => typeof v === "number" && v ` + cmp + " " + compact(operand), nil
	}
	return "", fmt.Errorf("the operator %q is not one of the condition operators", op)
}
