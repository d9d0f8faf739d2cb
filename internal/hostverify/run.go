package hostverify

import (
	"cmp"
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
	"github.com/code2skill/code2skill/internal/toolresult"
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

// run runs the sessions' script, one named step after another, then gives
// each workflow its entry's checks:
//
//	startAhead         the later sessions' servers start while the first
//	                   session's checks run
//	firstSession       discovery, the confirmation refusals, the unknown
//	                   outcome and the calls, then the values it was issued
//	                   and never used
//	secondSession      isolation and unavailability, each a refusal of the
//	                   first session's values, and the calls the first
//	                   session could not make
//	confirmingSession  the isolation of the writes that need the user's
//	                   confirmation, in a session whose client confirms
func (v *verifier) run(ctx context.Context) error {
	sc := &script{v: v, ctx: ctx}
	defer sc.cleanUp()
	// The rows a scope leaves out have no expected checks: none of theirs
	// runs, and no session starts that only they would need.
	for _, cp := range v.in.Contract.Capabilities {
		if _, ok := v.expected.Capabilities[cp.ID]; ok {
			sc.caps = append(sc.caps, cp)
		}
	}
	sc.startAhead()
	for _, step := range []func() error{sc.firstSession, sc.secondSession, sc.confirmingSession} {
		if err := step(); err != nil {
			return err
		}
	}
	v.workflowChecks()
	return nil
}

// script is one run of the sessions' checks, carried from step to step.
type script struct {
	v    *verifier
	ctx  context.Context
	caps []contract.Capability // the rows in scope, in contract order
	// later and third are the sessions started ahead; nil when no check
	// needs them.
	later, third *starting
	// deferred are the calls the first session cannot make; issued the
	// values the first session was issued, for the second to try.
	deferred []*contract.Capability
	issued   []livecall.Results
	// confirmed are the isolation checks that need the user's
	// confirmation.
	confirmed []*contract.Capability
	// cleanUps close or discard the sessions, last first.
	cleanUps []func()
}

func (sc *script) cleanUp() {
	for i := len(sc.cleanUps) - 1; i >= 0; i-- {
		sc.cleanUps[i]()
	}
}

// expects reports whether one of the checks ids is expected of cp.
func (sc *script) expects(cp *contract.Capability, ids ...string) bool {
	return slices.ContainsFunc(ids, func(id string) bool { return slices.Contains(sc.v.expected.Capabilities[cp.ID], id) })
}

// startAhead starts the later sessions' servers: they are other processes
// from the start, and need nothing of the first session but the values it
// is issued, which are passed at call time.
func (sc *script) startAhead() {
	v := sc.v
	if slices.ContainsFunc(sc.caps, func(cp contract.Capability) bool {
		return sc.expects(&cp, CheckIsolation, CheckUnavailable) || sc.expects(&cp, CheckUnknownOutcome) && sc.expects(&cp, CheckCall) && !v.elicitation
	}) {
		sc.later = v.early(sc.ctx, "host-verification-2", false)
		sc.cleanUps = append(sc.cleanUps, func() { sc.later.discard(v.res) })
	}
	if slices.ContainsFunc(sc.caps, func(cp contract.Capability) bool {
		return needsConfirmation(&cp) && sc.expects(&cp, CheckIsolation)
	}) {
		sc.third = v.early(sc.ctx, "host-verification-3", true)
		sc.cleanUps = append(sc.cleanUps, func() { sc.third.discard(v.res) })
	}
}

// firstSession runs the first session: what its clients list, each
// capability's profile and discovery, its checks and calls, and the values
// it was issued for the second session to try.
func (sc *script) firstSession() error {
	v := sc.v
	first, err := v.start(sc.ctx, "host-verification-1", v.elicitation)
	if err != nil {
		return err
	}
	defer first.close(v.res)
	v.res.Host = v.host()
	if err := sc.discover(first); err != nil {
		return err
	}
	for i := range sc.caps {
		if err := sc.firstChecks(first, &sc.caps[i]); err != nil {
			return err
		}
	}
	// Values the first session was issued and never used, for the second
	// session to try.
	for i := range sc.caps {
		if sc.expects(&sc.caps[i], CheckIsolation) {
			if _, err := v.prepare(sc.ctx, first, &sc.caps[i]); err != nil {
				return err
			}
		}
	}
	for _, r := range first.results() {
		sc.issued = append(sc.issued, maps.Clone(r))
	}
	return nil
}

// discover lists the first session's Tools through each of its clients,
// keeps the output schemas the first client lists, and runs each
// capability's profile and discovery checks.
func (sc *script) discover(first *session) error {
	v := sc.v
	tools := make([][]mcpcheck.Tool, len(first.peers))
	for i, p := range first.peers {
		var err error
		if tools[i], err = p.conn.listTools(sc.ctx); err != nil {
			return err
		}
	}
	v.listed = map[string]canonjson.Value{}
	for _, t := range tools[0] {
		if entry, err := canonjson.Decode(t.Raw); err == nil {
			v.listed[t.Name], _ = canonjson.Resolve(entry, "/outputSchema")
		}
	}
	for i := range sc.caps {
		v.profile(&sc.caps[i])
		v.discovery(first, &sc.caps[i], tools)
	}
	return nil
}

// firstChecks runs a capability's checks of the first session: the
// confirmation declined and cancelled, the unknown outcome, and its call,
// unless the unknown outcome stopped the write for this session.
func (sc *script) firstChecks(first *session, cp *contract.Capability) error {
	v := sc.v
	if sc.expects(cp, CheckDecline) {
		if err := v.refused(sc.ctx, first, first.results(), cp, CheckDecline, RuleConfirmation, codeDeclined, nil, []string{hostruntime.ConfirmField}); err != nil {
			return err
		}
		if err := v.refused(sc.ctx, first, first.results(), cp, CheckCancel, RuleConfirmation, codeCancelled, nil, nil); err != nil {
			return err
		}
	}
	if sc.expects(cp, CheckUnknownOutcome) {
		if err := v.unknownOutcome(sc.ctx, first, cp); err != nil {
			return err
		}
	}
	if !sc.expects(cp, CheckCall) {
		return nil
	}
	if sc.expects(cp, CheckUnknownOutcome) && !first.declares {
		// The unknown outcome stopped the write for this session, and
		// without elicitation nobody can state it reconciled.
		sc.deferred = append(sc.deferred, cp)
		return nil
	}
	return v.call(sc.ctx, first, cp)
}

// secondSession runs the second session: each isolation check that needs
// no confirmation and each unavailability check, refusing the values the
// first session was issued, then the calls the first could not make.
func (sc *script) secondSession() error {
	if sc.later == nil {
		return nil
	}
	v := sc.v
	second, err := sc.later.wait(v.res)
	if err != nil {
		return err
	}
	sc.cleanUps = append(sc.cleanUps, func() { second.close(v.res) })
	for i := range sc.caps {
		cp := &sc.caps[i]
		if sc.expects(cp, CheckIsolation) {
			if needsConfirmation(cp) {
				sc.confirmed = append(sc.confirmed, cp)
			} else if err := v.refused(sc.ctx, second, sc.issued, cp, CheckIsolation, RuleIsolation, codeMissing, nil, nil); err != nil {
				return err
			}
		}
		if sc.expects(cp, CheckUnavailable) {
			if err := v.refused(sc.ctx, second, sc.issued, cp, CheckUnavailable, RuleConfirmation, codeUnavailable, nil, nil); err != nil {
				return err
			}
		}
	}
	for _, cp := range sc.deferred {
		if err := v.call(sc.ctx, second, cp); err != nil {
			return err
		}
	}
	return nil
}

// confirmingSession checks the isolation of the writes that need the
// user's confirmation and redeem issued values: a client without
// elicitation refuses them for their confirmation first, so a third
// session's client confirms.
func (sc *script) confirmingSession() error {
	if len(sc.confirmed) == 0 {
		return nil
	}
	v := sc.v
	if sc.third == nil {
		return fmt.Errorf("no third session was started for %d confirmed write(s)", len(sc.confirmed))
	}
	confirming, err := sc.third.wait(v.res)
	if err != nil {
		return err
	}
	sc.cleanUps = append(sc.cleanUps, func() { confirming.close(v.res) })
	for _, cp := range sc.confirmed {
		if err := v.refused(sc.ctx, confirming, sc.issued, cp, CheckIsolation, RuleIsolation, codeMissing, []string{hostruntime.ConfirmField}, nil); err != nil {
			return err
		}
	}
	return nil
}

// step is one client's call of a check, as its evidence records it.
type step struct {
	Tool      string
	Arguments *canonjson.Object
	Mode      relayMode
	Result    canonjson.Value
	Code      string // the code of an error result's structured Tool error
	IsError   bool
	// Refused says how the clients that validate results (the TypeScript
	// SDK Client, the Inspector CLI) would fail their caller on it.
	Refused  []string
	Protocol string // no result: why
	Relayed  []relayed
	Asked    []canonjson.Value
	// StandIn says why the arguments are not the case's.
	StandIn string
}

// succeeded reports whether a step's result is a Tool success with data
// the capability's success rule accepts (null only without a body).
func (s *step) succeeded(rule *contract.SuccessRule) bool {
	if s.Result == nil || s.IsError {
		return false
	}
	r, err := toolresult.Parse(s.Result)
	if err != nil {
		return false
	}
	data, ok := r.Data()
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
		return "the error " + cmp.Or(s.Code, "without a code")
	}
	return "a success"
}

