package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
)

// Roles of the evidence that can decide target requiredness. Proving an
// input optional takes the target API's own contract; an unproven status
// rests on what the client was seen to send (or a behaviour test), from the
// feature's primary sources.
var (
	provenOptionalRoles = []string{"transport-contract", "data-contract", "serialization", "validation", "business-rule", "behavior-test"}
	unprovenRoles       = []string{"client-api-call", "request-construction", "behavior-test"}
)

// NeedsTargetRequiredness reports whether an input must say whether the
// target API accepts its omission: it is structurally optional (not
// required, no requiredWhen) and an upstream Tool normally provides it.
func NeedsTargetRequiredness(in *contract.Input) bool {
	return !in.Required && len(in.RequiredWhen) == 0 && in.HasStrategy(contract.StrategyUpstreamTool)
}

// targetRequiredness checks an input's targetRequiredness: present exactly
// when needed, evidenced on the input itself with evidence of its status's
// roles, naming one of the input's upstream strategies as the normal
// provider, and fed by handoffs and observed edges that are optional.
func (k *structure) targetRequiredness(c *contract.Contract, cp *contract.Capability, in *contract.Input) {
	tr := in.TargetRequiredness
	needed := NeedsTargetRequiredness(in)
	switch {
	case needed && tr == nil:
		k.contractf(RuleTargetRequiredness, in.At,
			"input %q of %q is optional and fed by an upstream Tool: declare targetRequiredness, proven-optional with the target API's evidence or unproven with its normal provider", in.Name, cp.ID)
		return
	case !needed && tr != nil:
		k.contractf(RuleTargetRequiredness, tr.At,
			"targetRequiredness applies only to an optional input (not required, no requiredWhen) fed by an upstream-tool strategy; remove it from %q", in.Name)
		return
	case tr == nil:
		return
	}

	if len(tr.EvidenceRefs) == 0 {
		k.contractf(RuleTargetRequirednessEvidence, child(tr.At, "evidenceRefs"), "targetRequiredness of %q cites no evidence", in.Name)
	}
	primary := c.FeatureBoundary.PrimarySourceIDs()
	roleFound := false
	for i, ref := range tr.EvidenceRefs {
		at := ptr(tr.At, "evidenceRefs", i)
		ev, ok := c.Evidence(ref)
		if !ok {
			continue // reported as an unknown reference
		}
		switch {
		case ev.AssertionLevel != "fact":
			k.contractf(RuleTargetRequirednessEvidence, at, "targetRequiredness of %q cites %q, which is %s, not fact", in.Name, ref, ev.AssertionLevel)
		case !slices.Contains(in.EvidenceRefs, ref):
			k.contractf(RuleTargetRequirednessEvidence, at, "targetRequiredness of %q cites %q, which the input itself does not cite; add it to the input's evidenceRefs", in.Name, ref)
		}
		switch tr.Status {
		case "proven-optional":
			roleFound = roleFound || slices.Contains(provenOptionalRoles, ev.SemanticRole)
		case contract.TargetRequirednessUnproven:
			roleFound = roleFound || slices.Contains(primary, ev.SourceID) && slices.Contains(unprovenRoles, ev.SemanticRole)
		}
	}
	if !roleFound && len(tr.EvidenceRefs) > 0 {
		switch tr.Status {
		case "proven-optional":
			k.contractf(RuleTargetRequirednessEvidence, child(tr.At, "evidenceRefs"),
				"proven-optional needs evidence of the target API's contract (one of %v); %q cites none", provenOptionalRoles, in.Name)
		case contract.TargetRequirednessUnproven:
			k.contractf(RuleTargetRequirednessEvidence, child(tr.At, "evidenceRefs"),
				"unproven needs the request the client was seen to make: evidence from a primary source with one of the roles %v (supplementary backend evidence is not enough)", unprovenRoles)
		}
	}

	if tr.Status == contract.TargetRequirednessUnproven && tr.NormalProvider != nil {
		np := tr.NormalProvider
		if !slices.ContainsFunc(in.SourceStrategies, func(s contract.Strategy) bool {
			return s.Kind == contract.StrategyUpstreamTool && s.CapabilityID == np.CapabilityID &&
				slices.Equal(s.OutputPath, np.OutputPath) && s.MappingKind == np.MappingKind
		}) {
			k.contractf(RuleTargetRequirednessProvider, child(tr.At, "normalProvider"),
				"normalProvider of %q must equal one of its upstream-tool strategies (capabilityId, outputPath, mappingKind)", in.Name)
		}
	}

	k.optionalFeeds(c, cp, in, tr)
}

// optionalFeeds checks that each upstream provider of an input with target
// requiredness feeds it through exactly one optional handoff and exactly one
// optional, non-hard observed edge: the input may be omitted, so nothing may
// make its provider a precondition.
func (k *structure) optionalFeeds(c *contract.Contract, cp *contract.Capability, in *contract.Input, tr *contract.TargetRequiredness) {
	var providers []string
	for _, s := range in.SourceStrategies {
		if s.Kind == contract.StrategyUpstreamTool && s.CapabilityID != "" && !slices.Contains(providers, s.CapabilityID) {
			providers = append(providers, s.CapabilityID)
		}
	}
	for _, from := range providers {
		var handoffs []*contract.Handoff
		for i := range c.Handoffs {
			h := &c.Handoffs[i]
			if h.FromCapabilityID == from && h.ToCapabilityID == cp.ID &&
				slices.ContainsFunc(h.Mappings, func(m contract.Mapping) bool { return m.TargetInput == in.Name }) {
				handoffs = append(handoffs, h)
			}
		}
		switch len(handoffs) {
		case 0:
			k.contractf(RuleTargetRequirednessOptional, tr.At, "no handoff from %q maps %q into %q", from, in.Name, cp.ID)
		case 1:
			if handoffs[0].Required {
				k.contractf(RuleTargetRequirednessOptional, ptr(handoffs[0].At, "required"),
					"the handoff from %q feeds the optional input %q of %q: it must be required: false", from, in.Name, cp.ID)
			}
		default:
			k.contractf(RuleTargetRequirednessOptional, handoffs[1].At, "%d handoffs from %q map %q into %q; declare exactly one", len(handoffs), from, in.Name, cp.ID)
		}
		var edges []*contract.Edge
		for i := range c.CapabilityGraph.Edges {
			e := &c.CapabilityGraph.Edges[i]
			if e.FromCapabilityID == from && e.ToCapabilityID == cp.ID && e.Composition != contract.CompositionDerived {
				edges = append(edges, e)
			}
		}
		switch len(edges) {
		case 0:
			k.contractf(RuleTargetRequirednessOptional, tr.At, "no observed graph edge from %q to %q for the optional input %q", from, cp.ID, in.Name)
		case 1:
			if e := edges[0]; e.Required || e.Kind == "hard-precondition" {
				k.contractf(RuleTargetRequirednessOptional, e.At,
					"the observed edge from %q to %q feeds the optional input %q: it must be required: false and not a hard-precondition", from, cp.ID, in.Name)
			}
		default:
			k.contractf(RuleTargetRequirednessOptional, edges[1].At, "%d observed edges from %q to %q; declare exactly one", len(edges), from, cp.ID)
		}
	}
}
