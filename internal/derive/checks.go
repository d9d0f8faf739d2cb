package derive

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
)

// CheckEmptyBody is the behaviour check of a capability whose backend may
// answer without a body: an empty body at one of those statuses is a
// success with null data, and at any other status a broken output contract.
const CheckEmptyBody = "empty-body-success-has-null-data"

// CheckConfirmationRequired is the behaviour check of a write whose
// Function checks the user's confirmation itself (no workflow guard does):
// without it in the trusted runtime context, nothing is dispatched.
const CheckConfirmationRequired = "confirmation-missing-zero-dispatch"

// minimumChecks returns the verification checks the contract requires of a
// capability, whatever it declares: behaviour checks and runtime checks, each
// sorted. Declared checks can only add to them.
func minimumChecks(c *contract.Contract, cp *contract.Capability) (behavior, runtime []string) {
	behavior = []string{"valid-input-and-output-contract", "invalid-input-is-rejected", "structured-error-recovery"}
	add := func(ok bool, ids ...string) {
		if ok {
			behavior = append(behavior, ids...)
		}
	}
	add(cp.Implementation.Kind == contract.ImplementationHTTP, "exact-request-binding-and-success-status")
	add(cp.Implementation.Kind == contract.ImplementationHTTP && len(cp.SuccessRule.EmptyBodyStatusCodes) > 0, CheckEmptyBody)
	add(cp.ConfirmationUnguarded(), CheckConfirmationRequired)
	add(hasDynamicValues(cp), "dynamic-values-are-not-frozen")
	add(slices.ContainsFunc(cp.Inputs, func(in contract.Input) bool {
		return len(in.RequiredWhen) > 0 || len(in.ForbiddenWhen) > 0
	}), "conditional-rules-cover-active-and-inactive-branches")
	add(slices.ContainsFunc(cp.Inputs, func(in contract.Input) bool {
		return in.TargetRequiredness != nil && in.TargetRequiredness.Status == contract.TargetRequirednessUnproven
	}), "optional-upstream-omission-preserves-target-api-decision")
	attachment := cp.AttachmentMode() == contract.AttachmentsHostApprovedReference
	add(attachment, "attachment-resolution-failure-zero-dispatch", "attachment-request-field-and-metadata-contract")
	add(cp.IsWrite(), "unknown-write-outcome-is-non-retryable")
	add(cp.RuntimeProtection != nil && cp.RuntimeProtection.Mode == contract.ProtectionBackendAuthoritative,
		"backend-business-error-is-structured")
	for i := range c.Goals {
		g := &c.Goals[i]
		prefix := "goal-" + g.ID + "-"
		add(slices.Contains(g.RequiredCapabilityIDs, cp.ID),
			prefix+"different-information-orders-converge",
			prefix+"all-known-skips-questions-and-tools",
			prefix+"asks-only-currently-missing")
		add(slices.ContainsFunc(g.ConditionalCapabilityIDs, func(cc contract.ConditionalCapability) bool {
			return cc.CapabilityID == cp.ID
		}), prefix+"conditional-branches")
	}
	add(slices.ContainsFunc(c.CapabilityGraph.Edges, func(e contract.Edge) bool {
		return e.Composition == contract.CompositionDerived && (e.FromCapabilityID == cp.ID || e.ToCapabilityID == cp.ID)
	}), "derived-composition-preserves-contract-and-write-guards")
	if attachment {
		runtime = append(runtime, "attachment-resolution-runtime-vector")
	}
	slices.Sort(behavior)
	behavior = slices.Compact(behavior)
	return behavior, runtime
}

// hasDynamicValues reports whether any input is dynamic information, or any
// input or output has a dynamic value domain.
func hasDynamicValues(cp *contract.Capability) bool {
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		if in.InformationClass == contract.ClassDynamic || in.ValueDomain.Kind == contract.DomainDynamic {
			return true
		}
	}
	for i := range cp.Outputs {
		if d := cp.Outputs[i].ValueDomain; d != nil && d.Kind == contract.DomainDynamic {
			return true
		}
	}
	return false
}
