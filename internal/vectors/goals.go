package vectors

import (
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/goalstate"
	"github.com/code2skill/code2skill/internal/jsonschema"
	"github.com/code2skill/code2skill/internal/sample"
)

// Goal check suffixes (spec §8.1): goal-<goalId>-<suffix>.
const (
	goalOrders      = "different-information-orders-converge"
	goalAllKnown    = "all-known-skips-questions-and-tools"
	goalAsksMissing = "asks-only-currently-missing"
	goalConditional = "conditional-branches"
)

// goalPlan is what goal vectors of one goal start from: its evaluator and a
// sample value of every need.
type goalPlan struct {
	g       *contract.Goal
	eval    *goalstate.Evaluator
	samples *canonjson.Object // informationId -> sample
	solver  *sample.Solver    // over an object schema of the needs
	err     error
	vectors map[string][]*vector // built goal vectors, by check suffix
}

func (p *planner) goalPlan(g *contract.Goal) *goalPlan {
	if gp, ok := p.goals[g.ID]; ok {
		return gp
	}
	gp := &goalPlan{g: g, samples: &canonjson.Object{}, vectors: map[string][]*vector{}}
	p.goals[g.ID] = gp
	gp.eval, gp.err = goalstate.New(g)
	props := &canonjson.Object{}
	for i := range g.InformationNeeds {
		n := &g.InformationNeeds[i]
		s := n.Schema
		if s == nil {
			s = canonjson.NewObject(canonjson.Member{Key: "type", Value: canonjson.String(n.Type)})
		}
		props.Set(n.ID, s)
		if gp.err != nil {
			continue
		}
		v, err := sample.Value(s)
		if err != nil {
			gp.err = fmt.Errorf("no sample of need %q: %w", n.ID, err)
			continue
		}
		gp.samples.Set(n.ID, v)
	}
	schema := canonjson.NewObject(
		canonjson.Member{Key: "type", Value: canonjson.String("object")},
		canonjson.Member{Key: "properties", Value: props},
	)
	if gp.err == nil {
		var compiled *jsonschema.Schema
		if compiled, gp.err = p.compile(schema); gp.err == nil {
			gp.solver = sample.SolverFor(schema, compiled)
		}
	}
	return gp
}

// entries returns the state holding the samples of the given needs (all of
// them when ids is nil), acquired now, in the given order.
func (gp *goalPlan) entries(values *canonjson.Object, ids []string) []goalstate.Entry {
	if ids == nil {
		ids = values.Keys()
	}
	var out []goalstate.Entry
	for _, id := range ids {
		if v, ok := values.Get(id); ok {
			out = append(out, goalstate.Entry{InformationID: id, Value: v, AcquiredNow: true})
		}
	}
	return out
}

// allKnown returns the state holding every need's sample and, for a
// workflow-completed goal, the workflow's completion.
func (gp *goalPlan) allKnown() []goalstate.Entry {
	st := gp.entries(gp.samples, nil)
	if p := gp.g.CompletionPredicate; p.Operator == contract.PredicateWorkflowCompleted {
		st = append(st, goalstate.Entry{InformationID: goalstate.WorkflowMarker(p.WorkflowID), Value: canonjson.String("completed"), AcquiredNow: true})
	}
	return st
}

// unconditional returns the needs a goal always needs.
func (gp *goalPlan) unconditional() []string {
	var out []string
	for _, n := range gp.g.InformationNeeds {
		switch n.Classification {
		case contract.ClassRequired, contract.ClassDerived, contract.ClassDynamic:
			out = append(out, n.ID)
		}
	}
	return out
}

