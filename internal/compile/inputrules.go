package compile

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// inputRule is one rule the Function checks on input that satisfies its
// schema, as the JavaScript that decides it.
type inputRule struct {
	name string // the input a conditional rule governs, or the constraint's ID
	at   string // JSON Pointer into the input of what a constraint governs
	expr string // requiredWhen/forbiddenWhen: when the rule applies; constraints: when it holds
}

// functionEnforcements are the constraint enforcements that bind the
// Function itself. "schema" binds it too: the input schema is the
// Function's to check, and the portable schema subset cannot state a rule
// over several fields. "runtime" and "runtime-before-dispatch" bind the
// runtime that runs the Function (the workflow guard, the Host), which
// holds what such rules compare: grants, trusted context, digests of
// validated payloads.
var functionEnforcements = []string{"function", "function-and-runtime", "schema"}

// bindsFunction reports whether the Function must enforce a constraint.
func bindsFunction(c *contract.Constraint) bool {
	return slices.Contains(functionEnforcements, c.Enforcement)
}

// conditionalRules plans the requiredWhen and forbiddenWhen rules of the
// capability's inputs: an input is required while any of its requiredWhen
// conditions holds, and must be left out while any of its forbiddenWhen
// conditions holds.
func (pl *planner) conditionalRules() {
	for i := range pl.cp.cap.Inputs {
		in := &pl.cp.cap.Inputs[i]
		if expr, ok := pl.anyOf(in.RequiredWhen); ok && expr != "" {
			pl.cp.requiredWhen = append(pl.cp.requiredWhen, inputRule{name: in.Name, expr: expr})
		}
		if expr, ok := pl.anyOf(in.ForbiddenWhen); ok && expr != "" {
			pl.cp.forbiddenWhen = append(pl.cp.forbiddenWhen, inputRule{name: in.Name, expr: expr})
		}
	}
}

// anyOf returns the expression that holds while any of the conditions
// does ("" for none), refusing each condition that has no compiled form.
func (pl *planner) anyOf(conds []contract.Condition) (string, bool) {
	parts := make([]string, 0, len(conds))
	ok := true
	for i := range conds {
		expr, err := conditionJS(conds[i].Raw, "input")
		if err != nil {
			pl.refuseContract(RuleCondition, conds[i].At, "%v; the Function cannot decide this condition", err)
			ok = false
			continue
		}
		parts = append(parts, expr)
	}
	return strings.Join(parts, " || "), ok
}

// constraints plans the constraints that bind the Function. A cross-field
// if/then constraint holds when its "if" condition does not, or its "then"
// condition does; a forbidden-shape constraint holds when nothing (absent)
// or nothing non-empty (empty) is at its path. Any other form the Function
// must enforce requires review: the Function does not hold grants, trusted
// context or validated digests, and compile does not guess how a
// comparison treats a missing value.
func (pl *planner) constraints() {
	for i := range pl.cp.cap.Constraints {
		c := &pl.cp.cap.Constraints[i]
		if !bindsFunction(c) {
			continue
		}
		switch {
		case c.Kind == "cross-field" && c.If != nil && c.Then != nil && c.Left == nil && c.Right == nil:
			cond, err1 := conditionJS(c.If.Raw, "input")
			then, err2 := conditionJS(c.Then.Raw, "input")
			if err1 != nil {
				pl.refuseContract(RuleCondition, c.If.At, "constraint %q: %v; the Function cannot decide this condition", c.ID, err1)
			}
			if err2 != nil {
				pl.refuseContract(RuleCondition, c.Then.At, "constraint %q: %v; the Function cannot decide this condition", c.ID, err2)
			}
			if err1 == nil && err2 == nil {
				pl.cp.constraints = append(pl.cp.constraints, inputRule{name: c.ID, at: "", expr: "!" + cond + " || " + then})
			}
		case c.Kind == "cross-field" && c.Left != nil && c.Right != nil && c.If == nil && c.Then == nil:
			pl.refuseContract(RuleConstraint, c.At,
				"constraint %q compares %s with %s and its enforcement %q binds the Function; %s",
				c.ID, operandName(c.Left), operandName(c.Right), c.Enforcement, comparisonWhy(c))
		case c.Kind == "forbidden-shape":
			pl.forbiddenShape(c)
		case c.Kind == "grant-binding":
			pl.refuseContract(RuleConstraint, ptr(c.At, "enforcement"),
				"constraint %q binds grants to %s and its enforcement %q binds the Function, which holds no grants; only the runtime can enforce it (runtime-before-dispatch)",
				c.ID, strings.Join(c.Fields, ", "), c.Enforcement)
		default:
			pl.refuseContract(RuleConstraint, c.At,
				"constraint %q of kind %q binds the Function (enforcement %q) in a form it has no check for",
				c.ID, c.Kind, c.Enforcement)
		}
	}
}

// forbiddenShape plans a forbidden-shape constraint: it is broken when a
// value (absent) or a non-empty value (empty) is at its path.
func (pl *planner) forbiddenShape(c *contract.Constraint) {
	pred, _ := c.Predicate.(*canonjson.Object)
	op, _ := member(pred, "operator").(canonjson.String)
	var broken string
	switch string(op) {
	case condition.OpAbsent:
		broken = condition.OpPresent
	case condition.OpEmpty:
		broken = condition.OpNonEmpty
	default:
		pl.refuseContract(RuleConstraint, ptr(c.At, "predicate"),
			"forbidden-shape constraint %q needs the predicate absent or empty, not %s", c.ID, compact(c.Predicate))
		return
	}
	if len(c.Path) == 0 {
		pl.refuseContract(RuleConstraint, ptr(c.At, "path"), "forbidden-shape constraint %q names no input path", c.ID)
		return
	}
	leaf := canonjson.NewObject(
		canonjson.Member{Key: "path", Value: canonjson.Strings(c.Path)},
		canonjson.Member{Key: "operator", Value: canonjson.String(broken)},
	)
	expr, err := conditionJS(leaf, "input")
	if err != nil {
		pl.refuseContract(RuleConstraint, ptr(c.At, "path"), "forbidden-shape constraint %q: %v", c.ID, err)
		return
	}
	at := ""
	if !slices.Contains(c.Path, "*") {
		at = diag.Pointer(pathTokens(c.Path)...)
	}
	pl.cp.constraints = append(pl.cp.constraints, inputRule{name: c.ID, at: at, expr: "!" + expr})
}

// operandName describes one side of a comparison.
func operandName(o *contract.Operand) string {
	return o.Source + " " + strings.Join(o.Path, ".")
}

// comparisonWhy says why a comparison constraint cannot be the Function's.
func comparisonWhy(c *contract.Constraint) string {
	for _, o := range []*contract.Operand{c.Left, c.Right} {
		switch o.Source {
		case "input":
		case "canonicalDigest":
			return "the digest of a validated payload is the runtime's to compute and compare; enforce it runtime-before-dispatch"
		default:
			return "the Function does not hold " + o.Source + "; only the runtime can compare it (runtime-before-dispatch)"
		}
	}
	return "the contract does not say how the comparison treats a missing or repeated value; state it as an if/then condition"
}

func pathTokens(path []string) []any {
	out := make([]any, len(path))
	for i, s := range path {
		out[i] = s
	}
	return out
}
