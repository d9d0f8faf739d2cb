package vectors

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
)

// Bypass checks of a deterministic workflow, proven mechanically on its
// entry Function with a simulated trusted side (phase bypass). What they
// prove: the Function hands its write to the package's own guard, which
// dispatches nothing unless a protected operation matches the call, and the
// properly protected call dispatches exactly once. What they cannot prove:
// that a real Host issues, scopes and consumes protected operations as the
// contract requires; that stays with runtime and Host verification.
const (
	checkBypassUnprotected = "bypass-without-protected-operation-zero-dispatch"
	checkBypassNoGuard     = "bypass-without-workflow-guard-zero-dispatch"
	checkBypassMismatch    = "bypass-binding-mismatch-zero-dispatch"
	checkBypassReused      = "bypass-reused-operation-zero-dispatch"
	checkBypassExpired     = "bypass-expired-operation-zero-dispatch"
)

// workflowChecks returns the bypass checks of a workflow: the mechanical
// ones, then each other declared bypass check, which no vector derives and
// which stays uncovered. A contract may declare the mechanical IDs (each
// names its zero-dispatch promise), and they are then proven here.
func (p *planner) workflowChecks(w *contract.Workflow) []*check {
	var out []*check
	newCheck := func(id, pointer string) *check {
		ch := &check{id: id, phase: contract.PhaseBypass, workflowID: w.ID, pointer: pointer}
		out = append(out, ch)
		return ch
	}
	entry := p.capPlan(w.EntryCapabilityID)
	mechanical := []string{checkBypassUnprotected, checkBypassNoGuard, checkBypassMismatch}
	var t *trusted
	if entry != nil && entry.workflow == w {
		t = entry.trustedSide()
		if t.singleUse {
			mechanical = append(mechanical, checkBypassReused)
		}
		if t.expiresAt != nil {
			mechanical = append(mechanical, checkBypassExpired)
		}
	}
	for _, id := range mechanical {
		ch := newCheck(id, w.At)
		switch {
		case entry == nil || entry.workflow != w:
			ch.uncovered = "the entry capability is not a deterministic-workflow write guarded by this workflow"
			continue
		case entry.argsErr != nil:
			ch.uncovered = "no valid arguments could be made for the entry capability: " + entry.argsErr.Error()
			continue
		}
		control := entry.validCall()
		ch.add("control: the protected call dispatches once", func(j *judge) { entry.accepted(j, control) }, control)
		switch id {
		case checkBypassUnprotected:
			c := entry.validCall()
			c.trusted.protect = false
			ch.add("a guard without the protected operation", func(j *judge) { j.rejected(c) }, c)
		case checkBypassNoGuard:
			c := entry.validCall()
			c.trusted.omitGuard = true
			ch.add("a context without a workflow guard", func(j *judge) { j.rejected(c) }, c)
		case checkBypassMismatch:
			for _, b := range w.Bindings {
				if b.ExpectedSource.Kind != "protected-runtime-state" {
					continue
				}
				c := entry.validCall()
				c.trusted.perturb = b.Name
				ch.add("binding "+b.Name+" does not match the protected value", func(j *judge) { j.rejected(c) }, c)
			}
			if len(ch.vectors) == 1 {
				ch.uncovered = "no binding compares with protected runtime state"
			}
		case checkBypassReused:
			c := entry.validCall()
			c.repeat = 2
			ch.add("the single-use operation called twice", func(j *judge) {
				if !j.that(len(c.runs) == 2, "both calls ran", "%d run(s)", len(c.runs)) {
					return
				}
				r := c.runs[0]
				j.that(r.outcome == outcomeReturned && len(r.dispatches) == 1, "the first call dispatches once", "%s, %d dispatch(es)", outcomeText(r), len(r.dispatches))
				second := &call{runs: c.runs[1:]}
				j.rejected(second)
			}, c)
		case checkBypassExpired:
			c := entry.validCall()
			at := int64(trustedNow)
			c.trusted.expiresAt = &at
			ch.add("the protected operation has expired", func(j *judge) { j.rejected(c) }, c)
		}
	}
	for _, vc := range w.VerificationChecks {
		// A declared check that names a mechanical one is that check.
		if vc.Phase != contract.PhaseBypass || slices.Contains(mechanical, vc.ID) {
			continue
		}
		ch := newCheck(vc.ID, vc.At)
		ch.uncovered = "a declared workflow check that no mechanical vector derives from the contract; " +
			"the bypass-* checks of this workflow prove the guard generically"
	}
	return out
}
