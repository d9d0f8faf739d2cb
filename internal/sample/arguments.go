package sample

import (
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
	"github.com/code2skill/code2skill/internal/jsonschema"
)

// Arguments returns the minimal arguments of a Tool: the minimal value of its
// (closed object) input schema, made to satisfy the conditional rules of the
// schema contract ({"<input>": {"requiredWhen": [...], "forbiddenWhen":
// [...]}}, nil for none): an input that one of its requiredWhen conditions
// requires is added, one that a forbiddenWhen condition forbids is dropped,
// until nothing changes. Optional inputs are otherwise left out.
func Arguments(inputSchema canonjson.Value, rules *canonjson.Object) (*canonjson.Object, error) {
	v, err := Value(inputSchema)
	if err != nil {
		return nil, err
	}
	args, ok := v.(*canonjson.Object)
	if !ok {
		return nil, noSample("the input schema is not an object schema")
	}
	return Settle(args, inputSchema, rules)
}

// Settle applies the conditional rules to arguments (see Arguments) and
// returns the result, a copy. It fails when an input is both required and
// forbidden, or when an unconditionally required input is forbidden.
func Settle(args *canonjson.Object, inputSchema canonjson.Value, rules *canonjson.Object) (*canonjson.Object, error) {
	args = canonjson.Clone(args).(*canonjson.Object)
	s, _ := inputSchema.(*canonjson.Object)
	required := canonjson.StringsOf(s.At("required"))
	for range rules.Len() + 1 {
		changed := false
		for name, rule := range rules.All() {
			r, _ := rule.(*canonjson.Object)
			req := anyTrue(r.At("requiredWhen"), args)
			forbidden := anyTrue(r.At("forbiddenWhen"), args)
			switch {
			case req && forbidden:
				return nil, noSample("input %q is both required and forbidden by its conditions", name)
			case forbidden && slices.Contains(required, name):
				return nil, noSample("input %q is required and forbidden by a condition", name)
			case req && !args.Has(name):
				v, err := Value(PropertySchema(s, name))
				if err != nil {
					return nil, fmt.Errorf("input %q: %w", name, err)
				}
				args.Set(name, v)
				changed = true
			case forbidden && args.Has(name):
				args.Delete(name)
				changed = true
			}
		}
		if !changed {
			return args, nil
		}
	}
	return nil, noSample("the conditional rules do not settle")
}

// Holds reports whether any of a list of conditions is true for the
// arguments.
func anyTrue(conds canonjson.Value, args *canonjson.Object) bool {
	arr, _ := conds.(canonjson.Array)
	for _, c := range arr {
		if condition.Eval(c, condition.Values(args)) == condition.True {
			return true
		}
	}
	return false
}

// PropertySchema returns the schema of a property of an object schema, or
// nil.
func PropertySchema(s canonjson.Value, name string) canonjson.Value {
	o, _ := s.(*canonjson.Object)
	props, _ := o.At("properties").(*canonjson.Object)
	return props.At(name)
}

// schemaAt returns the schema at a path of segments below an object schema
// ("*" steps into items) and whether the last segment is a required
// property of its parent.
func schemaAt(s canonjson.Value, path []string) (canonjson.Value, bool) {
	required := false
	for _, seg := range path {
		o, _ := s.(*canonjson.Object)
		if seg == "*" {
			s, required = o.At("items"), false
			continue
		}
		required = slices.Contains(canonjson.StringsOf(o.At("required")), seg)
		s = PropertySchema(o, seg)
	}
	return s, required
}

// Solve returns a copy of args changed so that cond evaluates to want (True
// or False) while the arguments stay valid against the input schema: values
// are set from the schema's samples or the condition's own operands,
// optional members are removed, and every change is checked with a JSON
// Schema validator. ok is false when no such change was found. A caller
// solving many conditions over one schema uses a Solver.
func Solve(cond canonjson.Value, want condition.Truth, args *canonjson.Object, inputSchema canonjson.Value) (*canonjson.Object, bool) {
	sv, err := NewSolver(inputSchema)
	if err != nil {
		return nil, false
	}
	return sv.Solve(cond, want, args)
}

// Solver solves conditions within one input schema, compiled once.
type Solver struct {
	schema    canonjson.Value
	validator *jsonschema.Schema
}

// NewSolver compiles an input schema for Solve.
func NewSolver(inputSchema canonjson.Value) (*Solver, error) {
	v, err := jsonschema.Compile(canonjson.Encode(inputSchema))
	if err != nil {
		return nil, err
	}
	return SolverFor(inputSchema, v), nil
}

// SolverFor returns a Solver over an input schema the caller has already
// compiled (compiled must be inputSchema's).
func SolverFor(inputSchema canonjson.Value, compiled *jsonschema.Schema) *Solver {
	return &Solver{schema: inputSchema, validator: compiled}
}

// Solve is the package's Solve over the solver's schema.
func (sv *Solver) Solve(cond canonjson.Value, want condition.Truth, args *canonjson.Object) (*canonjson.Object, bool) {
	out := canonjson.Clone(args).(*canonjson.Object)
	if !sv.solve(cond, want, out) {
		return nil, false
	}
	return out, condition.Eval(cond, condition.Values(out)) == want
}

func (sv *Solver) valid(args *canonjson.Object) bool {
	return len(sv.validator.ValidateValue(jsonschema.Native(args))) == 0
}

