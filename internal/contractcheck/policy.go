package contractcheck

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family M: operation policy and Tool annotations, which must agree with
// the side effect and with each other.
var (
	RuleSideEffect          = diag.Register("CONTRACT_SIDE_EFFECT_MISMATCH", diag.Error, "operationPolicy or evidenceCoverage declares a side effect other than the capability's")
	RulePolicyRead          = diag.Register("CONTRACT_POLICY_READ", diag.Error, "a read's policy asks for confirmation, retries other than read-only-bounded, or has an unknown-outcome policy")
	RulePolicyWrite         = diag.Register("CONTRACT_POLICY_WRITE", diag.Error, "a write's policy retries automatically or does not say how to reconcile an unknown outcome")
	RuleAnnotationReadOnly  = diag.Register("CONTRACT_ANNOTATION_READ_ONLY", diag.Error, "readOnlyHint does not match the side effect (true exactly for reads), or a read-only Tool is marked destructive")
	RuleAnnotationDestroys  = diag.Register("CONTRACT_ANNOTATION_DESTRUCTIVE", diag.Error, "a delete is not marked destructiveHint")
	RuleAnnotationIdempot   = diag.Register("CONTRACT_ANNOTATION_IDEMPOTENT", diag.Error, "idempotentHint does not match the idempotency policy (true exactly for safe, idempotent and content-hash-deduplicated)")
	RuleAnnotationOpenWorld = diag.Register("CONTRACT_ANNOTATION_OPEN_WORLD", diag.Error, "openWorldHint does not match the implementation (true exactly for HTTP)")
	RuleConfirmation        = diag.Register("CONTRACT_CONFIRMATION", diag.Error, "a capability that needs confirmation is not guarded by a deterministic workflow, or takes its confirmation as a user-supplied boolean")
	RuleDeployerPolicy      = diag.Register("CONTRACT_DEPLOYER_POLICY", diag.Error, "a deployer's policy is declared on a read, or requires a confirmation other than the one the operation policy names")
)

// idempotentPolicies are the idempotency values that make a Tool idempotent.
var idempotentPolicies = []string{"safe", "idempotent", "content-hash-deduplicated"}

func (k *checker) policy(cp *contract.Capability) {
	if !contract.KnownSideEffect(cp.SideEffect) {
		return // reported by decoding
	}
	p := &cp.OperationPolicy
	if contract.KnownSideEffect(p.SideEffect) && p.SideEffect != cp.SideEffect {
		k.contractf(RuleSideEffect, child(p.At, "sideEffect"), "operationPolicy.sideEffect %q differs from the capability's sideEffect %q", p.SideEffect, cp.SideEffect)
	}
	for _, cov := range cp.EvidenceCoverage {
		if cov.Category == "sideEffect" && contract.KnownSideEffect(cov.DeclaredSideEffect) && cov.DeclaredSideEffect != cp.SideEffect {
			k.contractf(RuleSideEffect, child(cov.At, "declaredSideEffect"),
				"evidenceCoverage declares the side effect %q, the capability %q; evidence of one operation cannot prove another", cov.DeclaredSideEffect, cp.SideEffect)
		}
	}
	if cp.IsWrite() {
		if p.AutomaticRetry != "" && p.AutomaticRetry != "never" {
			k.contractf(RulePolicyWrite, child(p.At, "automaticRetry"), "a write never retries automatically: automaticRetry is \"never\"")
		}
		if p.UnknownOutcome == "not-applicable" {
			k.contractf(RulePolicyWrite, child(p.At, "unknownOutcome"), "a write's outcome can be unknown: use stop-and-reconcile or reconcile-before-any-retry")
		}
	} else {
		for _, f := range []struct{ key, got, want string }{
			{"confirmation", p.Confirmation, "not-required"},
			{"automaticRetry", p.AutomaticRetry, "read-only-bounded"},
			{"unknownOutcome", p.UnknownOutcome, "not-applicable"},
		} {
			if f.got != "" && f.got != f.want {
				k.contractf(RulePolicyRead, ptr(p.At, f.key), "a read's %s must be %q, not %q", f.key, f.want, f.got)
			}
		}
	}

	a := &cp.Annotations
	if a.Raw != nil {
		read := !cp.IsWrite()
		switch {
		case a.ReadOnlyHint != read:
			k.contractf(RuleAnnotationReadOnly, child(a.At, "readOnlyHint"), "readOnlyHint must be %v for a %s", read, cp.SideEffect)
		case a.ReadOnlyHint && a.DestructiveHint:
			k.contractf(RuleAnnotationReadOnly, child(a.At, "destructiveHint"), "a read-only Tool cannot be destructive")
		}
		if cp.SideEffect == "delete" && !a.DestructiveHint {
			k.contractf(RuleAnnotationDestroys, child(a.At, "destructiveHint"), "a delete is destructive: destructiveHint must be true")
		}
		if want := slices.Contains(idempotentPolicies, p.Idempotency); p.Idempotency != "" && a.IdempotentHint != want {
			k.contractf(RuleAnnotationIdempot, child(a.At, "idempotentHint"), "idempotentHint must be %v for the idempotency %q", want, p.Idempotency)
		}
		if kind := cp.Implementation.Kind; kind != "" {
			if want := kind == contract.ImplementationHTTP; a.OpenWorldHint != want {
				k.contractf(RuleAnnotationOpenWorld, child(a.At, "openWorldHint"), "openWorldHint must be %v for a %s implementation", want, kind)
			}
		}
	}

	k.deployerPolicy(cp)
	if p.Confirmation != "" && p.Confirmation != "not-required" {
		deployer := cp.DeployerPolicy != nil && cp.DeployerPolicy.Confirmation == p.Confirmation
		if pr := cp.RuntimeProtection; !deployer && (pr == nil || pr.Mode != contract.ProtectionDeterministicWorkflow) {
			k.contractf(RuleConfirmation, child(p.At, "confirmation"),
				"%q requires confirmation (%s), and neither a deterministic workflow whose sources enforce it nor the deployer's policy says so: declare deployerPolicy {confirmation, statement} when the deployer requires it and no source does",
				cp.ID, p.Confirmation)
		}
		for _, in := range cp.Inputs {
			lower := strings.ToLower(in.Name)
			if in.Type == "boolean" && in.HasStrategy(contract.StrategyUser) && (strings.Contains(lower, "confirm") || strings.Contains(lower, "approv")) {
				k.contractf(RuleConfirmation, child(in.At, "name"),
					"input %q lets the caller assert confirmation; confirmation comes from trusted Host context, never from a Tool argument", in.Name)
			}
		}
	}
}

// deployerPolicy checks a deployer's policy: only a write has one, and the
// confirmation it requires is the one the operation policy names, which
// the Host asks for and the Function checks.
func (k *checker) deployerPolicy(cp *contract.Capability) {
	d := cp.DeployerPolicy
	switch {
	case d == nil:
	case !cp.IsWrite():
		k.contractf(RuleDeployerPolicy, d.At, "read capability %q has no deployer's policy: nothing is confirmed before a read", cp.ID)
	case d.Confirmation != "" && d.Confirmation != cp.OperationPolicy.Confirmation:
		k.contractf(RuleDeployerPolicy, child(d.At, "confirmation"),
			"the deployer requires %s, and the operation policy of %q says %q: set operationPolicy.confirmation to the confirmation the deployer requires",
			d.Confirmation, cp.ID, cp.OperationPolicy.Confirmation)
	}
}
