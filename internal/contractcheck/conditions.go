package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family J: conditions, when an input is required (requiredWhen) or
// forbidden (forbiddenWhen). The same rules judge goal need conditions and
// cross-field constraints.
var (
	RuleConditionPlacement     = diag.Register("CONTRACT_CONDITION_PLACEMENT", diag.Error, "requiredWhen is declared on a required input or one not of the requiredWhen class, a requiredWhen input has no condition, or forbiddenWhen is declared on a required input")
	RuleConditionPath          = diag.Register("CONTRACT_CONDITION_PATH", diag.Error, "a condition's path does not start at a declared input (or need) or does not resolve through its schema")
	RuleConditionOperator      = diag.Register("CONTRACT_CONDITION_OPERATOR", diag.Error, "a condition's operator does not fit the value it tests (a comparison of a non-number, an emptiness test of a scalar, a missing or superfluous value)")
	RuleConditionValue         = diag.Register("CONTRACT_CONDITION_VALUE", diag.Error, "a condition compares with a value the schema of its path does not allow")
	RuleConditionSelf          = diag.Register("CONTRACT_CONDITION_SELF", diag.Error, "an input's (or need's) condition depends on the input (or need) itself")
	RuleConditionContradiction = diag.Register("CONTRACT_CONDITION_CONTRADICTION", diag.Error, "the same condition both requires and forbids an input")
	RuleConditionCycle         = diag.Register("CONTRACT_CONDITION_CYCLE", diag.Error, "requiredWhen conditions depend on each other in a cycle")
)

// Operator groups.
var (
	comparisonOps = []string{"gt", "gte", "lt", "lte"}
	emptinessOps  = []string{"empty", "non-empty"}
	presenceOps   = []string{"present", "absent"}
	equalityOps   = []string{"equals", "not-equals"}
	membershipOps = []string{"in", "not-in"}
	leafOps       = slices.Concat(comparisonOps, emptinessOps, presenceOps, equalityOps, membershipOps)
)

// condScope is what a condition's paths resolve against.
type condScope struct {
	what string // "input", "need": what a path's first segment names
	// root returns the schema of the input or need a path starts at.
	root func(name string) (canonjson.Value, bool)
	self string // the input or need the condition belongs to; "" for none
	// evidence says whether leaves must cite evidence (constraints cite it
	// once for the whole constraint).
	evidence bool
}

func (k *checker) conditions(cp *contract.Capability) {
	sc := condScope{
		what: "input",
		root: func(name string) (canonjson.Value, bool) {
			in, ok := cp.Input(name)
			if !ok {
				return nil, false
			}
			return inputSchema(in), true
		},
		evidence: true,
	}
	deps := map[string][]string{} // input -> inputs its requiredWhen reads
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		switch {
		case len(in.RequiredWhen) > 0 && in.Required:
			k.contractf(RuleConditionPlacement, child(in.At, "required"),
				"input %q of %q is required unconditionally and also requiredWhen; make it required: false or drop the conditions", in.Name, cp.ID)
		case len(in.RequiredWhen) > 0 && in.InformationClass != contract.ClassRequiredWhen:
			k.contractf(RuleConditionPlacement, child(in.At, "informationClass"),
				"input %q of %q has requiredWhen conditions: its informationClass is requiredWhen", in.Name, cp.ID)
		case len(in.RequiredWhen) == 0 && in.InformationClass == contract.ClassRequiredWhen:
			k.contractf(RuleConditionPlacement, child(in.At, "requiredWhen"),
				"input %q of %q is of the requiredWhen class but states no condition", in.Name, cp.ID)
		}
		if len(in.ForbiddenWhen) > 0 && in.Required {
			k.contractf(RuleConditionPlacement, child(in.At, "forbiddenWhen"),
				"input %q of %q is required unconditionally, so it can never be forbidden", in.Name, cp.ID)
		}
		sc.self = in.Name
		for j := range in.RequiredWhen {
			c := &in.RequiredWhen[j]
			k.condition(c, sc, false)
			for _, r := range roots(c) {
				if r != in.Name { // a condition on itself is RuleConditionSelf's
					deps[in.Name] = append(deps[in.Name], r)
				}
			}
			for _, f := range in.ForbiddenWhen {
				if canonjson.Equal(withoutEvidence(c.Raw), withoutEvidence(f.Raw)) {
					k.contractf(RuleConditionContradiction, f.At, "input %q of %q is both required and forbidden under the same condition", in.Name, cp.ID)
				}
			}
		}
		for j := range in.ForbiddenWhen {
			k.condition(&in.ForbiddenWhen[j], sc, false)
		}
	}
	if cycle := findCycle(names(cp), deps); cycle != nil {
		in, _ := cp.Input(cycle[0])
		k.contractf(RuleConditionCycle, child(in.At, "requiredWhen"), "the requiredWhen conditions of %q form a cycle: %v", cp.ID, cycle)
	}
}

// names returns the capability's input names in order.
func names(cp *contract.Capability) []string {
	out := make([]string, len(cp.Inputs))
	for i := range cp.Inputs {
		out[i] = cp.Inputs[i].Name
	}
	return out
}

