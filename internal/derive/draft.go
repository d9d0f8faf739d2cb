package derive

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// Provenance of a public Tool input, as the draft records it.
const (
	sourceProvided      = "provided"
	sourceContext       = "context"
	sourcePriorResponse = "prior_response"

	detailProvided = "direct Tool argument supplied by the user or trusted caller"
	detailContext  = "trusted Consumer Host context"
	detailDerived  = "calculated from other values by the trusted Consumer Host"

	// strategyDerivedCalculation is the source strategy of an input the
	// Host calculates. check-contract refuses it as a source strategy
	// (FORMAT_VOCABULARY), and derive, which does not judge strategy
	// kinds, gives it its own provenance branch as the established derive
	// does.
	strategyDerivedCalculation = "derived-calculation"
)

// ledgerEvidence stands for the contract as a whole when neither an input nor
// its capability cites evidence.
const ledgerEvidence = "source-contract-ledger"

// draftInputKeys are the input members the draft copies after its own.
var draftInputKeys = []string{"informationClass", "sourceStrategies", "valueDomain", "requiredWhen", "forbiddenWhen", "freshness"}

// draft is capability-draft.json: one record and one provenance entry per
// public Tool input, the request chain of every HTTP step, and the evidence
// still missing. It reads what the capability bundle holds (the recording,
// the capabilities and the handoffs), so a vNext package derives it from
// its contract and a legacy package from its bundle, alike.
func draft(recordingID string, caps []contract.Capability, handoffs []contract.Handoff) *canonjson.Object {
	inputs, provenance, chain := canonjson.Array{}, canonjson.Array{}, canonjson.Array{}
	var missing []string
	blocked, review := false, false
	order := 0 // position of a step in the chain, counted across capabilities
	for i := range caps {
		cp := &caps[i]
		for j := range cp.Inputs {
			in := &cp.Inputs[j]
			name := "tools." + cp.ToolName + ".input." + in.Name
			refs := inputEvidence(cp, in)
			rec := object(
				m{"name", str(name)},
				m{"valueType", str(in.Type)},
				m{"required", boolean(in.Required)},
				m{"evidenceRefs", strs(refs)},
			)
			for _, k := range draftInputKeys {
				if v, ok := in.Raw.Get(k); ok {
					rec.Set(k, v)
				}
			}
			inputs = append(inputs, rec)
			provenance = append(provenance, inputProvenance(caps, handoffs, cp, in, name, refs))
		}
		if cp.Implementation.Kind == contract.ImplementationHTTP {
			for k := range cp.Implementation.Steps {
				chain = append(chain, requestStep(cp, &cp.Implementation.Steps[k], order))
				order++
			}
		}
		for _, gap := range cp.MissingEvidence {
			if !slices.Contains(missing, gap) {
				missing = append(missing, gap)
			}
		}
		blocked = blocked || cp.Readiness == contract.ReadinessBlocked
		review = review || cp.Readiness == contract.ReadinessRequiresReview
	}
	status := contract.ReadinessReady
	switch {
	case blocked:
		status = contract.ReadinessBlocked
	case review || len(missing) > 0:
		status = contract.ReadinessRequiresReview
	}
	return object(
		m{"schemaVersion", str("v1")},
		m{"recordingId", str(recordingID)},
		m{"status", str(status)},
		m{"inputs", inputs},
		m{"provenance", provenance},
		m{"requestChain", chain},
		m{"missingEvidence", strs(missing)},
	)
}

// inputEvidence returns the input's evidence, else its capability's, else
// the contract ledger.
func inputEvidence(cp *contract.Capability, in *contract.Input) []string {
	switch {
	case len(in.EvidenceRefs) > 0:
		return in.EvidenceRefs
	case len(cp.EvidenceRefs) > 0:
		return cp.EvidenceRefs
	}
	return []string{ledgerEvidence}
}

// inputProvenance says where an input's value comes from: the response of
// the upstream Tool of the first handoff that maps it, else the Consumer
// Host's trusted context when a strategy says so, else the caller.
func inputProvenance(caps []contract.Capability, handoffs []contract.Handoff, cp *contract.Capability, in *contract.Input, field string, refs []string) *canonjson.Object {
	for i := range handoffs {
		h := &handoffs[i]
		if h.ToCapabilityID != cp.ID {
			continue
		}
		for _, mp := range h.Mappings {
			if mp.TargetInput != in.Name {
				continue
			}
			tool := h.FromCapabilityID
			if j := slices.IndexFunc(caps, func(x contract.Capability) bool { return x.ID == h.FromCapabilityID }); j >= 0 {
				tool = caps[j].ToolName
			}
			return object(
				m{"field", str(field)},
				m{"source", str(sourcePriorResponse)},
				m{"sourceDetail", str("prior_response:" + tool + ":/" + strings.Join(mp.SourcePath, "/"))},
				m{"evidenceRefs", member(h.Raw, "evidenceRefs", emptyArray)},
			)
		}
	}
	// The branches in order: the user supplies it; the Host's context,
	// an approved attachment or bounded content does; the Host calculates
	// it; else the caller supplies it.
	source, detail := sourceProvided, detailProvided
	switch {
	case in.HasStrategy(contract.StrategyUser):
	case in.HasStrategy(contract.StrategyTrustedHostContext), in.HasStrategy(contract.StrategyHostApprovedAttachment),
		in.HasStrategy(contract.StrategyBoundedContent):
		source, detail = sourceContext, detailContext
	case in.HasStrategy(strategyDerivedCalculation):
		source, detail = sourceContext, detailDerived
	}
	return object(
		m{"field", str(field)},
		m{"source", str(source)},
		m{"sourceDetail", str(detail)},
		m{"evidenceRefs", strs(refs)},
	)
}

// requestStep is one entry of the request chain: an HTTP step and the inputs
// its bindings place in the request.
func requestStep(cp *contract.Capability, s *contract.Step, order int) *canonjson.Object {
	mappings := canonjson.Array{}
	for i := range s.Bindings {
		b := &s.Bindings[i]
		if b.Source.Kind != contract.SourceInput && b.Source.Kind != contract.SourceHostResolvedAttachment {
			continue
		}
		mp := object(
			m{"inputName", str(b.Source.InputName)},
			m{"target", str(b.Location)},
			m{"targetPath", str(strings.Join(b.Path, "."))},
			m{"evidenceRefs", strs(b.EvidenceRefs)},
		)
		if b.Source.Kind == contract.SourceHostResolvedAttachment {
			mp.Set("sourceKind", str("host-resolved-attachment"))
			mp.Set("requirementId", str(b.Source.RequirementID))
		}
		mappings = append(mappings, mp)
	}
	auth := s.Authentication
	if auth == "" {
		auth = cp.Authentication
	}
	return object(
		m{"stepId", str(cp.ToolName + "." + s.ID)},
		m{"order", canonjson.Int(order)},
		m{"method", str(s.Method)},
		m{"urlTemplate", str(s.URL)},
		m{"authentication", str(auth)},
		m{"inputMappings", mappings},
		m{"evidenceRefs", strs(s.EvidenceRefs)},
	)
}