// goalCheck builds a goal check of a capability: goal-<goalId>-<suffix>.
func (p *planner) goalCheck(ch *check, cp *contract.Capability) {
	var gp *goalPlan
	var suffix string
	for i := range p.in.Contract.Goals {
		g := &p.in.Contract.Goals[i]
		if s, ok := strings.CutPrefix(ch.id, "goal-"+g.ID+"-"); ok {
			gp, suffix = p.goalPlan(g), s
			break
		}
	}
	switch {
	case gp == nil:
		ch.uncovered = "the check names no goal of the contract"
		return
	case gp.err != nil:
		ch.uncovered = gp.err.Error()
		return
	}
	// Goal state does not depend on the capability: every capability that
	// names a goal check shares its vectors (the conditional branches
	// depend on the capability).
	key := suffix
	if suffix == goalConditional {
		key += "\x00" + cp.ID
	}
	if vs, ok := gp.vectors[key]; ok {
		ch.vectors = vs
		return
	}
	switch suffix {
	case goalOrders:
		gp.orders(ch)
	case goalAllKnown:
		gp.known(ch)
	case goalAsksMissing:
		gp.asks(ch)
	case goalConditional:
		gp.conditional(ch, cp.ID)
	default:
		ch.uncovered = "a declared goal check that no mechanical vector derives from the contract"
		return
	}
	gp.vectors[key] = ch.vectors
}

// state adds a vector evaluating one state, with the state and the result
// as its evidence.
func (gp *goalPlan) state(ch *check, name string, st []goalstate.Entry, assert func(j *judge, r *goalstate.Result)) {
	r := gp.eval.Evaluate(st)
	v := ch.add(name, func(j *judge) { assert(j, r) })
	v.evidence = canonjson.NewObject(
		canonjson.Member{Key: "state", Value: stateValue(st)},
		canonjson.Member{Key: "result", Value: resultValue(r)},
	)
}

// orders: an empty state is incomplete; every order of arrival of all the
// information gives the same complete result; a state holding one always
// needed piece misses every other always needed piece.
func (gp *goalPlan) orders(ch *check) {
	gp.state(ch, "nothing known", nil, func(j *judge, r *goalstate.Result) {
		j.that(!r.Complete, "the goal is not complete", "complete with nothing known")
	})
	all := gp.allKnown()
	want := resultValue(gp.eval.Evaluate(all))
	for i := range all {
		rotated := append(slices.Clone(all[i:]), all[:i]...)
		gp.state(ch, fmt.Sprintf("everything known, arriving from the %d. piece on", i+1), rotated, func(j *judge, r *goalstate.Result) {
			j.that(r.Complete, "the goal is complete", "missing %q, pending %q", r.Missing, r.PendingConditional)
			j.that(canonjson.Equal(resultValue(r), want), "the result does not depend on the order", "%s, want %s", show(resultValue(r)), show(want))
		})
	}
	reversed := slices.Clone(all)
	slices.Reverse(reversed)
	gp.state(ch, "everything known, in reverse order", reversed, func(j *judge, r *goalstate.Result) {
		j.that(canonjson.Equal(resultValue(r), want), "the result does not depend on the order", "%s, want %s", show(resultValue(r)), show(want))
	})
	always := gp.unconditional()
	for _, id := range always {
		gp.state(ch, "only "+id+" known", gp.entries(gp.samples, []string{id}), func(j *judge, r *goalstate.Result) {
			j.that(slices.Contains(r.Satisfied, id) && !slices.Contains(r.Missing, id), id+" is satisfied", "satisfied %q", r.Satisfied)
			for _, other := range always {
				if other != id {
					j.that(slices.Contains(r.Missing, other), other+" is still missing", "missing %q", r.Missing)
				}
			}
		})
	}
}

// known: with everything known the goal is complete and asks nothing and
// calls nothing.
func (gp *goalPlan) known(ch *check) {
	gp.state(ch, "everything known", gp.allKnown(), func(j *judge, r *goalstate.Result) {
		j.that(r.Complete, "the goal is complete", "missing %q, pending %q, invalid %q", r.Missing, r.PendingConditional, r.Invalid)
		j.that(len(r.Ask) == 0, "no question is asked", "asks %q", r.Ask)
		j.that(len(r.Acquire) == 0, "no capability is called", "calls %q", r.Acquire)
		j.that(len(r.TrustedContext) == 0, "nothing is requested from the Host", "requests %q", r.TrustedContext)
	})
}