// attempt calls a capability's case through each client of a session, its
// references resolved against that client's results in from, with the
// relays in mode (a forward attempt of the first client is replayed to the
// others) and the elicitations answered: accept for the fields in accept,
// decline for those in decline, cancel otherwise. It returns one step per
// client; a case that cannot be made is reported in why.
func (v *verifier) attempt(ctx context.Context, ss *session, from []livecall.Results, cp *contract.Capability, mode relayMode, accept, decline []string) (steps []*step, why string, err error) {
	args, ok := v.opts.Cases[cp.ID]
	missing := !ok && slices.ContainsFunc(cp.Inputs, func(in contract.Input) bool { return in.Required })
	resolved := make([]*canonjson.Object, len(ss.peers))
	standIn := make([]string, len(ss.peers))
	for i := range ss.peers {
		why := ""
		if missing {
			why = "it has required inputs and no live case"
		}
		if resolved[i], err = from[i].Resolve(args); err != nil {
			why = "its case cannot be made: " + err.Error()
		}
		if why != "" {
			if mode != block {
				return nil, why, nil
			}
			// A call that must be refused before dispatch needs no issued
			// value: the minimal arguments of its schema stand in.
			if resolved[i], err = sample.Arguments(v.schemas[cp.ID], nil); err != nil {
				return nil, why, nil
			}
			standIn[i] = why + "; the minimal arguments of its input schema stand in"
		}
		if v.opts.Check != nil {
			if bad := v.opts.Check(cp.ID, resolved[i]); bad != "" {
				return nil, "its case breaks the input schema: " + bad, nil
			}
		}
	}
	for i, p := range ss.peers {
		m := mode
		if m == forward && i > 0 {
			m = replay
		}
		st := &step{Tool: cp.ToolName, Arguments: resolved[i], Mode: m, StandIn: standIn[i]}
		for _, r := range v.relays {
			r.attempt(m)
		}
		began := time.Now()
		ans, err := p.conn.call(ctx, cp.ToolName, json.RawMessage(canonjson.DigestForm(resolved[i])), accept, decline)
		if err != nil {
			return nil, "", err
		}
		st.Protocol, st.Asked = ans.protocol, ans.asked
		if ans.raw != nil && ans.protocol == "" {
			if doc, derr := canonjson.Decode(ans.raw); derr == nil {
				st.Result = doc
				isErr, _ := canonjson.Resolve(doc, "/isError")
				st.IsError = isErr == canonjson.Bool(true)
				if r, perr := toolresult.Parse(doc); perr == nil {
					if st.IsError {
						st.Code = r.ErrorCode()
					}
					for _, p := range toolresult.Judge(v.listed[cp.ToolName], r) {
						st.Refused = append(st.Refused, p.String())
					}
				}
			} else {
				st.Protocol = "the result is not JSON: " + derr.Error()
			}
			p.results.Record(cp.ID, ans.raw)
		}
		for _, r := range v.relays {
			st.Relayed = append(st.Relayed, r.received()...)
		}
		if v.opts.Progress != nil {
			fmt.Fprintf(v.opts.Progress, "host-verify: %s, %s: %s answered %s in %s (%d request(s) at the relay)\n", ss.label, p.client.name, cp.ToolName,
				st.answer(), time.Since(began).Round(time.Millisecond), len(st.Relayed))
		}
		steps = append(steps, st)
	}
	return steps, "", nil
}

