package contractdiff

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// renameCapabilities finds the capabilities of old that new renamed, and
// returns old with every reference to their old IDs read as the new one.
//
// The rule: a capability of new whose ID old lacks is the renaming of a
// capability of old whose ID new lacks when exactly one such capability
// has the same toolName and functionExport (the identity the Tool and the
// Function keep) and, compared with its ID replaced, no semantic change.
// Anything else is a removal and an addition.
func (w *walker) renameCapabilities(old, new *canonjson.Object) *canonjson.Object {
	oc, _ := old.At("capabilities").(canonjson.Array)
	nc, _ := new.At("capabilities").(canonjson.Array)
	ids := func(a canonjson.Array) map[string]bool {
		out := map[string]bool{}
		for _, e := range a {
			out[idOf(e)] = true
		}
		return out
	}
	inOld, inNew := ids(oc), ids(nc)
	var gone []*canonjson.Object
	for _, e := range oc {
		if o, ok := e.(*canonjson.Object); ok && !inNew[idOf(e)] {
			gone = append(gone, o)
		}
	}
	if len(gone) == 0 {
		return old
	}
	capabilities, _ := contract.ContractShape.Member("capabilities")
	to := map[string]string{} // old ID -> new ID
	used := map[string]bool{}
	for _, e := range nc {
		n, ok := e.(*canonjson.Object)
		if !ok || inOld[idOf(e)] {
			continue
		}
		var candidates []*canonjson.Object
		for _, o := range gone {
			if !used[idOf(o)] && sameMember(o, n, "toolName") && sameMember(o, n, "functionExport") && sameSemantics(o, n, capabilities.Elem) {
				candidates = append(candidates, o)
			}
		}
		if len(candidates) == 1 {
			oldID := idOf(candidates[0])
			to[oldID], used[oldID] = idOf(n), true
			w.renamed[idOf(n)] = oldID
		}
	}
	if len(to) == 0 {
		return old
	}
	return rewriteCapabilityIDs(old, to).(*canonjson.Object)
}

// renames reports each renamed capability, in the new contract's order.
// old is the old contract with the renamed IDs already replaced.
func (w *walker) renames(old, new *canonjson.Object) {
	oc, _ := old.At("capabilities").(canonjson.Array)
	nc, _ := new.At("capabilities").(canonjson.Array)
	capabilities, _ := contract.ContractShape.Member("capabilities")
	top := &place{}
	list := top.member("capabilities", capabilities)
	for j, e := range nc {
		prev, ok := w.renamed[idOf(e)]
		if !ok {
			continue
		}
		i := slices.IndexFunc(oc, func(o canonjson.Value) bool { return idOf(o) == idOf(e) })
		at := list.element("capability", capabilities, e, i, j)
		w.add(&at, Renamed, canonjson.String(prev), canonjson.String(idOf(e)))
	}
}

func idOf(v canonjson.Value) string {
	o, _ := v.(*canonjson.Object)
	s, _ := o.At("capabilityId").(canonjson.String)
	return string(s)
}

func sameMember(o, n *canonjson.Object, key string) bool {
	return o.Has(key) && canonjson.Equal(o.At(key), n.At(key))
}

// sameSemantics reports whether two capabilities differ, their IDs aside,
// in nothing but cosmetics.
func sameSemantics(o, n *canonjson.Object, s *contract.Shape) bool {
	c := canonjson.Clone(o).(*canonjson.Object)
	c.Set("capabilityId", n.At("capabilityId"))
	sub := newWalker()
	capabilities, _ := contract.ContractShape.Member("capabilities")
	list := (&place{}).member("capabilities", capabilities)
	at := list.element("capability", capabilities, n, 0, 0)
	sub.value(c, n, s, &at)
	for _, ch := range sub.changes {
		if ch.Semantic() {
			return false
		}
	}
	return true
}

// rewriteCapabilityIDs returns a copy of v in which every capability ID
// that to maps is replaced: the values of members named *capabilityId,
// *CapabilityId, *capabilityIds and *CapabilityIds, which are where the
// format refers to capabilities.
func rewriteCapabilityIDs(v canonjson.Value, to map[string]string) canonjson.Value {
	switch v := v.(type) {
	case *canonjson.Object:
		out := &canonjson.Object{}
		for k, e := range v.All() {
			if refersToCapabilities(k) {
				e = replaceIDs(e, to)
			}
			out.Set(k, rewriteCapabilityIDs(e, to))
		}
		return out
	case canonjson.Array:
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			out[i] = rewriteCapabilityIDs(e, to)
		}
		return out
	}
	return v
}

func refersToCapabilities(key string) bool {
	k := strings.ToLower(key)
	return strings.HasSuffix(k, "capabilityid") || strings.HasSuffix(k, "capabilityids")
}

func replaceIDs(v canonjson.Value, to map[string]string) canonjson.Value {
	switch v := v.(type) {
	case canonjson.String:
		if n, ok := to[string(v)]; ok {
			return canonjson.String(n)
		}
	case canonjson.Array:
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			out[i] = replaceIDs(e, to)
		}
		return out
	}
	return v
}
