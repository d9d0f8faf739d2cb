package verdict_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsonschema"
	"github.com/code2skill/code2skill/internal/verdict"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// The reference capabilities and workflows.
const (
	listKinds = "list-sample-request-kinds" // read
	upload    = "upload-sample-attachment"  // write guarded by its workflow, Host-approved attachment
	validate  = "validate-sample-request"   // read
	saveDraft = "save-sample-draft"         // backend-authoritative write
	submit    = "submit-sample-request"     // write guarded by its workflow
)

func TestBaselineReference(t *testing.T) {
	b := verdicttest.Baseline(t, verdicttest.Inputs(t))
	if b.ContractID != "synthetic-sample-request" || len(b.Capabilities) != 5 || len(b.Workflows) != 2 {
		t.Fatalf("baseline %s: %d capabilities, %d workflows", b.ContractID, len(b.Capabilities), len(b.Workflows))
	}
	byID := map[string]verdict.CapabilityBase{}
	for _, c := range b.Capabilities {
		byID[c.ID] = c
	}
	// Minimum checks come first, then the declared ones, which default to
	// the behavior phase.
	list := byID[listKinds]
	if !slices.Contains(list.Expected, verdict.CheckRef{ID: "valid-input-and-output-contract", Phase: "behavior"}) ||
		!slices.Contains(list.Expected, verdict.CheckRef{ID: "identity-change-invalidates-selection-grants", Phase: "behavior"}) {
		t.Errorf("expected checks of %s: %v", listKinds, list.Expected)
	}
	if list.Guarded || list.HostStatus != "enabled" || !list.HostRequired || list.Mode != "" {
		t.Errorf("%s: %+v", listKinds, list)
	}
	up := byID[upload]
	if !up.Guarded || !up.AttachmentRuntime || len(up.ContentBindings) != 1 || up.HostStatus != "requires-host-integration" ||
		!slices.Contains(up.Reasons, verdict.ReasonHostRestricted) || len(up.ReviewItems) != 2 {
		t.Errorf("%s: %+v", upload, up)
	}
	if !slices.Contains(up.Expected, verdict.CheckRef{ID: verdict.AttachmentRuntimeCheck, Phase: "runtime"}) {
		t.Errorf("%s must run the attachment runtime vector: %v", upload, up.Expected)
	}
	if d := byID[saveDraft]; d.Guarded || d.Mode != "backend-authoritative" || len(d.Workflows) != 0 {
		t.Errorf("%s: %+v", saveDraft, d)
	}
	for _, w := range b.Workflows {
		if b.Capabilities[w.Entry].ID != w.ID || len(w.Members) != 1 || len(w.Expected) == 0 || w.Expected[0].Phase != "bypass" {
			t.Errorf("workflow %+v", w)
		}
	}
	// Pending reasons are not part of the baseline: verification decides them.
	for _, c := range b.Capabilities {
		for _, r := range c.Reasons {
			if verdict.IsTransient(r) {
				t.Errorf("%s keeps transient reason %s", c.ID, r)
			}
		}
	}
}

// compute runs CheckEvidence and Compute and fails the test on findings.
func compute(t *testing.T, b *verdict.Baseline, ev *verdict.Evidence) *verdict.Matrix {
	t.Helper()
	if ps := verdict.CheckEvidence(b, ev); len(ps) > 0 {
		t.Fatalf("evidence findings: %v", ps)
	}
	m, ps := verdict.Compute(b, ev)
	if len(ps) > 0 {
		t.Fatalf("compute findings: %v", ps)
	}
	return m
}

func TestGreenFullHostIsApproved(t *testing.T) {
	in := verdicttest.Inputs(t, verdicttest.FullHost...)
	b := verdicttest.Baseline(t, in)
	g := verdicttest.NewGreen(t, in)
	m := compute(t, b, g.Evidence(t, b))
	for _, r := range slices.Concat(m.Capabilities, m.Workflows) {
		if !r.Approved || r.Decision != "approved" || r.Blocked || r.RequiresReview || len(r.Reasons) != 0 ||
			!r.BehaviorVerified || !r.RuntimeVerified || !r.HostVerified {
			t.Errorf("row %s: %+v", r.ID, r)
		}
	}
	for _, r := range m.Workflows {
		if !r.BypassVerified {
			t.Errorf("workflow %s not bypass-verified", r.ID)
		}
	}
	if m.Decision != "approved" || m.Runtime != "verified" {
		t.Errorf("decision %s, runtime %s", m.Decision, m.Runtime)
	}
}

