package contractdiff

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// schema compares two JSON Schemas keyword by keyword: properties by name,
// required and enum as sets (an enum's order is presentation), subschemas
// recursively, every other keyword as a value.
func (w *walker) schema(old, new canonjson.Value, p *place) {
	o, oOK := old.(*canonjson.Object)
	n, nOK := new.(*canonjson.Object)
	if !oOK || !nOK {
		w.add(p, Changed, old, new)
		return
	}
	for _, k := range schemaKeys(o, n) {
		ov, nv := o.At(k), n.At(k)
		if canonjson.Equal(ov, nv) {
			continue
		}
		kp := p.member(k, nil)
		switch k {
		case "properties", "patternProperties", "$defs", "definitions":
			op, _ := ov.(*canonjson.Object)
			np, _ := nv.(*canonjson.Object)
			if (ov != nil && op == nil) || (nv != nil && np == nil) {
				w.add(&kp, Changed, ov, nv)
				continue
			}
			w.properties(op, np, &kp)
		case "required", "enum", "type":
			oa, oArr := asList(ov)
			na, nArr := asList(nv)
			if !oArr || !nArr {
				w.add(&kp, Changed, ov, nv)
				continue
			}
			order := contract.Set
			if k == "enum" {
				order = contract.Presentation
			}
			w.list(oa, na, &contract.Shape{Kind: contract.KindList, Order: order, Elem: freeShape}, &kp)
		case "items", "not", "contains", "propertyNames":
			w.subschema(ov, nv, &kp)
		case "additionalProperties":
			if _, ok := ov.(*canonjson.Object); ok {
				if _, ok := nv.(*canonjson.Object); ok {
					w.schema(ov, nv, &kp)
					continue
				}
			}
			w.keyword(ov, nv, &kp)
		default:
			w.keyword(ov, nv, &kp)
		}
	}
}

// subschema compares a keyword whose value is a schema.
func (w *walker) subschema(ov, nv canonjson.Value, p *place) { w.either(ov, nv, p, w.schema) }

// keyword compares a keyword whose value is a value.
func (w *walker) keyword(ov, nv canonjson.Value, p *place) {
	w.either(ov, nv, p, func(ov, nv canonjson.Value, p *place) { w.add(p, Changed, ov, nv) })
}

// either reports a keyword one side lacks as added or removed, and compares
// it with both when both have it.
func (w *walker) either(ov, nv canonjson.Value, p *place, both func(ov, nv canonjson.Value, p *place)) {
	switch {
	case ov == nil:
		w.add(p, Added, nil, nv)
	case nv == nil:
		w.add(p, Removed, ov, nil)
	default:
		both(ov, nv, p)
	}
}

// properties compares two property maps: by name, then each property's
// schema; their order is the order parameters are shown in.
func (w *walker) properties(o, n *canonjson.Object, p *place) {
	for k, ov := range o.All() {
		if !n.Has(k) {
			ep := p.entry("property", k, nil)
			w.add(&ep, Removed, ov, nil)
		}
	}
	var order []int
	oldKeys := o.Keys()
	for k, nv := range n.All() {
		ep := p.entry("property", k, nil)
		ov, ok := o.Get(k)
		if !ok {
			w.add(&ep, Added, nil, nv)
			continue
		}
		order = append(order, slices.Index(oldKeys, k))
		w.subschema(ov, nv, &ep)
	}
	if !slices.IsSorted(order) {
		w.add(p, Reordered, canonjson.Strings(o.Keys()), canonjson.Strings(n.Keys()))
	}
}

// asList reads a keyword that is a list or, for type, one name; absent is
// the empty list.
func asList(v canonjson.Value) (canonjson.Array, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case canonjson.Array:
		return v, true
	case canonjson.String:
		return canonjson.Array{v}, true
	}
	return nil, false
}

// schemaKeys returns the keywords of both schemas in canonical order.
func schemaKeys(o, n *canonjson.Object) []string {
	var out []string
	for _, k := range contract.SchemaKeywords {
		if o.Has(k) || n.Has(k) {
			out = append(out, k)
		}
	}
	for _, k := range unionKeys(o, n) {
		if !slices.Contains(contract.SchemaKeywords, k) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}
