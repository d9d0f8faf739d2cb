package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family P: runtime protection, who enforces a write's non-bypassable rules.
// Structure checks what views need of a deterministic workflow (its hard
// evidence is an object; exactly one workflow guards the write).
var (
	RuleRuntimeProtection = diag.Register("CONTRACT_RUNTIME_PROTECTION", diag.Error, "runtimeProtection is missing on a write, present on a read, or names a workflow other than the capability's")
	RuleProtectionMode    = diag.Register("CONTRACT_PROTECTION_MODE", diag.Error, "runtimeProtection's fields do not fit its mode (an unresolved write that is ready or names an owner or workflow; a backend-authoritative write not owned by target-api or with workflow fields; a deterministic workflow with another owner)")
	RuleHardEvidenceRole  = diag.Register("CONTRACT_HARD_EVIDENCE_ROLE", diag.Error, "hard-workflow evidence is not fact-level, has a role that cannot prove its category, or is not among the protection's evidence")
	RuleHardEvidenceFrom  = diag.Register("CONTRACT_HARD_EVIDENCE_CONTEXT", diag.Error, "hard-workflow evidence is not drawn from what it proves: issuance from system-produced inputs, binding from the request, pre-dispatch enforcement from runtime constraints or the workflow's bindings")
)

// hardRoles are the roles that can prove each hard-workflow category.
var hardRoles = map[string][]string{
	"protectedValueIssuance": {"protected-value-issuance", "transport-contract"},
	"protectedValueBinding":  {"protected-value-binding", "transport-contract"},
	"preDispatchEnforcement": {"runtime-enforcement", "business-rule", "workflow-test"},
}

// runtimeEnforcements are the constraint enforcements a runtime guard runs.
var runtimeEnforcements = []string{"runtime", "function-and-runtime", "runtime-before-dispatch"}

func (k *checker) protection(cp *contract.Capability) {
	p := cp.RuntimeProtection
	switch {
	case !contract.KnownSideEffect(cp.SideEffect):
		return
	case !cp.IsWrite() && p != nil:
		k.contractf(RuleRuntimeProtection, p.At, "read capability %q must not declare runtimeProtection: only writes need protecting", cp.ID)
		return
	case cp.IsWrite() && p == nil:
		k.contractf(RuleRuntimeProtection, cp.At,
			"write capability %q must declare runtimeProtection: backend-authoritative, deterministic-workflow or unresolved", cp.ID)
		return
	case p == nil:
		if cp.WorkflowID != "" {
			k.contractf(RuleRuntimeProtection, child(cp.At, "workflowId"), "capability %q names workflow %q but declares no deterministic-workflow protection", cp.ID, cp.WorkflowID)
		}
		return
	}
	if cp.WorkflowID != "" && cp.WorkflowID != p.WorkflowID {
		k.contractf(RuleRuntimeProtection, child(cp.At, "workflowId"), "workflowId %q differs from runtimeProtection.workflowId %q", cp.WorkflowID, p.WorkflowID)
	}
	k.cited(p.At, p.EvidenceRefs, "the runtime protection of "+cp.ID)
	if cp.Readiness == contract.ReadinessReady {
		k.facts(p.At, p.EvidenceRefs, "the runtime protection of ready "+cp.ID)
	}
	hard := p.Raw != nil && p.Raw.Has("hardWorkflowEvidence")
	switch p.Mode {
	case contract.ProtectionUnresolved:
		if cp.Readiness == contract.ReadinessReady {
			k.contractf(RuleProtectionMode, child(p.At, "mode"), "%q has an unresolved protection, so it cannot be ready: mark it requires-review or blocked", cp.ID)
		}
		if len(cp.MissingEvidence) == 0 {
			k.contractf(RuleProtectionMode, child(cp.At, "missingEvidence"), "an unresolved protection must say in missingEvidence what proof of the backend's protection is missing")
		}
		for _, key := range []string{"owner", "workflowId", "hardWorkflowEvidence"} {
			if p.Raw != nil && p.Raw.Has(key) {
				k.contractf(RuleProtectionMode, ptr(p.At, key), "an unresolved protection has no %s: nobody is proven to protect the write", key)
			}
		}
	case contract.ProtectionBackendAuthoritative:
		if p.Owner != "target-api" {
			k.contractf(RuleProtectionMode, child(p.At, "owner"), "a backend-authoritative write is protected by the target API: owner is \"target-api\"")
		}
		for _, key := range []string{"workflowId", "hardWorkflowEvidence"} {
			if p.Raw != nil && p.Raw.Has(key) {
				k.contractf(RuleProtectionMode, ptr(p.At, key), "a backend-authoritative write has no %s: the target API protects it, not a workflow", key)
			}
		}
	case contract.ProtectionDeterministicWorkflow:
		if p.Owner != "" && p.Owner != "portable-runtime" {
			k.contractf(RuleProtectionMode, child(p.At, "owner"), "a deterministic workflow is run by the portable runtime: owner is \"portable-runtime\" or absent")
		}
		if hard && p.HardWorkflowEvidence != nil {
			k.hardEvidence(cp, p)
		}
	}
}

