package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family S: constraints the Function or runtime enforces. Decoding checks
// each kind's fields and the vocabularies.
var (
	RuleForbiddenShape = diag.Register("CONTRACT_CONSTRAINT_FORBIDDEN_SHAPE", diag.Error, "a forbidden-shape constraint does not start at a declared input or its predicate is not absent or empty")
	RuleCrossField     = diag.Register("CONTRACT_CONSTRAINT_CROSS_FIELD", diag.Error, "a cross-field constraint reads an undeclared input, an unknown operand source, or compares with an operator other than equals or not-equals")
	RuleGrantBinding   = diag.Register("CONTRACT_CONSTRAINT_GRANT_BINDING", diag.Error, "a grant-binding constraint does not bind subject, session, target and payloadDigest, or its workflow does not bind every field it names")
)

// Operand sources of a cross-field comparison: computed from an input, or
// read from a grant or trusted context.
var (
	inputOperands   = []string{"input", "canonicalDigest"}
	grantOperands   = []string{"validationGrant", "confirmationGrant", "attachmentGrant", "trustedContext"}
	grantMinimum    = []string{"subject", "session", "target", "payloadDigest"}
	shapePredicates = []string{"absent", "empty"}
)

func (k *checker) constraints(cp *contract.Capability) {
	ids := make([]string, len(cp.Constraints))
	for i := range cp.Constraints {
		ids[i] = cp.Constraints[i].ID
	}
	k.unique(RuleDuplicateID, "constraintId", ids, func(i int) string { return ptr(cp.Constraints[i].At, "constraintId") })
	isInput := func(name string) bool { _, ok := cp.Input(name); return ok }
	sc := condScope{
		what: "input",
		root: func(name string) (canonjson.Value, bool) {
			in, ok := cp.Input(name)
			if !ok {
				return nil, false
			}
			return inputSchema(in), true
		},
	}
	for i := range cp.Constraints {
		c := &cp.Constraints[i]
		k.cited(c.At, c.EvidenceRefs, "constraint "+c.ID)
		switch c.Kind {
		case "forbidden-shape":
			if len(c.Path) > 0 && !isInput(c.Path[0]) {
				k.contractf(RuleForbiddenShape, ptr(c.At, "path", 0), "%q is not an input of %q", c.Path[0], cp.ID)
			}
			op, _ := member[canonjson.String](asObject(c.Predicate), "operator")
			if !slices.Contains(shapePredicates, string(op)) {
				k.contractf(RuleForbiddenShape, child(c.At, "predicate"), `the predicate of a forbidden shape is {"operator": "absent"} or {"operator": "empty"}`)
			}
		case "cross-field":
			if c.If != nil {
				for _, part := range []struct {
					key  string
					cond *contract.Condition
				}{{"if", c.If}, {"then", c.Then}} {
					for _, r := range roots(part.cond) {
						if !isInput(r) {
							k.contractf(RuleCrossField, child(part.cond.At, "path"), "the %s condition reads %q, which is not an input of %q", part.key, r, cp.ID)
						}
					}
					if !slices.ContainsFunc(roots(part.cond), func(r string) bool { return !isInput(r) }) {
						k.condition(part.cond, sc, true)
					}
				}
				break
			}
			for _, side := range []struct {
				key string
				op  *contract.Operand
			}{{"left", c.Left}, {"right", c.Right}} {
				if side.op == nil {
					continue
				}
				at := ptr(c.At, side.key)
				switch {
				case slices.Contains(inputOperands, side.op.Source):
					if len(side.op.Path) == 0 || !isInput(side.op.Path[0]) {
						k.contractf(RuleCrossField, child(at, "path"), "a %s operand reads an input of %q: its path starts with the input's name", side.op.Source, cp.ID)
					}
				case slices.Contains(grantOperands, side.op.Source):
					if len(side.op.Path) == 0 {
						k.contractf(RuleCrossField, child(at, "path"), "a %s operand names the path of the value it reads", side.op.Source)
					}
				case side.op.Source != "":
					k.contractf(RuleCrossField, child(at, "source"), "operand source %q is none of %q", side.op.Source, slices.Concat(inputOperands, grantOperands))
				}
			}
			if c.Operator != "" && c.Operator != "equals" && c.Operator != "not-equals" {
				k.contractf(RuleCrossField, child(c.At, "operator"), "a cross-field comparison is equals or not-equals, not %q", c.Operator)
			}
		case "grant-binding":
			for _, f := range grantMinimum {
				if !slices.Contains(c.Fields, f) {
					k.contractf(RuleGrantBinding, child(c.At, "fields"), "a grant binds at least %q; %q is missing", grantMinimum, f)
				}
			}
			for _, w := range k.c.Workflows {
				if w.EntryCapabilityID != cp.ID {
					continue
				}
				for j, f := range c.Fields {
					if !slices.ContainsFunc(w.Bindings, func(b contract.WorkflowBinding) bool { return b.Name == f }) {
						k.contractf(RuleGrantBinding, ptr(c.At, "fields", j), "workflow %q has no binding named %q, so nothing enforces it before dispatch", w.ID, f)
					}
				}
			}
		}
	}
}