// asks: with nothing known, exactly the always needed information (and what
// pending conditions read) is missing; the user is asked only what no
// capability or trusted context supplies, never derived or dynamic
// information; every missing piece has a way to be obtained; once the
// answers are known nothing is asked again.
func (gp *goalPlan) asks(ch *check) {
	g := gp.g
	wantMissing := gp.unconditional()
	for _, n := range g.InformationNeeds {
		if n.Classification == contract.ClassRequiredWhen && n.Condition != nil {
			for _, root := range condition.Roots(n.Condition.Raw) {
				if _, ok := g.Need(root); ok && !slices.Contains(wantMissing, root) {
					wantMissing = append(wantMissing, root)
				}
			}
		}
	}
	var wantAsk, wantAcquire []string
	for _, n := range g.InformationNeeds {
		if !slices.Contains(wantMissing, n.ID) {
			continue
		}
		user, other := false, false
		for _, s := range n.SatisfiedBy {
			switch s.Kind {
			case contract.SatisfiedByUser:
				user = true
			case contract.SatisfiedByCapability:
				other = true
				if !slices.Contains(wantAcquire, s.CapabilityID) {
					wantAcquire = append(wantAcquire, s.CapabilityID)
				}
			default:
				other = true
			}
		}
		if user && !other && n.Classification != contract.ClassDerived && n.Classification != contract.ClassDynamic {
			wantAsk = append(wantAsk, n.ID)
		}
	}
	sameSet := func(a, b []string) bool {
		a, b = slices.Clone(a), slices.Clone(b)
		slices.Sort(a)
		slices.Sort(b)
		return slices.Equal(a, b)
	}
	gp.state(ch, "nothing known", nil, func(j *judge, r *goalstate.Result) {
		j.that(sameSet(r.Missing, wantMissing), "exactly the currently needed information is missing", "missing %q, want %q", r.Missing, wantMissing)
		j.that(sameSet(r.Ask, wantAsk), "only what nothing else supplies is asked", "asks %q, want %q", r.Ask, wantAsk)
		j.that(sameSet(r.Acquire, wantAcquire), "every provider of missing information is offered", "acquires %q, want %q", r.Acquire, wantAcquire)
		for _, id := range r.Missing {
			routed := slices.Contains(r.Ask, id) || slices.Contains(r.TrustedContext, id) ||
				slices.ContainsFunc(r.Options, func(o goalstate.Option) bool { return o.InformationID == id })
			j.that(routed, "missing "+id+" can be obtained", "no capability, trusted context or question supplies it")
		}
	})
	gp.state(ch, "the asked information known", gp.entries(gp.samples, wantAsk), func(j *judge, r *goalstate.Result) {
		for _, id := range wantAsk {
			j.that(!slices.Contains(r.Ask, id) && slices.Contains(r.Satisfied, id), id+" is not asked again", "asks %q", r.Ask)
		}
	})
}

