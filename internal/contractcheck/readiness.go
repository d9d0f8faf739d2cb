package contractcheck

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family E: readiness. Structure checks readiness against missing evidence;
// these rules check that a ready capability is proven ready.
var (
	RuleReadyEvidence      = diag.Register("CONTRACT_READY_EVIDENCE", diag.Error, "a ready capability's evidence coverage does not prove its side effect (and, for a write, its backend contract, authorization, validation, idempotency and unknown outcome)")
	RuleReadyConflict      = diag.Register("CONTRACT_READY_CONFLICT", diag.Error, "a write is ready while an unresolved conflict affects it")
	RuleReadyMissingSource = diag.Register("CONTRACT_READY_MISSING_SOURCE", diag.Error, "a write is ready while a source with a role writes depend on (authorization, side effect, idempotency, ...) is unavailable or missing")
	RuleCapabilityCount    = diag.Register("CONTRACT_CAPABILITY_COUNT", diag.Error, "a contract declares more than 40 capabilities")
)

// criticalWriteRoles are the roles without which no write can be proven
// safe: who may write, what the write does, whether it repeats, and what an
// unknown outcome means.
var criticalWriteRoles = []string{"authorization", "identity", "tenant", "side-effect", "persistence", "idempotency", "unknown-outcome"}

// MaxCapabilities is the most capabilities one package declares.
const MaxCapabilities = 40

func (k *checker) counts() {
	if n := len(k.c.Capabilities); n > MaxCapabilities {
		k.contractf(RuleCapabilityCount, ptr("", "capabilities", MaxCapabilities),
			"the contract declares %d capabilities; a package holds at most %d: split the feature", n, MaxCapabilities)
	}
}

func (k *checker) readiness() {
	missing := k.missingCriticalRoles()
	for i := range k.c.Capabilities {
		cp := &k.c.Capabilities[i]
		if cp.Readiness != contract.ReadinessReady {
			continue
		}
		for _, gap := range CoverageGaps(k.c, cp) {
			k.contractf(RuleReadyEvidence, gap.At,
				"capability %q is ready, but its %s evidence does not prove it: %s; cite evidence that does, or mark it requires-review with the gap in missingEvidence",
				cp.ID, gap.Category, gap.Reason)
		}
		if !cp.IsWrite() {
			continue
		}
		for _, cf := range k.c.Conflicts {
			if cf.Status == contract.ConflictUnresolved && slices.Contains(cf.AffectedCapabilityIDs, cp.ID) {
				k.contractf(RuleReadyConflict, child(cp.At, "readiness"),
					"write %q is ready while the unresolved conflict %q affects it; resolve the conflict or mark the write requires-review", cp.ID, cf.ID)
			}
		}
		if len(missing) > 0 {
			k.contractf(RuleReadyMissingSource, child(cp.At, "readiness"),
				"write %q is ready, but evidence of the roles %s could not be searched; mark it requires-review", cp.ID, strings.Join(missing, ", "))
		}
	}
}

// missingCriticalRoles returns the critical write roles of unavailable
// sources and missing sources.
func (k *checker) missingCriticalRoles() []string {
	if k.topo == nil {
		return nil
	}
	var out []string
	add := func(roles []string) {
		for _, r := range roles {
			if slices.Contains(criticalWriteRoles, r) && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	for _, s := range k.topo.Sources {
		if unavailable(s.Availability) {
			add(s.SemanticRoles)
		}
	}
	for _, m := range k.topo.MissingSources {
		add(m.SemanticRoles)
	}
	return out
}