func TestGreenLimitedHost(t *testing.T) {
	in := verdicttest.Inputs(t)
	b := verdicttest.Baseline(t, in)
	m := compute(t, b, verdicttest.NewGreen(t, in).Evidence(t, b))
	want := map[string]string{
		listKinds: "approved", validate: "approved", saveDraft: "approved",
		// The Host cannot resolve attachments and confirms only through an
		// external integration: full evidence does not make up for that.
		upload: "requires-review", submit: "requires-review",
	}
	for _, r := range m.Capabilities {
		if r.Decision != want[r.ID] {
			t.Errorf("%s: decision %s, want %s (reasons %v)", r.ID, r.Decision, want[r.ID], r.Reasons)
		}
	}
	for _, id := range []string{upload, submit} {
		r := row(t, m, id)
		if r.HostVerified || !r.RuntimeVerified || !slices.Contains(r.Reasons, verdict.ReasonHostRestricted) ||
			!slices.Contains(r.Reasons, verdict.ReasonHostPending) {
			t.Errorf("%s: %+v", id, r)
		}
	}
	for _, w := range m.Workflows {
		if w.HostVerified || w.Decision != "requires-review" || !slices.Contains(w.Reasons, verdict.ReasonHostRestricted) {
			t.Errorf("workflow %s: %+v", w.ID, w)
		}
	}
	if m.Decision != "partially-approved" {
		t.Errorf("decision %s, want partially-approved", m.Decision)
	}
}