// conditional: for each requiredWhen need that links the conditional
// capability (it provides the need, or the need supplies its input), the
// need is active and obtainable while its condition holds, and inactive,
// without calling the capability for it, while the condition does not.
func (gp *goalPlan) conditional(ch *check, capabilityID string) {
	for _, n := range gp.g.InformationNeeds {
		if n.Classification != contract.ClassRequiredWhen || n.Condition == nil {
			continue
		}
		linked := slices.ContainsFunc(n.SatisfiedBy, func(s contract.NeedSource) bool { return s.CapabilityID == capabilityID }) ||
			slices.ContainsFunc(n.Supplies, func(s contract.Supply) bool { return s.CapabilityID == capabilityID })
		if !linked {
			continue
		}
		id, cond := n.ID, n.Condition.Raw
		base := canonjson.Clone(gp.samples).(*canonjson.Object)
		base.Delete(id)
		for _, want := range []condition.Truth{condition.True, condition.False} {
			values, ok := gp.solver.Solve(cond, want, base)
			label := id + " condition " + want.String()
			if !ok {
				ch.unbuilt(label, "no sample of the needs makes the condition "+want.String())
				continue
			}
			values.Delete(id)
			st := gp.entries(values, nil)
			if want == condition.True {
				gp.state(ch, label, st, func(j *judge, r *goalstate.Result) {
					j.that(slices.Contains(r.Active, id) && slices.Contains(r.Missing, id), id+" is needed", "active %q, missing %q", r.Active, r.Missing)
					routed := slices.Contains(r.Ask, id) || slices.Contains(r.TrustedContext, id) ||
						slices.ContainsFunc(r.Options, func(o goalstate.Option) bool { return o.InformationID == id })
					j.that(routed, id+" can be obtained", "no capability, trusted context or question supplies it")
				})
			} else {
				gp.state(ch, label, st, func(j *judge, r *goalstate.Result) {
					j.that(slices.Contains(r.InactiveConditional, id) && !slices.Contains(r.Missing, id), id+" is not needed",
						"inactive %q, missing %q", r.InactiveConditional, r.Missing)
					j.that(!slices.Contains(r.Acquire, capabilityID), capabilityID+" is not called", "acquires %q", r.Acquire)
				})
			}
		}
	}
	if len(ch.vectors) == 0 {
		ch.uncovered = "no requiredWhen need of the goal links the conditional capability"
	}
}

// stateValue records a state as evidence.
func stateValue(st []goalstate.Entry) canonjson.Value {
	out := canonjson.Array{}
	for _, e := range st {
		o := canonjson.NewObject(
			canonjson.Member{Key: "informationId", Value: canonjson.String(e.InformationID)},
			canonjson.Member{Key: "value", Value: e.Value},
			canonjson.Member{Key: "acquiredNow", Value: canonjson.Bool(e.AcquiredNow)},
		)
		if len(e.ReuseProof) > 0 {
			o.Set("reuseProof", canonjson.Strings(e.ReuseProof))
		}
		out = append(out, o)
	}
	return out
}

// resultValue records a goal-state result as evidence.
func resultValue(r *goalstate.Result) canonjson.Value {
	list := func(ids []string) canonjson.Value { return canonjson.Strings(append([]string{}, ids...)) }
	options := canonjson.Array{}
	for _, o := range r.Options {
		options = append(options, canonjson.NewObject(
			canonjson.Member{Key: "informationId", Value: canonjson.String(o.InformationID)},
			canonjson.Member{Key: "kind", Value: canonjson.String(o.Kind)},
			canonjson.Member{Key: "capabilityIds", Value: list(o.CapabilityIDs)},
		))
	}
	return canonjson.NewObject(
		canonjson.Member{Key: "active", Value: list(r.Active)},
		canonjson.Member{Key: "inactiveConditional", Value: list(r.InactiveConditional)},
		canonjson.Member{Key: "pendingConditional", Value: list(r.PendingConditional)},
		canonjson.Member{Key: "satisfied", Value: list(r.Satisfied)},
		canonjson.Member{Key: "invalid", Value: list(r.Invalid)},
		canonjson.Member{Key: "stale", Value: list(r.Stale)},
		canonjson.Member{Key: "missing", Value: list(r.Missing)},
		canonjson.Member{Key: "acquire", Value: list(r.Acquire)},
		canonjson.Member{Key: "options", Value: options},
		canonjson.Member{Key: "ask", Value: list(r.Ask)},
		canonjson.Member{Key: "trustedContext", Value: list(r.TrustedContext)},
		canonjson.Member{Key: "complete", Value: canonjson.Bool(r.Complete)},
	)
}
