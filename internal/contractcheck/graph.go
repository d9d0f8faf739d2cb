package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family U: the capability graph, the observed and derived compositions of
// capabilities.
var (
	RuleGraph         = diag.Register("CONTRACT_GRAPH", diag.Error, "the capability graph does not have exactly one node per capability, or an edge loops")
	RuleGraphEdge     = diag.Register("CONTRACT_GRAPH_EDGE", diag.Error, "a graph edge repeats another, has a kind its composition does not allow, or a required flag its kind contradicts (a hard precondition must be required and end at a workflow entry)")
	RuleGraphObserved = diag.Register("CONTRACT_GRAPH_OBSERVED", diag.Error, "an observed edge has no handoff for its pair, repeats another observed edge of the pair, or differs from the handoff's required flag; or a handoff has no observed edge")
	RuleGraphGuard    = diag.Register("CONTRACT_GRAPH_DERIVED_GUARD", diag.Error, "a derived composition reaches a workflow-guarded write other than through the workflow's entry, bypassing its guard")
)

// Edge kinds by composition.
var (
	observedKinds = []string{"handoff", "conditional-handoff", "hard-precondition"}
	derivedKinds  = []string{"optional-planning"}
)

func (k *checker) graph() {
	g := &k.c.CapabilityGraph
	nodes := make(map[string]bool, len(g.Nodes))
	for _, n := range g.Nodes {
		at := child(n.At, "capabilityId")
		switch {
		case nodes[n.CapabilityID]:
			k.contractf(RuleGraph, at, "capability %q has a node already; each capability has exactly one", n.CapabilityID)
		default:
			k.capabilityRef(at, n.CapabilityID)
		}
		nodes[n.CapabilityID] = true
	}
	for _, cp := range k.c.Capabilities {
		if cp.ID != "" && !nodes[cp.ID] {
			k.contractf(RuleGraph, child(g.At, "nodes"), "capability %q has no node in the capability graph", cp.ID)
		}
	}
	type edgeKey struct{ from, to, kind, composition string }
	seen := make(map[edgeKey]bool, len(g.Edges))
	observed := map[[2]string]int{}
	handoffs := make(map[[2]string]*contract.Handoff, len(k.c.Handoffs))
	for i := range k.c.Handoffs {
		h := &k.c.Handoffs[i]
		if pair := [2]string{h.FromCapabilityID, h.ToCapabilityID}; handoffs[pair] == nil {
			handoffs[pair] = h
		}
	}
	for _, e := range g.Edges {
		k.capabilityRef(child(e.At, "fromCapabilityId"), e.FromCapabilityID)
		k.capabilityRef(child(e.At, "toCapabilityId"), e.ToCapabilityID)
		if e.FromCapabilityID != "" && e.FromCapabilityID == e.ToCapabilityID {
			k.contractf(RuleGraph, e.At, "edge from %q to itself", e.FromCapabilityID)
		}
		key := edgeKey{e.FromCapabilityID, e.ToCapabilityID, e.Kind, e.Composition}
		if seen[key] {
			k.contractf(RuleGraphEdge, e.At, "this edge repeats an earlier one")
		}
		seen[key] = true
		k.edge(&e)
		if e.Composition == "observed" {
			pair := [2]string{e.FromCapabilityID, e.ToCapabilityID}
			observed[pair]++
			h := handoffs[pair]
			switch {
			case h == nil:
				k.contractf(RuleGraphObserved, e.At, "no handoff from %q to %q backs this observed edge; declare the handoff, or mark the edge derived", e.FromCapabilityID, e.ToCapabilityID)
			case observed[pair] > 1:
				k.contractf(RuleGraphObserved, e.At, "the handoff from %q to %q already has an observed edge", e.FromCapabilityID, e.ToCapabilityID)
			case h.Required != e.Required:
				k.contractf(RuleGraphObserved, child(e.At, "required"), "the edge says required %v, its handoff %v", e.Required, h.Required)
			}
		}
	}
	for _, h := range k.c.Handoffs {
		if observed[[2]string{h.FromCapabilityID, h.ToCapabilityID}] == 0 {
			k.contractf(RuleGraphObserved, h.At, "the handoff from %q to %q has no observed edge in the capability graph", h.FromCapabilityID, h.ToCapabilityID)
		}
	}
}

// edge checks an edge's kind against its composition and required flag.
func (k *checker) edge(e *contract.Edge) {
	switch {
	case e.Composition == "observed" && !slices.Contains(observedKinds, e.Kind) && e.Kind != "":
		k.contractf(RuleGraphEdge, child(e.At, "kind"), "an observed edge is one of %q, not %q", observedKinds, e.Kind)
	case e.Composition == contract.CompositionDerived && !slices.Contains(derivedKinds, e.Kind) && e.Kind != "":
		k.contractf(RuleGraphEdge, child(e.At, "kind"), "a derived composition is %q, not %q", derivedKinds, e.Kind)
	}
	switch e.Kind {
	case "conditional-handoff", "optional-planning":
		if e.Required {
			k.contractf(RuleGraphEdge, child(e.At, "required"), "a %s edge is never required", e.Kind)
		}
	case "hard-precondition":
		if !e.Required {
			k.contractf(RuleGraphEdge, child(e.At, "required"), "a hard-precondition edge is required")
		}
		if !slices.ContainsFunc(k.c.Workflows, func(w contract.Workflow) bool { return w.EntryCapabilityID == e.ToCapabilityID }) {
			k.contractf(RuleGraphEdge, child(e.At, "toCapabilityId"),
				"a hard precondition is enforced by a workflow: %q is the entry of none; make the edge a handoff, or declare the workflow", e.ToCapabilityID)
		}
	}
	if e.Composition == contract.CompositionDerived {
		to, ok := k.caps[e.ToCapabilityID]
		if ok && to.RuntimeProtection != nil && to.RuntimeProtection.Mode == contract.ProtectionDeterministicWorkflow {
			if w, ok := k.wfs[to.RuntimeProtection.WorkflowID]; ok && w.EntryCapabilityID != to.ID {
				k.contractf(RuleGraphGuard, child(e.At, "toCapabilityId"),
					"%q is guarded by workflow %q, whose entry is %q: a derived composition must enter through it", to.ID, w.ID, w.EntryCapabilityID)
			}
		}
	}
}