func row(t *testing.T, m *verdict.Matrix, id string) verdict.Row {
	t.Helper()
	for _, r := range slices.Concat(m.Capabilities, m.Workflows) {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no row %s", id)
	return verdict.Row{}
}

// rowsJSON returns each row of the matrix's JSON, encoded, by ID.
func rowsJSON(m *verdict.Matrix) map[string]string {
	out := map[string]string{}
	j := m.JSON()
	for _, key := range []string{"capabilities", "workflows"} {
		v, _ := j.Get(key)
		for _, r := range v.(canonjson.Array) {
			o := r.(*canonjson.Object)
			id, ok := o.Get("capabilityId")
			if !ok {
				id, _ = o.Get("workflowId")
			}
			k := string(id.(canonjson.String))
			if key == "workflows" {
				k += "/workflow"
			}
			out[k] = string(canonjson.Encode(o))
		}
	}
	return out
}

// want describes the expected row of the case's subject.
type want struct {
	behavior, runtime, host, blocked, review bool
	decision                                 string
	reasons                                  []string // each must be among the row's reasons
	without                                  []string // none may be
}

func TestStatusRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		// contract patches the reference contract; limitedHost keeps the
		// reference Host profile instead of the full one.
		contract    []contracttest.Op
		limitedHost bool
		// edit breaks the green evidence; baseline edits the baseline.
		edit     func(t *testing.T, g *verdicttest.Green)
		baseline func(b *verdict.Baseline)
		subject  string
		want     want
		// affected rows may change besides the subject; all others must
		// stay exactly as in the green matrix.
		affected []string
	}{
		{
			name:    "behavior not run",
			edit:    func(t *testing.T, g *verdicttest.Green) { g.SetNotRun(t, "capabilities", saveDraft, "behavior") },
			subject: saveDraft,
			// Runtime evidence counts only on top of proven behaviour.
			want: want{host: true, review: true, decision: "requires-review",
				reasons: []string{verdict.ReasonBehaviorPending, verdict.ReasonChecksPending, verdict.ReasonRuntimePending}},
		},
		{
			name:    "failing vectors block only their own capability",
			edit:    func(t *testing.T, g *verdicttest.Green) { g.FailCheck(t, "capabilities", listKinds, "behavior") },
			subject: listKinds,
			// The phases that passed are not pending: the block keeps
			// them from counting, and the failure says why.
			want: want{blocked: true, decision: "blocked",
				reasons: []string{"behavior-verification-failed"},
				without: []string{verdict.ReasonBehaviorPending, verdict.ReasonRuntimePending, verdict.ReasonHostPending}},
		},
		{
			name:    "a failed runtime phase is failed, not pending, and behaviour that passed is not pending",
			edit:    func(t *testing.T, g *verdicttest.Green) { g.FailCheck(t, "capabilities", listKinds, "runtime") },
			subject: listKinds,
			want: want{blocked: true, decision: "blocked",
				reasons: []string{"runtime-verification-failed"},
				without: []string{verdict.ReasonBehaviorPending, verdict.ReasonRuntimePending, verdict.ReasonHostPending}},
		},
		{
			name: "a blocked phase blocks",
			edit: func(t *testing.T, g *verdicttest.Green) {
				g.Phase(t, "capabilities", validate, "host").Set("status", canonjson.String("blocked"))
				g.Report.Set("status", canonjson.String("partial"))
			},
			subject: validate,
			want:    want{blocked: true, decision: "blocked", reasons: []string{"host-verification-blocked"}},
		},
		{
			name: "a failed check fails a phase awaiting review",
			edit: func(t *testing.T, g *verdicttest.Green) {
				g.FailCheck(t, "capabilities", validate, "host")
				g.Phase(t, "capabilities", validate, "host").Set("status", canonjson.String("requires-review"))
			},
			subject: validate,
			want:    want{blocked: true, decision: "blocked", reasons: []string{"host-verification-failed"}},
		},
		{
			name:    "runtime passed without live evidence",
			edit:    func(t *testing.T, g *verdicttest.Green) { g.DropLive(saveDraft) },
			subject: saveDraft,
			want: want{behavior: true, host: true, review: true, decision: "requires-review",
				reasons: []string{verdict.ReasonRuntimePending}, without: []string{verdict.ReasonChecksPending}},
		},
		{
			name:    "host not run",
			edit:    func(t *testing.T, g *verdicttest.Green) { g.SetNotRun(t, "capabilities", listKinds, "host") },
			subject: listKinds,
			want:    want{behavior: true, runtime: true, review: true, decision: "requires-review", reasons: []string{verdict.ReasonHostPending}},
		},
		{
			name:        "host passed but the Host does not enable the capability",
			limitedHost: true,
			subject:     upload,
			want: want{behavior: true, runtime: true, review: true, decision: "requires-review",
				reasons: []string{verdict.ReasonHostRestricted, verdict.ReasonHostPending}},
			affected: []string{submit, upload + "/workflow", submit + "/workflow"},
		},
		{
			name: "readiness requires review",
			contract: []contracttest.Op{
				contracttest.Set("/capabilities/3/readiness", `"requires-review"`),
				contracttest.Set("/capabilities/3/missingEvidence", `["backend idempotency proof"]`),
			},
			subject: saveDraft,
			want: want{behavior: true, runtime: true, host: true, review: true, decision: "requires-review",
				reasons: []string{"missing-evidence", "canonical-readiness-requires-review"}},
		},
		{
			name:     "readiness blocked",
			contract: []contracttest.Op{contracttest.Set("/capabilities/0/readiness", `"blocked"`)},
			subject:  listKinds,
			want:     want{blocked: true, decision: "blocked"},
			// A blocked capability is blocked for the Host too: the goals'
			// and capabilities' compatibility change with it.
			affected: []string{validate},
		},
		{
			name:     "declared reasons block approval",
			contract: []contracttest.Op{contracttest.Set("/capabilities/3/reasons", `["awaiting-legal-review"]`)},
			subject:  saveDraft,
			want: want{behavior: true, runtime: true, host: true, review: true, decision: "requires-review",
				reasons: []string{"awaiting-legal-review"}},
		},
		{
			name:    "guarded write whose workflow bypass did not run",
			edit:    func(t *testing.T, g *verdicttest.Green) { g.SetNotRun(t, "workflows", submit, "bypass") },
			subject: submit,
			want: want{behavior: true, host: true, review: true, decision: "requires-review",
				reasons: []string{verdict.ReasonBypassPending, verdict.ReasonRuntimePending},
				without: []string{verdict.ReasonWorkflowApprovalPending}},
			affected: []string{submit + "/workflow"},
		},
		{
			name:    "guarded write whose workflow passed its bypass but awaits runtime",
			edit:    func(t *testing.T, g *verdicttest.Green) { g.SetNotRun(t, "workflows", submit, "runtime") },
			subject: submit,
			want: want{behavior: true, host: true, review: true, decision: "requires-review",
				reasons: []string{verdict.ReasonWorkflowApprovalPending, verdict.ReasonRuntimePending},
				without: []string{verdict.ReasonBypassPending}},
			affected: []string{submit + "/workflow"},
		},
		{
			name:    "a failed bypass blocks the workflow, not its write",
			edit:    func(t *testing.T, g *verdicttest.Green) { g.FailCheck(t, "workflows", submit, "bypass") },
			subject: submit + "/workflow",
			want: want{blocked: true, decision: "blocked",
				reasons: []string{"workflow-bypass-verification-failed"}, without: []string{verdict.ReasonBypassPending}},
			affected: []string{submit},
		},
		{
			name:    "workflow runtime needs its entry's live evidence",
			edit:    func(t *testing.T, g *verdicttest.Green) { g.DropLive(upload) },
			subject: upload + "/workflow",
			want: want{behavior: true, host: true, review: true, decision: "requires-review",
				reasons: []string{verdict.ReasonRuntimePending}},
			affected: []string{upload},
		},
		{
			name:     "an unresolved write is never runtime-verified or approved",
			baseline: func(b *verdict.Baseline) { b.Capabilities[3].Unresolved = true },
			subject:  saveDraft,
			want: want{behavior: true, host: true, review: true, decision: "requires-review",
				reasons: []string{verdict.ReasonRuntimePending}},
		},
		{
			name: "a guarded write without a workflow",
			baseline: func(b *verdict.Baseline) {
				b.Capabilities[3].Guarded = true
			},
			subject: saveDraft,
			want: want{behavior: true, host: true, review: true, decision: "requires-review",
				reasons: []string{verdict.ReasonWorkflowMissing, verdict.ReasonRuntimePending}},
		},
		{
			name: "Host verification is optional only where nothing requires it",
			baseline: func(b *verdict.Baseline) {
				b.Capabilities[0].HostRequired = false
			},
			edit:    func(t *testing.T, g *verdicttest.Green) { g.SetNotRun(t, "capabilities", listKinds, "host") },
			subject: listKinds,
			want:    want{behavior: true, runtime: true, decision: "approved", reasons: []string{verdict.ReasonHostPending}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hostOps []contracttest.Op
			if !tc.limitedHost {
				hostOps = verdicttest.FullHost
			}
			greenIn := verdicttest.Inputs(t, verdicttest.FullHost...)
			greenB := verdicttest.Baseline(t, greenIn)
			green := compute(t, greenB, verdicttest.NewGreen(t, greenIn).Evidence(t, greenB))

			in := verdicttest.PatchedInputs(t, tc.contract, hostOps)
			b := verdicttest.Baseline(t, in)
			if tc.baseline != nil {
				tc.baseline(b)
			}
			g := verdicttest.NewGreen(t, in)
			if tc.edit != nil {
				tc.edit(t, g)
			}
			m := compute(t, b, g.Evidence(t, b))
			workflowReasonsAgree(t, b, m)

			id := strings.TrimSuffix(tc.subject, "/workflow")
			var r verdict.Row
			if id != tc.subject {
				r = m.Workflows[slices.IndexFunc(m.Workflows, func(w verdict.Row) bool { return w.ID == id })]
			} else {
				r = row(t, m, id)
			}
			got := want{r.BehaviorVerified, r.RuntimeVerified, r.HostVerified, r.Blocked, r.RequiresReview, r.Decision, nil, nil}
			w := tc.want
			if got.behavior != w.behavior || got.runtime != w.runtime || got.host != w.host || got.blocked != w.blocked ||
				got.review != w.review || got.decision != w.decision {
				t.Errorf("%s: got %+v, want %+v (reasons %v)", tc.subject, got, w, r.Reasons)
			}
			if r.Approved != (w.decision == "approved") {
				t.Errorf("%s: approved %v with decision %s", tc.subject, r.Approved, w.decision)
			}
			for _, s := range w.reasons {
				if !slices.Contains(r.Reasons, s) {
					t.Errorf("%s: reasons %v lack %s", tc.subject, r.Reasons, s)
				}
			}
			for _, s := range w.without {
				if slices.Contains(r.Reasons, s) {
					t.Errorf("%s: reasons %v must not include %s", tc.subject, r.Reasons, s)
				}
			}
			// Neighbours keep the status the green evidence gave them.
			before, after := rowsJSON(green), rowsJSON(m)
			for _, cb := range greenB.Capabilities {
				checkUnchanged(t, tc.subject, tc.affected, cb.ID, before, after, false)
			}
			for _, wb := range greenB.Workflows {
				checkUnchanged(t, tc.subject, tc.affected, wb.ID, before, after, true)
			}
		})
	}
}

