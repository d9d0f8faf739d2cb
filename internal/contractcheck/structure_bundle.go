package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Bundle checks the structural rules a legacy package's capability
// bundle must satisfy before its views (the mirror and the draft) are
// derived: the layer-A checks that need nothing outside the bundle — the
// identities of the server and the capabilities, and each capability's own
// records (readiness against missing evidence, unique inputs, output paths
// and steps, its output step) — and the references the draft resolves:
// each handoff's capabilities and target inputs, and the inputs each HTTP
// binding places in a request. Findings point into capability-bundle.json.
//
// The layer-A checks that resolve references into the rest of a contract
// (evidence, sources, Host requirements, workflows, goals, the graph) do not
// apply: a legacy package has none of it.
func Bundle(b *contract.Bundle) *diag.List {
	k := &structure{in: &contract.Inputs{}, file: contract.BundleFile}
	if b == nil {
		return &k.diags
	}
	k.root = b.Raw
	k.indexCapabilities(b.Capabilities)
	k.identities(&b.Server, b.Capabilities)
	for i := range b.Capabilities {
		cp := &b.Capabilities[i]
		k.records(cp)
		k.bindingInputs(cp)
	}
	k.handoffs(b.Handoffs)
	return &k.diags
}

// bindingInputs checks that every binding of an input (or of the attachment
// an input refers to) names an input of its capability: the draft's request
// chain lists the binding under that input.
func (k *structure) bindingInputs(cp *contract.Capability) {
	if cp.Implementation.Kind != contract.ImplementationHTTP {
		return
	}
	for _, s := range cp.Implementation.Steps {
		for _, bd := range s.Bindings {
			src := bd.Source
			if src.Kind != contract.SourceInput && src.Kind != contract.SourceHostResolvedAttachment || src.InputName == "" {
				continue
			}
			if _, ok := cp.Input(src.InputName); !ok {
				k.contractf(RuleUnknownReference, child(src.At, "inputName"), "capability %q has no input %q", cp.ID, src.InputName)
			}
		}
	}
}

// handoffs checks that each handoff joins two capabilities of the bundle
// and maps into inputs of its target: the draft names the upstream Tool of
// a mapped input by the handoff's source capability.
func (k *structure) handoffs(hs []contract.Handoff) {
	for _, h := range hs {
		k.capabilityRef(child(h.At, "fromCapabilityId"), h.FromCapabilityID)
		k.capabilityRef(child(h.At, "toCapabilityId"), h.ToCapabilityID)
		to, ok := k.capabilities[h.ToCapabilityID]
		if !ok {
			continue
		}
		for _, mp := range h.Mappings {
			if mp.TargetInput != "" && !slices.ContainsFunc(to.Inputs, func(in contract.Input) bool { return in.Name == mp.TargetInput }) {
				k.contractf(RuleUnknownReference, child(mp.At, "targetInput"), "capability %q has no input %q", to.ID, mp.TargetInput)
			}
		}
	}
}