// prepare calls the issuer of the capability's workflow, when it has one,
// so that the session holds a protected value the capability's next call
// can redeem. It returns the issuer's steps.
func (v *verifier) prepare(ctx context.Context, ss *session, cp *contract.Capability) ([]*step, error) {
	id := issuer(v.in, cp)
	if id == "" {
		return nil, nil
	}
	is, _ := v.in.Contract.Capability(id)
	steps, _, err := v.attempt(ctx, ss, ss.results(), is, forward, nil, nil)
	return steps, err
}

// call is CheckCall: the capability's case, end to end against the
// backend; a write only when the run authorises it. Every request reaches
// the backend (the first client's; the others' are answered with the
// backend's answers to it), with the credentials of the Tool's
// authentication and no others.
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
	steps, why, err := v.attempt(ctx, ss, ss.results(), cp, forward, []string{hostruntime.ConfirmField, hostruntime.ReconciledField}, nil)
	if err != nil {
		return err
	}
	if steps == nil {
		v.skip(c, why)
		return nil
	}
	v.evidence(c, ss, prepared, steps)
	credentials := v.credentialHeaders(cp)
	details := make([]string, len(steps))
	for i, st := range steps {
		details[i] = callFailure(cp, st, credentials)
	}
	v.conclude(c, ss, RuleCall, details)
	return nil
}

