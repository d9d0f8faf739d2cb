package contract

import "github.com/code2skill/code2skill/internal/canonjson"

// Constraint is a cross-field, forbidden-shape or grant-binding rule the
// Function or runtime enforces.
type Constraint struct {
	Raw *canonjson.Object
	At  string

	ID           string
	Kind         string
	Enforcement  string
	EvidenceRefs []string

	// forbidden-shape: the input path that must satisfy Predicate.
	Path      []string
	Predicate canonjson.Value

	// cross-field, conditional form: when If holds, Then must hold.
	If, Then *Condition
	// cross-field, comparison form: Left Operator Right.
	Left, Right *Operand
	Operator    string

	// grant-binding: the fields a grant must bind.
	Fields []string
}

// Operand is one side of a cross-field comparison: a value taken from Source
// (an input-derived value such as canonicalDigest, or a grant or trusted
// context) at Path.
type Operand struct {
	Source string
	Path   []string
}

func decodeConstraint(r *record) Constraint {
	c := Constraint{Raw: r.obj, At: r.at}
	c.ID = r.str("constraintId", req)
	c.Kind = r.laterEnum("kind", req, vocabConstraintKind)
	c.Enforcement = r.laterEnum("enforcement", req, vocabEnforcement)
	c.EvidenceRefs = r.strs("evidenceRefs", req)
	switch c.Kind {
	case "forbidden-shape":
		c.Path = r.strs("path", some)
		c.Predicate = r.value("predicate", req)
	case "cross-field":
		if r.has("if") || r.has("then") {
			ifCond := decodeCondition(r.object("if", req))
			thenCond := decodeCondition(r.object("then", req))
			c.If, c.Then = &ifCond, &thenCond
		} else {
			c.Left = decodeOperand(r.object("left", req))
			c.Operator = r.laterEnum("operator", req, vocabOperator)
			c.Right = decodeOperand(r.object("right", req))
		}
		r.known = append(r.known, "if", "then", "left", "operator", "right")
	case "grant-binding":
		c.Fields = r.strs("fields", some)
	}
	r.open()
	return c
}

func decodeOperand(r *record) *Operand {
	o := &Operand{Source: r.str("source", req), Path: r.strs("path", opt)}
	r.open()
	return o
}
