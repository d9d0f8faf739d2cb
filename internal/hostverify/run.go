package hostverify

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/livecall"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/sample"
)

// Codes the checks expect of the host runtime and the guard.
const (
	codeDeclined        = "HOST_CONFIRMATION_DECLINED"
	codeCancelled       = "HOST_CONFIRMATION_CANCELLED"
	codeUnavailable     = "HOST_CONFIRMATION_UNAVAILABLE"
	codeMissing         = "PROTECTED_OPERATION_MISSING"
	codeUnknown         = "UNKNOWN_DISPATCH_OUTCOME"
	codeReconcileNeeded = "HOST_RECONCILIATION_REQUIRED"
	codeReconcileNo     = "HOST_RECONCILIATION_DECLINED"
)

// run runs the two sessions' checks, then gives each workflow its entry's.
func (v *verifier) run(ctx context.Context) error {
	// The rows a scope leaves out have no expected checks: none of theirs
	// runs, and no session starts that only they would need.
	var caps []contract.Capability
	for _, cp := range v.in.Contract.Capabilities {
		if _, ok := v.expected.Capabilities[cp.ID]; ok {
			caps = append(caps, cp)
		}
	}
	expects := func(cp contract.Capability, ids ...string) bool {
		return slices.ContainsFunc(ids, func(id string) bool { return slices.Contains(v.expected.Capabilities[cp.ID], id) })
	}
	// The later sessions' servers start while the first session's checks
	// run: they are other processes from the start, and need nothing of
	// the first but the values it is issued, which are passed at call time.
	var later, third *starting
	if slices.ContainsFunc(caps, func(cp contract.Capability) bool {
		return expects(cp, CheckIsolation, CheckUnavailable) || expects(cp, CheckUnknownOutcome) && expects(cp, CheckCall) && !v.elicitation
	}) {
		later = v.early(ctx, "host-verification-2", false)
		defer later.discard(v.res)
	}
	if slices.ContainsFunc(caps, func(cp contract.Capability) bool {
		return needsConfirmation(&cp) && expects(cp, CheckIsolation)
	}) {
		third = v.early(ctx, "host-verification-3", true)
		defer third.discard(v.res)
	}
	first, err := v.start(ctx, "host-verification-1", v.elicitation)
	if err != nil {
		return err
	}
	tools, err := first.s.ListTools(ctx)
	if err != nil {
		first.close(v.res)
		return err
	}
	for i := range caps {
		v.profile(&caps[i])
		v.discovery(first, &caps[i], tools)
	}
	var deferred []*contract.Capability // calls the first session cannot make
	for i := range caps {
		cp := &caps[i]
		exp := v.expected.Capabilities[cp.ID]
		if slices.Contains(exp, CheckDecline) {
			if err := v.refused(ctx, first, first.results, cp, CheckDecline, RuleConfirmation, codeDeclined, nil, []string{hostruntime.ConfirmField}); err != nil {
				return err
			}
			if err := v.refused(ctx, first, first.results, cp, CheckCancel, RuleConfirmation, codeCancelled, nil, nil); err != nil {
				return err
			}
		}
		if slices.Contains(exp, CheckUnknownOutcome) {
			if err := v.unknownOutcome(ctx, first, cp); err != nil {
				return err
			}
		}
		if !slices.Contains(exp, CheckCall) {
			continue
		}
		if slices.Contains(exp, CheckUnknownOutcome) && !first.declares {
			// The unknown outcome stopped the write for this session,
			// and without elicitation nobody can state it reconciled.
			deferred = append(deferred, cp)
			continue
		}
		if err := v.call(ctx, first, cp); err != nil {
			return err
		}
	}
	// Values the first session was issued and never used, for the second
	// session to try.
	for i := range caps {
		if slices.Contains(v.expected.Capabilities[caps[i].ID], CheckIsolation) {
			if _, err := v.prepare(ctx, first, &caps[i]); err != nil {
				return err
			}
		}
	}
	issued := maps.Clone(first.results)
	first.close(v.res)
	if later == nil {
		v.workflowChecks()
		return nil
	}

	second, err := later.wait(v.res)
	if err != nil {
		return err
	}
	defer second.close(v.res)
	var confirmed []*contract.Capability // isolation checks that need the user's confirmation
	for i := range caps {
		cp := &caps[i]
		exp := v.expected.Capabilities[cp.ID]
		if slices.Contains(exp, CheckIsolation) {
			if needsConfirmation(cp) {
				confirmed = append(confirmed, cp)
			} else if err := v.refused(ctx, second, issued, cp, CheckIsolation, RuleIsolation, codeMissing, nil, nil); err != nil {
				return err
			}
		}
		if slices.Contains(exp, CheckUnavailable) {
			if err := v.refused(ctx, second, issued, cp, CheckUnavailable, RuleConfirmation, codeUnavailable, nil, nil); err != nil {
				return err
			}
		}
	}
	for _, cp := range deferred {
		if err := v.call(ctx, second, cp); err != nil {
			return err
		}
	}
	if len(confirmed) > 0 {
		// A write that needs the user's confirmation and redeems issued
		// values is refused for its confirmation first in a client without
		// elicitation: its isolation is checked in a third session whose
		// client confirms.
		if third == nil {
			return fmt.Errorf("no third session was started for %d confirmed write(s)", len(confirmed))
		}
		confirming, err := third.wait(v.res)
		if err != nil {
			return err
		}
		defer confirming.close(v.res)
		for _, cp := range confirmed {
			if err := v.refused(ctx, confirming, issued, cp, CheckIsolation, RuleIsolation, codeMissing, []string{hostruntime.ConfirmField}, nil); err != nil {
				return err
			}
		}
	}
	v.workflowChecks()
	return nil
}