// callFailure says why a step of CheckCall fails, or "".
func callFailure(cp *contract.Capability, st *step, credentials []string) string {
	switch {
	case len(st.Refused) > 0:
		return fmt.Sprintf("%s answered %s, which a client would not return: %s", cp.ToolName, st.answer(), strings.Join(st.Refused, "; "))
	case !st.succeeded(&cp.SuccessRule):
		return fmt.Sprintf("%s answered %s", cp.ToolName, st.answer())
	case len(st.Relayed) == 0:
		return fmt.Sprintf("%s answered a success, and nothing reached the backend", cp.ToolName)
	}
	for _, r := range st.Relayed {
		switch {
		case st.Mode == replay && !r.Replayed:
			return fmt.Sprintf("%s %s is not a request the first client's call sent, so the backend did not answer it", r.Method, r.Path)
		case st.Mode == forward && !r.Forwarded:
			return fmt.Sprintf("%s %s did not reach the backend", r.Method, r.Path)
		case !slices.Equal(r.Carried, credentials):
			return fmt.Sprintf("%s %s carried the credential headers %q, and %s's authentication needs %q",
				r.Method, r.Path, r.Carried, cp.ToolName, credentials)
		}
	}
	return ""
}

// refused is a check that a call is refused with a code and dispatches
// nothing: the relays block, so nothing reaches the backend either way.
func (v *verifier) refused(ctx context.Context, ss *session, from []livecall.Results, cp *contract.Capability, id string, rule *diag.Rule, code string, accept, decline []string) error {
	c := v.newCheck(ss, id, cp)
	steps, why, err := v.attempt(ctx, ss, from, cp, block, accept, decline)
	if err != nil {
		return err
	}
	if steps == nil {
		v.skip(c, why)
		return nil
	}
	v.evidence(c, ss, nil, steps)
	details := make([]string, len(steps))
	for i, st := range steps {
		details[i] = zeroDispatchFailure(st, code)
	}
	v.conclude(c, ss, rule, details)
	return nil
}

