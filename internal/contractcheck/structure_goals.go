package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
)

// goals checks goal and need identities, and that every capability a goal's
// requiredWhen needs or conditional handoffs make conditional is declared
// conditional: the Host compatibility report lists conditional capabilities
// separately.
func (k *structure) goals(c *contract.Contract) {
	ids := make([]string, len(c.Goals))
	for i := range c.Goals {
		g := &c.Goals[i]
		ids[i] = g.ID
		needs := make([]string, len(g.InformationNeeds))
		for j := range g.InformationNeeds {
			needs[j] = g.InformationNeeds[j].ID
		}
		k.unique("informationId", needs, func(j int) string { return ptr(g.InformationNeeds[j].At, "informationId") })
		k.conditionalCapabilities(c, g)
	}
	k.unique("goalId", ids, func(i int) string { return ptr(c.Goals[i].At, "goalId") })
}

// InferredConditional returns the capabilities a goal must declare
// conditional, in contract order: the providers of its requiredWhen needs,
// and the sources of conditional-handoff edges into its capabilities.
func InferredConditional(c *contract.Contract, g *contract.Goal) []string {
	members := slices.Concat(g.RequiredCapabilityIDs, g.OptionalCapabilityIDs)
	for _, cc := range g.ConditionalCapabilityIDs {
		members = append(members, cc.CapabilityID)
	}
	var out []string
	add := func(id string) {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, n := range g.InformationNeeds {
		if n.Classification != contract.ClassRequiredWhen {
			continue
		}
		for _, s := range n.SatisfiedBy {
			if s.Kind == contract.SatisfiedByCapability {
				add(s.CapabilityID)
			}
		}
	}
	for _, e := range c.CapabilityGraph.Edges {
		if e.Kind == "conditional-handoff" && e.Composition != contract.CompositionDerived && slices.Contains(members, e.ToCapabilityID) {
			add(e.FromCapabilityID)
		}
	}
	return out
}

func (k *structure) conditionalCapabilities(c *contract.Contract, g *contract.Goal) {
	for _, id := range InferredConditional(c, g) {
		if !slices.ContainsFunc(g.ConditionalCapabilityIDs, func(cc contract.ConditionalCapability) bool { return cc.CapabilityID == id }) {
			k.contractf(RuleGoalConditional, child(g.At, "conditionalCapabilityIds"),
				"goal %q needs %q only under a condition (a requiredWhen need or a conditional handoff): list it in conditionalCapabilityIds", g.ID, id)
		}
	}
}

// requirements checks consumer requirement identities and the fixed mapping
// of the generic ones, which Host compatibility reads.
func (k *structure) requirements(c *contract.Contract) {
	ids := make([]string, len(c.ConsumerRequirements))
	for i, r := range c.ConsumerRequirements {
		ids[i] = r.ID
		for _, g := range contract.GenericRequirements {
			if r.ID != g.ID {
				continue
			}
			if r.HostCapability != "" && r.HostCapability != g.HostCapability {
				k.contractf(RuleRequirementMap, child(r.At, "hostCapability"),
					"requirement %q always maps to the host capability %q", g.ID, g.HostCapability)
			}
			if r.OnMissing != "" && r.OnMissing != g.OnMissing {
				k.contractf(RuleRequirementMap, child(r.At, "onMissing"),
					"requirement %q always has onMissing %q", g.ID, g.OnMissing)
			}
		}
	}
	k.unique("requirementId", ids, func(i int) string {
		return ptr(c.ConsumerRequirements[i].At, "requirementId")
	})
}

// workflows checks workflow identities and members: the entry and every
// member are declared capabilities, listed once, entry included.
func (k *structure) workflows(c *contract.Contract) {
	ids := make([]string, len(c.Workflows))
	for i := range c.Workflows {
		w := &c.Workflows[i]
		ids[i] = w.ID
		k.capabilityRef(child(w.At, "entryCapabilityId"), w.EntryCapabilityID)
		for j, id := range w.CapabilityIDs {
			k.capabilityRef(ptr(w.At, "capabilityIds", j), id)
		}
		k.unique("workflow member", w.CapabilityIDs, elementAt(w.At, "capabilityIds"))
		if w.EntryCapabilityID != "" && len(w.CapabilityIDs) > 0 && !slices.Contains(w.CapabilityIDs, w.EntryCapabilityID) {
			k.contractf(RuleWorkflowEntry, child(w.At, "capabilityIds"),
				"workflow %q must list its entry capability %q among its capabilityIds", w.ID, w.EntryCapabilityID)
		}
	}
	k.unique("workflowId", ids, func(i int) string { return ptr(c.Workflows[i].At, "workflowId") })
}
