package derive

import (
	"net/url"
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
func (k *checker) identities(c *contract.Contract) {
	if name := c.Server.Name; name != "" && !serverNameForm.MatchString(name) {
		k.contractf(RuleIDFormat, ptr(c.Server.At, "name"),
			"server name %q must be 3 to 81 lower-case letters, digits and hyphens, starting with a letter", name)
	}
	n := len(c.Capabilities)
	ids, tools, exports := make([]string, n), make([]string, n), make([]string, n)
	for i := range c.Capabilities {
		cp := &c.Capabilities[i]
		ids[i], tools[i], exports[i] = cp.ID, cp.ToolName, cp.FunctionExport
		if cp.ID != "" && !capabilityIDForm.MatchString(cp.ID) {
			k.contractf(RuleIDFormat, ptr(cp.At, "capabilityId"),
				"capabilityId %q must be 3 to 81 lower-case letters, digits and hyphens, starting with a letter", cp.ID)
		}
		if cp.ToolName != "" && !toolNameForm.MatchString(cp.ToolName) {
			k.contractf(RuleIDFormat, ptr(cp.At, "toolName"),
				"toolName %q must be 3 to 81 lower-case letters, digits and underscores, starting with a letter", cp.ToolName)
		}
		if fe := cp.FunctionExport; fe != "" && (!functionExportForm.MatchString(fe) || slices.Contains(reservedWords, fe)) {
			k.contractf(RuleIDFormat, ptr(cp.At, "functionExport"),
				"functionExport %q must be an ASCII JavaScript identifier of at most 81 characters and not a reserved word", fe)
		}
	}
	at := func(key string) func(int) string {
		return func(i int) string { return ptr(c.Capabilities[i].At, key) }
	}
	k.unique(contract.ContractFile, "capabilityId", ids, at("capabilityId"))
	k.unique(contract.ContractFile, "toolName", tools, at("toolName"))
	k.unique(contract.ContractFile, "functionExport", exports, at("functionExport"))
}

// capability checks one capability: its references, readiness, side effect,
// runtime protection and HTTP steps.
func (k *checker) capability(cp *contract.Capability) {
	const file = contract.ContractFile
	switch {
	case cp.Readiness == contract.ReadinessReady && len(cp.MissingEvidence) > 0:
		k.contractf(RuleReadiness, ptr(cp.At, "missingEvidence"),
			"capability %q is ready but lists missing evidence; resolve it or mark the capability requires-review", cp.ID)
	case cp.Readiness == contract.ReadinessRequiresReview && len(cp.MissingEvidence) == 0:
		k.contractf(RuleReadiness, ptr(cp.At, "readiness"),
			"capability %q requires review but lists no missing evidence saying why", cp.ID)
	}

	if se, pol := cp.SideEffect, cp.OperationPolicy.SideEffect; contract.KnownSideEffect(se) && contract.KnownSideEffect(pol) && se != pol {
		k.contractf(RuleSideEffect, ptr(cp.OperationPolicy.At, "sideEffect"),
			"operationPolicy.sideEffect %q differs from the capability's sideEffect %q", pol, se)
	}
	for _, cov := range cp.EvidenceCoverage {
		if cov.Category == "sideEffect" && contract.KnownSideEffect(cov.DeclaredSideEffect) && contract.KnownSideEffect(cp.SideEffect) &&
			cov.DeclaredSideEffect != cp.SideEffect {
			k.contractf(RuleSideEffect, ptr(cov.At, "declaredSideEffect"),
				"evidenceCoverage declares the side effect %q, the capability %q", cov.DeclaredSideEffect, cp.SideEffect)
		}
	}

	k.runtimeProtection(cp)

	k.unique(file, "host requirement", cp.HostRequirements, elementAt(cp.At, "hostRequirements"))
	for i, id := range cp.HostRequirements {
		k.requirementRef(ptr(cp.At, "hostRequirements", i), id)
	}

	names := make([]string, len(cp.Inputs))
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		names[i] = in.Name
		for _, s := range in.SourceStrategies {
			switch s.Kind {
			case contract.StrategyTrustedHostContext:
				k.requirementRef(ptr(s.At, "requirementId"), s.RequirementID)
			case contract.StrategyUpstreamTool:
				k.capabilityRef(ptr(s.At, "capabilityId"), s.CapabilityID)
			}
		}
		if id := in.ValueDomain.SourceCapabilityID; id != "" {
			k.capabilityRef(ptr(in.ValueDomain.At, "sourceCapabilityId"), id)
		}
		if tr := in.TargetRequiredness; tr != nil && tr.NormalProvider != nil {
			k.capabilityRef(ptr(tr.At, "normalProvider", "capabilityId"), tr.NormalProvider.CapabilityID)
		}
	}
	k.unique(file, "input", names, func(i int) string { return ptr(cp.Inputs[i].At, "name") })

	paths := make([]string, len(cp.Outputs))
	for i, o := range cp.Outputs {
		paths[i] = strings.Join(o.Path, "\x00")
	}
	k.unique(file, "output path", paths, func(i int) string { return ptr(cp.Outputs[i].At, "path") })

	constraints := make([]string, len(cp.Constraints))
	for i, cs := range cp.Constraints {
		constraints[i] = cs.ID
	}
	k.unique(file, "constraintId", constraints, func(i int) string { return ptr(cp.Constraints[i].At, "constraintId") })

	k.implementation(cp)
	k.attachments(cp)
}

