package contractcheck

import (
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
)

// Forms of the identifiers a generated package uses as file, Tool and
// Function names.
var (
	capabilityIDForm = regexp.MustCompile(`^[a-z][a-z0-9-]{2,80}$`)
	toolNameForm     = regexp.MustCompile(`^[a-z][a-z0-9_]{2,80}$`)
	serverNameForm   = regexp.MustCompile(`^[a-z][a-z0-9-]{2,80}$`)
	// An ECMAScript identifier in ASCII, at most 81 characters.
	functionExportForm = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]{0,80}$`)
)

// reservedWords cannot name a Function export.
var reservedWords = []string{
	"await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
	"delete", "do", "else", "enum", "export", "extends", "false", "finally", "for", "function",
	"if", "implements", "import", "in", "instanceof", "interface", "let", "new", "null",
	"package", "private", "protected", "public", "return", "static", "super", "switch",
	"this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield",
}

// identities checks the forms and uniqueness of the names a package is built
// from: the server name and each capability's ID, Tool name and Function
// export.
func (k *structure) identities(server *contract.Server, caps []contract.Capability) {
	if name := server.Name; name != "" && !serverNameForm.MatchString(name) {
		k.contractf(RuleIDFormat, child(server.At, "name"),
			"server name %q must be 3 to 81 lower-case letters, digits and hyphens, starting with a letter", name)
	}
	n := len(caps)
	ids, tools, exports := make([]string, n), make([]string, n), make([]string, n)
	for i := range caps {
		cp := &caps[i]
		ids[i], tools[i], exports[i] = cp.ID, cp.ToolName, cp.FunctionExport
		if cp.ID != "" && !capabilityIDForm.MatchString(cp.ID) {
			k.contractf(RuleIDFormat, child(cp.At, "capabilityId"),
				"capabilityId %q must be 3 to 81 lower-case letters, digits and hyphens, starting with a letter", cp.ID)
		}
		if cp.ToolName != "" && !toolNameForm.MatchString(cp.ToolName) {
			k.contractf(RuleIDFormat, child(cp.At, "toolName"),
				"toolName %q must be 3 to 81 lower-case letters, digits and underscores, starting with a letter", cp.ToolName)
		}
		if fe := cp.FunctionExport; fe != "" && (!functionExportForm.MatchString(fe) || slices.Contains(reservedWords, fe)) {
			k.contractf(RuleIDFormat, child(cp.At, "functionExport"),
				"functionExport %q must be an ASCII JavaScript identifier of at most 81 characters and not a reserved word", fe)
		}
	}
	at := func(key string) func(int) string {
		return func(i int) string { return ptr(caps[i].At, key) }
	}
	k.unique("capabilityId", ids, at("capabilityId"))
	k.unique("toolName", tools, at("toolName"))
	k.unique("functionExport", exports, at("functionExport"))
}

// capability checks one capability's layer-A facts: its own records (see
// records), the Host requirements views resolve, the primary evidence of its
// exposure, the workflow of a deterministic write, and target requiredness.
func (k *structure) capability(c *contract.Contract, cp *contract.Capability) {
	k.records(cp)

	// consumer-requirements.json lists each capability's requirements.
	for i, id := range cp.HostRequirements {
		k.requirementRef(ptr(cp.At, "hostRequirements", i), id)
	}

	k.exposure(c, cp)
	k.protection(c, cp)
	for i := range cp.Inputs {
		k.targetRequiredness(c, cp, &cp.Inputs[i])
	}
}

// records checks what a capability must satisfy on its own, wherever it is
// written (a contract or a capability bundle): readiness against its missing
// evidence, unique input names, output paths and step IDs, and an output
// step that is one of its steps.
func (k *structure) records(cp *contract.Capability) {
	switch {
	case cp.Readiness == contract.ReadinessReady && len(cp.MissingEvidence) > 0:
		k.contractf(RuleReadiness, child(cp.At, "missingEvidence"),
			"capability %q is ready but lists missing evidence; resolve it or mark the capability requires-review", cp.ID)
	case cp.Readiness == contract.ReadinessRequiresReview && len(cp.MissingEvidence) == 0:
		k.contractf(RuleReadiness, child(cp.At, "readiness"),
			"capability %q requires review but lists no missing evidence saying why", cp.ID)
	}

	names := make([]string, len(cp.Inputs))
	for i := range cp.Inputs {
		names[i] = cp.Inputs[i].Name
	}
	k.unique("input", names, func(i int) string { return ptr(cp.Inputs[i].At, "name") })

	paths := make([]string, len(cp.Outputs))
	for i, o := range cp.Outputs {
		paths[i] = strings.Join(o.Path, "\x00")
	}
	k.unique("output path", paths, func(i int) string { return ptr(cp.Outputs[i].At, "path") })

	if im := &cp.Implementation; im.Kind == contract.ImplementationHTTP {
		ids := make([]string, len(im.Steps))
		for i := range im.Steps {
			ids[i] = im.Steps[i].ID
		}
		k.unique("stepId", ids, func(i int) string { return ptr(im.Steps[i].At, "stepId") })
		if im.OutputStepID != "" {
			if _, ok := im.Step(im.OutputStepID); !ok {
				k.contractf(RuleUnknownReference, child(im.At, "outputStepId"), "capability %q has no step %q", cp.ID, im.OutputStepID)
			}
		}
	}
}

// exposure checks that the capability is exposed by the feature's primary
// sources: supplementary (backend) evidence verifies a capability but cannot
// create one.
func (k *structure) exposure(c *contract.Contract, cp *contract.Capability) {
	primary := c.FeatureBoundary.PrimarySourceIDs()
	key := "clientSourceIds"
	if c.FeatureBoundary.PrimaryEvidenceRole == contract.BoundaryServiceFeature {
		key = "serviceSourceIds"
	}
	for i, ref := range cp.Exposure.EvidenceRefs {
		ev, ok := c.Evidence(ref)
		if !ok || slices.Contains(primary, ev.SourceID) {
			continue // an unknown reference is reported once, elsewhere
		}
		k.contractf(RuleExposureSource, ptr(cp.Exposure.At, "evidenceRefs", i),
			"the exposure of %q cites %q from source %q, which is not among the boundary's %s; cite the primary source that exposes the capability",
			cp.ID, ref, ev.SourceID, key)
	}
}

// protection checks what views need of a deterministic-workflow write: its
// hard-workflow evidence is an object, and exactly one workflow, the one it
// names, guards it.
func (k *structure) protection(c *contract.Contract, cp *contract.Capability) {
	p := cp.RuntimeProtection
	if p == nil || p.Mode != contract.ProtectionDeterministicWorkflow {
		return
	}
	if p.HardWorkflowEvidence == nil && (p.Raw == nil || !p.Raw.Has("hardWorkflowEvidence")) {
		k.contractf(RuleHardEvidence, p.At,
			"deterministic-workflow protection of %q must carry hardWorkflowEvidence: protectedValueIssuance, protectedValueBinding and preDispatchEnforcement evidence", cp.ID)
	}
	if p.WorkflowID != "" {
		k.workflowRef(child(p.At, "workflowId"), p.WorkflowID)
	}
	var guards []string
	for _, w := range c.Workflows {
		if slices.Contains(w.CapabilityIDs, cp.ID) {
			guards = append(guards, w.ID)
		}
	}
	switch {
	case p.WorkflowID == "":
		k.contractf(RuleWorkflowMapping, p.At, "deterministic-workflow protection of %q must name its workflowId", cp.ID)
	case len(guards) == 0 && k.workflowIDs[p.WorkflowID]:
		k.contractf(RuleWorkflowMapping, child(p.At, "workflowId"),
			"workflow %q does not list %q among its capabilityIds", p.WorkflowID, cp.ID)
	case len(guards) > 1:
		k.contractf(RuleWorkflowMapping, child(p.At, "workflowId"),
			"capability %q is a member of %d workflows (%s); a deterministic write maps to exactly one", cp.ID, len(guards), strings.Join(guards, ", "))
	case len(guards) == 1 && guards[0] != p.WorkflowID:
		k.contractf(RuleWorkflowMapping, child(p.At, "workflowId"),
			"capability %q names workflow %q but is a member of workflow %q", cp.ID, p.WorkflowID, guards[0])
	}
}