// zeroDispatchFailure says why a step that must be refused with code,
// dispatching nothing, fails, or "".
func zeroDispatchFailure(st *step, code string) string {
	switch {
	case len(st.Relayed) > 0:
		return fmt.Sprintf("%s dispatched %d request(s), and must dispatch none (it answered %s)", st.Tool, len(st.Relayed), st.answer())
	case !st.IsError || st.Code != code:
		return fmt.Sprintf("%s answered %s, and must be refused with %s", st.Tool, st.answer(), code)
	case len(st.Refused) > 0:
		return fmt.Sprintf("%s answered %s, which a client would not return: %s", st.Tool, st.answer(), strings.Join(st.Refused, "; "))
	}
	return ""
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
	cut, why, err := v.attempt(ctx, ss, ss.results(), cp, drop, []string{hostruntime.ConfirmField}, nil)
	if err != nil {
		return err
	}
	if cut == nil {
		v.skip(c, why)
		return nil
	}
	again, why, err := v.attempt(ctx, ss, ss.results(), cp, block, []string{hostruntime.ConfirmField}, []string{hostruntime.ReconciledField})
	if err != nil {
		return err
	}
	if again == nil {
		v.skip(c, why)
		return nil
	}
	v.evidence(c, ss, prepared, cut, again)
	want := codeReconcileNeeded
	if ss.declares {
		want = codeReconcileNo
	}
	details := make([]string, len(cut))
	for i := range cut {
		details[i] = unknownOutcomeFailure(cp, cut[i], again[i], want)
	}
	v.conclude(c, ss, RuleUnknownOutcome, details)
	return nil
}