// workflowReasonsAgree checks that what a guarded write's reasons say of
// its workflows is what the workflow rows say: the bypass is pending exactly
// when some guarding workflow is not bypass-verified, and approval is
// pending exactly when some bypass-verified one is not approved.
func workflowReasonsAgree(t *testing.T, b *verdict.Baseline, m *verdict.Matrix) {
	t.Helper()
	for i, cb := range b.Capabilities {
		bypass, approval := false, false
		for _, j := range cb.Workflows {
			w := &m.Workflows[j]
			bypass = bypass || !w.BypassVerified
			approval = approval || w.BypassVerified && !w.Approved
		}
		r := &m.Capabilities[i]
		if got := slices.Contains(r.Reasons, verdict.ReasonBypassPending); got != bypass {
			t.Errorf("%s: reasons %v say the workflow bypass is pending: %v, the workflow rows: %v", cb.ID, r.Reasons, got, bypass)
		}
		if got := slices.Contains(r.Reasons, verdict.ReasonWorkflowApprovalPending); got != approval {
			t.Errorf("%s: reasons %v say a workflow's approval is pending: %v, the workflow rows: %v", cb.ID, r.Reasons, got, approval)
		}
	}
}

func checkUnchanged(t *testing.T, subject string, affected []string, id string, before, after map[string]string, workflow bool) {
	t.Helper()
	key := id
	if workflow {
		key = id + "/workflow"
	}
	if key == subject || slices.Contains(affected, key) {
		return
	}
	if before[key] != after[key] {
		t.Errorf("%s changed the status of %s:\nbefore %s\nafter  %s", subject, key, before[key], after[key])
	}
}

