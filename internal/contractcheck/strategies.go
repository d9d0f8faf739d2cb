package contractcheck

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family G: source strategies and handoffs, where an input's value comes
// from.
var (
	RuleTrustedStrategy  = diag.Register("CONTRACT_TRUSTED_STRATEGY", diag.Error, "an input's only source is trusted Host context that names no requirementId")
	RuleUpstreamStrategy = diag.Register("CONTRACT_UPSTREAM_STRATEGY", diag.Error, "an upstream-tool strategy is not an object, names its own capability, or an output path the provider does not declare, or maps an incompatible schema")
	RuleStrategyClass    = diag.Register("CONTRACT_STRATEGY_CLASS", diag.Error, "an input's strategies do not fit its information class (derived or dynamic information from the user; an attachment from anything but a Host-approved, bounded, upstream or trusted source)")
	RuleStrategyHandoff  = diag.Register("CONTRACT_STRATEGY_HANDOFF", diag.Error, "an upstream-tool strategy has no handoff mapping the same output into the input with the same mapping kind")
	RuleHandoff          = diag.Register("CONTRACT_HANDOFF", diag.Error, "a handoff connects a capability to itself, repeats another handoff's pair, or repeats a mapping")
	RuleHandoffMapping   = diag.Register("CONTRACT_HANDOFF_MAPPING", diag.Error, "a handoff mapping reads an output its source does not declare, maps an incompatible schema, or matches no upstream-tool strategy of its target input")
)

// attachmentStrategies are the sources an attachment input may have.
var attachmentStrategies = []string{contract.StrategyHostApprovedAttachment, contract.StrategyBoundedContent, contract.StrategyUpstreamTool, contract.StrategyTrustedHostContext}

func (k *checker) strategies(cp *contract.Capability) {
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		for j := range in.SourceStrategies {
			s := &in.SourceStrategies[j]
			_, bare := s.Raw.(canonjson.String)
			switch s.Kind {
			case contract.StrategyTrustedHostContext:
				if bare && len(in.SourceStrategies) == 1 {
					k.contractf(RuleTrustedStrategy, s.At,
						`input %q of %q comes only from trusted Host context: write {"kind": "trusted-host-context", "requirementId": ...} naming the requirement that supplies it`, in.Name, cp.ID)
				}
				if !bare {
					k.requirementRef(child(s.At, "requirementId"), s.RequirementID)
				}
			case contract.StrategyUpstreamTool:
				k.upstream(cp, in, s, bare)
			}
			switch {
			case s.Kind == contract.StrategyUser && (in.InformationClass == contract.ClassDerived || in.InformationClass == contract.ClassDynamic):
				k.contractf(RuleStrategyClass, s.At,
					"input %q of %q is %s information: it comes from a capability output or trusted Host context, never from the user", in.Name, cp.ID, in.InformationClass)
			case in.InformationClass == contract.ClassAttachment && s.Kind != "" && !slices.Contains(attachmentStrategies, s.Kind):
				k.contractf(RuleStrategyClass, s.At,
					"attachment input %q of %q cannot come from %q; use one of %q", in.Name, cp.ID, s.Kind, attachmentStrategies)
			}
		}
	}
}