// step is one call of a check, as its evidence records it.
type step struct {
	Tool      string
	Arguments *canonjson.Object
	Mode      relayMode
	Result    canonjson.Value
	Code      string // structuredContent.code of an error result
	IsError   bool
	Protocol  string // no result: why
	Relayed   []relayed
	Asked     []canonjson.Value
	// StandIn says why the arguments are not the case's.
	StandIn string
}

// succeeded reports whether a step's result is a Tool success with data
// the capability's success rule accepts (null only without a body).
func (s *step) succeeded(rule *contract.SuccessRule) bool {
	if s.Result == nil || s.IsError {
		return false
	}
	data, ok := canonjson.Resolve(s.Result, "/structuredContent/data")
	if !ok {
		return false
	}
	status, _ := canonjson.Resolve(s.Result, "/structuredContent/status")
	return rule.SuccessDataProblem(status, data) == ""
}

// answer says what a step's result was, for a failure's detail.
func (s *step) answer() string {
	switch {
	case s.Protocol != "":
		return s.Protocol
	case s.IsError:
		return "the error " + cmpOr(s.Code, "without a code")
	}
	return "a success"
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// attempt calls a capability's case in a session, its references resolved
// against from, with the relays in mode and the elicitations answered:
// accept for the fields in accept, decline for those in decline, cancel
// otherwise. A case that cannot be made is reported in why.
func (v *verifier) attempt(ctx context.Context, ss *session, from livecall.Results, cp *contract.Capability, mode relayMode, accept, decline []string) (st *step, why string, err error) {
	args, ok := v.opts.Cases[cp.ID]
	if !ok && slices.ContainsFunc(cp.Inputs, func(in contract.Input) bool { return in.Required }) {
		why = "it has required inputs and no live case"
	}
	resolved, err := from.Resolve(args)
	if err != nil {
		why = "its case cannot be made: " + err.Error()
	}
	standIn := ""
	if why != "" {
		if mode != block {
			return nil, why, nil
		}
		// A call that must be refused before dispatch needs no issued
		// value: the minimal arguments of its schema stand in.
		if resolved, err = sample.Arguments(v.schemas[cp.ID], nil); err != nil {
			return nil, why, nil
		}
		standIn = why + "; the minimal arguments of its input schema stand in"
	}
	if v.opts.Check != nil {
		if bad := v.opts.Check(cp.ID, resolved); bad != "" {
			return nil, "its case breaks the input schema: " + bad, nil
		}
	}
	st = &step{Tool: cp.ToolName, Arguments: resolved, Mode: mode, StandIn: standIn}
	for _, r := range v.relays {
		r.attempt(mode)
	}
	ss.answers(accept, decline)
	if ss.s.Down() {
		st.Protocol = "the server no longer answers: " + firstError(ss.s.Diagnostics())
		return st, "", nil
	}
	began := time.Now()
	answer, err := ss.s.CallTool(ctx, cp.ToolName, json.RawMessage(canonjson.DigestForm(resolved)))
	if err != nil {
		return nil, "", err
	}
	switch {
	case answer == nil:
		st.Protocol = "no answer: " + firstError(ss.s.Diagnostics())
	case answer.Error != nil:
		st.Protocol = fmt.Sprintf("JSON-RPC error %d: %s", answer.Error.Code, answer.Error.Message)
	default:
		if doc, derr := canonjson.Decode(answer.Raw); derr == nil {
			st.Result = doc
			isErr, _ := canonjson.Resolve(doc, "/isError")
			st.IsError = isErr == canonjson.Bool(true)
			st.Code = stringAt(doc, "/structuredContent/code")
		} else {
			st.Protocol = "the result is not JSON: " + derr.Error()
		}
		ss.results.Record(cp.ID, answer.Raw)
	}
	for _, r := range v.relays {
		st.Relayed = append(st.Relayed, r.received()...)
	}
	ss.mu.Lock()
	st.Asked = slices.Clone(ss.asked)
	ss.mu.Unlock()
	if v.opts.Progress != nil {
		fmt.Fprintf(v.opts.Progress, "host-verify: %s %s answered %s in %s (%d request(s) at the relay)\n", ss.label, cp.ToolName,
			st.answer(), time.Since(began).Round(time.Millisecond), len(st.Relayed))
	}
	return st, "", nil
}

// prepare calls the issuer of the capability's workflow, when it has one,
// so that the session holds a protected value the capability's next call
// can redeem. It returns the issuer's step.
func (v *verifier) prepare(ctx context.Context, ss *session, cp *contract.Capability) (*step, error) {
	id := issuer(v.in, cp)
	if id == "" {
		return nil, nil
	}
	is := capability(v.in.Contract, id)
	st, _, err := v.attempt(ctx, ss, ss.results, is, forward, nil, nil)
	return st, err
}

// call is CheckCall: the capability's case, end to end against the
// backend; a write only when the run authorises it. Every request reaches
// the backend, with the credentials of the Tool's authentication and no
// others.
func (v *verifier) call(ctx context.Context, ss *session, cp *contract.Capability) error {
	c := v.newCheck(ss, CheckCall, cp)
	if cp.IsWrite() && !slices.Contains(v.opts.AuthorizedWrites, cp.ID) {
		v.skip(c, "it writes, and this run did not authorise it (--authorize-write "+cp.ID+")")
		return nil
	}
	prepared, err := v.prepare(ctx, ss, cp)
	if err != nil {
		return err
	}
	st, why, err := v.attempt(ctx, ss, ss.results, cp, forward, []string{hostruntime.ConfirmField, hostruntime.ReconciledField}, nil)
	if err != nil {
		return err
	}
	if st == nil {
		v.skip(c, why)
		return nil
	}
	v.evidence(c, prepared, st)
	credentials := v.credentialHeaders(cp)
	switch {
	case !st.succeeded(&cp.SuccessRule):
		v.fail(c, RuleCall, "%s answered %s", cp.ToolName, st.answer())
	case len(st.Relayed) == 0:
		v.fail(c, RuleCall, "%s answered a success, and nothing reached the backend", cp.ToolName)
	default:
		for _, r := range st.Relayed {
			switch {
			case !r.Forwarded:
				v.fail(c, RuleCall, "%s %s did not reach the backend", r.Method, r.Path)
			case !slices.Equal(r.Carried, credentials):
				v.fail(c, RuleCall, "%s %s carried the credential headers %q, and %s's authentication needs %q",
					r.Method, r.Path, r.Carried, cp.ToolName, credentials)
			}
		}
		if c.Detail == "" {
			v.pass(c)
		}
	}
	return nil
}

// refused is a check that a call is refused with a code and dispatches
// nothing: the relays block, so nothing reaches the backend either way.
func (v *verifier) refused(ctx context.Context, ss *session, from livecall.Results, cp *contract.Capability, id string, rule *diag.Rule, code string, accept, decline []string) error {
	c := v.newCheck(ss, id, cp)
	st, why, err := v.attempt(ctx, ss, from, cp, block, accept, decline)
	if err != nil {
		return err
	}
	if st == nil {
		v.skip(c, why)
		return nil
	}
	v.evidence(c, nil, st)
	v.zeroDispatch(c, rule, st, code)
	return nil
}

func (v *verifier) zeroDispatch(c *Check, rule *diag.Rule, st *step, code string) {
	switch {
	case len(st.Relayed) > 0:
		v.fail(c, rule, "%s dispatched %d request(s), and must dispatch none (it answered %s)", st.Tool, len(st.Relayed), st.answer())
	case !st.IsError || st.Code != code:
		v.fail(c, rule, "%s answered %s, and must be refused with %s", st.Tool, st.answer(), code)
	default:
		v.pass(c)
	}
}

// unknownOutcome is CheckUnknownOutcome: the write's request is cut off
// unanswered at the relay (nothing reaches the backend), so the write ends
// with an unknown outcome; the next call of the write must then be refused
// before dispatch until the user states it was reconciled, which the
// reference host declines to state.
func (v *verifier) unknownOutcome(ctx context.Context, ss *session, cp *contract.Capability) error {
	c := v.newCheck(ss, CheckUnknownOutcome, cp)
	prepared, err := v.prepare(ctx, ss, cp)
	if err != nil {
		return err
	}
	cut, why, err := v.attempt(ctx, ss, ss.results, cp, drop, []string{hostruntime.ConfirmField}, nil)
	if err != nil {
		return err
	}
	if cut == nil {
		v.skip(c, why)
		return nil
	}
	again, why, err := v.attempt(ctx, ss, ss.results, cp, block, []string{hostruntime.ConfirmField}, []string{hostruntime.ReconciledField})
	if err != nil {
		return err
	}
	if again == nil {
		v.skip(c, why)
		return nil
	}
	v.evidence(c, prepared, cut, again)
	want := codeReconcileNeeded
	if ss.declares {
		want = codeReconcileNo
	}
	switch {
	case !cut.IsError || cut.Code != codeUnknown:
		v.fail(c, RuleUnknownOutcome, "with its request cut off, %s answered %s, not %s", cp.ToolName, cut.answer(), codeUnknown)
	case slices.ContainsFunc(cut.Relayed, func(r relayed) bool { return r.Forwarded }):
		v.fail(c, RuleUnknownOutcome, "a request the relay was to cut off reached the backend")
	default:
		v.zeroDispatch(c, RuleUnknownOutcome, again, want)
	}
	return nil
}

// profile is CheckProfile: every facility the Host profile says it
// supports for the capability is one the reference host provides.
func (v *verifier) profile(cp *contract.Capability) {
	c := &Check{CheckID: CheckProfile, CapabilityID: cp.ID}
	v.res.Checks = append(v.res.Checks, c)
	workflow := v.workflows[cp.WorkflowID]
	var judged, notJudged, over []string
	for _, id := range cp.HostRequirements {
		req, ok := v.in.Contract.Requirement(id)
		if !ok {
			continue
		}
		status, _ := v.in.Host.Status(req.HostCapability)
		ok, why, judges := provides(req.HostCapability, v.elicitation, workflow)
		switch {
		case !judges:
			notJudged = append(notJudged, req.HostCapability)
		case status == contract.HostSupported && !ok:
			over = append(over, req.HostCapability+" ("+why+")")
		default:
			judged = append(judged, req.HostCapability+": "+status)
		}
	}
	c.Evidence = canonjson.NewObject(
		member("host", v.res.Host),
		member("checkId", canonjson.String(c.CheckID)),
		member("capabilityId", canonjson.String(cp.ID)),
		member("facilities", canonjson.Strings(judged)),
		member("notVerifiedHere", canonjson.Strings(notJudged)),
		member("claimsBeyondTheHost", canonjson.Strings(over)),
	)
	if len(over) > 0 {
		v.fail(c, RuleProfile, "%s claims %s supported, which a standard stdio host running the host runtime does not provide",
			contract.HostProfileFile, strings.Join(over, ", "))
		return
	}
	v.pass(c)
}

// discovery is CheckDiscovery: the session's tools/list lists the Tool as
// the contract names and annotates it.
func (v *verifier) discovery(ss *session, cp *contract.Capability, tools []mcpcheck.Tool) {
	c := v.newCheck(ss, CheckDiscovery, cp)
	i := slices.IndexFunc(tools, func(t mcpcheck.Tool) bool { return t.Name == cp.ToolName })
	ev := c.Evidence
	if i < 0 {
		v.fail(c, RuleDiscovery, "tools/list does not list %s", cp.ToolName)
		return
	}
	entry, _ := canonjson.Decode(tools[i].Raw)
	ev.Set("tool", entry)
	want := cp.Annotations.Raw
	got, _ := canonjson.Resolve(entry, "/annotations")
	if !canonjson.Equal(want, got) {
		v.fail(c, RuleDiscovery, "tools/list annotates %s with %s, and the contract says %s", cp.ToolName, canonjson.DigestForm(got), canonjson.DigestForm(want))
		return
	}
	if pv := ss.s.ProtocolVersion(); pv != v.in.Export.ProtocolVersion {
		v.fail(c, RuleDiscovery, "the session speaks protocol %s, and the package %s", pv, v.in.Export.ProtocolVersion)
		return
	}
	v.pass(c)
}

// workflowChecks gives each workflow its entry's checks.
func (v *verifier) workflowChecks() {
	for _, w := range v.in.Contract.Workflows {
		for _, id := range v.expected.Workflows[w.ID] {
			i := slices.IndexFunc(v.res.Checks, func(c *Check) bool { return c.CapabilityID == w.EntryCapabilityID && c.CheckID == id })
			if i < 0 {
				continue
			}
			entry := v.res.Checks[i]
			c := &Check{CheckID: id, WorkflowID: w.ID, Passed: entry.Passed, Skipped: entry.Skipped, Rule: entry.Rule, Detail: entry.Detail}
			if entry.Evidence != nil {
				c.Evidence = canonjson.Clone(entry.Evidence).(*canonjson.Object)
				c.Evidence.Set("workflowId", canonjson.String(w.ID))
			}
			v.res.Checks = append(v.res.Checks, c)
		}
	}
}

func (v *verifier) newCheck(ss *session, id string, cp *contract.Capability) *Check {
	c := &Check{CheckID: id, CapabilityID: cp.ID}
	c.Evidence = canonjson.NewObject(
		member("host", v.res.Host),
		member("session", canonjson.String(ss.label)),
		member("checkId", canonjson.String(id)),
		member("capabilityId", canonjson.String(cp.ID)),
		member("toolName", canonjson.String(cp.ToolName)),
	)
	v.res.Checks = append(v.res.Checks, c)
	return c
}

// evidence records the steps of a check, sanitised.
func (v *verifier) evidence(c *Check, prepared *step, steps ...*step) {
	arr := canonjson.Array{}
	for _, st := range append([]*step{prepared}, steps...) {
		if st == nil {
			continue
		}
		o := canonjson.NewObject(
			member("tool", canonjson.String(st.Tool)),
			member("arguments", sanitized(st.Arguments)),
			member("relay", canonjson.String([]string{"forward", "block", "drop"}[st.Mode])),
		)
		if st.StandIn != "" {
			o.Set("standIn", canonjson.String(st.StandIn))
		}
		if st.Result != nil {
			o.Set("result", sanitized(st.Result))
		} else {
			o.Set("noResult", canonjson.String(st.Protocol))
		}
		asked := canonjson.Array{}
		for _, a := range st.Asked {
			asked = append(asked, sanitized(a))
		}
		o.Set("elicitations", asked)
		rel := canonjson.Array{}
		for _, r := range st.Relayed {
			rel = append(rel, canonjson.NewObject(
				member("method", canonjson.String(r.Method)),
				member("path", canonjson.String(r.Path)),
				member("forwarded", canonjson.Bool(r.Forwarded)),
				member("status", canonjson.Int(r.Status)),
				member("credentialHeaders", canonjson.Strings(r.Carried)),
			))
		}
		o.Set("reachedTheRelay", rel)
		arr = append(arr, o)
	}
	c.Evidence.Set("steps", arr)
}

// credentialHeaders are the credential headers the Tool's requests carry:
// those of its authentication kinds, in the binding's order.
func (v *verifier) credentialHeaders(cp *contract.Capability) []string {
	out := []string{}
	t := v.tools[cp.ID]
	kinds := canonjson.StringsOf(t.At("authentication"))
	var parts []string
	for _, k := range kinds {
		parts = append(parts, contract.CredentialKinds(k)...)
	}
	for _, cr := range v.in.Export.HostRuntime.Credentials {
		if !slices.Contains(parts, cr.Authentication) {
			continue
		}
		h := strings.ToLower(cr.Header)
		if cr.Cookie != "" {
			h = "cookie"
		}
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

func (v *verifier) pass(c *Check) {
	c.Passed = true
	c.Evidence.Set("status", canonjson.String("passed"))
}

func (v *verifier) fail(c *Check, rule *diag.Rule, format string, args ...any) {
	if c.Detail != "" {
		return // the first reason stands
	}
	c.Passed, c.Rule, c.Detail = false, rule, fmt.Sprintf(format, args...)
	c.Evidence.Set("status", canonjson.String("failed"))
	c.Evidence.Set("detail", canonjson.String(c.Detail))
	v.res.Diagnostics.Add(rule.New("", "capability %s: %s: %s", c.CapabilityID, c.CheckID, c.Detail))
}

func (v *verifier) skip(c *Check, why string) {
	c.Skipped = why
	c.Evidence.Set("status", canonjson.String("not-run"))
	c.Evidence.Set("detail", canonjson.String(why))
	v.res.Diagnostics.Add(RuleSkipped.New("", "capability %s: %s did not run: %s", c.CapabilityID, c.CheckID, why))
}

func capability(c *contract.Contract, id string) *contract.Capability {
	for i := range c.Capabilities {
		if c.Capabilities[i].ID == id {
			return &c.Capabilities[i]
		}
	}
	return nil
}

func firstError(l *diag.List) string {
	for _, d := range l.Sorted() {
		if d.Severity == diag.Error {
			return d.Message
		}
	}
	return "no reason was reported"
}