func TestCheckEvidenceRules(t *testing.T) {
	firstCheck := func(t *testing.T, g *verdicttest.Green, kind, id, phase string) *canonjson.Object {
		checks, _ := g.Phase(t, kind, id, phase).Get("checks")
		return checks.(canonjson.Array)[0].(*canonjson.Object)
	}
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, g *verdicttest.Green)
		rule string
	}{
		{"passed check with a non-zero exit code", func(t *testing.T, g *verdicttest.Green) {
			g.Phase(t, "capabilities", saveDraft, "host").Set("status", canonjson.String("requires-review"))
			firstCheck(t, g, "capabilities", saveDraft, "host").Set("exitCode", canonjson.Int(3))
		}, verdict.RuleExitCode.ID},
		{"check names another phase", func(t *testing.T, g *verdicttest.Green) {
			firstCheck(t, g, "capabilities", saveDraft, "behavior").Set("phase", canonjson.String("runtime"))
		}, verdict.RulePhaseMismatch.ID},
		{"one check claimed by two phases", func(t *testing.T, g *verdicttest.Green) {
			c := firstCheck(t, g, "capabilities", saveDraft, "behavior")
			c2 := canonjson.Clone(c).(*canonjson.Object)
			c2.Delete("phase")
			p := g.Phase(t, "capabilities", saveDraft, "host")
			checks, _ := p.Get("checks")
			p.Set("checks", append(checks.(canonjson.Array), c2))
		}, verdict.RuleCheckReused.ID},
		{"one check claimed by two capabilities", func(t *testing.T, g *verdicttest.Green) {
			c := firstCheck(t, g, "capabilities", saveDraft, "behavior")
			p := g.Phase(t, "capabilities", listKinds, "behavior")
			checks, _ := p.Get("checks")
			p.Set("checks", append(checks.(canonjson.Array), canonjson.Clone(c)))
		}, verdict.RuleCheckReused.ID},
		{"one piece of evidence under another name and command for two capabilities", func(t *testing.T, g *verdicttest.Green) {
			c := canonjson.Clone(firstCheck(t, g, "capabilities", saveDraft, "behavior")).(*canonjson.Object)
			c.Set("name", canonjson.String("renamed"))
			c.Set("checkId", canonjson.String("renamed"))
			c.Set("command", canonjson.String("node --test tests/other.test.mjs"))
			p := g.Phase(t, "capabilities", listKinds, "behavior")
			checks, _ := p.Get("checks")
			p.Set("checks", append(checks.(canonjson.Array), c))
		}, verdict.RuleCheckReused.ID},
		{"one capability's host check copied onto another's host phase", func(t *testing.T, g *verdicttest.Green) {
			c := firstCheck(t, g, "capabilities", saveDraft, "host")
			p := g.Phase(t, "capabilities", listKinds, "host")
			p.Set("checks", canonjson.Array{canonjson.Clone(c)})
		}, verdict.RuleCheckReused.ID},
		{"a capability's evidence reused by a workflow", func(t *testing.T, g *verdicttest.Green) {
			hash, _ := firstCheck(t, g, "capabilities", submit, "host").Get("evidenceHash")
			firstCheck(t, g, "workflows", submit, "host").Set("evidenceHash", hash)
		}, verdict.RuleCheckReused.ID},
		{"runtime check of another Tool", func(t *testing.T, g *verdicttest.Green) {
			firstCheck(t, g, "capabilities", saveDraft, "runtime").Set("toolName", canonjson.String("list_sample_request_kinds"))
		}, verdict.RuleRuntimeBinding.ID},
		{"workflow runtime check of a Tool other than its entry", func(t *testing.T, g *verdicttest.Green) {
			firstCheck(t, g, "workflows", submit, "runtime").Set("toolName", canonjson.String("save_sample_draft"))
		}, verdict.RuleRuntimeBinding.ID},
		{"bypass check that wrote", func(t *testing.T, g *verdicttest.Green) {
			firstCheck(t, g, "workflows", submit, "bypass").Set("zeroExternalWrites", canonjson.Bool(false))
		}, verdict.RuleZeroWrites.ID},
		{"attachment proof edited after hashing", func(t *testing.T, g *verdicttest.Green) {
			proof, _ := firstCheck(t, g, "capabilities", upload, "runtime").Get("attachmentProof")
			proof.(*canonjson.Object).Set("sizeVerified", canonjson.Bool(false))
		}, verdict.RuleAttachmentProof.ID + " /attachmentProof/traceEvidenceHash"},
		{"attachment proof for another target", func(t *testing.T, g *verdicttest.Green) {
			c := firstCheck(t, g, "capabilities", upload, "runtime")
			proof, _ := c.Get("attachmentProof")
			p := proof.(*canonjson.Object)
			p.Set("path", canonjson.Strings([]string{"other"}))
			trace := verdict.TraceDigest(p)
			p.Set("traceEvidenceHash", canonjson.String(trace))
			c.Set("evidenceHash", canonjson.String(trace))
		}, verdict.RuleAttachmentProof.ID + " /attachmentProof"},
		{"attachment check whose evidence is not its proof", func(t *testing.T, g *verdicttest.Green) {
			firstCheck(t, g, "capabilities", upload, "runtime").Set("evidenceHash", canonjson.String(strings.Repeat("a", 64)))
		}, verdict.RuleAttachmentProof.ID + " /evidenceHash"},
		{"attachment proof on a behavior check", func(t *testing.T, g *verdicttest.Green) {
			proof, _ := firstCheck(t, g, "capabilities", upload, "runtime").Get("attachmentProof")
			firstCheck(t, g, "capabilities", saveDraft, "behavior").Set("attachmentProof", canonjson.Clone(proof))
		}, verdict.RuleAttachmentProof.ID},
		{"attachment runtime phase without proof", func(t *testing.T, g *verdicttest.Green) {
			firstCheck(t, g, "capabilities", upload, "runtime").Delete("attachmentProof")
		}, verdict.RuleAttachmentProof.ID},
		{"passed phase missing a required check", func(t *testing.T, g *verdicttest.Green) {
			p := g.Phase(t, "capabilities", saveDraft, "behavior")
			checks, _ := p.Get("checks")
			p.Set("checks", checks.(canonjson.Array)[1:])
		}, verdict.RuleChecksMissing.ID},
		{"passed workflow phase missing a declared check", func(t *testing.T, g *verdicttest.Green) {
			p := g.Phase(t, "workflows", submit, "bypass")
			checks, _ := p.Get("checks")
			p.Set("checks", checks.(canonjson.Array)[1:])
		}, verdict.RuleChecksMissing.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := verdicttest.Inputs(t, verdicttest.FullHost...)
			b := verdicttest.Baseline(t, in)
			g := verdicttest.NewGreen(t, in)
			if ps := verdict.CheckEvidence(b, g.Evidence(t, b)); len(ps) > 0 {
				t.Fatalf("green evidence has findings: %v", ps)
			}
			tc.edit(t, g)
			r, _ := verdict.FromReport(b, "report.json", g.Report)
			r.Evidence.Live = g.Live
			ps := verdict.CheckEvidence(b, r.Evidence)
			// rule is a rule ID, optionally followed by the suffix its
			// finding's pointer must end with.
			rule, suffix, _ := strings.Cut(tc.rule, " ")
			if !slices.ContainsFunc(ps, func(d diagnostic) bool { return d.Rule == rule && strings.HasSuffix(d.Pointer, suffix) }) {
				t.Errorf("want %s, got %v", tc.rule, ps)
			}
			for _, d := range ps {
				if d.File != "report.json" || d.Pointer == "" {
					t.Errorf("finding without location: %v", d)
				}
			}
		})
	}
}

