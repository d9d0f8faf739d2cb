package contracttest

import (
	"math/rand/v2"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// Reorder returns a copy of a contract document re-serialised in another
// order wherever order carries no meaning (contract.ContractShape): the
// members of every object (but a schema's properties), the names of HTTP
// headers and the elements of every set are shuffled with the given seed.
// Lists of records, sequences, enums and properties keep their order. The
// result means exactly what data means.
func Reorder(data []byte, seed uint64) []byte {
	v, err := canonjson.Decode(data)
	if err != nil {
		panic(err)
	}
	r := &reorderer{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	return canonjson.Encode(r.value(v, contract.ContractShape))
}

type reorderer struct{ rng *rand.Rand }

func (r *reorderer) value(v canonjson.Value, s *contract.Shape) canonjson.Value {
	switch v := v.(type) {
	case *canonjson.Object:
		keys := v.Keys()
		keep := s.Kind == contract.KindMap && s.Order != contract.Set
		if !keep {
			r.rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		}
		out := &canonjson.Object{}
		for _, k := range keys {
			e, _ := v.Get(k)
			out.Set(k, r.value(e, r.child(s, k)))
		}
		return out
	case canonjson.Array:
		elem := &contract.Shape{Kind: contract.KindValue}
		switch {
		case s.Kind == contract.KindList:
			elem = s.Elem
		case s.Kind == contract.KindSchema:
			elem = s
		}
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			out[i] = r.value(e, elem)
		}
		if s.Kind == contract.KindList && s.Order == contract.Set {
			r.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		}
		return out
	}
	return v
}

// child returns the shape of member k of a value of shape s.
func (r *reorderer) child(s *contract.Shape, k string) *contract.Shape {
	free := &contract.Shape{Kind: contract.KindValue}
	switch s.Kind {
	case contract.KindRecord:
		if m, ok := s.Member(k); ok {
			return m
		}
	case contract.KindMap:
		return s.Elem
	case contract.KindSchema:
		schema := &contract.Shape{Kind: contract.KindSchema}
		switch {
		case slices.Contains([]string{"properties", "patternProperties", "$defs", "definitions"}, k):
			return &contract.Shape{Kind: contract.KindMap, Order: contract.Presentation, Elem: schema}
		case k == "required":
			return &contract.Shape{Kind: contract.KindList, Order: contract.Set, Elem: free}
		case slices.Contains([]string{"items", "additionalProperties", "not", "anyOf", "oneOf", "allOf"}, k):
			return schema
		}
	}
	return free
}