// unknownOutcomeFailure says why CheckUnknownOutcome's two steps fail, or
// "". Each clause fails the check on its own: the cut-off call answered
// the unknown outcome's code; nothing of it reached the backend; the next
// call dispatched nothing and was refused with want.
func unknownOutcomeFailure(cp *contract.Capability, cut, again *step, want string) string {
	switch {
	case !cut.IsError || cut.Code != codeUnknown:
		return fmt.Sprintf("with its request cut off, %s answered %s, not %s", cp.ToolName, cut.answer(), codeUnknown)
	case slices.ContainsFunc(cut.Relayed, func(r relayed) bool { return r.Forwarded }):
		return "a request the relay was to cut off reached the backend"
	}
	return zeroDispatchFailure(again, want)
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

// discovery is CheckDiscovery: each client's tools/list of the session
// lists the Tool as the contract names and annotates it.
func (v *verifier) discovery(ss *session, cp *contract.Capability, tools [][]mcpcheck.Tool) {
	c := v.newCheck(ss, CheckDiscovery, cp)
	clients := canonjson.Array{}
	details := make([]string, len(ss.peers))
	for i, p := range ss.peers {
		entry := canonjson.NewObject(member("client", canonjson.String(p.client.name)))
		clients = append(clients, entry)
		if why := p.conn.down(); why != "" && !slices.ContainsFunc(tools[i], func(t mcpcheck.Tool) bool { return t.Name == cp.ToolName }) {
			details[i] = "tools/list was not answered: " + why
			continue
		}
		var listed canonjson.Value
		listed, details[i] = discoveryFailure(cp, tools[i], p.conn.protocolVersion(), v.in.Export.ProtocolVersion)
		if listed != nil {
			entry.Set("tool", listed)
		}
	}
	c.Evidence.Set("clients", clients)
	v.conclude(c, ss, RuleDiscovery, details)
}

// discoveryFailure judges one client's tools/list for CheckDiscovery: it
// returns the Tool's entry when listed and why the check fails, or "".
// Each clause fails the check on its own: tools/list lists the Tool; its
// annotations are the contract's; the session speaks the package's
// protocol version.
func discoveryFailure(cp *contract.Capability, tools []mcpcheck.Tool, protocol, want string) (canonjson.Value, string) {
	j := slices.IndexFunc(tools, func(t mcpcheck.Tool) bool { return t.Name == cp.ToolName })
	if j < 0 {
		return nil, fmt.Sprintf("tools/list does not list %s", cp.ToolName)
	}
	listed, _ := canonjson.Decode(tools[j].Raw)
	got, _ := canonjson.Resolve(listed, "/annotations")
	if !canonjson.Equal(cp.Annotations.Raw, got) {
		return listed, fmt.Sprintf("tools/list annotates %s with %s, and the contract says %s", cp.ToolName, canonjson.DigestForm(got), canonjson.DigestForm(cp.Annotations.Raw))
	}
	if protocol != want {
		return listed, fmt.Sprintf("the session speaks protocol %s, and the package %s", protocol, want)
	}
	return listed, ""
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

// evidence records the steps of a check, each client's sanitised: the
// clients member lists, for each client, the steps it made.
func (v *verifier) evidence(c *Check, ss *session, prepared []*step, steps ...[]*step) {
	clients := canonjson.Array{}
	for i, p := range ss.peers {
		arr := canonjson.Array{}
		all := []*step{}
		if prepared != nil {
			all = append(all, prepared[i])
		}
		for _, s := range steps {
			all = append(all, s[i])
		}
		for _, st := range all {
			arr = append(arr, stepEvidence(st))
		}
		clients = append(clients, canonjson.NewObject(
			member("client", canonjson.String(p.client.name)),
			member("steps", arr),
		))
	}
	c.Evidence.Set("clients", clients)
}

func stepEvidence(st *step) *canonjson.Object {
	o := canonjson.NewObject(
		member("tool", canonjson.String(st.Tool)),
		member("arguments", sanitized(st.Arguments)),
		member("relay", canonjson.String(modeNames[st.Mode])),
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
	if len(st.Refused) > 0 {
		o.Set("clientRefusals", canonjson.Strings(st.Refused))
	}
	rel := canonjson.Array{}
	for _, r := range st.Relayed {
		rel = append(rel, canonjson.NewObject(
			member("method", canonjson.String(r.Method)),
			member("path", canonjson.String(r.Path)),
			member("forwarded", canonjson.Bool(r.Forwarded)),
			member("replayed", canonjson.Bool(r.Replayed)),
			member("status", canonjson.Int(r.Status)),
			member("credentialHeaders", canonjson.Strings(r.Carried)),
		))
	}
	o.Set("reachedTheRelay", rel)
	return o
}

// conclude judges a check from each client's failure ("" when it passed):
// it passes when every client passed; otherwise it fails under rule, its
// detail the first failing client's, and each failure is a finding naming
// its client.
func (v *verifier) conclude(c *Check, ss *session, rule *diag.Rule, details []string) {
	entries := arrayAt(c.Evidence, "/clients")
	for i, d := range details {
		status := "passed"
		if d != "" {
			status = "failed"
			name := ss.peers[i].client.name
			v.res.Diagnostics.Add(rule.New("", "capability %s: %s, through the %s: %s", c.CapabilityID, c.CheckID, name, d))
			if c.Detail == "" {
				c.Rule, c.Detail = rule, "through the "+name+": "+d
			}
		}
		if i < len(entries) {
			if e, ok := entries[i].(*canonjson.Object); ok {
				e.Set("status", canonjson.String(status))
				if d != "" {
					e.Set("detail", canonjson.String(d))
				}
			}
		}
	}
	if c.Detail != "" {
		c.Evidence.Set("status", canonjson.String("failed"))
		c.Evidence.Set("detail", canonjson.String(c.Detail))
		return
	}
	v.pass(c)
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

// fail fails a check that is the host's, not a client's.
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

func firstError(l *diag.List) string {
	for _, d := range l.Sorted() {
		if d.Severity == diag.Error {
			return d.Message
		}
	}
	return "no reason was reported"
}