// TestEvidenceIdentity: evidence is identified by its content. A row's check
// may not rest on a package-wide check's evidence; checks of one phase of
// one row may share a piece of evidence (one run proving several checks).
func TestEvidenceIdentity(t *testing.T) {
	in := verdicttest.Inputs(t, verdicttest.FullHost...)
	b := verdicttest.Baseline(t, in)
	g := verdicttest.NewGreen(t, in)
	r, _ := verdict.FromReport(b, "report.json", g.Report)
	global := verdict.DecodeChecks(r.GlobalChecks, "/checks")
	if ps := verdict.CheckEvidence(b, r.Evidence, global...); len(ps) > 0 {
		t.Fatalf("green evidence: %v", ps)
	}

	behavior := &r.Evidence.Capabilities[3].Phases[0]
	behavior.Checks[1].EvidenceHash = behavior.Checks[0].EvidenceHash
	if ps := verdict.CheckEvidence(b, r.Evidence, global...); len(ps) > 0 {
		t.Errorf("two checks of one phase sharing a log: %v", ps)
	}

	behavior.Checks[0].EvidenceHash = global[0].EvidenceHash
	ps := verdict.CheckEvidence(b, r.Evidence, global...)
	if len(ps) != 1 || ps[0].Rule != verdict.RuleCheckReused.ID || !strings.Contains(ps[0].Message, "already claimed at /checks/0") {
		t.Errorf("a row check on a package-wide check's evidence: %v", ps)
	}
}

func TestPassedPhaseWithoutChecks(t *testing.T) {
	in := verdicttest.Inputs(t, verdicttest.FullHost...)
	b := verdicttest.Baseline(t, in)
	ev := verdicttest.NewGreen(t, in).Evidence(t, b)
	// save-sample-draft's runtime phase requires no named check; a passed
	// phase still needs one.
	ev.Capabilities[3].Phases[1].Checks = nil
	ps := verdict.CheckEvidence(b, ev)
	if len(ps) != 1 || ps[0].Rule != verdict.RulePassedPhase.ID || ps[0].Pointer != "/capabilities/3/runtime" {
		t.Errorf("got %v", ps)
	}
}

func TestLiveMismatch(t *testing.T) {
	in := verdicttest.Inputs(t, verdicttest.FullHost...)
	b := verdicttest.Baseline(t, in)
	g := verdicttest.NewGreen(t, in)
	ev := g.Evidence(t, b)
	ev.Live[saveDraft] = verdict.Live{InputHash: strings.Repeat("0", 64), ResultHash: ev.Live[saveDraft].ResultHash}
	m, ps := verdict.Compute(b, ev)
	if len(ps) != 1 || ps[0].Rule != verdict.RuleLiveMismatch.ID || ps[0].Pointer != "/capabilities/3/runtime" {
		t.Fatalf("got %v", ps)
	}
	if row(t, m, saveDraft).RuntimeVerified {
		t.Error("runtime verified against live evidence no check carries")
	}
}

