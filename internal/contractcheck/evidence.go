package contractcheck

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family C: evidence references. Structure resolves every reference against
// the catalog; these rules judge what the evidence is.
var (
	RuleEvidenceMissing   = diag.Register("CONTRACT_EVIDENCE_MISSING", diag.Error, "a fact the contract asserts (an exposure, input, output, value domain, condition, request binding, success rule, ...) cites no evidence")
	RuleEvidenceNotFact   = diag.Register("CONTRACT_EVIDENCE_NOT_FACT", diag.Error, "evidence cited for an executable fact is an inference or unknown, not a fact")
	RuleEvidenceRole      = diag.Register("CONTRACT_EVIDENCE_ROLE", diag.Error, "an evidence entry claims a semantic role its source does not declare")
	RuleLocator           = diag.Register("CONTRACT_LOCATOR_NOT_PORTABLE", diag.Error, "an evidence locator's path is not a portable path relative to its source root")
	RuleEvidenceNoSource  = diag.Register("CONTRACT_EVIDENCE_UNAVAILABLE_SOURCE", diag.Error, "fact-level evidence comes from a source the topology declares unavailable, not provided or not found")
	RuleEvidenceWrongRole = diag.Register("CONTRACT_EVIDENCE_WRONG_ROLE", diag.Error, "no evidence cited for a fact has a semantic role that can prove it (a request binding needs request-construction, serialization or transport-contract evidence, ...)")
	RuleEvidenceUnstated  = diag.Register("CONTRACT_EVIDENCE_UNSTATED", diag.Error, "evidence cited as a source's enforcement before dispatch (a hard workflow's pre-dispatch enforcement, a workflow's confirmation) has a role that does not say so and no claim saying what the source does")
)

// evidence checks the catalog entries against the topology, and that the
// server cites the evidence of the feature it serves.
func (k *checker) evidence() {
	k.cited(k.c.Server.At, k.c.Server.EvidenceRefs, "the server")
	for i := range k.c.EvidenceCatalog {
		e := &k.c.EvidenceCatalog[i]
		if e.Locator != "" && !contract.PortablePath(contract.LocatorPath(e.Locator)) {
			k.contractf(RuleLocator, child(e.At, "locator"),
				"locator %q must start with a path relative to its source root (no leading /, .., backslash or scheme)", e.Locator)
		}
		if k.topo == nil {
			continue
		}
		src, ok := k.topo.Source(e.SourceID)
		if !ok {
			continue // an unknown source is reported by Structure
		}
		if e.SemanticRole != "" && !slices.Contains(src.SemanticRoles, e.SemanticRole) {
			k.contractf(RuleEvidenceRole, child(e.At, "semanticRole"),
				"source %q does not declare the semantic role %q; declare it in %s or cite evidence of a role the source has",
				e.SourceID, e.SemanticRole, contract.TopologyFile)
		}
		if e.AssertionLevel == "fact" && unavailable(src.Availability) {
			k.contractf(RuleEvidenceNoSource, child(e.At, "assertionLevel"),
				"evidence %q is a fact from source %q, which is %s; a source that could not be searched proves nothing",
				e.ID, e.SourceID, src.Availability)
		}
	}
}

// unavailable reports whether an availability says the source could not be
// searched.
func unavailable(availability string) bool {
	switch availability {
	case "unavailable", "not-provided", "not-found":
		return true
	}
	return false
}

// facts checks the evidence of an executable fact: at least one reference,
// each a fact. at is the pointer of the list (or of its record when the
// list is absent).
func (k *checker) facts(at string, refs []string, what string) {
	if len(refs) == 0 {
		k.contractf(RuleEvidenceMissing, child(at, "evidenceRefs"), "%s cites no evidence; cite fact-level evidence that proves it", what)
		return
	}
	for i, id := range refs {
		if e, ok := k.ref(id); ok && e.AssertionLevel != "fact" {
			k.contractf(RuleEvidenceNotFact, ptr(at, "evidenceRefs", i),
				"%s cites %q, which is %s; an executable fact needs fact-level evidence", what, id, e.AssertionLevel)
		}
	}
}

// cited checks that a record cites at least one piece of evidence.
func (k *checker) cited(at string, refs []string, what string) {
	if len(refs) == 0 {
		k.contractf(RuleEvidenceMissing, child(at, "evidenceRefs"), "%s cites no evidence", what)
	}
}

// roles checks that some reference has one of roles. Unknown references
// count as none.
func (k *checker) roles(at string, refs []string, roles []string, what string) {
	if len(refs) == 0 || slices.ContainsFunc(refs, func(id string) bool {
		e, ok := k.ref(id)
		return ok && slices.Contains(roles, e.SemanticRole)
	}) {
		return
	}
	k.contractf(RuleEvidenceWrongRole, child(at, "evidenceRefs"), "%s needs evidence with one of the roles %q; none of %q has one", what, roles, refs)
}

// Roles of evidence that proves a request's exact shape.
var requestRoles = []string{"request-construction", "serialization", "transport-contract"}

// enforcementRoles are the roles that say by themselves that the cited code
// enforces a rule before dispatch, or tests that it does.
var enforcementRoles = []string{"runtime-enforcement", "workflow-test"}

// stated checks that evidence cited for what a source enforces before
// dispatch says so: by its role, or else by its claim. A pre-dispatch
// enforcement or a confirmation is a statement about what the code does,
// and a generic role (business-rule) lets a line that does something else,
// such as the write itself, stand for it. at is the pointer of the
// reference; what names what it is cited for.
func (k *checker) stated(at, id, what string) {
	e, ok := k.ref(id)
	if !ok || slices.Contains(enforcementRoles, e.SemanticRole) || strings.TrimSpace(e.Claim) != "" {
		return
	}
	k.contractf(RuleEvidenceUnstated, at,
		"%q is cited for %s, and neither its role %q nor a claim in its catalog entry (%s) says what that code enforces: add a claim saying how the source enforces it before dispatch; when no source does and the deployer requires a confirmation, declare the capability's deployerPolicy instead",
		id, what, e.SemanticRole, e.At)
}
