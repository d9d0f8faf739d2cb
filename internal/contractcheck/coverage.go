package contractcheck

import (
	"fmt"
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

// CoverageGap is one reason a capability's evidence coverage does not prove
// what it must.
type CoverageGap struct {
	Category string // the evidence-coverage category
	At       string // JSON Pointer of the category, or of the evidence reference at fault
	Reason   string
}

// CoverageGaps returns why a capability's evidence coverage does not prove
// what it must, or nil when it does: every category of its side effect is
// fact-level, the side effect its coverage proves is the one it declares,
// and every piece of evidence cited is a fact, comes from an
// authoritative source, is bound to this operation, and has a role that can
// prove its category.
//
// Authoritative sources are, for a client feature, the supplementary sources
// for writes and the client and supplementary sources for reads; for an
// explicitly scoped service feature, the service and supplementary sources.
// Bound to this operation means cited by the capability or its exposure; a
// client source's evidence for a read's side effect must be the exposure's
// own primary evidence.
func CoverageGaps(c *contract.Contract, cp *contract.Capability) []CoverageGap {
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
	var gaps []CoverageGap
	for _, cat := range categories {
		i := slices.IndexFunc(cp.EvidenceCoverage, func(cov contract.Coverage) bool { return cov.Category == cat })
		if i < 0 {
			gaps = append(gaps, CoverageGap{cat, ptr(cp.At, "evidenceCoverage"), "the category is not declared"})
			continue
		}
		cov := &cp.EvidenceCoverage[i]
		switch {
		case cat == "sideEffect" && cov.DeclaredSideEffect != "" && cov.DeclaredSideEffect != cp.SideEffect:
			// Evidence of one operation cannot prove another: a write
			// turned read keeps its write evidence, which proves nothing
			// about the read.
			gaps = append(gaps, CoverageGap{cat, ptr(cov.At, "declaredSideEffect"),
				fmt.Sprintf("the category proves the side effect %q, and the capability declares %q", cov.DeclaredSideEffect, cp.SideEffect)})
			continue
		case cov.AssertionLevel != "fact":
			gaps = append(gaps, CoverageGap{cat, ptr(cov.At, "assertionLevel"), fmt.Sprintf("the category is %s, not fact", cov.AssertionLevel)})
			continue
		case len(cov.EvidenceRefs) == 0:
			gaps = append(gaps, CoverageGap{cat, ptr(cov.At, "evidenceRefs"), "the category cites no evidence"})
			continue
		}
		for j, ref := range cov.EvidenceRefs {
			at := ptr(cov.At, "evidenceRefs", j)
			ev, ok := c.Evidence(ref)
			if !ok {
				gaps = append(gaps, CoverageGap{cat, at, fmt.Sprintf("%q is not in the evidence catalog", ref)})
				continue
			}
			roles := coverageRoles[cat]
			clientRead := cat == "sideEffect" && clientFeature && !write && slices.Contains(fb.ClientSourceIDs, ev.SourceID)
			if clientRead {
				roles = slices.Concat(roles, clientReadRoles)
			}
			var reason string
			switch {
			case ev.AssertionLevel != "fact":
				reason = fmt.Sprintf("%q is %s, not fact", ref, ev.AssertionLevel)
			case !slices.Contains(authoritative, ev.SourceID):
				reason = fmt.Sprintf("%q comes from %q, which is not authoritative for this category (authoritative: %v)", ref, ev.SourceID, authoritative)
			case !slices.Contains(bound, ref):
				reason = fmt.Sprintf("%q is not cited by the capability or its exposure, so it is not bound to this operation", ref)
			case clientRead && !slices.Contains(cp.Exposure.EvidenceRefs, ref):
				reason = fmt.Sprintf("%q is client evidence for a read's side effect, so it must be the exposure's own evidence", ref)
			case !slices.Contains(roles, ev.SemanticRole):
				reason = fmt.Sprintf("%q has the role %q, which cannot prove %s (roles: %v)", ref, ev.SemanticRole, cat, roles)
			}
			if reason != "" {
				gaps = append(gaps, CoverageGap{cat, at, reason})
			}
		}
	}
	return gaps
}
