package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/finalize"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/livecall"
	"github.com/code2skill/code2skill/internal/toolresult"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StageRuntimeVerify makes authorised live calls through the package's own
// host runtime, when the run enables it.
const StageRuntimeVerify = "runtime-verify"

var runtimeVerifyStage = &stage{
	name:       StageRuntimeVerify,
	enable:     "--enable-runtime-verify",
	disabled:   "runtime verification was not enabled for this run (--enable-runtime-verify)",
	enabled:    func(o *RunOptions) bool { return o.EnableRuntimeVerify },
	phase:      PhaseRuntime,
	categories: []string{CategoryVerification},
	inputs: func(r *runner) ([]input, error) {
		return inputsOf(
			r.candidate,
			func() ([]input, error) { return r.stateTree(labelLiveCases, LiveCasesDir) },
			r.runtimeAuthority,
		)
	},
	run: (*runner).runtimeVerify,
	// Runtime evidence is optional upstream of finalize, which would
	// otherwise take what a failed run left half-made.
	failed:  func(r *runner) error { return r.p.clearRecords([]string{PhaseRuntime}, LiveDir) },
	restore: runtimeCommand,
}

// Reasons a live call is not made.
const (
	SkipWriteNotAuthorized = "write-authorization-required"
	SkipNoLiveCase         = "no-live-case"
	SkipInvalidLiveCase    = "invalid-live-case"
	SkipNoHostRuntime      = "no-host-runtime"
	SkipReferenceNotCalled = "referenced-call-not-made"
	SkipReferenceFailed    = "referenced-call-failed"
	SkipWorkflowNotCalled  = "workflow-entry-not-verified"
)

// runtimeVerify makes one live call per capability that may and can be
// called, in contract order and in one MCP session, through the package's
// own host runtime, and records each as a runtime check bound to its
// sanitised live input and result.
//
// A write is called only when this run authorises it; a write that asks
// for the user's confirmation is confirmed for this run by that
// authorisation (the run's client answers the confirmation form, and only
// it). The host runtime records a workflow's protected values from the
// issuing call earlier in the session, so a guarded write is verified as a
// host runs it, and a guard refusal is a failed check. A workflow's
// runtime phase reuses its entry's call when every member write was
// authorised.
func (r *runner) runtimeVerify() (*stageOutcome, error) {
	out := &stageOutcome{steps: []string{"live tools/call through the package's host runtime (" + hostruntime.RuntimeFile + ")"}}
	auth := slices.Clone(r.opts.AuthorizeWrites)
	slices.Sort(auth)
	out.authorized = slices.Compact(auth)
	if err := r.computeScopes(PhaseRuntime); err != nil {
		return out, err
	}
	kept, err := r.keptRuntime()
	if err != nil {
		return out, err
	}
	if err := r.core.Err(); err != nil {
		return out, err
	}
	in := r.core.Inputs
	if list := r.core.Findings(); list.HasErrors() || in.Export == nil {
		out.findings.Merge(list)
		return out.fail("the Portable Core or export profile has errors; run analyze first"), nil
	}
	views := r.core.Views()
	schemas := inputSchemas(views)
	c := in.Contract
	// A call passes only when finalize will take its result as live
	// evidence: never a pass here that finalize then refuses.
	judge := func(id string, result canonjson.Value) (string, error) {
		rule := &contract.SuccessRule{}
		if cp, ok := c.Capability(id); ok {
			rule = &cp.SuccessRule
		}
		if why := judgeResult(result, rule); why != "" {
			return why, nil
		}
		l, err := finalize.JudgeLiveResult(c, views, id, LiveDir+"/"+id+".result.json", result)
		if err != nil || l.Len() == 0 {
			return "", err
		}
		var msgs []string
		for _, d := range l.Sorted() {
			msgs = append(msgs, d.Message+" (at "+d.Pointer+") ["+d.Rule+"]")
		}
		return "finalize would refuse the result as live evidence: " + strings.Join(msgs, "; "), nil
	}
	due := dueCalls(c, kept, r.p.statePath(LiveCasesDir))
	if err := r.dropUnkept(PhaseRuntime, kept); err != nil {
		return out, err
	}
	var calls []livecall.Call
	for i := range c.Capabilities {
		cp := &c.Capabilities[i]
		if !due[cp.ID] {
			continue // its evidence is current (carryEvidence)
		}
		call, reason, err := r.planCall(in, cp, schemas[cp.ID], calls, out)
		if err != nil {
			return out, err
		}
		if reason != "" {
			r.skip(out, Skipped{CheckID: CheckLiveCall, CapabilityID: cp.ID, Reason: reason})
			continue
		}
		calls = append(calls, *call)
	}
	env, err := r.serverEnv()
	if err != nil {
		return out, err
	}
	res := &livecall.Result{}
	if len(calls) > 0 {
		res, err = r.p.Steps.LiveCalls(r.ctx, r.p.abs, calls, livecall.Options{
			Env:             env,
			ProtocolVersion: in.Export.ProtocolVersion,
			Elicitation:     ConfirmAuthorized,
			RequestTimeout:  r.opts.RequestTimeout,
			TimeoutFlag:     RequestTimeoutFlag,
		})
		if errors.Is(err, ErrNotAvailable) {
			out.findings.Add(RuleStepUnavailable.New("", "live calls are not available in this build"))
			return out.fail("live calls are not available in this build"), nil
		}
		if err != nil {
			return out, fmt.Errorf("live calls: %w", err)
		}
		out.findings.Merge(res.Diagnostics)
		out.nodes += res.NodeProcesses
		if len(res.Outcomes) != len(calls) {
			return out, fmt.Errorf("live calls: %d outcomes for %d calls", len(res.Outcomes), len(calls))
		}
		for i, o := range res.Outcomes {
			if err := r.recordLiveCall(&calls[i], o, out, judge); err != nil {
				return out, err
			}
		}
	}
	if err := r.workflowRecords(c, kept, out); err != nil {
		return out, err
	}
	r.st.RuntimeVerify.LastRun = &RuntimeRun{Enabled: true, AuthorizedWrites: out.authorized, RanAt: r.p.now()}
	r.st.RuntimeVerify.LastSkipped = append([]Skipped{}, r.skipped...)
	r.st.RuntimeVerify.Invalidated = nil
	r.st.RuntimeVerify.Env, r.st.RuntimeVerify.Origins = sortedKeys(r.opts.Env), sortedKeys(r.opts.Origins)
	if len(kept) > 0 {
		out.steps = append(out.steps, fmt.Sprintf("kept the current live evidence of %s", scopeList(sortedKeys(kept))))
	}
	return out, nil
}