// runtimeProtection checks that exactly the writes declare who protects them,
// and that a workflow is named exactly when the mode needs one.
func (k *checker) runtimeProtection(cp *contract.Capability) {
	p := cp.RuntimeProtection
	switch {
	case !contract.KnownSideEffect(cp.SideEffect):
		return // reported by decoding
	case !cp.IsWrite() && p != nil:
		k.contractf(RuleRuntimeProtection, p.At, "read capability %q must not declare runtimeProtection", cp.ID)
		return
	case cp.IsWrite() && p == nil:
		k.contractf(RuleRuntimeProtection, cp.At,
			"write capability %q must declare runtimeProtection (backend-authoritative, deterministic-workflow or unresolved)", cp.ID)
		return
	case p == nil:
		if cp.WorkflowID != "" {
			k.contractf(RuleRuntimeProtection, ptr(cp.At, "workflowId"),
				"capability %q names workflow %q but declares no deterministic-workflow protection", cp.ID, cp.WorkflowID)
		}
		return
	}
	switch p.Mode {
	case contract.ProtectionDeterministicWorkflow:
		if p.WorkflowID == "" {
			k.contractf(RuleRuntimeProtection, p.At, "deterministic-workflow protection of %q must name its workflowId", cp.ID)
		}
	case contract.ProtectionBackendAuthoritative, contract.ProtectionUnresolved:
		if p.WorkflowID != "" {
			k.contractf(RuleRuntimeProtection, ptr(p.At, "workflowId"),
				"%s protection of %q must not name a workflow; only deterministic-workflow does", p.Mode, cp.ID)
		}
	}
	if p.WorkflowID != "" {
		k.workflowRef(ptr(p.At, "workflowId"), p.WorkflowID)
	}
	if cp.WorkflowID != "" && cp.WorkflowID != p.WorkflowID {
		k.contractf(RuleRuntimeProtection, ptr(cp.At, "workflowId"),
			"workflowId %q differs from runtimeProtection.workflowId %q", cp.WorkflowID, p.WorkflowID)
	}
}

// implementation checks the HTTP steps: resolvable URLs whose origins the
// views list, real status codes, bindings that read declared inputs and
// earlier responses, and an output step that exists.
func (k *checker) implementation(cp *contract.Capability) {
	im := &cp.Implementation
	if im.Kind != contract.ImplementationHTTP {
		return
	}
	ids := make([]string, len(im.Steps))
	for i := range im.Steps {
		s := &im.Steps[i]
		ids[i] = s.ID
		if s.URL != "" {
			if why := checkURL(s.URL); why != "" {
				k.contractf(RuleHTTPStep, ptr(s.At, "url"), "url %q %s", s.URL, why)
			}
		}
		for j, code := range s.SuccessStatusCodes {
			if code < 100 || code > 599 {
				k.contractf(RuleHTTPStep, ptr(s.At, "successStatusCodes", j), "%d is not an HTTP status code (100-599)", code)
			}
		}
		for j := range s.Bindings {
			src := &s.Bindings[j].Source
			switch src.Kind {
			case contract.SourceInput, contract.SourceHostResolvedAttachment:
				k.inputRef(cp, ptr(src.At, "inputName"), src.InputName)
			case contract.SourcePriorResponse:
				if src.StepID == "" {
					break
				}
				earlier := slices.Contains(ids[:i], src.StepID)
				if _, exists := im.Step(src.StepID); !exists {
					k.contractf(RuleUnknownReference, ptr(src.At, "stepId"), "capability %q has no step %q", cp.ID, src.StepID)
				} else if !earlier {
					k.contractf(RuleHTTPStep, ptr(src.At, "stepId"),
						"step %q can only read the response of an earlier step, not %q", s.ID, src.StepID)
				}
			}
		}
	}
	k.unique(contract.ContractFile, "stepId", ids, func(i int) string { return ptr(im.Steps[i].At, "stepId") })
	if im.OutputStepID != "" {
		if _, ok := im.Step(im.OutputStepID); !ok {
			k.contractf(RuleUnknownReference, ptr(im.At, "outputStepId"), "capability %q has no step %q", cp.ID, im.OutputStepID)
		}
	}
}

// checkURL returns why a step URL is unusable, or "" when it is an absolute
// http(s) URL with a host and no credentials.
func checkURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "is not a URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "must be an absolute http or https URL"
	case u.Host == "":
		return "has no host"
	case u.User != nil:
		return "must not carry credentials"
	}
	return ""
}

// attachments checks the references of an attachment chain.
func (k *checker) attachments(cp *contract.Capability) {
	a := cp.Attachments
	if a == nil {
		return
	}
	for _, b := range a.ContentBindings {
		k.inputRef(cp, ptr(b.At, "inputName"), b.InputName)
		if b.StepID != "" {
			if _, ok := cp.Implementation.Step(b.StepID); !ok {
				k.contractf(RuleUnknownReference, ptr(b.At, "stepId"), "capability %q has no step %q", cp.ID, b.StepID)
			}
		}
	}
	for _, b := range a.ConsumerBindings {
		k.inputRef(cp, ptr(b.At, "inputName"), b.InputName)
		k.capabilityRef(ptr(b.At, "providerCapabilityId"), b.ProviderCapabilityID)
	}
	if a.EnforcedByWorkflow != "" {
		k.workflowRef(ptr(a.At, "enforcedByWorkflow"), a.EnforcedByWorkflow)
	}
}
