package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Rules about verification evidence. They hold for a verification report
// and for the checks a final matrix records alike, so finalize and the
// cross-check report the same fact under the same ID.
var (
	RuleExitCode        = diag.Register("EVIDENCE_EXIT_CODE", diag.Error, "a check says it passed but its exit code is not 0")
	RulePhaseMismatch   = diag.Register("EVIDENCE_PHASE_MISMATCH", diag.Error, "a check names a phase other than the phase it is recorded in")
	RuleCheckReused     = diag.Register("EVIDENCE_CHECK_REUSED", diag.Error, "one piece of evidence (the same evidenceHash, whatever the check's name or command) is claimed by two phases, two rows, or a row and a package-wide check")
	RuleRuntimeBinding  = diag.Register("EVIDENCE_RUNTIME_BINDING", diag.Error, "a passed runtime check is not bound to the row's own Tool with input and result digests")
	RuleZeroWrites      = diag.Register("EVIDENCE_ZERO_WRITES", diag.Error, "a passed workflow bypass check does not prove zero external writes")
	RuleAttachmentProof = diag.Register("EVIDENCE_ATTACHMENT_PROOF", diag.Error, "an attachment proof is misplaced, has a wrong trace digest, or a passed attachment runtime phase lacks a proof for a Canonical target")
	RuleChecksMissing   = diag.Register("EVIDENCE_CHECKS_MISSING", diag.Error, "a phase counted as passed lacks a check the contract requires of it")
	RulePassedPhase     = diag.Register("EVIDENCE_PASSED_PHASE", diag.Error, "a phase counted as passed has no check, or a check that did not pass")
	RuleLiveMismatch    = diag.Register("EVIDENCE_LIVE_MISMATCH", diag.Error, "a passed runtime phase has live evidence, but no passed runtime check carries its digests")
)

// CheckEvidence checks the evidence against the baseline: every check in
// the phase it claims, runtime checks bound to the row's own Tool, bypass
// checks proving zero external writes, attachment proofs where they belong
// and with the right digests, no piece of evidence claimed by two rows or
// phases (global are the package-wide checks, whose evidence no row may
// claim either), and every phase counted as passed complete. Compute
// assumes evidence without these findings.
func CheckEvidence(b *Baseline, ev *Evidence, global ...Check) []diag.Diagnostic {
	k := &checker{b: b, ev: ev, seen: map[string]claim{}}
	for i := range global {
		k.claim(&global[i], "the package-wide checks", "package")
	}
	for i := range ev.Capabilities {
		if i < len(b.Capabilities) {
			cb := &b.Capabilities[i]
			k.record(&ev.Capabilities[i], cb.Expected, cb.ToolName, cb)
		}
	}
	for j := range ev.Workflows {
		if j >= len(b.Workflows) {
			continue
		}
		w := &b.Workflows[j]
		tool := ""
		if w.Entry >= 0 {
			tool = b.Capabilities[w.Entry].ToolName
		}
		k.record(&ev.Workflows[j], w.Expected, tool, nil)
	}
	return k.out
}

type checker struct {
	b   *Baseline
	ev  *Evidence
	out []diag.Diagnostic
	// seen maps each piece of evidence (its SHA-256) to its first claim.
	seen map[string]claim
}

// claim is where a piece of evidence was first claimed: the row and phase
// that may reuse it, and the pointer of the check, for the message.
type claim struct {
	owner string // row and phase, "capability:x/behavior"
	at    string
}

func (k *checker) add(rule *diag.Rule, pointer, format string, args ...any) {
	k.out = append(k.out, rule.New(k.ev.File, format, args...).AtPointer(pointer))
}

// claim records that a check rests on its evidence, and reports it when
// another row or phase claimed the same evidence first: evidence is
// identified by its content, so that renaming a check or rewording its
// command never turns one result into two. Checks of one row's phase may
// share a piece of evidence (one test run proving several checks).
func (k *checker) claim(c *Check, where, owner string) {
	if c.EvidenceHash == "" {
		return
	}
	first, dup := k.seen[c.EvidenceHash]
	switch {
	case !dup:
		k.seen[c.EvidenceHash] = claim{owner: owner, at: c.At}
	case first.owner != owner:
		k.add(RuleCheckReused, c.At+"/evidenceHash", "check %q of %s rests on evidence %s already claimed at %s; one result proves one phase of one row",
			c.ID(), where, shortHash(c.EvidenceHash), first.at)
	}
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}

// record checks one record: a capability's, or a workflow's when cb is nil.
// tool is the Tool its runtime checks must call.
func (k *checker) record(r *Record, expected []CheckRef, tool string, cb *CapabilityBase) {
	kind := "workflow"
	if cb != nil {
		kind = "capability"
	}
	for pi := range r.Phases {
		p := &r.Phases[pi]
		for ci := range p.Checks {
			c := &p.Checks[ci]
			if c.Status == StatusPassed && c.ExitCode != 0 {
				k.add(RuleExitCode, c.At, "check %q passed with exit code %d; a passed check exits with 0", c.ID(), c.ExitCode)
			}
			if c.Phase != "" && c.Phase != p.Name {
				k.add(RulePhaseMismatch, c.At+"/phase", "check %q names phase %q but is recorded in the %s phase", c.ID(), c.Phase, p.Name)
			}
			k.claim(c, fmt.Sprintf("the %s phase of %s %s", p.Name, kind, r.ID), kind+":"+r.ID+"/"+p.Name)
			k.binding(r, p, c, tool)
			k.proof(r, p, c, cb)
		}
		if p.Outcome() == Passed {
			k.complete(r, p, expected)
		}
	}
	if cb != nil && cb.AttachmentRuntime {
		if p := &r.Phases[1]; p.Outcome() == Passed {
			k.proofsCover(r, p, cb)
		}
	}
}