// ConfirmAuthorized answers the host runtime's elicitations during an
// authorised run: it gives the confirmation of a write (the run's
// --authorize-write is the operator's confirmation, and writes that were
// not authorised are never called), and declines everything else, such as
// stating that an unknown outcome was reconciled, which only a person who
// checked may state.
func ConfirmAuthorized(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	if livecall.FormField(req) == hostruntime.ConfirmField {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{hostruntime.ConfirmField: true}}, nil
	}
	return &mcp.ElicitResult{Action: "decline"}, nil
}

func (r *runner) skip(out *stageOutcome, s Skipped) {
	r.skipped = append(r.skipped, s)
	out.findings.Add(RuleLiveSkipped.New("", "%s was not called at runtime: %s", scopeOf(s.CapabilityID, s.WorkflowID), s.text()))
}

// text says why the call was not made.
func (s Skipped) text() string {
	if s.Reason == SkipReferenceFailed {
		return "its live case passes on the result of " + s.Upstream + ", whose live call did not succeed"
	}
	return skipText(s.Reason)
}

// note is the reason in a row's note: the reason, with the capability
// whose failed call it depends on.
func (s Skipped) note() string {
	if s.Upstream != "" {
		return s.Reason + " (" + s.Upstream + ")"
	}
	return s.Reason
}

func skipText(reason string) string {
	switch reason {
	case SkipWriteNotAuthorized:
		return "it writes, and this run did not authorise it (--authorize-write)"
	case SkipNoLiveCase:
		return "it has required inputs and no live case (" + LiveCasesDir + "/<capabilityId>.json)"
	case SkipInvalidLiveCase:
		return "its live case is invalid"
	case SkipNoHostRuntime:
		return "the package carries no host runtime (declare hostRuntime in export-profile.json and compile)"
	case SkipReferenceNotCalled:
		return "its live case passes on a result of a capability that is not called before it"
	case SkipWorkflowNotCalled:
		return "its entry was not verified at runtime, or a member write was not authorised"
	}
	return reason
}