// upstream checks an upstream-tool strategy: an object naming another,
// declared capability and one of its declared outputs, with a compatible
// mapping, and a handoff that carries it.
func (k *checker) upstream(cp *contract.Capability, in *contract.Input, s *contract.Strategy, bare bool) {
	if bare {
		k.contractf(RuleUpstreamStrategy, s.At,
			`an upstream-tool strategy of %q must be an object naming its capabilityId, outputPath and mappingKind`, in.Name)
		return
	}
	if s.CapabilityID == cp.ID {
		k.contractf(RuleUpstreamStrategy, child(s.At, "capabilityId"), "input %q of %q cannot come from its own capability", in.Name, cp.ID)
		return
	}
	provider, ok := k.capabilityRef(child(s.At, "capabilityId"), s.CapabilityID)
	if !ok || len(s.OutputPath) == 0 {
		return
	}
	source, ok := outputSchema(provider, s.OutputPath)
	if !ok {
		k.contractf(RuleUpstreamStrategy, child(s.At, "outputPath"),
			"%q declares no output at %s; name one of its declared output paths exactly", provider.ID, quote(s.OutputPath))
		return
	}
	if why := compatible(s.MappingKind, s.OutputPath, source, inputSchema(in)); why != "" {
		k.contractf(RuleUpstreamStrategy, child(s.At, "mappingKind"), "%s of %q into %q: %s", s.MappingKind, quote(s.OutputPath), in.Name, why)
	}
	if !slices.ContainsFunc(k.c.Handoffs, func(h contract.Handoff) bool {
		return h.FromCapabilityID == s.CapabilityID && h.ToCapabilityID == cp.ID &&
			slices.ContainsFunc(h.Mappings, func(m contract.Mapping) bool {
				return m.TargetInput == in.Name && slices.Equal(m.SourcePath, s.OutputPath) && m.MappingKind == s.MappingKind
			})
	}) {
		k.contractf(RuleStrategyHandoff, s.At,
			"no handoff from %q to %q maps %s into %q by %s; declare the handoff the strategy relies on",
			s.CapabilityID, cp.ID, quote(s.OutputPath), in.Name, s.MappingKind)
	}
}

// handoffs checks each handoff: two distinct declared capabilities, one
// handoff per pair, each mapping once, from a declared output, into a
// declared input whose strategies expect it, with a compatible schema.
func (k *checker) handoffs() {
	type pair struct{ from, to string }
	seen := make(map[pair]bool, len(k.c.Handoffs))
	for _, h := range k.c.Handoffs {
		from, okFrom := k.capabilityRef(child(h.At, "fromCapabilityId"), h.FromCapabilityID)
		to, okTo := k.capabilityRef(child(h.At, "toCapabilityId"), h.ToCapabilityID)
		if h.FromCapabilityID != "" && h.FromCapabilityID == h.ToCapabilityID {
			k.contractf(RuleHandoff, h.At, "capability %q cannot hand off to itself", h.FromCapabilityID)
		}
		p := pair{h.FromCapabilityID, h.ToCapabilityID}
		if seen[p] {
			k.contractf(RuleHandoff, h.At, "a handoff from %q to %q is already declared; put every mapping of the pair in one handoff", p.from, p.to)
		}
		seen[p] = true
		k.cited(h.At, h.EvidenceRefs, "the handoff from "+h.FromCapabilityID+" to "+h.ToCapabilityID)
		mapped := make(map[string]bool, len(h.Mappings))
		for _, m := range h.Mappings {
			key := m.TargetInput + "\x00" + strings.Join(m.SourcePath, "\x00")
			if mapped[key] {
				k.contractf(RuleHandoff, m.At, "the mapping of %s into %q is repeated", quote(m.SourcePath), m.TargetInput)
			}
			mapped[key] = true
			if !okFrom || !okTo {
				continue
			}
			in, ok := k.inputRef(to, child(m.At, "targetInput"), m.TargetInput)
			source, declared := outputSchema(from, m.SourcePath)
			if !declared && len(m.SourcePath) > 0 {
				k.contractf(RuleHandoffMapping, child(m.At, "sourcePath"), "%q declares no output at %s", from.ID, quote(m.SourcePath))
			}
			if !ok {
				continue
			}
			if declared {
				if why := compatible(m.MappingKind, m.SourcePath, source, inputSchema(in)); why != "" {
					k.contractf(RuleHandoffMapping, child(m.At, "mappingKind"), "%s of %s into %q: %s", m.MappingKind, quote(m.SourcePath), in.Name, why)
				}
			}
			if !slices.ContainsFunc(in.SourceStrategies, func(s contract.Strategy) bool {
				return s.Kind == contract.StrategyUpstreamTool && s.CapabilityID == from.ID &&
					slices.Equal(s.OutputPath, m.SourcePath) && s.MappingKind == m.MappingKind
			}) {
				k.contractf(RuleHandoffMapping, m.At,
					"input %q of %q has no upstream-tool strategy from %q at %s by %s; the handoff feeds what the input does not expect",
					in.Name, to.ID, from.ID, quote(m.SourcePath), m.MappingKind)
			}
		}
	}
}
