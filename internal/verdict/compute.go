package verdict

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Matrix is the final verification matrix: one row per capability and per
// workflow, and the package's decision.
type Matrix struct {
	ContractID   string
	Capabilities []Row // in contract order
	Workflows    []Row // in contract order
	// Runtime is the delivery runtime status: verified (every capability
	// runtime-verified), partially-verified or not-run.
	Runtime string
	// Decision is the package's approval decision.
	Decision string
}

// Row is the final status of one capability or workflow.
type Row struct {
	ID               string
	BehaviorVerified bool // for a workflow, equal to BypassVerified
	RuntimeVerified  bool
	HostVerified     bool
	BypassVerified   bool // workflows only
	RequiresReview   bool
	Blocked          bool
	Approved         bool
	Reasons          []string
	ReviewItems      canonjson.Array // capabilities only
	// DeployerPolicy is the deployer's policy the row shows; capabilities
	// only, nil when there is none.
	DeployerPolicy *canonjson.Object
	// Checks are the executed checks of every phase, in phase order.
	Checks []PhaseCheck
	// Decision is approved, requires-review or blocked.
	Decision string
}

// PhaseCheck is an executed check and the phase it was executed in.
type PhaseCheck struct {
	Phase string
	Check Check
}

// Delivery runtime statuses.
const (
	RuntimeVerified          = "verified"
	RuntimePartiallyVerified = "partially-verified"
	RuntimeNotRun            = "not-run"
)

// Compute computes the final matrix from evidence that CheckEvidence
// accepted. The findings are the contradictions only the whole evidence
// reveals: a passed runtime phase whose live evidence no check is bound to.
//
// Per workflow (computed first: guarded capabilities depend on it):
//
//	blocked  = any phase failed or blocked
//	bypass   = bypass passed and not blocked (behaviour = bypass)
//	runtime  = bypass verified, runtime passed, the entry capability has
//	           live evidence and a passed runtime check carries the entry
//	           Tool and its digests
//	host     = host passed, every member capability enabled by the Host,
//	           and not blocked
//	approved = bypass, runtime and host, and no reason left
//
// Per capability:
//
//	blocked  = baseline blocked (readiness blocked) or any phase failed or
//	           blocked; it clears every verified flag
//	behavior = behavior passed
//	runtime  = behavior verified, runtime passed, live evidence exists and
//	           a passed runtime check carries the capability's Tool and the
//	           live digests, and, for a guarded write, every guarding
//	           workflow bypass- and runtime-verified; never for a write
//	           whose protection is unresolved
//	host     = host passed and the capability enabled by the Host
//	approved = behavior, runtime, host (when required), not blocked, no
//	           reason that blocks approval (readiness, missing evidence or
//	           checks, incomplete evidence coverage, Host restrictions,
//	           conflicts, declared reasons), not unresolved, and every
//	           guarding workflow approved
//	reasons  = for a guarded write, what its workflow rows await:
//	           workflow-bypass-verification-pending while one is not
//	           bypass-verified, constrained-workflow-approval-pending while
//	           one is bypass-verified but not approved
//
// requiresReview is neither blocked nor approved. A row's decision is
// blocked, requires-review or approved; the package is approved when every
// row is, partially approved when some are, else requires-review when any
// row is, else blocked.
func Compute(b *Baseline, ev *Evidence) (*Matrix, []diag.Diagnostic) {
	m := &Matrix{ContractID: b.ContractID}
	var problems []diag.Diagnostic
	for j := range b.Workflows {
		row, ps := workflowRow(b, ev, j)
		m.Workflows = append(m.Workflows, row)
		problems = append(problems, ps...)
	}
	runtime := 0
	for i := range b.Capabilities {
		row, ps := capabilityRow(b, ev, m, i)
		m.Capabilities = append(m.Capabilities, row)
		problems = append(problems, ps...)
		if row.RuntimeVerified {
			runtime++
		}
	}
	switch {
	case runtime > 0 && runtime == len(m.Capabilities):
		m.Runtime = RuntimeVerified
	case runtime > 0:
		m.Runtime = RuntimePartiallyVerified
	default:
		m.Runtime = RuntimeNotRun
	}
	m.Decision = packageDecision(m)
	return m, problems
}