// binding checks that a passed runtime check names the row's own Tool with
// both digests, and that a passed bypass check proves zero writes.
func (k *checker) binding(r *Record, p *Phase, c *Check, tool string) {
	if !c.Passed() {
		return
	}
	switch p.Name {
	case PhaseRuntime:
		switch {
		case c.ToolName == "" || c.InputHash == "" || c.ResultHash == "":
			k.add(RuleRuntimeBinding, c.At, "passed runtime check %q of %s must name the Tool it called with inputHash and resultHash", c.ID(), r.ID)
		case c.ToolName != tool:
			k.add(RuleRuntimeBinding, c.At+"/toolName", "passed runtime check %q of %s called Tool %q; only a call of %q verifies this row", c.ID(), r.ID, c.ToolName, tool)
		}
	case PhaseBypass:
		if !c.ProvesZeroWrites() {
			k.add(RuleZeroWrites, c.At, "passed bypass check %q of workflow %s must state zeroExternalWrites: true", c.ID(), r.ID)
		}
	}
}

// proof checks where an attachment proof sits and its trace digest.
func (k *checker) proof(r *Record, p *Phase, c *Check, cb *CapabilityBase) {
	if c.AttachmentProof == nil {
		return
	}
	if cb == nil || !cb.AttachmentRuntime || p.Name != PhaseRuntime || c.CheckID != AttachmentRuntimeCheck {
		k.add(RuleAttachmentProof, c.At+"/attachmentProof",
			"an attachmentProof belongs only to the runtime check %q of a capability with Host-approved attachments", AttachmentRuntimeCheck)
		return
	}
	stored := stringMember(c.AttachmentProof, "traceEvidenceHash")
	trace := TraceDigest(c.AttachmentProof)
	switch {
	case stored != trace:
		k.add(RuleAttachmentProof, c.At+"/attachmentProof/traceEvidenceHash",
			"traceEvidenceHash %s is not the digest of the proof (%s); the proof was edited after it was hashed", stored, trace)
	case c.EvidenceHash != trace:
		k.add(RuleAttachmentProof, c.At+"/evidenceHash",
			"evidenceHash %s of the attachment check must equal the proof's trace digest %s", c.EvidenceHash, trace)
	}
	t := proofTarget(c.AttachmentProof)
	if !slices.ContainsFunc(cb.ContentBindings, func(b Target) bool { return b.equal(t) }) {
		k.add(RuleAttachmentProof, c.At+"/attachmentProof",
			"the proof targets %s, which is not a contentBindings target of %s", t, r.ID)
	}
}

// proofsCover checks that a passed attachment runtime phase proves every
// Canonical content binding.
func (k *checker) proofsCover(r *Record, p *Phase, cb *CapabilityBase) {
	for _, t := range cb.ContentBindings {
		found := slices.ContainsFunc(p.Checks, func(c Check) bool {
			return c.Passed() && c.CheckID == AttachmentRuntimeCheck && c.AttachmentProof != nil && proofTarget(c.AttachmentProof).equal(t)
		})
		if !found {
			k.add(RuleAttachmentProof, p.pointer(r),
				"the passed runtime phase of %s has no attachment proof for the Canonical target %s", r.ID, t)
		}
	}
}

// complete checks a phase counted as passed: at least one check, every
// check passed, every expected check of the phase among them.
func (k *checker) complete(r *Record, p *Phase, expected []CheckRef) {
	if len(p.Checks) == 0 {
		k.add(RulePassedPhase, p.pointer(r), "the %s phase of %s counts as passed but records no check", p.Name, r.ID)
	}
	passed := p.passedIDs()
	var missing []string
	for _, e := range expected {
		if e.Phase == p.Name && !passed[e.ID] {
			missing = append(missing, e.ID)
		}
	}
	if len(missing) > 0 {
		k.add(RuleChecksMissing, p.pointer(r), "the %s phase of %s counts as passed without the required check(s) %s",
			p.Name, r.ID, strings.Join(missing, ", "))
	}
}

// TraceDigest returns the trace digest of an attachment proof: the digest of
// the proof without its traceEvidenceHash member.
func TraceDigest(proof *canonjson.Object) string {
	c := canonjson.Clone(proof).(*canonjson.Object)
	c.Delete("traceEvidenceHash")
	return canonjson.Digest(c)
}

func proofTarget(proof *canonjson.Object) Target {
	t := Target{StepID: stringMember(proof, "stepId"), Location: stringMember(proof, "location")}
	if v, ok := proof.Get("path"); ok {
		if a, ok := v.(canonjson.Array); ok {
			for _, s := range a {
				t.Path = append(t.Path, stringOf(s))
			}
		}
	}
	return t
}

func (t Target) equal(u Target) bool {
	return t.StepID == u.StepID && t.Location == u.Location && slices.Equal(t.Path, u.Path)
}

func (t Target) String() string {
	return fmt.Sprintf("step %q %s %q", t.StepID, t.Location, strings.Join(t.Path, "."))
}
