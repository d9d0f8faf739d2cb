package vectors

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/sample"
	"github.com/code2skill/code2skill/internal/toolresult"
)

// unbuilt adds a vector that records why a branch could not be built; the
// check is then uncovered unless another vector failed.
func (ch *check) unbuilt(name, reason string) {
	ch.add(name, func(j *judge) { j.cannot("%s", reason) })
}

// conditionalBranches: for each requiredWhen condition, the input is
// refused missing while the condition holds, accepted present while it
// holds, and accepted missing while it does not; for each forbiddenWhen
// condition, the input is refused present while it holds and accepted
// present while it does not. Every call is otherwise valid.
func (k *capPlan) conditionalBranches(ch *check) {
	k.control(ch)
	schema := k.tool.InputSchema
	holds := func(cond canonjson.Value, a *canonjson.Object, want condition.Truth) bool {
		return condition.Eval(cond, condition.Values(a)) == want
	}
	withInput := func(a *canonjson.Object, name string) (*canonjson.Object, bool) {
		if a.Has(name) {
			return a, true
		}
		v, err := sample.Value(sample.PropertySchema(schema, name))
		if err != nil {
			return nil, false
		}
		a = canonjson.Clone(a).(*canonjson.Object)
		a.Set(name, v)
		return a, true
	}
	for _, in := range k.cp.Inputs {
		for i, cond := range in.RequiredWhen {
			label := fmt.Sprintf("%s requiredWhen[%d]", in.Name, i)
			on, okOn := k.solve(cond.Raw, condition.True, k.args)
			if !okOn {
				ch.unbuilt(label+" active", "no valid arguments make the condition true")
			} else {
				missing := canonjson.Clone(on).(*canonjson.Object)
				missing.Delete(in.Name)
				if holds(cond.Raw, missing, condition.True) && k.valid(missing) {
					c := k.call(missing, nil)
					ch.add(label+" active, input missing: refused", func(j *judge) { j.rejected(c) }, c)
				} else {
					ch.unbuilt(label+" active, input missing", "the condition reads the input itself")
				}
				present, ok := withInput(on, in.Name)
				if ok {
					present, _ = k.settle(present)
				}
				if present != nil && present.Has(in.Name) && holds(cond.Raw, present, condition.True) && k.settledValid(present) {
					c := k.call(present, k.responses)
					ch.add(label+" active, input present: accepted", func(j *judge) { k.accepted(j, c) }, c)
				} else {
					ch.unbuilt(label+" active, input present", "no otherwise valid arguments hold the condition with the input present")
				}
			}
			off, okOff := k.solve(cond.Raw, condition.False, k.args)
			if okOff {
				off = canonjson.Clone(off).(*canonjson.Object)
				off.Delete(in.Name)
				off, _ = k.settle(off)
			}
			if okOff && off != nil && !off.Has(in.Name) && holds(cond.Raw, off, condition.False) && k.settledValid(off) {
				c := k.call(off, k.responses)
				ch.add(label+" inactive, input missing: accepted", func(j *judge) { k.accepted(j, c) }, c)
			} else {
				ch.unbuilt(label+" inactive", "no otherwise valid arguments leave the condition false with the input missing")
			}
		}
		for i, cond := range in.ForbiddenWhen {
			label := fmt.Sprintf("%s forbiddenWhen[%d]", in.Name, i)
			on, ok := k.solve(cond.Raw, condition.True, k.args)
			if ok {
				on, ok = withInput(on, in.Name)
			}
			if ok && holds(cond.Raw, on, condition.True) && k.valid(on) {
				c := k.call(on, nil)
				ch.add(label+" active, input present: refused", func(j *judge) { j.rejected(c) }, c)
			} else {
				ch.unbuilt(label+" active", "no valid arguments hold the condition with the input present")
			}
			off, ok := k.solve(cond.Raw, condition.False, k.args)
			if ok {
				off, ok = withInput(off, in.Name)
			}
			if ok {
				off, _ = k.settle(off)
			}
			if ok && off != nil && off.Has(in.Name) && holds(cond.Raw, off, condition.False) && k.settledValid(off) {
				c := k.call(off, k.responses)
				ch.add(label+" inactive, input present: accepted", func(j *judge) { k.accepted(j, c) }, c)
			} else {
				ch.unbuilt(label+" inactive", "no otherwise valid arguments leave the condition false with the input present")
			}
		}
	}
}