// hardEvidence checks the evidence that proves a deterministic workflow's
// three parts.
func (k *checker) hardEvidence(cp *contract.Capability, p *contract.RuntimeProtection) {
	h := p.HardWorkflowEvidence
	contexts := k.hardContexts(cp, p)
	for _, cat := range []struct {
		key  string
		refs []string
	}{
		{"protectedValueIssuance", h.ProtectedValueIssuance},
		{"protectedValueBinding", h.ProtectedValueBinding},
		{"preDispatchEnforcement", h.PreDispatchEnforcement},
	} {
		for i, id := range cat.refs {
			at := ptr(h.At, cat.key, i)
			e, ok := k.ref(id)
			if !ok {
				continue
			}
			if cat.key == "preDispatchEnforcement" {
				k.stated(at, id, "the pre-dispatch enforcement of "+cp.ID)
			}
			switch {
			case e.AssertionLevel != "fact":
				k.contractf(RuleHardEvidenceRole, at, "%s evidence %q is %s, not fact", cat.key, id, e.AssertionLevel)
			case !slices.Contains(hardRoles[cat.key], e.SemanticRole):
				k.contractf(RuleHardEvidenceRole, at, "%s evidence %q has the role %q; it needs one of %q", cat.key, id, e.SemanticRole, hardRoles[cat.key])
			case !slices.Contains(p.EvidenceRefs, id):
				k.contractf(RuleHardEvidenceRole, at, "%s evidence %q is not among the protection's evidenceRefs; add it there", cat.key, id)
			}
			if !slices.Contains(contexts[cat.key], id) {
				k.contractf(RuleHardEvidenceFrom, at, "%s evidence %q is not cited by %s", cat.key, id, hardContextWhat[cat.key])
			}
		}
	}
}

var hardContextWhat = map[string]string{
	"protectedValueIssuance": "any system-produced input of the capability (an input no user supplies)",
	"protectedValueBinding":  "the request: the capability's steps, bindings or content bindings",
	"preDispatchEnforcement": "a runtime-enforced constraint or a binding of the capability's workflow",
}

// hardContexts returns, per hard-workflow category, the evidence it may be
// drawn from.
func (k *checker) hardContexts(cp *contract.Capability, p *contract.RuntimeProtection) map[string][]string {
	var issuance, binding, enforcement []string
	for _, in := range cp.Inputs {
		if in.HasStrategy(contract.StrategyUser) {
			continue
		}
		issuance = append(issuance, in.EvidenceRefs...)
		issuance = append(issuance, in.ValueDomain.EvidenceRefs...)
	}
	for _, s := range cp.Implementation.Steps {
		binding = append(binding, s.EvidenceRefs...)
		for _, b := range s.Bindings {
			binding = append(binding, b.EvidenceRefs...)
		}
	}
	if a := cp.Attachments; a != nil {
		for _, b := range a.ContentBindings {
			binding = append(binding, b.EvidenceRefs...)
		}
	}
	for _, c := range cp.Constraints {
		if slices.Contains(runtimeEnforcements, c.Enforcement) {
			enforcement = append(enforcement, c.EvidenceRefs...)
		}
	}
	if w, ok := k.wfs[p.WorkflowID]; ok {
		for _, b := range w.Bindings {
			enforcement = append(enforcement, b.EvidenceRefs...)
			if cp.Implementation.Kind == contract.ImplementationLocal {
				binding = append(binding, b.EvidenceRefs...)
			}
		}
	}
	if cp.Implementation.Kind == contract.ImplementationLocal {
		for _, c := range cp.Constraints {
			binding = append(binding, c.EvidenceRefs...)
		}
	}
	return map[string][]string{
		"protectedValueIssuance": issuance,
		"protectedValueBinding":  binding,
		"preDispatchEnforcement": enforcement,
	}
}