// planCall builds the live call of a capability, or says why there is none.
// planned are the calls planned before it, in order.
func (r *runner) planCall(in *derive.Inputs, cp *contract.Capability, schema []byte, planned []livecall.Call, out *stageOutcome) (*livecall.Call, string, error) {
	if !hostruntime.Declared(in) {
		return nil, SkipNoHostRuntime, nil
	}
	if cp.IsWrite() && !slices.Contains(r.opts.AuthorizeWrites, cp.ID) {
		return nil, SkipWriteNotAuthorized, nil
	}
	lc, ds, err := r.p.readLiveCase(in.Contract, cp, schema)
	if err != nil {
		return nil, "", err
	}
	if len(ds) > 0 {
		out.findings.Add(ds...)
		return nil, SkipInvalidLiveCase, nil
	}
	if lc == nil {
		if slices.ContainsFunc(cp.Inputs, func(in contract.Input) bool { return in.Required }) {
			return nil, SkipNoLiveCase, nil
		}
		lc = &LiveCase{Name: cp.ToolName, Arguments: &canonjson.Object{}}
	}
	for _, ref := range lc.References {
		if !slices.ContainsFunc(planned, func(c livecall.Call) bool { return c.CapabilityID == ref.CapabilityID }) {
			return nil, SkipReferenceNotCalled, nil
		}
	}
	call := &livecall.Call{CapabilityID: cp.ID, Tool: cp.ToolName, Arguments: lc.Arguments}
	if len(lc.References) > 0 {
		call.Check = func(args *canonjson.Object) string { return validArguments(schema, args) }
	}
	return call, "", nil
}

// recordLiveCall records one live call: for a successful call its
// sanitised live pair and a passed runtime check bound to their hashes;
// otherwise a failed check whose evidence says why.
//
// A call not made because a capability it passes a result on from had no
// successful call is not a check of its own: it is skipped with that
// reason, so that one failure is reported once, where it happened.
func (r *runner) recordLiveCall(call *livecall.Call, o *livecall.Outcome, out *stageOutcome, judge func(string, canonjson.Value) (string, error)) error {
	if o.Upstream != "" {
		r.skip(out, Skipped{CheckID: CheckLiveCall, CapabilityID: o.CapabilityID, Reason: SkipReferenceFailed, Upstream: o.Upstream})
		return nil
	}
	began := r.p.Now()
	args := o.Arguments
	if args == nil {
		args = call.Arguments // the references could not be resolved
	}
	input := canonjson.NewObject(
		canonjson.Member{Key: "name", Value: canonjson.String(call.Tool)},
		canonjson.Member{Key: "arguments", Value: args},
	)
	input = credential.Sanitize(input).(*canonjson.Object)
	rec := &Record{CheckID: CheckLiveCall, Name: "live tools/call " + o.Tool, Phase: PhaseRuntime, CapabilityID: o.CapabilityID,
		Command: "tools/call " + o.Tool + " through the package's host runtime", ExitCode: 1, Status: CheckFailed,
		ToolName: o.Tool, InputHash: canonjson.Digest(input)}
	evidence := canonjson.NewObject(
		canonjson.Member{Key: "capabilityId", Value: canonjson.String(o.CapabilityID)},
		canonjson.Member{Key: "toolName", Value: canonjson.String(o.Tool)},
		canonjson.Member{Key: "inputHash", Value: canonjson.String(rec.InputHash)},
	)
	var result canonjson.Value
	detail := o.ProtocolError
	if o.Result != nil {
		doc, err := canonjson.Decode(o.Result)
		if err != nil {
			detail = "the result is not JSON: " + err.Error()
		} else {
			result = credential.Sanitize(doc)
			if detail, err = judge(o.CapabilityID, result); err != nil {
				return err
			}
		}
	}
	if result != nil {
		rec.ResultHash = canonjson.Digest(result)
		evidence.Set("resultHash", canonjson.String(rec.ResultHash))
	}
	if detail == "" {
		rec.ExitCode, rec.Status = 0, CheckPassed
		rec.LiveInputPath = "live/" + o.CapabilityID + ".input.json"
		rec.LiveResultPath = "live/" + o.CapabilityID + ".result.json"
		for _, f := range []struct {
			file, side string
			payload    canonjson.Value
		}{{rec.LiveInputPath, "input", input}, {rec.LiveResultPath, "result", result}} {
			data := canonjson.Encode(canonjson.NewObject(
				canonjson.Member{Key: "capabilityId", Value: canonjson.String(o.CapabilityID)},
				canonjson.Member{Key: f.side, Value: f.payload},
			))
			r.stage(verificationDir+"/"+f.file, data)
		}
	} else {
		rec.Detail = detail
		evidence.Set("detail", canonjson.String(detail))
		if result != nil {
			evidence.Set("result", result)
		}
		out.findings.Add(RuleCheckFailed.New("", "capability %s: the live call of %s failed: %s", o.CapabilityID, o.Tool, detail))
	}
	evidence.Set("status", canonjson.String(rec.Status))
	return r.finish(rec, began, r.p.Now(), canonjson.Encode(sortKeys(evidence)))
}