// targetRejection is the response of a target API that refuses a request on
// its own business rules.
func targetRejection(field string) *canonjson.Object {
	return canonjson.NewObject(
		canonjson.Member{Key: "code", Value: canonjson.String("SYNTHETIC_TARGET_REJECTED")},
		canonjson.Member{Key: "message", Value: canonjson.String("the synthetic target API refuses this request")},
		canonjson.Member{Key: "details", Value: canonjson.NewObject(canonjson.Member{Key: "field", Value: canonjson.String(field)})},
	)
}

// optionalOmission: an input whose target requiredness is unproven may be
// left out; the Function then sends the request without it (the target API
// decides) and reports the target's refusal as a structured error.
func (k *capPlan) optionalOmission(ch *check) {
	for _, in := range k.cp.Inputs {
		tr := in.TargetRequiredness
		if tr == nil || tr.Status != contract.TargetRequirednessUnproven {
			continue
		}
		a := canonjson.Clone(k.args).(*canonjson.Object)
		a.Delete(in.Name)
		a, err := k.settle(a)
		if err != nil || a.Has(in.Name) || !k.valid(a) {
			ch.unbuilt(in.Name+" omitted", "no valid arguments leave the input out")
			continue
		}
		if !k.http {
			ch.unbuilt(in.Name+" omitted", "a local Function has no target API to decide")
			continue
		}
		name := in.Name
		c := k.call(a, k.responses)
		ch.add(name+" omitted: sent without it", func(j *judge) {
			if guarded(c) {
				j.cannot(guardedReason)
				return
			}
			r, _ := k.accepted(j, c)
			for _, b := range k.bindingsOf(name) {
				if b.Location == "path" {
					continue
				}
				if i := k.stepOf(b); i >= 0 && i < len(r.dispatches) {
					v, there := sent(r.dispatches[i], b)
					j.that(!there, "the request leaves "+name+" out", "step %d sends %s at %s %s", i, show(v), b.Location, strings.Join(b.Path, "."))
				}
			}
		}, c)
		out := k.outputStepIndex()
		refused := k.call(a, k.rejecting(out, 422, targetRejection(name)))
		ch.add(name+" omitted, refused by the target: structured error", func(j *judge) {
			if guarded(refused) {
				j.cannot(guardedReason)
				return
			}
			r := first(refused)
			j.that(r.outcome == outcomeThrew, "the target's refusal fails the call", "%s", outcomeText(r))
			j.that(len(r.dispatches) == out+1, "each step up to the refusing one is dispatched once", "%d dispatch(es)", len(r.dispatches))
			if r.outcome == outcomeThrew {
				k.envelope(j, r.normalized)
				notRetryable(j, r.normalized)
				k.category(j, r.normalized, 422)
			}
		}, refused)
	}
	if len(ch.vectors) == 0 {
		ch.uncovered = "no input has an unproven target requiredness"
	}
}

// attachmentFailure: without the Host's resolution of an approved
// attachment the Function dispatches nothing.
func (k *capPlan) attachmentFailure(ch *check) {
	control := k.validCall()
	noResolution := k.call(k.args, k.responses)
	noResolution.attachments = nil
	empty := k.call(k.args, k.responses)
	empty.attachments = &canonjson.Object{}
	all := []*call{control, noResolution, empty}
	ch.add("control: resolved attachments are accepted", func(j *judge) {
		if guarded(all...) {
			j.cannot(guardedReason)
			return
		}
		k.accepted(j, control)
	}, control)
	ch.add("no resolved attachments in the context: refused", func(j *judge) {
		if !guarded(all...) {
			j.rejected(noResolution)
		}
	}, noResolution)
	ch.add("the attachment is not among the resolved ones: refused", func(j *judge) {
		if !guarded(all...) {
			j.rejected(empty)
		}
	}, empty)
}

