package verdict

import (
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
)

// Baseline is what the contract and the Host profile say about every
// capability and workflow before any evidence. It is read from the views
// the derive library computes (the baseline verification matrix and the
// Host compatibility report), so that finalize, the cross-check and derive
// agree on reasons, review items and expected checks by construction.
type Baseline struct {
	ContractID   string
	Capabilities []CapabilityBase // in contract order
	Workflows    []WorkflowBase   // in contract order
}

// CapabilityBase is the baseline of one capability.
type CapabilityBase struct {
	ID       string
	ToolName string
	// Mode is runtimeProtection.mode ("" for reads).
	Mode string
	// Review: readiness requires-review or missing evidence declared.
	Review bool
	// Blocked: the baseline row is blocked (readiness blocked).
	Blocked bool
	// HostStatus is the Host compatibility status: enabled,
	// requires-host-integration, disabled or blocked.
	HostStatus string
	// HostRequired: Host verification is part of approval (writes, and
	// any capability with Host requirements).
	HostRequired bool
	// Reasons are the baseline row's reasons that verification cannot
	// remove, followed by the contract's declared reasons.
	Reasons     []string
	ReviewItems canonjson.Array
	// DeployerPolicy is the row's record of the deployer's policy; nil
	// when the capability has none.
	DeployerPolicy *canonjson.Object
	// Expected are the checks verification must run: the minimum derived
	// from the contract, then the declared ones.
	Expected []CheckRef
	// Workflows are the indexes of the workflows that guard the
	// capability: the one its runtimeProtection names and any that lists
	// it as a member.
	Workflows []int
	// Guarded: a deterministic-workflow write, or a member of a workflow;
	// approval then also needs every guarding workflow approved.
	Guarded bool
	// Unresolved: a write whose protection boundary is unresolved; it is
	// never approved.
	Unresolved bool
	// ContentBindings are the attachment targets a Host-approved
	// attachment capability must prove at runtime; nil for others.
	ContentBindings []Target
	// AttachmentRuntime: the capability must run the attachment runtime
	// vector (host-approved-reference attachments).
	AttachmentRuntime bool
}

// WorkflowBase is the baseline of one workflow.
type WorkflowBase struct {
	ID string
	// Entry is the index of the entry capability (-1 when unknown).
	Entry int
	// Members are the indexes of the member capabilities.
	Members  []int
	Expected []CheckRef
}

// CheckRef is an expected check: its ID and phase.
type CheckRef struct {
	ID    string
	Phase string
}

// Target is where resolved attachment content goes in the request.
type Target struct {
	StepID   string
	Location string
	Path     []string
}

// AttachmentRuntimeCheck is the runtime check of a Host-approved attachment
// capability, the only check that may carry an attachment proof.
const AttachmentRuntimeCheck = "attachment-resolution-runtime-vector"

// Reasons a row can carry. The transient ones say what verification has not
// shown yet; the others block approval whatever the evidence.
const (
	ReasonBehaviorPending = "behavior-verification-pending"
	ReasonRuntimePending  = "runtime-verification-pending"
	ReasonHostPending     = "host-verification-pending"
	ReasonChecksPending   = "canonical-verification-checks-pending"
	ReasonBypassPending   = "workflow-bypass-verification-pending"
	// ReasonWorkflowApprovalPending is a guarded write's: a workflow
	// guarding it passed its bypass check but is not approved yet (its own
	// row says what it awaits).
	ReasonWorkflowApprovalPending = "constrained-workflow-approval-pending"
	ReasonHostRestricted          = "host-not-fully-compatible"
	ReasonWorkflowMissing         = "constrained-workflow-missing"
	failedSuffix                  = "-verification-failed"
	blockedSuffix                 = "-verification-blocked"
	pendingSuffix                 = "-verification-pending"
	workflowBypassReasonAt        = "workflow-bypass"
)

// transient reasons are removed once verification shows what they await.
var transient = []string{ReasonBehaviorPending, ReasonRuntimePending, ReasonHostPending, ReasonChecksPending, ReasonBypassPending, ReasonWorkflowApprovalPending}

// IsTransient reports whether a reason only says that verification is
// pending, as opposed to one that blocks approval.
func IsTransient(reason string) bool { return slices.Contains(transient, reason) }

// reasonStem is how a phase's reasons begin: "behavior", "runtime", "host",
// or "workflow-bypass".
func reasonStem(phase string) string {
	if phase == PhaseBypass {
		return workflowBypassReasonAt
	}
	return phase
}

