package contractcheck

import (
	"net/url"
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family Q: HTTP steps and bindings, the exact requests a Function sends,
// and the consumption of every input.
var (
	RuleHTTPStep         = diag.Register("CONTRACT_HTTP_STEP", diag.Error, "an HTTP step has no absolute credential-free http(s) URL, a status code outside 100-599, or reads a later step's response")
	RuleBindingOverlap   = diag.Register("CONTRACT_BINDING_OVERLAP", diag.Error, "two bindings of one step write the same place of the request, or one inside the other")
	RuleInputUnconsumed  = diag.Register("CONTRACT_INPUT_UNCONSUMED", diag.Error, "an input of an HTTP capability (or one fed by an upstream Tool) reaches no request binding and no workflow binding")
	RuleResolvedBinding  = diag.Register("CONTRACT_RESOLVED_ATTACHMENT_BINDING", diag.Error, "a host_resolved_attachment binding appears in a capability that does not resolve Host-approved attachments")
	stepRoles            = append(slices.Clone(requestRoles), "behavior-test")
	workflowInputSources = []string{"capability-input", "derived-calculation"}
)

func (k *checker) http(cp *contract.Capability) {
	im := &cp.Implementation
	if im.Kind != contract.ImplementationHTTP {
		k.consumed(cp)
		return
	}
	for i := range im.Steps {
		s := &im.Steps[i]
		what := "step " + s.ID + " of " + cp.ID
		if s.URL != "" {
			if why := checkURL(s.URL); why != "" {
				k.contractf(RuleHTTPStep, child(s.At, "url"), "url %q %s", s.URL, why)
			}
		}
		for j, code := range s.SuccessStatusCodes {
			if code < 100 || code > 599 {
				k.contractf(RuleHTTPStep, ptr(s.At, "successStatusCodes", j), "%d is not an HTTP status code (100-599)", code)
			}
		}
		k.facts(s.At, s.EvidenceRefs, what)
		k.roles(s.At, s.EvidenceRefs, stepRoles, what)
		for j := range s.Bindings {
			b := &s.Bindings[j]
			src := &b.Source
			bwhat := "binding " + quote(b.Path) + " of " + what
			switch src.Kind {
			case contract.SourceInput:
				k.inputRef(cp, child(src.At, "inputName"), src.InputName)
			case contract.SourceHostResolvedAttachment:
				k.inputRef(cp, child(src.At, "inputName"), src.InputName)
				if cp.AttachmentMode() != contract.AttachmentsHostApprovedReference {
					k.contractf(RuleResolvedBinding, child(src.At, "kind"),
						"%q binds a resolved attachment but its attachments mode is %q; only host-approved-reference resolves attachments", cp.ID, cp.AttachmentMode())
				}
			case contract.SourcePriorResponse:
				if src.StepID == "" {
					break
				}
				if _, exists := im.Step(src.StepID); !exists {
					k.contractf(RuleUnknownReference, child(src.At, "stepId"), "capability %q has no step %q", cp.ID, src.StepID)
				} else if !slices.ContainsFunc(im.Steps[:i], func(e contract.Step) bool { return e.ID == src.StepID }) {
					k.contractf(RuleHTTPStep, child(src.At, "stepId"), "step %q can only read the response of an earlier step, not %q", s.ID, src.StepID)
				}
			}
			k.facts(b.At, b.EvidenceRefs, bwhat)
			k.roles(b.At, b.EvidenceRefs, requestRoles, bwhat)
			for _, prev := range s.Bindings[:j] {
				if prev.Location == b.Location && overlaps(prev.Path, b.Path) {
					k.contractf(RuleBindingOverlap, child(b.At, "path"),
						"%s %s and %s of %s overlap: each value needs a place of its own", b.Location, quote(prev.Path), quote(b.Path), what)
				}
			}
		}
	}
	k.consumed(cp)
}

// overlaps reports whether one path equals the other or lies inside it.
func overlaps(a, b []string) bool {
	n := min(len(a), len(b))
	return slices.Equal(a[:n], b[:n])
}

// consumed checks that every input that must reach the request does: each
// input of an HTTP capability, and each input fed by an upstream Tool, is
// bound in a request or read by a binding of the capability's workflow.
func (k *checker) consumed(cp *contract.Capability) {
	http := cp.Implementation.Kind == contract.ImplementationHTTP
	bound := k.boundInputs(cp)
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		if !http && !in.HasStrategy(contract.StrategyUpstreamTool) {
			continue
		}
		if bound[in.Name] {
			continue
		}
		k.contractf(RuleInputUnconsumed, child(in.At, "name"),
			"input %q of %q reaches no request binding and no workflow binding: bind it where the target API receives it, or remove it", in.Name, cp.ID)
	}
}

// boundInputs returns the inputs bound in a request or read by the
// workflow whose entry is the capability.
func (k *checker) boundInputs(cp *contract.Capability) map[string]bool {
	bound := map[string]bool{}
	for _, s := range cp.Implementation.Steps {
		for _, b := range s.Bindings {
			if b.Source.Kind == contract.SourceInput || b.Source.Kind == contract.SourceHostResolvedAttachment {
				bound[b.Source.InputName] = true
			}
		}
	}
	for _, w := range k.c.Workflows {
		if w.EntryCapabilityID != cp.ID {
			continue
		}
		for _, b := range w.Bindings {
			if slices.Contains(workflowInputSources, b.ActualSource.Kind) {
				bound[b.ActualSource.InputName] = true
			}
		}
	}
	return bound
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