// attachmentContract: the resolved content, not the raw grant, reaches
// exactly the request member each content binding names; a grant that
// breaks the declared metadata (oversize, a required field missing) is
// refused before dispatch.
func (k *capPlan) attachmentContract(ch *check) {
	a := k.cp.Attachments
	c := k.validCall()
	var calls []*call
	calls = append(calls, c)
	ch.add("resolved content bound", func(j *judge) {
		if guarded(calls...) {
			j.cannot(guardedReason)
			return
		}
		r, _ := k.accepted(j, c)
		steps := k.cp.Implementation.Steps
		for _, cb := range a.ContentBindings {
			i := -1
			for x := range steps {
				if steps[x].ID == cb.StepID {
					i = x
				}
			}
			what := fmt.Sprintf("step %s carries the resolved content of %s at %s %s", cb.StepID, cb.InputName, cb.Location, strings.Join(cb.Path, "."))
			if i < 0 || i >= len(r.dispatches) {
				j.that(false, what, "the step was not dispatched")
				continue
			}
			got, _ := sent(r.dispatches[i], contract.Binding{Location: cb.Location, Path: cb.Path})
			j.that(canonjson.Equal(got, resolvedContent(cb.InputName)), what, "found %s", show(got))
			marker := string(rawGrantMarker(cb.InputName))
			forwarded := false
			for _, d := range r.dispatches {
				forwarded = forwarded || contains(d.options, marker) || contains(d.input, marker)
			}
			j.that(!forwarded, "the raw grant of "+cb.InputName+" is not forwarded", "a request carries the grant")
		}
	}, c)
	if a.Metadata == nil {
		return
	}
	for _, cb := range a.ContentBindings {
		grant := asObject(k.args.At(cb.InputName))
		if grant == nil {
			continue
		}
		if a.Metadata.MaxSizeBytes > 0 {
			big := canonjson.Clone(grant).(*canonjson.Object)
			big.Set("sizeBytes", canonjson.Number(itoa(a.Metadata.MaxSizeBytes+1)))
			args := canonjson.Clone(k.args).(*canonjson.Object)
			args.Set(cb.InputName, big)
			oc := k.call(args, nil)
			calls = append(calls, oc)
			ch.add(cb.InputName+" over maxSizeBytes: refused", func(j *judge) {
				if !guarded(calls...) {
					j.rejected(oc)
				}
			}, oc)
		}
		for _, field := range a.Metadata.Required {
			if !grant.Has(field) {
				continue
			}
			g := canonjson.Clone(grant).(*canonjson.Object)
			g.Delete(field)
			args := canonjson.Clone(k.args).(*canonjson.Object)
			args.Set(cb.InputName, g)
			mc := k.call(args, nil)
			calls = append(calls, mc)
			ch.add(cb.InputName+" without metadata "+field+": refused", func(j *judge) {
				if !guarded(calls...) {
					j.rejected(mc)
				}
			}, mc)
		}
	}
}

// unknownOutcome: a failure without a known outcome is, for a write,
// UNKNOWN_DISPATCH_OUTCOME and not retryable — through the normaliser, and
// through the Function when its write dispatch fails in transit, which it
// must not retry.
func (k *capPlan) unknownOutcome(ch *check) {
	n := &call{scope: k.cp.ID, target: targetNormalizer, policy: k.policy,
		thrown: canonjson.NewObject(canonjson.Member{Key: "message", Value: canonjson.String("synthetic failure without an outcome")})}
	k.p.add(n)
	ch.add("normaliser: an error without a known outcome", func(j *judge) {
		r := first(n)
		if !j.that(r.outcome == outcomeReturned, "the normaliser returns", "%s", outcomeText(r)) {
			return
		}
		code := str(asObject(r.value).At("code"))
		j.that(code == unknownOutcomeCode, "code "+unknownOutcomeCode, "code %q", code)
		notRetryable(j, r.value)
	}, n)
	if !k.http {
		return
	}
	out := k.outputStepIndex()
	transit := canonjson.NewObject(
		canonjson.Member{Key: "message", Value: canonjson.String("socket hang up")},
		canonjson.Member{Key: "code", Value: canonjson.String("ECONNRESET")},
	)
	c := k.call(k.args, k.throwing(out, transit))
	ch.add("the write dispatch fails in transit", func(j *judge) {
		r := first(c)
		j.that(r.outcome == outcomeThrew, "the call fails", "%s", outcomeText(r))
		want := out + 1
		if guarded(c) {
			want = 1
		}
		j.that(len(r.dispatches) == want, "the failed write is not retried", "%d dispatch(es), want %d", len(r.dispatches), want)
		if r.outcome == outcomeThrew {
			code := str(asObject(r.normalized).At("code"))
			j.that(code == unknownOutcomeCode, "normalised code "+unknownOutcomeCode, "code %q", code)
			notRetryable(j, r.normalized)
		}
	}, c)
}

// businessRule is a structured refusal of the target API's business rules.
func businessRule() *canonjson.Object {
	return canonjson.NewObject(
		canonjson.Member{Key: "code", Value: canonjson.String("SYNTHETIC_BUSINESS_RULE")},
		canonjson.Member{Key: "message", Value: canonjson.String("the synthetic backend refuses this request")},
		canonjson.Member{Key: "details", Value: canonjson.NewObject(canonjson.Member{Key: "field", Value: canonjson.String("synthetic-field")})},
	)
}