// judgeResult says why a live result is not a success, or "" when it is:
// an MCP Tool result with isError false and structuredContent.data an
// object or array, or null where the success rule accepts an empty body.
func judgeResult(v canonjson.Value, rule *contract.SuccessRule) string {
	o, ok := v.(*canonjson.Object)
	if !ok {
		return "the result is not an object"
	}
	r, err := toolresult.Parse(o)
	if err != nil {
		return err.Error()
	}
	if !r.HasIsError || r.IsError {
		code := ""
		if c := r.ErrorCode(); c != "" {
			code = " " + c
		}
		return "the Tool answered with an error" + code
	}
	data, ok := r.Data()
	if !ok {
		return "the result has no structuredContent.data"
	}
	status, _ := canonjson.Resolve(o, "/structuredContent/status")
	if why := rule.SuccessDataProblem(status, data); why != "" {
		return "structuredContent." + why
	}
	return ""
}

// workflowRecords gives each workflow whose entry passed at runtime, with
// every member write authorised, a runtime record reusing that call.
func (r *runner) workflowRecords(c *contract.Contract, kept map[string]bool, out *stageOutcome) error {
	if err := r.flush(); err != nil {
		return err
	}
	recs, _, err := r.p.readRecords()
	if err != nil {
		return err
	}
	for _, w := range c.Workflows {
		if kept[attest.WorkflowScope(w.ID)] {
			continue
		}
		var entry *Record
		for _, rec := range recs {
			if rec.Phase == PhaseRuntime && rec.CapabilityID == w.EntryCapabilityID && rec.WorkflowID == "" && rec.Status == CheckPassed {
				entry = rec
			}
		}
		authorised := true
		for _, id := range w.CapabilityIDs {
			if cp, ok := c.Capability(id); ok && cp.IsWrite() && !slices.Contains(r.opts.AuthorizeWrites, id) {
				authorised = false
			}
		}
		if entry == nil || !authorised {
			r.skip(out, Skipped{CheckID: CheckLiveCall, WorkflowID: w.ID, Reason: SkipWorkflowNotCalled})
			continue
		}
		wr := *entry
		wr.WorkflowID, wr.CapabilityID, wr.Name = w.ID, "", "runtime-workflow-"+w.ID
		wr.Command = entry.Command + " (the entry of workflow " + w.ID + ")"
		evidence := canonjson.NewObject(
			canonjson.Member{Key: "workflowId", Value: canonjson.String(w.ID)},
			canonjson.Member{Key: "entryCapabilityId", Value: canonjson.String(w.EntryCapabilityID)},
			canonjson.Member{Key: "toolName", Value: canonjson.String(entry.ToolName)},
			canonjson.Member{Key: "inputHash", Value: canonjson.String(entry.InputHash)},
			canonjson.Member{Key: "resultHash", Value: canonjson.String(entry.ResultHash)},
			canonjson.Member{Key: "entryEvidenceHash", Value: canonjson.String(entry.EvidenceHash)},
		)
		r.writeLog(&wr, canonjson.Encode(sortKeys(evidence)))
		if err := r.writeRecord(&wr); err != nil {
			return err
		}
	}
	return nil
}