// NewBaseline derives the baseline of a package whose inputs derive.Check
// accepted. views are the inputs' derived views (derive.Derive), or nil to
// derive them here.
func NewBaseline(in *derive.Inputs, views *derive.Derived) *Baseline {
	c := in.Contract
	if views == nil {
		views = derive.Derive(in)
	}
	matrix, compat := canonjson.Value(views.Matrix), canonjson.Value(views.HostCompatibility)
	b := &Baseline{ContractID: c.ContractID}
	for i := range c.Capabilities {
		cp := &c.Capabilities[i]
		row, _ := canonjson.Resolve(matrix, fmt.Sprintf("/capabilities/%d", i))
		status, _ := canonjson.Resolve(compat, fmt.Sprintf("/capabilityAssessments/%d/status", i))
		cb := CapabilityBase{
			ID:             cp.ID,
			ToolName:       cp.ToolName,
			Review:         cp.Readiness == contract.ReadinessRequiresReview || len(cp.MissingEvidence) > 0,
			Blocked:        cp.Readiness == contract.ReadinessBlocked || boolAt(row, "/status/blocked"),
			HostStatus:     stringOf(status),
			HostRequired:   cp.IsWrite() || len(cp.HostRequirements) > 0,
			ReviewItems:    arrayAt(row, "/reviewItems"),
			DeployerPolicy: objectAt(row, "/deployerPolicy"),
			Expected:       expectedChecks(arrayAt(row, "/checks"), PhaseBehavior),
		}
		if p := cp.RuntimeProtection; p != nil && cp.IsWrite() {
			cb.Mode = p.Mode
			cb.Unresolved = p.Mode == contract.ProtectionUnresolved
			cb.Guarded = p.Mode == contract.ProtectionDeterministicWorkflow
		}
		for _, r := range arrayAt(row, "/reasons") {
			if s := stringOf(r); s != "" && !IsTransient(s) {
				cb.Reasons = appendNew(cb.Reasons, s)
			}
		}
		for _, r := range slices.Concat(cp.Reasons, cp.BlockingReasons) {
			cb.Reasons = appendNew(cb.Reasons, r)
		}
		for j := range c.Workflows {
			w := &c.Workflows[j]
			named := cp.RuntimeProtection != nil && cp.RuntimeProtection.WorkflowID == w.ID
			if named || slices.Contains(w.CapabilityIDs, cp.ID) {
				cb.Workflows = append(cb.Workflows, j)
				cb.Guarded = true
			}
		}
		if cp.AttachmentMode() == contract.AttachmentsHostApprovedReference {
			cb.AttachmentRuntime = true
			cb.ContentBindings = []Target{}
			for _, t := range cp.Attachments.ContentBindings {
				cb.ContentBindings = append(cb.ContentBindings, Target{t.StepID, t.Location, t.Path})
			}
		}
		b.Capabilities = append(b.Capabilities, cb)
	}
	for j := range c.Workflows {
		w := &c.Workflows[j]
		wb := WorkflowBase{ID: w.ID, Entry: b.index(w.EntryCapabilityID)}
		for _, id := range w.CapabilityIDs {
			if k := b.index(id); k >= 0 {
				wb.Members = append(wb.Members, k)
			}
		}
		for _, chk := range w.VerificationChecks {
			wb.Expected = appendRef(wb.Expected, CheckRef{chk.ID, chk.Phase})
		}
		b.Workflows = append(b.Workflows, wb)
	}
	return b
}

// index returns the index of a capability, or -1.
func (b *Baseline) index(id string) int {
	return slices.IndexFunc(b.Capabilities, func(c CapabilityBase) bool { return c.ID == id })
}

// expectedChecks reads a baseline row's checks: {checkId, phase} objects,
// and bare IDs, which have the default phase.
func expectedChecks(checks canonjson.Array, defaultPhase string) []CheckRef {
	var out []CheckRef
	for _, v := range checks {
		switch v := v.(type) {
		case canonjson.String:
			out = appendRef(out, CheckRef{string(v), defaultPhase})
		case *canonjson.Object:
			out = appendRef(out, CheckRef{stringMember(v, "checkId"), stringMember(v, "phase")})
		}
	}
	return out
}

func appendRef(refs []CheckRef, r CheckRef) []CheckRef {
	if r.ID == "" || slices.Contains(refs, r) {
		return refs
	}
	return append(refs, r)
}

func appendNew(ss []string, s string) []string {
	if slices.Contains(ss, s) {
		return ss
	}
	return append(ss, s)
}

func boolAt(v canonjson.Value, pointer string) bool {
	x, _ := canonjson.Resolve(v, pointer)
	b, _ := x.(canonjson.Bool)
	return bool(b)
}

func arrayAt(v canonjson.Value, pointer string) canonjson.Array {
	x, _ := canonjson.Resolve(v, pointer)
	a, _ := x.(canonjson.Array)
	return a
}

func objectAt(v canonjson.Value, pointer string) *canonjson.Object {
	x, _ := canonjson.Resolve(v, pointer)
	o, _ := x.(*canonjson.Object)
	return o
}

func stringOf(v canonjson.Value) string {
	s, _ := v.(canonjson.String)
	return string(s)
}