// businessError: the backend's business refusal is a structured error with
// a known outcome, not retried — through the normaliser, and through the
// Function when the write step answers with it.
func (k *capPlan) businessError(ch *check) {
	thrown := businessRule()
	thrown.Set("outcomeKnown", canonjson.Bool(true))
	n := &call{scope: k.cp.ID, target: targetNormalizer, policy: k.policy, thrown: thrown}
	k.p.add(n)
	ch.add("normaliser: a known business refusal", func(j *judge) {
		r := first(n)
		if !j.that(r.outcome == outcomeReturned, "the normaliser returns", "%s", outcomeText(r)) {
			return
		}
		v := asObject(r.value)
		j.that(str(v.At("code")) == "SYNTHETIC_BUSINESS_RULE", "the business code is kept", "code %s", show(v.At("code")))
		notRetryable(j, v)
		j.that(asObject(v.At("details")).At("outcomeKnown") == canonjson.Bool(true), "details.outcomeKnown is true", "details %s", show(v.At("details")))
	}, n)
	if !k.http {
		return
	}
	out := k.outputStepIndex()
	c := k.call(k.args, k.rejecting(out, 422, businessRule()))
	ch.add("the write step answers 422 with a business refusal", func(j *judge) {
		if guarded(c) {
			j.cannot(guardedReason)
			return
		}
		r := first(c)
		j.that(r.outcome == outcomeThrew, "the call fails", "%s", outcomeText(r))
		j.that(len(r.dispatches) == out+1, "the refused write is not retried", "%d dispatch(es)", len(r.dispatches))
		if r.outcome != outcomeThrew {
			return
		}
		norm := asObject(r.normalized)
		k.envelope(j, norm)
		code := str(norm.At("code"))
		j.that(code != unknownOutcomeCode, "the refusal keeps a known outcome", "normalised code %s: the Function did not mark the response-proven refusal outcomeKnown", code)
		notRetryable(j, norm)
		k.category(j, norm, 422)
	}, c)
}

// derivedComposition: a composition the contract derives (no source
// observed it) must not loosen the target's contract or bypass its write
// guard: the target still refuses an unexpected argument, and a guarded
// target dispatches nothing without its protected operation.
func (k *capPlan) derivedComposition(ch *check) {
	for _, e := range k.c.CapabilityGraph.Edges {
		if e.Composition != contract.CompositionDerived || (e.FromCapabilityID != k.cp.ID && e.ToCapabilityID != k.cp.ID) {
			continue
		}
		label := e.FromCapabilityID + " -> " + e.ToCapabilityID
		t := k.p.capPlan(e.ToCapabilityID)
		if t == nil || t.argsErr != nil {
			ch.unbuilt(label, "the target capability has no valid arguments to call it with")
			continue
		}
		control := t.validCall()
		ch.add(label+": control, the target accepts valid arguments", func(j *judge) { t.accepted(j, control) }, control)
		loose := canonjson.Clone(t.args).(*canonjson.Object)
		loose.Set(unexpectedArgument, canonjson.Bool(true))
		c := t.call(loose, nil)
		ch.add(label+": the target still refuses an unexpected argument", func(j *judge) { j.rejected(c) }, c)
		if t.workflow != nil {
			bypass := t.validCall()
			bypass.trusted.protect = false
			ch.add(label+": the guarded target dispatches nothing without its protected operation", func(j *judge) { j.rejected(bypass) }, bypass)
		}
	}
	if len(ch.vectors) == 0 {
		ch.uncovered = "no derived composition touches the capability"
	}
}