// workflowRow computes the row of the j-th workflow.
func workflowRow(b *Baseline, ev *Evidence, j int) (Row, []diag.Diagnostic) {
	w := &b.Workflows[j]
	r := recordOf(ev.Workflows, j, w.ID, WorkflowPhases)
	out := Row{ID: w.ID, Checks: checksOf(r)}
	o := outcomes(r)
	out.Blocked = slices.ContainsFunc(o[:], func(x Outcome) bool { return x == Failed || x == Blocked })
	out.BypassVerified = o[0] == Passed && !out.Blocked
	out.BehaviorVerified = out.BypassVerified

	var problems []diag.Diagnostic
	if w.Entry >= 0 {
		entry := &b.Capabilities[w.Entry]
		bound, p := runtimeBound(ev, r, entry.ID, entry.ToolName)
		problems = append(problems, p...)
		// A runtime proof counts only on top of a proven bypass.
		out.RuntimeVerified = bound && out.BypassVerified
	}
	enabled := len(w.Members) > 0 && !slices.ContainsFunc(w.Members, func(k int) bool {
		return b.Capabilities[k].HostStatus != hostEnabled
	})
	out.HostVerified = o[2] == Passed && enabled && !out.Blocked

	out.Reasons = failureReasons(r, o)
	if !enabled {
		out.Reasons = append(out.Reasons, ReasonHostRestricted)
	}
	if missingChecks(r, o, w.Expected) {
		out.Reasons = append(out.Reasons, ReasonChecksPending)
	}
	out.Reasons = append(out.Reasons, pendingReasons(r, o, out.Blocked, out.BypassVerified, out.RuntimeVerified, out.HostVerified)...)
	out.Approved = out.BypassVerified && out.RuntimeVerified && out.HostVerified && len(out.Reasons) == 0
	out.RequiresReview = !out.Blocked && !out.Approved
	out.Decision = rowDecision(&out)
	return out, problems
}

// capabilityRow computes the row of the i-th capability; the workflow rows
// of m are already computed.
func capabilityRow(b *Baseline, ev *Evidence, m *Matrix, i int) (Row, []diag.Diagnostic) {
	cb := &b.Capabilities[i]
	r := recordOf(ev.Capabilities, i, cb.ID, CapabilityPhases)
	out := Row{ID: cb.ID, Checks: checksOf(r), ReviewItems: cb.ReviewItems, DeployerPolicy: cb.DeployerPolicy}
	o := outcomes(r)
	out.Blocked = cb.Blocked || slices.ContainsFunc(o[:], func(x Outcome) bool { return x == Failed || x == Blocked })
	out.BehaviorVerified = o[0] == Passed && !out.Blocked

	bound, problems := runtimeBound(ev, r, cb.ID, cb.ToolName)
	// A runtime proof counts only on top of proven behaviour.
	out.RuntimeVerified = bound && out.BehaviorVerified
	workflowsReady, workflowsApproved := len(cb.Workflows) > 0, len(cb.Workflows) > 0
	// What the guarding workflows still await, as their rows say it: a
	// bypass not verified, or approval of a bypass-verified one.
	bypassPending, approvalPending := false, false
	for _, j := range cb.Workflows {
		w := &m.Workflows[j]
		workflowsReady = workflowsReady && w.BypassVerified && w.RuntimeVerified
		workflowsApproved = workflowsApproved && w.Approved
		bypassPending = bypassPending || !w.BypassVerified
		approvalPending = approvalPending || w.BypassVerified && !w.Approved
	}
	if cb.Guarded && !workflowsReady {
		out.RuntimeVerified = false
	}
	if cb.Unresolved {
		// Nobody is known to protect the write: a call that happened to
		// succeed proves nothing about running it safely.
		out.RuntimeVerified = false
	}
	out.HostVerified = o[2] == Passed && cb.HostStatus == hostEnabled && !out.Blocked

	out.Reasons = slices.Clone(cb.Reasons)
	out.Reasons = append(out.Reasons, failureReasons(r, o)...)
	missing := missingChecks(r, o, cb.Expected)
	if missing {
		out.Reasons = append(out.Reasons, ReasonChecksPending)
	}
	if cb.Guarded {
		switch {
		case len(cb.Workflows) == 0:
			out.Reasons = append(out.Reasons, ReasonWorkflowMissing)
		default:
			if bypassPending {
				out.Reasons = append(out.Reasons, ReasonBypassPending)
			}
			if approvalPending {
				out.Reasons = append(out.Reasons, ReasonWorkflowApprovalPending)
			}
		}
	}
	out.Reasons = append(out.Reasons, pendingReasons(r, o, out.Blocked, out.BehaviorVerified, out.RuntimeVerified, out.HostVerified)...)

	review := cb.Review || missing || slices.ContainsFunc(out.Reasons, func(s string) bool { return !IsTransient(s) })
	hostGate := !cb.HostRequired || out.HostVerified
	out.Approved = out.BehaviorVerified && out.RuntimeVerified && hostGate && !out.Blocked && !review &&
		!cb.Unresolved && (!cb.Guarded || workflowsApproved)
	out.RequiresReview = !out.Blocked && !out.Approved
	out.Decision = rowDecision(&out)
	return out, problems
}

