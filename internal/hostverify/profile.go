package hostverify

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/hostruntime"
)

// HostName names the host that verifies: code2skill itself, playing a
// standard MCP stdio host. A report never names a product it did not run.
const HostName = "code2skill reference MCP host"

// The reference host is a standard MCP stdio host running the package
// through its host runtime. What it provides, facility by facility (the
// host profile keys), is what the runtime really does there:
//
//	mcpToolInvocation             stdio, an ECMAScript module: supported
//	authenticationInjection       credentials from the host's environment
//	                              variables, as hostRuntime.credentials says
//	trustedConfirmation           MCP elicitation, form mode: supported only
//	                              when the host's client declares it
//	sessionState                  protected values kept in the server
//	                              process for the MCP session, when the
//	                              runtime can record the workflow's values
//	unknownOutcomeReconciliation  the write stops after an unknown outcome
//	                              until the user states, through elicitation,
//	                              that it was reconciled (without elicitation
//	                              it stays stopped for the session)
//	attachmentResolution          not provided
//
// agentSkillsDiscovery is the agent host's own (it discovers the installed
// Skill); the runtime takes no part in it, and host verification neither
// provides nor verifies it.
const (
	facilitySkills       = "agentSkillsDiscovery"
	facilityInvocation   = "mcpToolInvocation"
	facilityAuth         = "authenticationInjection"
	facilityConfirmation = "trustedConfirmation"
	facilitySession      = "sessionState"
	facilityAttachments  = "attachmentResolution"
	facilityUnknown      = "unknownOutcomeReconciliation"
)

// Elicitation reports whether the host profile says the host's MCP client
// declares elicitation: trusted confirmation is supported.
func Elicitation(in *derive.Inputs) bool {
	if in.Host == nil {
		return false
	}
	s, _ := in.Host.Status(facilityConfirmation)
	return s == contract.HostSupported
}

// Facilities lists what the reference host provides under the profile, in
// the host profile's vocabulary, for the report.
func Facilities(elicitation bool) []string {
	out := []string{facilityInvocation, facilityAuth, facilitySession, facilityUnknown}
	if elicitation {
		out = append(out, facilityConfirmation)
	}
	return out
}

// provides says whether the reference host provides a facility for a
// capability, or why not; ok is false for a facility it does not judge.
func provides(facility string, elicitation bool, workflow canonjson.Value) (bool, string, bool) {
	switch facility {
	case facilitySkills:
		return false, "", false
	case facilityInvocation, facilityAuth, facilityUnknown:
		return true, "", true
	case facilityConfirmation:
		if !elicitation {
			return false, "the host's client declares no elicitation", true
		}
		return true, "", true
	case facilitySession:
		if r, _ := canonjson.Resolve(workflow, "/recordable"); r == canonjson.Bool(false) {
			return false, "the host runtime cannot record the protected values of the capability's workflow", true
		}
		return true, "", true
	case facilityAttachments:
		return false, "the host runtime resolves no attachments", true
	}
	return false, "no standard stdio host provides " + facility, true
}

// Check IDs of the Host phase.
const (
	CheckProfile        = "host-profile-facilities"
	CheckDiscovery      = "host-discovery"
	CheckCall           = "host-call-end-to-end"
	CheckDecline        = "host-confirmation-decline-zero-dispatch"
	CheckCancel         = "host-confirmation-cancel-zero-dispatch"
	CheckUnavailable    = "host-confirmation-unavailable-zero-dispatch"
	CheckIsolation      = "host-session-isolation-zero-dispatch"
	CheckUnknownOutcome = "host-unknown-outcome-stops-zero-dispatch"
)

// Expected are the Host-phase checks host verification runs for each
// capability and workflow of a package under its profile.
type Expected struct {
	Capabilities map[string][]string // capability ID -> check IDs, in run order
	Workflows    map[string][]string // workflow ID -> check IDs
}

// ExpectedChecks returns the checks host verification runs for the
// package: for every capability the profile's facilities, its discovery
// and its call end to end (a write whose confirmation the host cannot ask
// for is checked to be refused instead); for a write that needs the user's
// confirmation, that decline and cancel dispatch nothing (with elicitation)
// and that a client without elicitation is refused; for a workflow's entry
// whose values are issued in the session, that another session cannot use
// them; for a write with an unknown-outcome policy, that an unknown outcome
// stops it. A workflow repeats its entry's checks but its facilities.
func ExpectedChecks(in *derive.Inputs) *Expected {
	exp := &Expected{Capabilities: map[string][]string{}, Workflows: map[string][]string{}}
	if !hostruntime.Declared(in) {
		return exp
	}
	elicitation := Elicitation(in)
	for i := range in.Contract.Capabilities {
		cp := &in.Contract.Capabilities[i]
		exp.Capabilities[cp.ID] = capabilityChecks(in, cp, elicitation)
	}
	for _, w := range in.Contract.Workflows {
		var ids []string
		for _, id := range exp.Capabilities[w.EntryCapabilityID] {
			if id != CheckProfile && id != CheckDiscovery {
				ids = append(ids, id)
			}
		}
		exp.Workflows[w.ID] = ids
	}
	return exp
}

func capabilityChecks(in *derive.Inputs, cp *contract.Capability, elicitation bool) []string {
	ids := []string{CheckProfile, CheckDiscovery}
	confirm := needsConfirmation(cp)
	if !confirm || elicitation {
		ids = append(ids, CheckCall)
	}
	if confirm {
		if elicitation {
			ids = append(ids, CheckDecline, CheckCancel)
		}
		ids = append(ids, CheckUnavailable)
	}
	if issuer(in, cp) != "" && (!confirm || elicitation) {
		ids = append(ids, CheckIsolation)
	}
	if cp.IsWrite() && reconciles(cp) && (!confirm || elicitation) {
		ids = append(ids, CheckUnknownOutcome)
	}
	return ids
}

func needsConfirmation(cp *contract.Capability) bool {
	c := cp.OperationPolicy.Confirmation
	return cp.IsWrite() && c != "" && c != "not-required"
}

func reconciles(cp *contract.Capability) bool {
	u := cp.OperationPolicy.UnknownOutcome
	return u != "" && u != "not-applicable"
}

// issuer returns the capability ID of the issuer of the workflow the
// capability is the entry of, or "".
func issuer(in *derive.Inputs, cp *contract.Capability) string {
	if !slices.ContainsFunc(in.Contract.Workflows, func(w contract.Workflow) bool { return w.EntryCapabilityID == cp.ID }) {
		return ""
	}
	if is := hostruntime.IssuerOf(in.Contract, cp.ID); is != nil {
		return is.ID
	}
	return ""
}
