package derive

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
)

// handoffs checks that each handoff joins two distinct declared capabilities
// once, and maps onto inputs its target declares.
func (k *checker) handoffs(c *contract.Contract) {
	type pair struct{ from, to string }
	var seen []pair
	for _, h := range c.Handoffs {
		k.capabilityRef(ptr(h.At, "fromCapabilityId"), h.FromCapabilityID)
		k.capabilityRef(ptr(h.At, "toCapabilityId"), h.ToCapabilityID)
		if h.FromCapabilityID != "" && h.FromCapabilityID == h.ToCapabilityID {
			k.contractf(RuleHandoff, h.At, "capability %q cannot hand off to itself", h.FromCapabilityID)
		}
		p := pair{h.FromCapabilityID, h.ToCapabilityID}
		if slices.Contains(seen, p) {
			k.contractf(RuleHandoff, h.At, "a handoff from %q to %q is already declared; put every mapping of the pair in one handoff", p.from, p.to)
		}
		seen = append(seen, p)
		target := k.capabilities[h.ToCapabilityID]
		for _, mp := range h.Mappings {
			k.inputRef(target, ptr(mp.At, "targetInput"), mp.TargetInput)
		}
	}
}

// graph checks that the capability graph has exactly one node per capability
// and that its edges join two distinct declared capabilities.
func (k *checker) graph(c *contract.Contract) {
	g := &c.CapabilityGraph
	ids := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		ids[i] = n.CapabilityID
		k.capabilityRef(ptr(n.At, "capabilityId"), n.CapabilityID)
	}
	k.unique(contract.ContractFile, "graph node", ids, func(i int) string { return ptr(g.Nodes[i].At, "capabilityId") })
	for _, cp := range c.Capabilities {
		if cp.ID != "" && !slices.Contains(ids, cp.ID) {
			k.contractf(RuleGraph, ptr(g.At, "nodes"), "capability %q has no node in the capability graph", cp.ID)
		}
	}
	for _, e := range g.Edges {
		k.capabilityRef(ptr(e.At, "fromCapabilityId"), e.FromCapabilityID)
		k.capabilityRef(ptr(e.At, "toCapabilityId"), e.ToCapabilityID)
		if e.FromCapabilityID != "" && e.FromCapabilityID == e.ToCapabilityID {
			k.contractf(RuleGraph, e.At, "edge from %q to itself", e.FromCapabilityID)
		}
	}
}

// goals checks goal and need identities and every capability, requirement,
// input, need and workflow a goal names.
func (k *checker) goals(c *contract.Contract) {
	ids := make([]string, len(c.Goals))
	for i := range c.Goals {
		g := &c.Goals[i]
		ids[i] = g.ID
		for _, list := range []struct {
			key string
			ids []string
		}{{"requiredCapabilityIds", g.RequiredCapabilityIDs}, {"optionalCapabilityIds", g.OptionalCapabilityIDs}} {
			for j, id := range list.ids {
				k.capabilityRef(ptr(g.At, list.key, j), id)
			}
		}
		for _, cc := range g.ConditionalCapabilityIDs {
			k.capabilityRef(cc.At, cc.CapabilityID)
		}
		needs := make([]string, len(g.InformationNeeds))
		for j := range g.InformationNeeds {
			n := &g.InformationNeeds[j]
			needs[j] = n.ID
			for _, s := range n.SatisfiedBy {
				switch s.Kind {
				case contract.SatisfiedByCapability:
					k.capabilityRef(ptr(s.At, "capabilityId"), s.CapabilityID)
				case contract.SatisfiedByTrusted:
					if s.RequirementID != "" {
						k.requirementRef(ptr(s.At, "requirementId"), s.RequirementID)
					}
				}
			}
			for _, sup := range n.Supplies {
				k.capabilityRef(ptr(sup.At, "capabilityId"), sup.CapabilityID)
				k.inputRef(k.capabilities[sup.CapabilityID], ptr(sup.At, "inputName"), sup.InputName)
			}
		}
		k.unique(contract.ContractFile, "informationId", needs, func(j int) string { return ptr(g.InformationNeeds[j].At, "informationId") })
		k.predicate(g, needs)
	}
	k.unique(contract.ContractFile, "goalId", ids, func(i int) string { return ptr(c.Goals[i].At, "goalId") })
}

