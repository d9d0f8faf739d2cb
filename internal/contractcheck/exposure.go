package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family D: exposure, how the feature's primary sources show the
// capability. Structure checks that its evidence comes from a primary source.
var (
	RuleExposureKind         = diag.Register("CONTRACT_EXPOSURE_KIND", diag.Error, "an exposure kind does not fit the feature boundary (client-request or client-local-behavior for a client feature, explicitly-scoped-operation for a service feature)")
	RuleExposureEvidence     = diag.Register("CONTRACT_EXPOSURE_EVIDENCE", diag.Error, "an exposure cites evidence whose role does not show the exposure of its kind (client-api-call, client-local-behavior, explicit-operation)")
	RuleExposureSupplemental = diag.Register("CONTRACT_EXPOSURE_SUPPLEMENTAL", diag.Error, "an exposure lists the same evidence as primary and as supplemental")
)

// exposureRoles are the roles of evidence that shows each exposure kind.
var exposureRoles = map[string][]string{
	"client-request":              {"client-api-call"},
	"client-local-behavior":       {"client-local-behavior"},
	"explicitly-scoped-operation": {"explicit-operation", "explicit-message-operation"},
}

func (k *checker) exposures() {
	service := k.c.FeatureBoundary.PrimaryEvidenceRole == contract.BoundaryServiceFeature
	for i := range k.c.Capabilities {
		cp := &k.c.Capabilities[i]
		x := &cp.Exposure
		if roles, known := exposureRoles[x.Kind]; known {
			if (x.Kind == "explicitly-scoped-operation") != service {
				k.contractf(RuleExposureKind, child(x.At, "kind"), "a %s cannot expose a capability by %q; use %s",
					k.c.FeatureBoundary.PrimaryEvidenceRole, x.Kind, map[bool]string{false: `"client-request" or "client-local-behavior"`, true: `"explicitly-scoped-operation"`}[service])
			}
			for j, id := range x.EvidenceRefs {
				if e, ok := k.ref(id); ok && !slices.Contains(roles, e.SemanticRole) {
					k.contractf(RuleExposureEvidence, ptr(x.At, "evidenceRefs", j),
						"a %s exposure needs evidence with the role %q; %q has the role %q", x.Kind, roles, id, e.SemanticRole)
				}
			}
		}
		k.facts(x.At, x.EvidenceRefs, "the exposure of "+cp.ID)
		for j, id := range x.SupplementalEvidenceRefs {
			if slices.Contains(x.EvidenceRefs, id) {
				k.contractf(RuleExposureSupplemental, ptr(x.At, "supplementalEvidenceRefs", j),
					"%q is the exposure's primary evidence; list it only in evidenceRefs", id)
			}
		}
	}
}