// condition checks one condition. evidenced says whether an enclosing
// condition already cites evidence.
func (k *checker) condition(c *contract.Condition, sc condScope, evidenced bool) {
	if len(c.Children) > 0 {
		evidenced = evidenced || len(c.EvidenceRefs) > 0
		if len(c.EvidenceRefs) > 0 {
			k.facts(c.At, c.EvidenceRefs, "the condition")
		}
		for i := range c.Children {
			k.condition(&c.Children[i], sc, evidenced)
		}
		return
	}
	if sc.evidence && (!evidenced || len(c.EvidenceRefs) > 0) {
		k.facts(c.At, c.EvidenceRefs, "the condition")
	}
	if len(c.Path) == 0 {
		return // reported by decoding
	}
	if c.Path[0] == sc.self && sc.self != "" {
		k.contractf(RuleConditionSelf, ptr(c.At, "path", 0), "a condition of %s %q cannot depend on %q itself", sc.what, sc.self, sc.self)
	}
	root, ok := sc.root(c.Path[0])
	if !ok {
		k.contractf(RuleConditionPath, ptr(c.At, "path", 0), "the condition's path starts at %q, which is not a declared %s", c.Path[0], sc.what)
		return
	}
	schema, ok := schemaAt(root, c.Path[1:])
	if !ok {
		k.contractf(RuleConditionPath, child(c.At, "path"), "the condition's path %s does not resolve through the schema of %s %q", quote(c.Path), sc.what, c.Path[0])
		return
	}
	k.operand(c, schema)
}

// operand checks a leaf condition's operator and value against the schema
// of the value it tests.
func (k *checker) operand(c *contract.Condition, schema canonjson.Value) {
	if !slices.Contains(leafOps, c.Operator) {
		return // an unknown operator is reported by decoding
	}
	types := schemaTypes(schema)
	allows := func(ts ...string) bool {
		return types == nil || slices.ContainsFunc(types, func(t string) bool { return slices.Contains(ts, t) })
	}
	hasValue := c.Value != nil
	switch {
	case slices.Contains(comparisonOps, c.Operator) && !allows("integer", "number"):
		k.contractf(RuleConditionOperator, child(c.At, "operator"), "%s compares numbers; %s is %q", c.Operator, quote(c.Path), types)
	case slices.Contains(emptinessOps, c.Operator) && !allows("string", "array", "object"):
		k.contractf(RuleConditionOperator, child(c.At, "operator"), "%s tests a string, array or object; %s is %q", c.Operator, quote(c.Path), types)
	}
	unary := slices.Contains(emptinessOps, c.Operator) || slices.Contains(presenceOps, c.Operator)
	switch {
	case unary && hasValue:
		k.contractf(RuleConditionOperator, child(c.At, "value"), "%s takes no value; remove it", c.Operator)
	case !unary && !hasValue && c.Operator != "":
		k.contractf(RuleConditionOperator, c.At, "%s needs a value to compare with", c.Operator)
	case slices.Contains(membershipOps, c.Operator):
		list, ok := c.Value.(canonjson.Array)
		if !ok || len(list) == 0 {
			k.contractf(RuleConditionOperator, child(c.At, "value"), "%s needs a non-empty list of values", c.Operator)
			return
		}
		for i, v := range list {
			if why := validate(schema, v); why != "" {
				k.contractf(RuleConditionValue, ptr(c.At, "value", i), "%s can never hold %s: %s", quote(c.Path), show(v), why)
			}
		}
	case hasValue && (slices.Contains(equalityOps, c.Operator) || slices.Contains(comparisonOps, c.Operator)):
		if why := validate(schema, c.Value); why != "" {
			k.contractf(RuleConditionValue, child(c.At, "value"), "%s can never hold %s: %s", quote(c.Path), show(c.Value), why)
		}
	}
}

// roots returns the first segments of every leaf path of a condition.
func roots(c *contract.Condition) []string {
	if len(c.Children) == 0 {
		if len(c.Path) > 0 {
			return []string{c.Path[0]}
		}
		return nil
	}
	var out []string
	for i := range c.Children {
		out = append(out, roots(&c.Children[i])...)
	}
	return out
}

// withoutEvidence returns v without evidenceRefs members, at any depth.
func withoutEvidence(v canonjson.Value) canonjson.Value {
	switch v := v.(type) {
	case *canonjson.Object:
		out := &canonjson.Object{}
		for k, mv := range v.All() {
			if k != "evidenceRefs" {
				out.Set(k, withoutEvidence(mv))
			}
		}
		return out
	case canonjson.Array:
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			out[i] = withoutEvidence(e)
		}
		return out
	}
	return v
}

// findCycle returns a cycle of the dependency graph deps over nodes (in
// node order), or nil. Edges to unknown nodes are ignored.
func findCycle(nodes []string, deps map[string][]string) []string {
	const (
		unvisited = iota
		active
		done
	)
	state := make(map[string]int, len(nodes))
	for _, n := range nodes {
		state[n] = unvisited
	}
	var stack []string
	var cycle []string
	var visit func(n string) bool
	visit = func(n string) bool {
		state[n] = active
		stack = append(stack, n)
		for _, m := range deps[n] {
			st, isNode := state[m]
			if !isNode {
				continue
			}
			switch st {
			case active:
				i := slices.Index(stack, m)
				cycle = append(slices.Clone(stack[i:]), m)
				return true
			case unvisited:
				if visit(m) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[n] = done
		return false
	}
	for _, n := range nodes {
		if state[n] == unvisited && visit(n) {
			return cycle
		}
	}
	return nil
}
