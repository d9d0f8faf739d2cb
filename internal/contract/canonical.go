package contract

import (
	"cmp"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Canonical returns the contract in canonical form: the same contract with
// every record's members in the format's order and every set in its
// canonical order (see ContractShape). Two files that differ only in the
// order of what carries no meaning have the same canonical form, so
// everything derived from it is byte-identical.
//
// The canonical contract is decoded from the canonical document; the
// findings of that decoding are those of c. Its records keep their list
// positions (lists of records are never reordered), so their At pointers
// still name the author's file; only the indices of set elements differ.
// It is computed once and shared: read it, do not change it.
func (c *Contract) Canonical() *Contract {
	if p := c.canonical.Load(); p != nil {
		return p
	}
	canon := c
	if c.Raw != nil {
		if v, changed := CanonicalDocument(c.Raw); changed {
			rd := &reader{file: ContractFile}
			canon = decodeContract(rd, rd.record(v, ""))
		}
	}
	canon.canonical.CompareAndSwap(nil, canon)
	c.canonical.CompareAndSwap(nil, canon)
	return c.canonical.Load()
}

// CanonicalDocument returns a contract document in canonical form, and
// whether that differs from v in any order. v is not changed; subtrees
// already canonical are shared with it.
func CanonicalDocument(v canonjson.Value) (canonjson.Value, bool) {
	k := &canonicalizer{declared: declarationOrders(v)}
	out := k.value(v, ContractShape)
	return out, k.changed
}

// canonicalizer builds a canonical copy of a document.
type canonicalizer struct {
	// declared holds, for each kind of reference, the position of every
	// name in the list that declares it.
	declared map[Ref]map[string]int
	changed  bool
}

// declarationOrders finds where the contract declares what sets name.
func declarationOrders(v canonjson.Value) map[Ref]map[string]int {
	root, _ := v.(*canonjson.Object)
	positions := func(list canonjson.Value, key string) map[string]int {
		out := map[string]int{}
		arr, _ := list.(canonjson.Array)
		for i, e := range arr {
			o, _ := e.(*canonjson.Object)
			if id, ok := o.At(key).(canonjson.String); ok {
				if _, dup := out[string(id)]; !dup {
					out[string(id)] = i
				}
			}
		}
		return out
	}
	reqs, _ := root.At("consumerRequirements").(*canonjson.Object)
	return map[Ref]map[string]int{
		RefEvidence:    positions(root.At("evidenceCatalog"), "evidenceId"),
		RefCapability:  positions(root.At("capabilities"), "capabilityId"),
		RefRequirement: positions(reqs.At("requirements"), "requirementId"),
	}
}

func (k *canonicalizer) value(v canonjson.Value, s *Shape) canonjson.Value {
	switch s.Kind {
	case KindRecord:
		if o, ok := v.(*canonjson.Object); ok {
			return k.record(o, s)
		}
	case KindList:
		if a, ok := v.(canonjson.Array); ok {
			return k.list(a, s)
		}
	case KindMap:
		if o, ok := v.(*canonjson.Object); ok {
			keys := o.Keys()
			if s.Order == Set {
				slices.Sort(keys)
			}
			return k.members(o, keys, func(string) *Shape { return s.Elem })
		}
	case KindSchema:
		return k.schema(v)
	}
	return k.free(v)
}

// record orders a record's members as the format does, members it does not
// define last, in code point order.
func (k *canonicalizer) record(o *canonjson.Object, s *Shape) canonjson.Value {
	keys := make([]string, 0, o.Len())
	for _, m := range s.Members {
		if o.Has(m.Name) {
			keys = append(keys, m.Name)
		}
	}
	if len(keys) < o.Len() {
		var unknown []string
		for key := range o.All() {
			if _, ok := s.Member(key); !ok {
				unknown = append(unknown, key)
			}
		}
		slices.Sort(unknown)
		keys = append(keys, unknown...)
	}
	return k.members(o, keys, func(key string) *Shape {
		if ms, ok := s.Member(key); ok {
			return ms
		}
		return freeShape
	})
}

var (
	freeShape = &Shape{Kind: KindValue}
	freeList  = &Shape{Kind: KindList, Elem: freeShape}
)

// members returns o with its members in the order of keys, each value made
// canonical by the shape shapeOf gives it; o itself when nothing changed.
func (k *canonicalizer) members(o *canonjson.Object, keys []string, shapeOf func(string) *Shape) canonjson.Value {
	same := slices.Equal(keys, o.Keys())
	if !same {
		k.changed = true
	}
	values := make([]canonjson.Value, len(keys))
	for i, key := range keys {
		old, _ := o.Get(key)
		values[i] = k.value(old, shapeOf(key))
		if !sameValue(values[i], old) {
			same = false
		}
	}
	if same {
		return o
	}
	out := &canonjson.Object{}
	for i, key := range keys {
		out.Set(key, values[i])
	}
	return out
}

// list makes every element canonical and puts a set's elements in their
// canonical order.
func (k *canonicalizer) list(a canonjson.Array, s *Shape) canonjson.Value {
	out := a
	for i, e := range a {
		if c := k.value(e, s.Elem); !sameValue(c, e) {
			if sameArray(out, a) {
				out = slices.Clone(a)
			}
			out[i] = c
		}
	}
	if s.Order != Set || len(out) < 2 {
		return out
	}
	positions := k.declared[s.Ref]
	rank := func(e canonjson.Value) (int, bool) {
		if positions == nil {
			return 0, false
		}
		id, isString := e.(canonjson.String)
		if !isString {
			id = canonjson.String(s.Identity(e))
		}
		p, ok := positions[string(id)]
		return p, ok
	}
	less := func(x, y canonjson.Value) int {
		px, okx := rank(x)
		py, oky := rank(y)
		switch {
		case okx && oky:
			return cmp.Compare(px, py)
		case okx != oky: // declared names first
			if okx {
				return -1
			}
			return 1
		}
		return compareValues(x, y)
	}
	if slices.IsSortedFunc(out, less) {
		return out
	}
	k.changed = true
	if sameArray(out, a) {
		out = slices.Clone(a)
	}
	slices.SortStableFunc(out, less)
	return out
}

// free makes a free-form value canonical: object keys in code point order
// at every depth; arrays keep their order.
func (k *canonicalizer) free(v canonjson.Value) canonjson.Value {
	switch v := v.(type) {
	case *canonjson.Object:
		return k.members(v, sortedKeys(v), func(string) *Shape { return freeShape })
	case canonjson.Array:
		return k.list(v, freeList)
	}
	return v
}

// schema makes a JSON Schema canonical: keywords in SchemaKeywords order,
// others after them in code point order; subschemas likewise; properties in
// the author's order; required in the order of properties.
func (k *canonicalizer) schema(v canonjson.Value) canonjson.Value {
	o, ok := v.(*canonjson.Object)
	if !ok {
		return k.free(v)
	}
	keys := make([]string, 0, o.Len())
	for _, kw := range SchemaKeywords {
		if o.Has(kw) {
			keys = append(keys, kw)
		}
	}
	if len(keys) < o.Len() {
		var rest []string
		for key := range o.All() {
			if !slices.Contains(SchemaKeywords, key) {
				rest = append(rest, key)
			}
		}
		slices.Sort(rest)
		keys = append(keys, rest...)
	}
	props, _ := o.At("properties").(*canonjson.Object)
	required := &Shape{Kind: KindList, Order: Set, Elem: &Shape{Kind: KindScalar}, Ref: refProperty}
	return k.members(o, keys, func(key string) *Shape {
		switch key {
		case "properties", "patternProperties", "$defs", "definitions":
			return schemaMap
		case "items", "additionalProperties", "not", "contains", "propertyNames":
			return schemaShape
		case "anyOf", "oneOf", "allOf", "prefixItems":
			return schemaList
		case "required":
			k.declared[refProperty] = positionsOf(props)
			return required
		}
		return freeShape
	})
}

// refProperty names a schema's properties, in the order it declares them.
const refProperty Ref = 255

var (
	schemaShape = &Shape{Kind: KindSchema}
	schemaList  = &Shape{Kind: KindList, Elem: schemaShape}
	// schemaMap keeps the author's order of properties: it is the order
	// parameters are shown in.
	schemaMap = &Shape{Kind: KindMap, Order: Presentation, Elem: schemaShape}
)

func positionsOf(o *canonjson.Object) map[string]int {
	out := make(map[string]int, o.Len())
	for i, key := range o.Keys() {
		out[key] = i
	}
	return out
}

func sortedKeys(o *canonjson.Object) []string {
	keys := o.Keys()
	slices.Sort(keys)
	return keys
}

// compareValues orders plain values: numbers by value, strings by code
// point, numbers before strings, anything else by its digest form.
func compareValues(x, y canonjson.Value) int {
	xn, xNum := x.(canonjson.Number)
	yn, yNum := y.(canonjson.Number)
	if xNum && yNum {
		if c, ok := canonjson.CompareNumbers(xn, yn); ok && c != 0 {
			return c
		}
		return cmp.Compare(xn, yn)
	}
	xs, xStr := x.(canonjson.String)
	ys, yStr := y.(canonjson.String)
	switch {
	case xStr && yStr:
		return cmp.Compare(xs, ys)
	case xNum != yNum:
		if xNum {
			return -1
		}
		return 1
	}
	return cmp.Compare(string(canonjson.DigestForm(x)), string(canonjson.DigestForm(y)))
}

// sameValue reports whether a is b itself, not a canonical copy of it.
func sameValue(a, b canonjson.Value) bool {
	switch a := a.(type) {
	case *canonjson.Object:
		b, ok := b.(*canonjson.Object)
		return ok && a == b
	case canonjson.Array:
		b, ok := b.(canonjson.Array)
		return ok && sameArray(a, b)
	}
	return true // scalars are never rewritten
}

func sameArray(a, b canonjson.Array) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
