package derive

import (
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractcheck"
)

// Matrix reasons a baseline row can carry. The two pending reasons are
// transient: verification removes them.
const (
	reasonMissingEvidence      = "missing-evidence"
	reasonReadinessReview      = "canonical-readiness-requires-review"
	reasonIncompleteSideEffect = "incomplete-side-effect-evidence"
	reasonIncompleteWrite      = "incomplete-write-evidence"
	reasonHostRestricted       = "host-not-fully-compatible"
	reasonConflictPrefix       = "unresolved-conflict:"
	reasonBehaviorPending      = "behavior-verification-pending"
	reasonRuntimePending       = "runtime-verification-pending"
)

// Recommended actions of review items.
const (
	actionProvideEvidence = "provide-evidence-and-run-controlled-test"
	actionResolveConflict = "resolve-conflict-and-run-controlled-test"
	actionConfigureHost   = "configure-host-requirement"
)

// matrix is the baseline verification-matrix.json: every capability and
// workflow generated and nothing verified yet, with the reasons and concrete
// review questions that stand between each capability and approval.
func matrix(c *contract.Contract, x *compat) *canonjson.Object {
	pending := func() *canonjson.Object { return object(m{"status", str("pending")}) }
	delivery := object(
		m{"functionCore", pending()},
		m{"mcpServer", pending()},
		m{"skill", pending()},
		m{"runtime", object(m{"status", str("not-run")})},
		m{"deployment", object(m{"status", str("not-deployed")})},
	)
	caps := canonjson.Array{}
	for i := range c.Capabilities {
		caps = append(caps, capabilityRow(c, x, i))
	}
	workflows := canonjson.Array{}
	for i := range c.Workflows {
		w := &c.Workflows[i]
		workflows = append(workflows, object(
			m{"workflowId", str(w.ID)},
			m{"status", object(
				m{"generated", boolean(true)},
				m{"behaviorVerified", boolean(false)},
				m{"runtimeVerified", boolean(false)},
				m{"hostVerified", boolean(false)},
				m{"bypassVerified", boolean(false)},
				m{"requiresReview", boolean(true)},
				m{"blocked", boolean(false)},
			)},
			m{"checks", member(w.Raw, "verificationChecks", emptyArray)},
		))
	}
	return object(
		m{"schemaVersion", str("vNext")},
		m{"contractId", str(c.ContractID)},
		m{"canonicalContractRef", str(canonicalContractRef)},
		m{"delivery", delivery},
		m{"capabilities", caps},
		m{"workflows", workflows},
	)
}

// capabilityRow is the baseline row of the i-th capability.
func capabilityRow(c *contract.Contract, x *compat, i int) *canonjson.Object {
	cp := &c.Capabilities[i]
	host := x.capabilities[i]
	blocked := cp.Readiness == contract.ReadinessBlocked

	var reasons []string
	if len(cp.MissingEvidence) > 0 {
		reasons = append(reasons, reasonMissingEvidence)
	}
	if cp.Readiness == contract.ReadinessRequiresReview {
		reasons = append(reasons, reasonReadinessReview)
	}
	if len(contractcheck.CoverageGaps(c, cp)) > 0 {
		if cp.IsWrite() {
			reasons = append(reasons, reasonIncompleteWrite)
		} else {
			reasons = append(reasons, reasonIncompleteSideEffect)
		}
	}
	if host.status != statusEnabled {
		reasons = append(reasons, reasonHostRestricted)
	}
	for _, k := range unresolvedConflicts(c, cp.ID) {
		reasons = append(reasons, reasonConflictPrefix+c.Conflicts[k].ID)
	}
	reasons = append(reasons, reasonBehaviorPending, reasonRuntimePending)

	row := object(
		m{"capabilityId", str(cp.ID)},
		m{"status", object(
			m{"generated", boolean(true)},
			m{"behaviorVerified", boolean(false)},
			m{"runtimeVerified", boolean(false)},
			m{"hostVerified", boolean(false)},
			m{"requiresReview", boolean(!blocked)},
			m{"blocked", boolean(blocked)},
		)},
		m{"reasons", strs(reasons)},
		m{"reviewItems", reviewItems(c, host, i)},
	)
	if d := cp.DeployerPolicy; d != nil {
		row.Set("deployerPolicy", deployerPolicyRow(d, i))
	}
	row.Set("checks", verificationChecks(c, cp))
	return row
}

// deployerPolicyRow is what a matrix row shows of the i-th capability's
// deployer's policy: where the contract records it, the confirmation it
// requires and the deployer's statement. It is the deployer's decision,
// not a question for review and not source evidence.
func deployerPolicyRow(d *contract.DeployerPolicy, i int) *canonjson.Object {
	return object(
		m{"policyRef", str(fmt.Sprintf("%s#/capabilities/%d/deployerPolicy", canonicalContractRef, i))},
		m{"source", str("deployer")},
		m{"confirmation", str(d.Confirmation)},
		m{"statement", str(d.Statement)},
	)
}