func (sv *Solver) solve(cond canonjson.Value, want condition.Truth, args *canonjson.Object) bool {
	s := sv.schema
	o, ok := cond.(*canonjson.Object)
	if !ok {
		return false
	}
	op, _ := o.At("operator").(canonjson.String)
	children := condition.Children(o)
	switch string(op) {
	case condition.OpNot:
		flip := condition.True
		if want == condition.True {
			flip = condition.False
		}
		return len(children) == 1 && sv.solve(children[0], flip, args)
	case condition.OpAnd, condition.OpOr:
		// "and" true and "or" false need every child; the others one.
		all := (op == condition.OpAnd) == (want == condition.True)
		for _, c := range children {
			trial := canonjson.Clone(args).(*canonjson.Object)
			ok := sv.solve(c, want, trial)
			if ok {
				replace(args, trial)
				if !all {
					return true
				}
			} else if all {
				return false
			}
		}
		return all && len(children) > 0
	}
	path, ok := condition.Path(o)
	if !ok {
		return false
	}
	for _, c := range candidates(o, path, s) {
		trial := canonjson.Clone(args).(*canonjson.Object)
		if c.remove {
			if _, required := schemaAt(s, path); required {
				continue
			}
			removeAt(trial, path)
		} else if !setAt(trial, path, c.value, s) {
			continue
		}
		if condition.Eval(cond, condition.Values(trial)) == want && sv.valid(trial) {
			replace(args, trial)
			return true
		}
	}
	return false
}

// candidate is one change a leaf solver tries: removing the value, or
// setting one.
type candidate struct {
	remove bool
	value  canonjson.Value
}

// candidates lists the values to try for a leaf: the schema's samples, the
// operands, removal, then values at the edges (empty, one past a bound).
func candidates(leaf *canonjson.Object, path []string, s canonjson.Value) []candidate {
	var out []candidate
	at, _ := schemaAt(s, path)
	for i := range 5 {
		if v, err := Nth(at, i); err == nil {
			out = append(out, candidate{value: v})
		}
	}
	operand := leaf.At("value")
	switch list := operand.(type) {
	case canonjson.Array:
		for _, v := range list {
			out = append(out, candidate{value: v})
		}
	case nil:
	default:
		out = append(out, candidate{value: operand})
	}
	out = append(out, candidate{remove: true})
	if r, ok := rat(operand); ok {
		out = append(out, candidate{value: plus(r, 1)}, candidate{value: plus(r, -1)})
	}
	out = append(out, candidate{value: canonjson.String("")}, candidate{value: canonjson.Array{}}, candidate{value: &canonjson.Object{}})
	return out
}

// setAt sets the value at path inside args, creating the members on the way
// from the schema's minimal samples. A "*" segment sets every element (and
// creates one when the array is empty).
func setAt(args *canonjson.Object, path []string, v canonjson.Value, s canonjson.Value) bool {
	root := path[0]
	if len(path) == 1 {
		args.Set(root, canonjson.Clone(v))
		return true
	}
	cur, ok := args.Get(root)
	if !ok {
		sample, err := Value(PropertySchema(s, root))
		if err != nil {
			return false
		}
		cur = sample
	}
	next, ok := setIn(cur, path[1:], v, PropertySchema(s, root))
	if ok {
		args.Set(root, next)
	}
	return ok
}

func setIn(cur canonjson.Value, path []string, v canonjson.Value, s canonjson.Value) (canonjson.Value, bool) {
	if len(path) == 0 {
		return canonjson.Clone(v), true
	}
	o, _ := s.(*canonjson.Object)
	if path[0] == "*" {
		arr, ok := cur.(canonjson.Array)
		if !ok {
			return nil, false
		}
		items := o.At("items")
		arr = canonjson.Clone(arr).(canonjson.Array)
		if len(arr) == 0 {
			first, err := Value(items)
			if err != nil {
				return nil, false
			}
			arr = canonjson.Array{first}
		}
		for i := range arr {
			next, ok := setIn(arr[i], path[1:], v, items)
			if !ok {
				return nil, false
			}
			arr[i] = next
		}
		return arr, true
	}
	obj, ok := cur.(*canonjson.Object)
	if !ok {
		return nil, false
	}
	obj = canonjson.Clone(obj).(*canonjson.Object)
	child, ok := obj.Get(path[0])
	if !ok {
		sample, err := Value(PropertySchema(o, path[0]))
		if err != nil {
			return nil, false
		}
		child = sample
	}
	next, ok := setIn(child, path[1:], v, PropertySchema(o, path[0]))
	if !ok {
		return nil, false
	}
	obj.Set(path[0], next)
	return obj, true
}

// removeAt removes the member at path, if there is one.
func removeAt(args *canonjson.Object, path []string) {
	if len(path) == 1 {
		args.Delete(path[0])
		return
	}
	cur, ok := args.Get(path[0])
	if !ok {
		return
	}
	args.Set(path[0], removeIn(canonjson.Clone(cur), path[1:]))
}

func removeIn(cur canonjson.Value, path []string) canonjson.Value {
	switch v := cur.(type) {
	case canonjson.Array:
		if path[0] == "*" {
			for i := range v {
				if len(path) == 1 {
					return canonjson.Array{} // every element removed
				}
				v[i] = removeIn(v[i], path[1:])
			}
		}
	case *canonjson.Object:
		if len(path) == 1 {
			v.Delete(path[0])
		} else if child, ok := v.Get(path[0]); ok {
			v.Set(path[0], removeIn(child, path[1:]))
		}
	}
	return cur
}

// replace makes dst hold exactly the members of src.
func replace(dst, src *canonjson.Object) {
	for _, k := range dst.Keys() {
		dst.Delete(k)
	}
	for k, v := range src.All() {
		dst.Set(k, v)
	}
}