// dryRunEquality: the MCP adapter's dry-run answers the contract's envelope
// without dispatching, its validatedInput is the arguments, and the real
// callback sends exactly what the Function sends for those arguments.
func (k *capPlan) dryRunEquality(ch *check) {
	if !k.p.adapter {
		ch.uncovered = "the package has no mcp-tool/index.mjs to run"
		return
	}
	dry := k.adapterCall(k.args, k.responses, true)
	real := k.adapterCall(k.args, k.responses, false)
	direct := k.validCall()
	ch.add("dry-run", func(j *judge) {
		r := first(dry)
		if !j.that(r.outcome == outcomeReturned, "the dry-run callback returns", "%s", outcomeText(r)) {
			return
		}
		j.that(len(r.dispatches) == 0, "the dry-run dispatches nothing", "%d dispatch(es)", len(r.dispatches))
		res := asObject(r.value)
		j.that(res.At("isError") == canonjson.Bool(false), "isError is false", "isError %s", show(res.At("isError")))
		sc := asObject(res.At("structuredContent"))
		keys := sc.Keys()
		j.that(len(keys) == 4 && sc.Has("dryRun") && sc.Has("validatedInput") && sc.Has("operationPolicy") && sc.Has("operationSummary"),
			"structuredContent is exactly {dryRun, validatedInput, operationPolicy, operationSummary}", "keys %q", keys)
		j.that(sc.At("dryRun") == canonjson.Bool(true), "dryRun is true", "dryRun %s", show(sc.At("dryRun")))
		j.that(canonjson.Equal(sc.At("validatedInput"), k.args), "validatedInput is exactly the arguments", "validatedInput %s, arguments %s", show(sc.At("validatedInput")), show(k.args))
		j.that(canonjson.Equal(sc.At("operationPolicy"), k.policy), "operationPolicy is the contract's", "found %s", show(sc.At("operationPolicy")))
		j.that(canonjson.Equal(sc.At("operationSummary"), k.tool.OperationSummary), "operationSummary is the derived one", "found %s", show(sc.At("operationSummary")))
		j.that(textMatches(res, sc), "a text block holds the same JSON", "content %s", show(res.At("content")))
	}, dry)
	ch.add("real call sends what the Function sends for validatedInput", func(j *judge) {
		rr, rd := first(real), first(direct)
		j.that(rr.outcome == outcomeReturned, "the real callback returns", "%s", outcomeText(rr))
		k.accepted(j, direct)
		if rr.outcome != outcomeReturned || rd.outcome != outcomeReturned {
			return
		}
		res := asObject(rr.value)
		j.that(res.At("isError") == canonjson.Bool(false), "isError is false", "%s", show(rr.value))
		j.that(canonjson.Equal(rr.raw.At("dispatches"), rd.raw.At("dispatches")), "the real call dispatches exactly what the Function dispatches",
			"callback %s, Function %s", show(rr.raw.At("dispatches")), show(rd.raw.At("dispatches")))
		j.that(canonjson.Equal(res.At("structuredContent"), rd.value), "structuredContent is the Function's result", "callback %s, Function %s",
			show(res.At("structuredContent")), show(rd.value))
	}, real, direct)
	if !k.http {
		return
	}
	transit := canonjson.NewObject(
		canonjson.Member{Key: "message", Value: canonjson.String("socket hang up")},
		canonjson.Member{Key: "code", Value: canonjson.String("ECONNRESET")},
	)
	failing := k.adapterCall(k.args, k.throwing(0, transit), false)
	ch.add("real call failing in transit", func(j *judge) {
		r := first(failing)
		if !j.that(r.outcome == outcomeReturned, "the real callback returns", "%s", outcomeText(r)) {
			return
		}
		res, err := toolresult.Parse(r.value)
		if !j.that(err == nil && res.IsError, "the result is a Tool error (isError: true)", "%s", show(r.value)) {
			return
		}
		e, from := res.ReadError()
		if j.that(from == toolresult.FromText, "the structured error is the JSON of the result's text", "content %s", show(asObject(r.value).At("content"))) {
			k.envelope(j, e)
		}
	}, failing)
}

// clientFindings judges every result a Tool callback returned as the
// clients that receive it would (internal/toolresult), against the output
// schema the Tool lists in the call's mode: each way they would throw, or
// leave the caller without the error, is a finding naming the Tool and
// the clients.
func (p *planner) clientFindings() []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, c := range p.calls {
		if c.target != targetAdapter {
			continue
		}
		r := first(c)
		if r.outcome != outcomeReturned {
			continue // the check the call belongs to says why
		}
		res, err := toolresult.Parse(r.value)
		if err != nil {
			out = append(out, RuleClientRefused.New(adapterFile, "tool %q: the callback returned no MCP Tool result: %v", c.tool, err))
			continue
		}
		what := "a call"
		if c.dryRun {
			what = "a dry-run call"
		}
		for _, pr := range toolresult.Judge(c.listed, res) {
			out = append(out, RuleClientRefused.New(adapterFile, "tool %q, %s: %s; fails in %s", c.tool, what, pr.Message, strings.Join(pr.Clients, ", ")))
		}
	}
	return out
}

// adapterFile is the module whose Tool callbacks clientFindings judges.
const adapterFile = "mcp-tool/index.mjs"

// textMatches reports whether a Tool result has a text block whose JSON is
// structuredContent.
func textMatches(res *canonjson.Object, sc canonjson.Value) bool {
	content, _ := res.At("content").(canonjson.Array)
	for _, b := range content {
		bo := asObject(b)
		if str(bo.At("type")) != "text" {
			continue
		}
		if v, err := canonjson.Decode([]byte(str(bo.At("text")))); err == nil && canonjson.Equal(v, sc) {
			return true
		}
	}
	return false
}