// unresolvedConflicts returns the indexes of the unresolved conflicts that
// affect a capability.
func unresolvedConflicts(c *contract.Contract, capabilityID string) []int {
	var out []int
	for k := range c.Conflicts {
		cf := &c.Conflicts[k]
		if cf.Status == contract.ConflictUnresolved && slices.Contains(cf.AffectedCapabilityIDs, capabilityID) {
			out = append(out, k)
		}
	}
	return out
}

// reviewItems lists the concrete questions a reviewer must answer about the
// i-th capability, each pointing at the exact place that raises it: missing
// evidence, unproven target requiredness, unresolved conflicts, then Host
// requirements the profile does not fully meet.
func reviewItems(c *contract.Contract, host capabilityAssessment, i int) canonjson.Array {
	cp := &c.Capabilities[i]
	// A contract question stands where the capability's Canonical readiness
	// puts it: ready, requires-review or blocked.
	disposition := cp.Readiness
	items := canonjson.Array{}
	for j, gap := range cp.MissingEvidence {
		items = append(items, object(
			m{"issueRef", str(fmt.Sprintf("%s#/capabilities/%d/missingEvidence/%d", canonicalContractRef, i, j))},
			m{"kind", str("missing-evidence")},
			m{"detail", str(gap)},
			m{"currentDisposition", str(disposition)},
			m{"recommendedAction", str(actionProvideEvidence)},
		))
	}
	for k := range cp.Inputs {
		in := &cp.Inputs[k]
		tr := in.TargetRequiredness
		if tr == nil || tr.Status != contract.TargetRequirednessUnproven {
			continue
		}
		provider := ""
		if tr.NormalProvider != nil {
			provider = tr.NormalProvider.CapabilityID
		}
		items = append(items, object(
			m{"issueRef", str(fmt.Sprintf("%s#/capabilities/%d/inputs/%d/targetRequiredness", canonicalContractRef, i, k))},
			m{"kind", str("target-requiredness-unproven")},
			m{"inputName", str(in.Name)},
			m{"providerCapabilityId", str(provider)},
			m{"currentDisposition", str(disposition)},
			m{"recommendedAction", str(actionProvideEvidence)},
		))
	}
	for _, k := range unresolvedConflicts(c, cp.ID) {
		cf := &c.Conflicts[k]
		item := object(
			m{"issueRef", str(fmt.Sprintf("%s#/conflicts/%d", canonicalContractRef, k))},
			m{"kind", str("unresolved-conflict")},
			m{"conflictId", str(cf.ID)},
		)
		if cf.HasClaim {
			item.Set("claim", str(cf.Claim))
		}
		item.Set("currentDisposition", str(disposition))
		item.Set("recommendedAction", str(actionResolveConflict))
		items = append(items, item)
	}
	hostItems := func(kind, list string, ids []string) {
		for j, id := range ids {
			items = append(items, object(
				m{"issueRef", str(fmt.Sprintf("%s#/capabilityAssessments/%d/%s/%d", hostCompatibilityRef, i, list, j))},
				m{"kind", str(kind)},
				m{"requirementId", str(id)},
				m{"compatibilityStatus", str(host.status)},
				m{"currentDisposition", str(host.status)},
				m{"recommendedAction", str(actionConfigureHost)},
			))
		}
	}
	hostItems("missing-host-requirement", "missingRequirementIds", host.missing)
	hostItems("external-host-integration", "externalIntegrationRequirementIds", host.external)
	return items
}

// verificationChecks lists the checks a capability's verification must run:
// the minimum derived from the contract (behaviour checks sorted, then
// runtime checks sorted), then the capability's declared checks as written,
// except those already listed.
func verificationChecks(c *contract.Contract, cp *contract.Capability) canonjson.Array {
	behavior, runtime := minimumChecks(c, cp)
	type key struct{ id, phase string }
	var listed []key
	out := canonjson.Array{}
	for _, set := range []struct {
		phase string
		ids   []string
	}{{contract.PhaseBehavior, behavior}, {contract.PhaseRuntime, runtime}} {
		for _, id := range set.ids {
			listed = append(listed, key{id, set.phase})
			out = append(out, object(m{"checkId", str(id)}, m{"phase", str(set.phase)}))
		}
	}
	for _, chk := range cp.VerificationChecks {
		k := key{chk.ID, chk.Phase}
		if slices.Contains(listed, k) {
			continue
		}
		listed = append(listed, k)
		out = append(out, chk.Raw)
	}
	return out
}