// inputSchemas returns each capability's derived input schema, as JSON.
func inputSchemas(views *derive.Derived) map[string][]byte {
	out := map[string][]byte{}
	arr, _ := views.SchemaContract.At("capabilities").(canonjson.Array)
	for _, e := range arr {
		o, _ := e.(*canonjson.Object)
		if o == nil {
			continue
		}
		id, _ := o.Get("capabilityId")
		schema, _ := o.Get("inputSchema")
		if s, ok := id.(canonjson.String); ok && schema != nil {
			out[string(s)] = canonjson.DigestForm(schema)
		}
	}
	return out
}

// serverEnv returns the environment the server gets: each variable the
// host runtime reads (base URLs, credentials, subject) and each one the
// package's modules read, with the value this run gives it (--env, or
// --runtime-origin for an origin's base URL) or code2skill's own. The
// dry-run variable is never passed.
func (r *runner) serverEnv() ([]string, error) {
	if r.env != nil {
		return r.env, nil
	}
	if err := r.core.Err(); err != nil {
		return nil, err
	}
	in := r.core.Inputs
	dry := in.Export.DryRunVariable()
	names, err := r.declaredVariables(dry)
	if err != nil {
		return nil, err
	}
	values := maps.Clone(r.opts.Env)
	if values == nil {
		values = map[string]string{}
	}
	for _, v := range hostruntime.Variables(in) {
		if !slices.Contains(names, v.Name) {
			names = append(names, v.Name)
		}
		if url, ok := r.opts.Origins[v.Origin]; ok && v.Role == hostruntime.RoleBaseURL {
			if _, both := r.opts.Env[v.Name]; both {
				return nil, usagef("--runtime-origin %s and --env %s both give the base URL of %s; give one", v.Origin, v.Name, v.Origin)
			}
			values[v.Name] = url
		}
	}
	slices.Sort(names)
	for _, k := range sortedKeys(r.opts.Env) {
		switch {
		case k == dry:
			return nil, usagef("--env %s: the dry-run variable is never passed to runtime verification", k)
		case !slices.Contains(names, k):
			return nil, usagef("--env %s: the package does not read %s; its server gets only the variables it declares (%s)", k, k, orNone(names))
		}
	}
	env := []string{}
	for _, n := range names {
		v, ok := values[n]
		if !ok {
			v = r.p.Getenv(n)
		}
		if v != "" {
			env = append(env, n+"="+v)
		}
	}
	r.env = env
	return env, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// checkRuntimeRequest refuses, before anything runs, authorisations and
// origin bindings the package cannot take.
func (r *runner) checkRuntimeRequest() error {
	if !r.opts.EnableRuntimeVerify {
		return nil
	}
	if err := r.core.Err(); err != nil {
		return err
	}
	in := r.core.Inputs
	if in.Contract != nil {
		for _, id := range r.opts.AuthorizeWrites {
			cp, ok := in.Contract.Capability(id)
			switch {
			case !ok:
				return usagef("--authorize-write %s: the contract has no capability %s", id, id)
			case !cp.IsWrite():
				return usagef("--authorize-write %s: %s is a read; only writes need authorisation", id, id)
			}
		}
	}
	for _, o := range sortedKeys(r.opts.Origins) {
		if in.Export == nil || !slices.Contains(in.Export.AllowedRuntimeOrigins, o) {
			return usagef("--runtime-origin %s: not among the export profile's allowedRuntimeOrigins", o)
		}
		if !hostruntime.Declared(in) || in.Export.HostRuntime.BaseURLVariable(o) == "" {
			return usagef("--runtime-origin %s: the export profile's hostRuntime names no base URL variable for it", o)
		}
		if err := checkOrigin(r.opts.Origins[o]); err != nil {
			return usagef("--runtime-origin %s=%s: %v", o, r.opts.Origins[o], err)
		}
	}
	if !regularFile(r.p.pkgPath(declaredModules[0])) && !regularFile(r.p.pkgPath(declaredModules[1])) {
		return nil // nothing is generated yet: runtime-verify checks --env when it runs
	}
	_, err := r.serverEnv()
	return err
}

// checkOrigin accepts a bare http(s) origin: scheme, host and port only.
func checkOrigin(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return err
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("the origin must be http or https")
	case u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "":
		return errors.New("give an origin only: scheme://host[:port]")
	}
	return nil
}

