package contractcheck

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family W: workflows, the deterministic guards a protected write passes
// before dispatch. Decoding checks each record's fields and vocabularies;
// Structure checks identities and members, and that each deterministic write
// has exactly one workflow.
var (
	RuleWorkflowTarget       = diag.Register("CONTRACT_WORKFLOW_TARGET", diag.Error, "a workflow guards a capability that is not a deterministic-workflow write naming it")
	RuleWorkflowInputSource  = diag.Register("CONTRACT_WORKFLOW_INPUT_SOURCE", diag.Error, "a workflow binding reads an input, or a path inside it, that its entry capability does not declare")
	RuleWorkflowRuntimeClaim = diag.Register("CONTRACT_WORKFLOW_RUNTIME_CONTEXT", diag.Error, "a runtime-context binding does not follow its claim's contract (requirement, path, binding name), or its requirement is not among the entry's hostRequirements")
	RuleWorkflowExpected     = diag.Register("CONTRACT_WORKFLOW_EXPECTED", diag.Error, "a workflow binding's expected value is not the protected runtime state at its own name, or a constant that differs from the actual constant")
	RuleWorkflowZeroDispatch = diag.Register("CONTRACT_WORKFLOW_ZERO_DISPATCH", diag.Error, "a workflow declares no verification check proving zero dispatch when its guard rejects")
)

// claimContract is what a runtime-context claim reads.
type claimContract struct {
	requirement string
	path        string
	binding     string
}

var claimContracts = map[string]claimContract{
	"subject":      {contract.RequirementAuthentication, "subjectId", "subject"},
	"session":      {contract.RequirementSessionState, "sessionId", "session"},
	"confirmation": {contract.RequirementTrustedConfirmation, "confirmationGrantId", "confirmationGrantId"},
	"expiry":       {contract.RequirementSessionState, "expiresAt", "expiresAt"},
}

func (k *checker) workflows() {
	for i := range k.c.Workflows {
		w := &k.c.Workflows[i]
		for j, id := range w.CapabilityIDs {
			cp, ok := k.caps[id]
			if !ok {
				continue
			}
			if p := cp.RuntimeProtection; p == nil || p.Mode != contract.ProtectionDeterministicWorkflow || p.WorkflowID != w.ID {
				k.contractf(RuleWorkflowTarget, ptr(w.At, "capabilityIds", j),
					"workflow %q guards %q, which does not declare deterministic-workflow protection naming it; workflows exist only for such writes", w.ID, id)
			}
		}
		names := make([]string, len(w.Bindings))
		for j := range w.Bindings {
			names[j] = w.Bindings[j].Name
		}
		k.unique(RuleDuplicateID, "binding name", names, func(j int) string { return ptr(w.Bindings[j].At, "name") })
		entry := k.caps[w.EntryCapabilityID]
		for j := range w.Bindings {
			k.workflowBinding(w, entry, &w.Bindings[j])
		}
		if !slices.ContainsFunc(w.VerificationChecks, func(c contract.Check) bool { return strings.Contains(c.ID, "zero-dispatch") }) {
			k.contractf(RuleWorkflowZeroDispatch, child(w.At, "verificationChecks"),
				"workflow %q must verify that a rejected guard dispatches nothing: add a check whose ID contains \"zero-dispatch\"", w.ID)
		}
	}
}

func (k *checker) workflowBinding(w *contract.Workflow, entry *contract.Capability, b *contract.WorkflowBinding) {
	a := &b.ActualSource
	k.cited(b.At, b.EvidenceRefs, "binding "+b.Name+" of workflow "+w.ID)
	switch a.Kind {
	case "capability-input", "derived-calculation":
		in, ok := k.inputRef(entry, child(a.At, "inputName"), a.InputName)
		if ok && len(a.Path) > 0 {
			if _, resolves := schemaAt(inputSchema(in), a.Path); !resolves {
				k.contractf(RuleWorkflowInputSource, child(a.At, "path"),
					"%s does not resolve through the schema of input %q of %q", quote(a.Path), in.Name, entry.ID)
			}
		}
	case "runtime-context":
		if k.requirementRef(child(a.At, "requirementId"), a.RequirementID) && entry != nil && !slices.Contains(entry.HostRequirements, a.RequirementID) {
			k.contractf(RuleWorkflowRuntimeClaim, child(a.At, "requirementId"),
				"the entry %q of workflow %q does not list %q among its hostRequirements", entry.ID, w.ID, a.RequirementID)
		}
		if a.Claim == "confirmation" {
			for i, id := range b.EvidenceRefs {
				k.stated(ptr(b.At, "evidenceRefs", i), id, "the confirmation binding of workflow "+w.ID)
			}
		}
		if cc, ok := claimContracts[a.Claim]; ok {
			if a.RequirementID != "" && a.RequirementID != cc.requirement {
				k.contractf(RuleWorkflowRuntimeClaim, child(a.At, "requirementId"), "the %s claim is provided by %q, not %q", a.Claim, cc.requirement, a.RequirementID)
			}
			if len(a.Path) > 0 && !slices.Equal(a.Path, []string{cc.path}) {
				k.contractf(RuleWorkflowRuntimeClaim, child(a.At, "path"), "the %s claim is read at [%q], not %s", a.Claim, cc.path, quote(a.Path))
			}
			if b.Name != cc.binding {
				k.contractf(RuleWorkflowRuntimeClaim, child(b.At, "name"), "a binding of the %s claim is named %q, not %q", a.Claim, cc.binding, b.Name)
			}
		}
	}
	e := &b.ExpectedSource
	switch e.Kind {
	case "protected-runtime-state":
		if !slices.Equal(e.Path, []string{b.Name}) {
			k.contractf(RuleWorkflowExpected, child(e.At, "path"), "the protected runtime state of binding %q is kept at [%q], not %s", b.Name, b.Name, quote(e.Path))
		}
	case "constant":
		if a.Kind != "constant" || !canonjson.Equal(a.Value, e.Value) {
			k.contractf(RuleWorkflowExpected, e.At,
				"binding %q expects a constant, which only an equal constant actual value can meet; expect the protected runtime state instead", b.Name)
		}
	}
}
