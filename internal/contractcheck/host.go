package contractcheck

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family L: Host requirements. A capability's hostRequirements are not
// chosen: they follow from the contract, and must be exactly the computed
// set. Structure checks that they name declared requirements and that the
// generic ones keep their fixed mapping.
var (
	RuleHostRequirementMissing = diag.Register("CONTRACT_HOST_REQUIREMENT_MISSING", diag.Error, "a capability does not list a Host requirement its contract implies (authentication, trusted context, confirmation, session state, attachments, unknown outcomes)")
	RuleHostRequirementExtra   = diag.Register("CONTRACT_HOST_REQUIREMENT_EXTRA", diag.Error, "a capability lists a Host requirement nothing in its contract implies")
	RuleHostCapabilityMissing  = diag.Register("PROFILE_HOST_CAPABILITY_MISSING", diag.Error, "the Host profile does not classify a host capability the contract's consumer requirements name")
)

// sessionBindingNames are workflow binding names that keep state in the
// Host's session.
var sessionBindingNames = []string{"session", "sessionid", "singleuse", "expiresat"}

// ImpliedRequirements returns the Host requirements a capability's contract
// implies, each with the reason, in a fixed order.
func ImpliedRequirements(c *contract.Contract, cp *contract.Capability) (ids []string, why map[string]string) {
	why = map[string]string{}
	add := func(id, reason string) {
		if _, ok := why[id]; !ok {
			ids = append(ids, id)
			why[id] = reason
		}
	}
	add(contract.RequirementSkillsDiscovery, "every capability is discovered through its Skill")
	add(contract.RequirementToolInvocation, "every capability is invoked as an MCP Tool")
	if cp.Authentication != "" && cp.Authentication != "none" {
		add(contract.RequirementAuthentication, "its authentication is "+cp.Authentication)
	}
	for _, in := range cp.Inputs {
		for _, s := range in.SourceStrategies {
			if s.Kind == contract.StrategyTrustedHostContext && s.RequirementID != "" {
				add(s.RequirementID, "input "+in.Name+" comes from trusted Host context "+s.RequirementID)
			}
		}
	}
	if conf := cp.OperationPolicy.Confirmation; conf != "" && conf != "not-required" {
		add(contract.RequirementTrustedConfirmation, "its confirmation is "+conf)
	}
	if cp.IsWrite() && cp.OperationPolicy.UnknownOutcome != "" && cp.OperationPolicy.UnknownOutcome != "not-applicable" {
		add(contract.RequirementUnknownReconciliation, "a write's unknown outcome must be reconciled ("+cp.OperationPolicy.UnknownOutcome+")")
	}
	if cp.AttachmentMode() == contract.AttachmentsHostApprovedReference {
		add(contract.RequirementAttachmentResolution, "it resolves Host-approved attachments")
	}
	if reason := sessionReason(c, cp); reason != "" {
		add(contract.RequirementSessionState, reason)
	}
	return ids, why
}

// sessionReason says why a capability needs session state, or "".
func sessionReason(c *contract.Contract, cp *contract.Capability) string {
	if a := cp.Attachments; a != nil && a.ResultBinding != nil {
		if a.ResultBinding.Reuse == "single-use" || a.ResultBinding.SessionScoped {
			return "its upload result is single-use or session-scoped"
		}
	}
	mentions := func(f *contract.Freshness) bool {
		return f != nil && slices.ContainsFunc(f.RefreshWhen, func(ev string) bool { return strings.Contains(strings.ToLower(ev), "session") })
	}
	domain := func(d *contract.ValueDomain) bool {
		return d != nil && d.Kind == contract.DomainDynamic && (d.SessionScoped || mentions(d.Freshness))
	}
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		if domain(&in.ValueDomain) || mentions(in.Freshness) {
			return "input " + in.Name + " is session-scoped or refreshed when the session changes"
		}
	}
	for i := range cp.Outputs {
		if domain(cp.Outputs[i].ValueDomain) {
			return "output " + quote(cp.Outputs[i].Path) + " is session-scoped or refreshed when the session changes"
		}
	}
	for _, w := range c.Workflows {
		if w.EntryCapabilityID != cp.ID {
			continue
		}
		for _, b := range w.Bindings {
			if slices.Contains(sessionBindingNames, strings.ToLower(b.Name)) {
				return "its workflow " + w.ID + " binds " + b.Name
			}
		}
	}
	return ""
}

func (k *checker) hostRequirements(cp *contract.Capability) {
	k.unique(RuleDuplicateID, "host requirement", cp.HostRequirements, func(i int) string { return ptr(cp.At, "hostRequirements", i) })
	implied, why := ImpliedRequirements(k.c, cp)
	for _, id := range implied {
		if !slices.Contains(cp.HostRequirements, id) {
			k.contractf(RuleHostRequirementMissing, child(cp.At, "hostRequirements"), "capability %q needs the Host requirement %q: %s", cp.ID, id, why[id])
		}
	}
	for i, id := range cp.HostRequirements {
		if !slices.Contains(implied, id) {
			k.contractf(RuleHostRequirementExtra, ptr(cp.At, "hostRequirements", i),
				"nothing in the contract of %q needs %q; remove it, or declare what needs it", cp.ID, id)
		}
	}
}

// hostProfile checks that the Host profile classifies every host
// capability the consumer requirements name.
func (k *checker) hostProfile() {
	var reported []string
	for _, r := range k.c.ConsumerRequirements {
		if r.HostCapability == "" || slices.Contains(reported, r.HostCapability) {
			continue
		}
		if _, ok := k.in.Host.Status(r.HostCapability); !ok {
			reported = append(reported, r.HostCapability)
			k.report(RuleHostCapabilityMissing, contract.HostProfileFile, "/capabilities",
				"no entry for %q, which requirement %q needs; classify it as supported, external-integration or unsupported", r.HostCapability, r.ID)
		}
	}
}