func TestReportRules(t *testing.T) {
	in := verdicttest.Inputs(t)
	b := verdicttest.Baseline(t, in)
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, g *verdicttest.Green)
		rule string
	}{
		{"another contract", func(t *testing.T, g *verdicttest.Green) {
			g.Report.Set("contractId", canonjson.String("other-contract"))
		}, verdict.RuleReportContract.ID},
		{"a capability without record", func(t *testing.T, g *verdicttest.Green) {
			caps, _ := g.Report.Get("capabilities")
			g.Report.Set("capabilities", caps.(canonjson.Array)[1:])
		}, verdict.RuleReportCoverage.ID},
		{"a capability covered twice", func(t *testing.T, g *verdicttest.Green) {
			caps, _ := g.Report.Get("capabilities")
			a := caps.(canonjson.Array)
			g.Report.Set("capabilities", append(a, canonjson.Clone(a[0])))
		}, verdict.RuleReportCoverage.ID},
		{"an undeclared workflow", func(t *testing.T, g *verdicttest.Green) {
			g.Record(t, "workflows", submit).Set("workflowId", canonjson.String("other-workflow"))
		}, verdict.RuleReportCoverage.ID},
		{"passed although a phase did not run", func(t *testing.T, g *verdicttest.Green) {
			g.SetNotRun(t, "capabilities", saveDraft, "host")
			g.Report.Set("status", canonjson.String("passed"))
		}, verdict.RuleReportStatus.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := verdicttest.NewGreen(t, in)
			tc.edit(t, g)
			if vs, err := verdict.ValidateReport(canonjson.Encode(g.Report)); err != nil || len(vs) > 0 {
				t.Fatalf("the edit breaks the schema, not the rule: %v %v", vs, err)
			}
			_, ps := verdict.FromReport(b, "report.json", g.Report)
			if len(ps) == 0 || !slices.ContainsFunc(ps, func(d diagnostic) bool { return d.Rule == tc.rule }) {
				t.Errorf("want %s, got %v", tc.rule, ps)
			}
		})
	}
}

func TestValidateReport(t *testing.T) {
	in := verdicttest.Inputs(t)
	g := verdicttest.NewGreen(t, in)
	data := canonjson.Encode(g.Report)
	if vs, err := verdict.ValidateReport(data); err != nil || len(vs) > 0 {
		t.Fatalf("green report: %v %v", vs, err)
	}
	for _, tc := range []struct {
		name    string
		edit    func(g *verdicttest.Green)
		pointer string
	}{
		{"unknown key", func(g *verdicttest.Green) { g.Report.Set("extra", canonjson.Bool(true)) }, ""},
		{"passed phase with a failed check", func(g *verdicttest.Green) {
			c := g.Phase(t, "capabilities", saveDraft, "behavior")
			checks, _ := c.Get("checks")
			checks.(canonjson.Array)[0].(*canonjson.Object).Set("status", canonjson.String("failed"))
		}, "/capabilities/3/behavior/checks/0/status"},
		{"runtime check without hashes", func(g *verdicttest.Green) {
			c := g.Phase(t, "capabilities", saveDraft, "runtime")
			checks, _ := c.Get("checks")
			checks.(canonjson.Array)[0].(*canonjson.Object).Delete("inputHash")
		}, "/capabilities/3/runtime/checks/0"},
		{"evidence hash not hex", func(g *verdicttest.Green) {
			c := g.Phase(t, "capabilities", saveDraft, "host")
			checks, _ := c.Get("checks")
			checks.(canonjson.Array)[0].(*canonjson.Object).Set("evidenceHash", canonjson.String("ABC"))
		}, "/capabilities/3/host/checks/0/evidenceHash"},
	} {
		g := verdicttest.NewGreen(t, in)
		tc.edit(g)
		vs, err := verdict.ValidateReport(canonjson.Encode(g.Report))
		if err != nil || !slices.ContainsFunc(vs, func(v violation) bool { return v.Pointer == tc.pointer }) {
			t.Errorf("%s: want a violation at %q, got %v %v", tc.name, tc.pointer, vs, err)
		}
	}
}