// recordOf returns the i-th record, or a record whose phases did not run.
func recordOf(records []Record, i int, id string, phases [3]string) *Record {
	if i < len(records) {
		return &records[i]
	}
	r := notRun(id, phases)
	return &r
}

func outcomes(r *Record) [3]Outcome {
	var o [3]Outcome
	for k := range r.Phases {
		o[k] = r.Phases[k].Outcome()
	}
	return o
}

func checksOf(r *Record) []PhaseCheck {
	var out []PhaseCheck
	for k := range r.Phases {
		for _, c := range r.Phases[k].Checks {
			out = append(out, PhaseCheck{r.Phases[k].Name, c})
		}
	}
	return out
}

// runtimeBound reports whether the record's runtime phase passed with live
// evidence of capability id that a passed runtime check of tool carries. A
// passed phase with live evidence but no such check is a contradiction.
func runtimeBound(ev *Evidence, r *Record, id, tool string) (bool, []diag.Diagnostic) {
	p := &r.Phases[1]
	if p.Outcome() != Passed {
		return false, nil
	}
	live, ok := ev.Live[id]
	if !ok {
		return false, nil
	}
	for _, c := range p.Checks {
		if c.Passed() && c.ToolName == tool && c.InputHash == live.InputHash && c.ResultHash == live.ResultHash {
			return true, nil
		}
	}
	d := RuleLiveMismatch.New(ev.File,
		"the runtime phase of %s passed, but no passed runtime check of Tool %q carries the live digests (input %s, result %s)",
		r.ID, tool, live.InputHash, live.ResultHash).AtPointer(p.pointer(r))
	return false, []diag.Diagnostic{d}
}

// failureReasons names the phases that failed or were blocked.
func failureReasons(r *Record, o [3]Outcome) []string {
	var out []string
	for k, x := range o {
		switch x {
		case Failed:
			out = append(out, reasonStem(r.Phases[k].Name)+failedSuffix)
		case Blocked:
			out = append(out, reasonStem(r.Phases[k].Name)+blockedSuffix)
		}
	}
	return out
}

// pendingReasons names the phases not verified yet and still awaiting
// verification: not one that failed or was blocked (its failure reason
// says so), nor one that passed in a blocked row (the block, not the
// phase, keeps it from counting), so that a row never says both that a
// phase failed and that it is pending.
func pendingReasons(r *Record, o [3]Outcome, blocked bool, verified ...bool) []string {
	var out []string
	for k, v := range verified {
		switch {
		case v, o[k] == Failed, o[k] == Blocked, o[k] == Passed && blocked:
			continue
		}
		out = append(out, reasonStem(r.Phases[k].Name)+pendingSuffix)
	}
	return out
}

// missingChecks reports whether an expected check has not passed in a phase
// that did not pass (a passed phase lacking one is a finding of
// CheckEvidence).
func missingChecks(r *Record, o [3]Outcome, expected []CheckRef) bool {
	for k := range r.Phases {
		if o[k] == Passed {
			continue
		}
		passed := r.Phases[k].passedIDs()
		for _, e := range expected {
			if e.Phase == r.Phases[k].Name && !passed[e.ID] {
				return true
			}
		}
	}
	return false
}

func rowDecision(r *Row) string {
	switch {
	case r.Blocked:
		return DecisionBlocked
	case r.RequiresReview:
		return DecisionRequiresReview
	}
	return DecisionApproved
}

// packageDecision summarises the rows: approved when every row is approved,
// partially approved when some are, requires-review when any row awaits
// review, blocked otherwise.
func packageDecision(m *Matrix) string {
	rows := slices.Concat(m.Capabilities, m.Workflows)
	approved, review := 0, false
	for _, r := range rows {
		switch r.Decision {
		case DecisionApproved:
			approved++
		case DecisionRequiresReview:
			review = true
		}
	}
	switch {
	case approved == len(rows):
		return DecisionApproved
	case approved > 0:
		return DecisionPartiallyApproved
	case review:
		return DecisionRequiresReview
	}
	return DecisionBlocked
}