// predicate checks the needs and workflow a completion predicate names; an
// all-satisfied predicate must name every need of its goal.
func (k *checker) predicate(g *contract.Goal, needs []string) {
	p := &g.CompletionPredicate
	for j, id := range p.InformationIDs {
		if id != "" && !slices.Contains(needs, id) {
			k.contractf(RuleUnknownReference, ptr(p.At, "informationIds", j), "goal %q has no information need %q", g.ID, id)
		}
	}
	switch p.Operator {
	case contract.PredicateAllSatisfied:
		for _, id := range needs {
			if id != "" && !slices.Contains(p.InformationIDs, id) {
				k.contractf(RuleGoalPredicate, ptr(p.At, "informationIds"),
					"an all-satisfied predicate must list every need of goal %q; %q is missing", g.ID, id)
			}
		}
	case contract.PredicateWorkflowCompleted:
		k.workflowRef(ptr(p.At, "workflowId"), p.WorkflowID)
	}
}

// genericRequirements fixes the host capability and onMissing of the generic
// requirement IDs, so that every Host profile reads them the same way.
var genericRequirements = []struct{ id, hostCapability, onMissing string }{
	{"agent-skills-discovery", "agentSkillsDiscovery", "requires-host-integration"},
	{"mcp-tool-invocation", "mcpToolInvocation", "disable"},
	{"authentication-injection", "authenticationInjection", "disable"},
	{"trusted-confirmation", "trustedConfirmation", "disable"},
	{"session-state", "sessionState", "disable"},
	{"attachment-resolution", "attachmentResolution", "requires-host-integration"},
	{"unknown-outcome-reconciliation", "unknownOutcomeReconciliation", "disable"},
}

// requirements checks consumer requirement identities and the fixed mapping
// of the generic ones.
func (k *checker) requirements(c *contract.Contract) {
	ids := make([]string, len(c.ConsumerRequirements))
	for i, r := range c.ConsumerRequirements {
		ids[i] = r.ID
		for _, g := range genericRequirements {
			if r.ID != g.id {
				continue
			}
			if r.HostCapability != "" && r.HostCapability != g.hostCapability {
				k.contractf(RuleRequirementMap, ptr(r.At, "hostCapability"),
					"requirement %q always maps to the host capability %q", g.id, g.hostCapability)
			}
			if r.OnMissing != "" && r.OnMissing != g.onMissing {
				k.contractf(RuleRequirementMap, ptr(r.At, "onMissing"),
					"requirement %q always has onMissing %q", g.id, g.onMissing)
			}
		}
	}
	k.unique(contract.ContractFile, "requirementId", ids, func(i int) string {
		return ptr(c.ConsumerRequirements[i].At, "requirementId")
	})
}

// workflows checks workflow identities, members and the inputs and
// requirements their bindings read.
func (k *checker) workflows(c *contract.Contract) {
	ids := make([]string, len(c.Workflows))
	for i := range c.Workflows {
		w := &c.Workflows[i]
		ids[i] = w.ID
		k.capabilityRef(ptr(w.At, "entryCapabilityId"), w.EntryCapabilityID)
		for j, id := range w.CapabilityIDs {
			k.capabilityRef(ptr(w.At, "capabilityIds", j), id)
		}
		k.unique(contract.ContractFile, "workflow member", w.CapabilityIDs, elementAt(w.At, "capabilityIds"))
		if w.EntryCapabilityID != "" && len(w.CapabilityIDs) > 0 && !slices.Contains(w.CapabilityIDs, w.EntryCapabilityID) {
			k.contractf(RuleWorkflowEntry, ptr(w.At, "capabilityIds"),
				"workflow %q must list its entry capability %q among its capabilityIds", w.ID, w.EntryCapabilityID)
		}
		entry := k.capabilities[w.EntryCapabilityID]
		names := make([]string, len(w.Bindings))
		for j := range w.Bindings {
			b := &w.Bindings[j]
			names[j] = b.Name
			src := &b.ActualSource
			switch src.Kind {
			case "capability-input", "derived-calculation":
				k.inputRef(entry, ptr(src.At, "inputName"), src.InputName)
			case "runtime-context":
				k.requirementRef(ptr(src.At, "requirementId"), src.RequirementID)
			}
		}
		k.unique(contract.ContractFile, "binding name", names, func(j int) string { return ptr(w.Bindings[j].At, "name") })
	}
	k.unique(contract.ContractFile, "workflowId", ids, func(i int) string { return ptr(c.Workflows[i].At, "workflowId") })
}