// TestFromMatrixRecomputes is the property the cross-check rests on: the
// evidence a final matrix records gives back the same matrix, whatever the
// evidence was.
func TestFromMatrixRecomputes(t *testing.T) {
	variants := 0
	for _, hostOps := range [][]contracttest.Op{nil, verdicttest.FullHost} {
		in := verdicttest.Inputs(t, hostOps...)
		b := verdicttest.Baseline(t, in)
		records := []struct{ kind, id string }{
			{"capabilities", listKinds}, {"capabilities", upload}, {"capabilities", validate},
			{"capabilities", saveDraft}, {"capabilities", submit}, {"workflows", upload}, {"workflows", submit},
		}
		edits := []func(t *testing.T, g *verdicttest.Green, kind, id, phase string){
			nil,
			func(t *testing.T, g *verdicttest.Green, kind, id, phase string) { g.SetNotRun(t, kind, id, phase) },
			func(t *testing.T, g *verdicttest.Green, kind, id, phase string) { g.FailCheck(t, kind, id, phase) },
			func(t *testing.T, g *verdicttest.Green, kind, id, phase string) {
				g.Phase(t, kind, id, phase).Set("status", canonjson.String("blocked"))
			},
			func(t *testing.T, g *verdicttest.Green, kind, id, phase string) {
				// Failed although every recorded check passed (a run that
				// timed out): only the row's reasons can say so.
				g.Phase(t, kind, id, phase).Set("status", canonjson.String("failed"))
			},
			func(t *testing.T, g *verdicttest.Green, kind, id, phase string) {
				g.Phase(t, kind, id, phase).Set("status", canonjson.String("requires-review"))
			},
			func(t *testing.T, g *verdicttest.Green, kind, id, phase string) {
				if kind == "capabilities" {
					g.DropLive(id)
				}
			},
		}
		// Every single edit, and pairs of edits on two records.
		n := 0
		for i, r1 := range records {
			for j, r2 := range records[i:] {
				for e1, edit1 := range edits {
					for e2, edit2 := range edits {
						for p := 0; p < 3; p++ {
							n++
							switch {
							case e2 == 0 && j != 0:
								continue // a single edit is tried once per record
							case e2 != 0 && n%23 != 0:
								continue // a deterministic sample of the pairs
							}
							g := verdicttest.NewGreenFrom(t, b)
							if edit1 != nil {
								edit1(t, g, r1.kind, r1.id, phasesOf(r1.kind)[p])
							}
							if edit2 != nil {
								edit2(t, g, r2.kind, r2.id, phasesOf(r2.kind)[(p+1)%3])
							}
							rep, ps := verdict.FromReport(b, "report.json", g.Report)
							if len(ps) > 0 {
								continue
							}
							rep.Evidence.Live = g.Live
							if len(verdict.CheckEvidence(b, rep.Evidence)) > 0 {
								continue
							}
							m1, ps := verdict.Compute(b, rep.Evidence)
							if len(ps) > 0 {
								continue
							}
							variants++
							j1 := canonjson.Encode(m1.JSON())
							doc, err := canonjson.Decode(j1)
							if err != nil {
								t.Fatal(err)
							}
							ev2, ps := verdict.FromMatrix(b, doc, g.Live)
							if len(ps) > 0 {
								t.Fatalf("reading back %s/%s: %v", r1.id, r2.id, ps)
							}
							if ps := verdict.CheckEvidence(b, ev2); len(ps) > 0 {
								t.Fatalf("evidence read back has findings: %v", ps)
							}
							m2, ps := verdict.Compute(b, ev2)
							if len(ps) > 0 {
								t.Fatalf("recomputing: %v", ps)
							}
							if j2 := canonjson.Encode(m2.JSON()); !bytes.Equal(j1, j2) {
								t.Fatalf("edits %d on %s and %d on %s: recomputed matrix differs:\n%s\n---\n%s", e1, r1.id, e2, r2.id, j1, j2)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d variants", variants)
	if variants < 300 {
		t.Errorf("only %d variants exercised", variants)
	}
}

type (
	diagnostic = diag.Diagnostic
	violation  = jsonschema.Violation
)

func phasesOf(kind string) [3]string {
	if kind == "workflows" {
		return verdict.WorkflowPhases
	}
	return verdict.CapabilityPhases
}

func TestFromMatrixRules(t *testing.T) {
	in := verdicttest.Inputs(t)
	b := verdicttest.Baseline(t, in)
	g := verdicttest.NewGreenFrom(t, b)
	m := compute(t, b, g.Evidence(t, b))
	for _, tc := range []struct {
		name    string
		edit    func(doc *canonjson.Object)
		rule    string
		pointer string
	}{
		{"a capability without row", func(doc *canonjson.Object) {
			caps, _ := doc.Get("capabilities")
			doc.Set("capabilities", caps.(canonjson.Array)[1:])
		}, verdict.RuleMatrixRow.ID, "/capabilities"},
		{"a row twice", func(doc *canonjson.Object) {
			caps, _ := doc.Get("capabilities")
			a := caps.(canonjson.Array)
			doc.Set("capabilities", append(a, canonjson.Clone(a[0])))
		}, verdict.RuleMatrixRow.ID, "/capabilities/5/capabilityId"},
		{"an undeclared workflow", func(doc *canonjson.Object) {
			w, _ := canonjson.Resolve(doc, "/workflows/0")
			w.(*canonjson.Object).Set("workflowId", canonjson.String("other"))
		}, verdict.RuleMatrixRow.ID, "/workflows/0/workflowId"},
		{"reasons not a list", func(doc *canonjson.Object) {
			r, _ := canonjson.Resolve(doc, "/capabilities/2")
			r.(*canonjson.Object).Set("reasons", canonjson.String("none"))
		}, verdict.RuleMatrixRow.ID, "/capabilities/2/reasons"},
		{"a check that is not an executed check", func(doc *canonjson.Object) {
			c, _ := canonjson.Resolve(doc, "/capabilities/2/checks/1")
			c.(*canonjson.Object).Set("exitCode", canonjson.String("0"))
		}, verdict.RuleMatrixCheck.ID, "/capabilities/2/checks/1/exitCode"},
		{"a check of no phase of the row", func(doc *canonjson.Object) {
			c, _ := canonjson.Resolve(doc, "/workflows/1/checks/0")
			c.(*canonjson.Object).Set("phase", canonjson.String("behavior"))
		}, verdict.RuleMatrixCheck.ID, "/workflows/1/checks/0/phase"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, _ := canonjson.Decode(canonjson.Encode(m.JSON()))
			tc.edit(doc.(*canonjson.Object))
			_, ps := verdict.FromMatrix(b, doc, g.Live)
			if !slices.ContainsFunc(ps, func(d diagnostic) bool { return d.Rule == tc.rule && d.Pointer == tc.pointer }) {
				t.Errorf("want %s at %s, got %v", tc.rule, tc.pointer, ps)
			}
		})
	}
}
