package derive

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
)

// coverageRoles are the semantic roles whose evidence can prove each
// evidence-coverage category.
var coverageRoles = map[string][]string{
	"sideEffect":      {"transport-contract", "business-rule", "side-effect", "persistence", "explicit-operation", "explicit-message-operation", "behavior-test"},
	"backendContract": {"transport-contract", "data-contract", "business-rule", "side-effect", "persistence", "explicit-operation", "explicit-message-operation"},
	"authorization":   {"authorization", "identity", "tenant"},
	"validation":      {"validation", "business-rule", "data-contract", "side-effect"},
	"idempotency":     {"idempotency", "persistence", "workflow-test"},
	"unknownOutcome":  {"unknown-outcome", "error-contract", "workflow-test"},
}

// clientReadRoles can also prove a read's side effect when the evidence comes
// from the client itself (and is the request the client was seen to make).
var clientReadRoles = []string{"client-api-call", "client-local-behavior", "request-construction"}

// coverageComplete reports whether a capability's evidence coverage proves
// what it must: every category of its side effect is fact-level, and every
// piece of evidence cited is a fact, comes from an authoritative source, is
// bound to this operation, and has a role that can prove its category.
//
// Authoritative sources are, for a client feature, the supplementary sources
// for writes and the client and supplementary sources for reads; for an
// explicitly scoped service feature, the service and supplementary sources.
// Bound to this operation means cited by the capability or its exposure; a
// client source's evidence for a read's side effect must be the exposure's
// own primary evidence.
func coverageComplete(c *contract.Contract, cp *contract.Capability) bool {
	fb := &c.FeatureBoundary
	clientFeature := fb.PrimaryEvidenceRole == contract.BoundaryClientFeature
	write := cp.IsWrite()
	authoritative := slices.Clone(fb.SupplementarySourceIDs)
	if !clientFeature {
		authoritative = append(authoritative, fb.ServiceSourceIDs...)
	} else if !write {
		authoritative = append(authoritative, fb.ClientSourceIDs...)
	}
	bound := slices.Concat(cp.EvidenceRefs, cp.Exposure.EvidenceRefs, cp.Exposure.SupplementalEvidenceRefs)

	categories := []string{"sideEffect"}
	if write {
		categories = []string{"sideEffect", "backendContract", "authorization", "validation", "idempotency", "unknownOutcome"}
	}
	for _, cat := range categories {
		i := slices.IndexFunc(cp.EvidenceCoverage, func(cov contract.Coverage) bool { return cov.Category == cat })
		if i < 0 {
			return false
		}
		cov := &cp.EvidenceCoverage[i]
		if cov.AssertionLevel != "fact" || len(cov.EvidenceRefs) == 0 {
			return false
		}
		for _, ref := range cov.EvidenceRefs {
			ev, ok := c.Evidence(ref)
			if !ok || ev.AssertionLevel != "fact" || !slices.Contains(authoritative, ev.SourceID) || !slices.Contains(bound, ref) {
				return false
			}
			roles := coverageRoles[cat]
			if cat == "sideEffect" && clientFeature && !write && slices.Contains(fb.ClientSourceIDs, ev.SourceID) {
				if !slices.Contains(cp.Exposure.EvidenceRefs, ref) {
					return false
				}
				roles = slices.Concat(roles, clientReadRoles)
			}
			if !slices.Contains(roles, ev.SemanticRole) {
				return false
			}
		}
	}
	return true
}