// keptRuntime returns the scopes whose passed runtime records this run
// keeps: those carryEvidence found current, unless the run forces the
// stage or reaches the backend otherwise than the records' run did (other
// origins or environment values, another build), when every record goes.
// Failed records are never kept: their calls are made again.
func (r *runner) keptRuntime() (map[string]bool, error) {
	host, err := r.hostDigest()
	if err != nil {
		return nil, err
	}
	return r.keptRecords(PhaseRuntime, StageRuntimeVerify, []string{labelRuntimeHost, host}, LiveDir)
}

// keptRecords returns the scopes whose passed records of phase this run
// keeps: bound to the package as it is, their scope digest current, and
// made by this code2skill version against the same backend (backend, a
// fingerprint input of stage's last run). Without --rerun and with the
// same backend it keeps them; otherwise it clears every record of the
// phase (and dirs) and keeps none.
func (r *runner) keptRecords(phase, stage string, backend []string, dirs ...string) (map[string]bool, error) {
	kept := map[string]bool{}
	s := r.st.Stages[stage]
	same := !r.opts.Force
	for _, want := range [][]string{backend, {labelVersion, stringDigest(r.p.Version)}} {
		if !slices.ContainsFunc(s.FingerprintInputs, func(pair []string) bool { return slices.Equal(pair, want) }) {
			same = false
		}
	}
	if !same {
		return kept, r.p.clearRecords([]string{phase}, dirs...)
	}
	recs, _, err := r.p.readRecords()
	if err != nil {
		return nil, err
	}
	b, err := r.p.packageBinding(r.core)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		if rec.Phase == phase && rec.Status == CheckPassed && rec.ScopeDigest != "" &&
			rec.ContractID == b.contractID && rec.CandidateDigest == b.candidate && rec.ScopeDigest == r.scopes[phase][rec.Scope()] {
			kept[rec.Scope()] = true
		}
	}
	return kept, nil
}

// dropUnkept removes the records of phase this run does not keep, and the
// live pairs of their calls.
func (r *runner) dropUnkept(phase string, kept map[string]bool) error {
	recs, _, err := r.p.readRecords()
	if err != nil {
		return err
	}
	for _, rec := range recs {
		if rec.Phase == phase && !kept[rec.Scope()] {
			if err := r.p.removeRecord(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// dueCalls returns the capabilities this run calls: each without kept
// evidence, the entry of each workflow without it, and, transitively, each
// capability whose result a due call's live case passes on, since a
// reference is resolved within one session.
func dueCalls(c *contract.Contract, kept map[string]bool, casesDir string) map[string]bool {
	due := map[string]bool{}
	for _, cp := range c.Capabilities {
		if !kept[attest.CapabilityScope(cp.ID)] {
			due[cp.ID] = true
		}
	}
	for _, w := range c.Workflows {
		if !kept[attest.WorkflowScope(w.ID)] {
			due[w.EntryCapabilityID] = true
		}
	}
	for i := len(c.Capabilities) - 1; i >= 0; i-- {
		id := c.Capabilities[i].ID
		if !due[id] {
			continue
		}
		for _, ref := range caseReferences(casesDir + "/" + id + ".json") {
			due[ref] = true
		}
	}
	return due
}

// declaredModules are the modules whose environment reads declare what the
// server may be given.
var declaredModules = []string{"function-core/index.mjs", "mcp-tool/index.mjs"}

// declaredVariables returns the variables the package's modules read,
// asking the step only when the modules changed since it last did.
func (r *runner) declaredVariables(dry string) ([]string, error) {
	var lines []string
	for _, m := range append(declaredModules, "dry-run:"+dry) {
		d := m
		if !strings.HasPrefix(m, "dry-run:") {
			var err error
			if d, err = fileDigest(r.p.pkgPath(m)); err != nil {
				return nil, err
			}
		}
		lines = append(lines, d)
	}
	digest := stringDigest(strings.Join(lines, "\n"))
	if c := r.st.RuntimeVerify.Declared; c != nil && c.ModulesDigest == digest {
		return c.Variables, nil
	}
	names, err := r.p.Steps.DeclaredVariables(r.p.abs, dry)
	if err != nil {
		return nil, err
	}
	r.st.RuntimeVerify.Declared = &Declared{ModulesDigest: digest, Variables: append([]string{}, names...)}
	return names, nil
}
