// Package goalstate evaluates where a Consumer stands on a goal of a
// Canonical Contract: which information is needed now, which is already
// held, and what to do next (acquire it through a capability, take it from
// the Host's trusted context, or ask the user), and whether the goal is
// complete.
//
// The state is the information the Consumer holds, in the order it arrived;
// a later value of the same need replaces an earlier one. Evaluation does
// not depend on that order: information may arrive in any order and the
// result is the same.
//
// The rules (spec 001, "Goal Contract"):
//
//   - required, derived and dynamic needs are always active; a requiredWhen
//     need is active while its condition holds, inactive while it does not,
//     and pending while it cannot be decided (it reads information not held
//     yet) — the information its condition reads then becomes active;
//     optional needs are not needed unless a pending condition reads them;
//   - a value held from an earlier turn counts only with a reuse proof
//     naming every claim of the need's reuseWhile (sameSubject, notExpired,
//     …); a value acquired now always counts; a held value that fails the
//     need's schema is invalid;
//   - an active need without a valid value is missing. Each missing (or
//     invalid) need is obtained through its sources: capability providers
//     (one provider: single-provider; several: one-compatible-provider, to
//     call one of, never all), the Host's trusted context, or the user, who
//     is asked only for what no capability and no trusted context can
//     supply, and never for derived or dynamic information;
//   - all-satisfied goals are complete when nothing is missing, invalid or
//     pending; any-satisfied goals when one of the predicate's needs is
//     satisfied; workflow-completed goals when the state holds the marker
//     "workflow:<id>" with the value true, "completed" or "succeeded". A
//     complete goal whose policy says stopWhenPredicateSatisfied has
//     nothing left to do.
package goalstate

import (
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/jsonschema"
)

// Entry is one piece of information the Consumer holds.
type Entry struct {
	InformationID string // a need's informationId, or "workflow:<id>"
	Value         canonjson.Value
	// AcquiredNow marks a value obtained in the current turn.
	AcquiredNow bool
	// ReuseProof lists the reuse claims proven for a value held from an
	// earlier turn (sameSubject, sameTenant, sameSession, samePayloadDigest,
	// sameVersion, notEdited, notExpired, notConsumed).
	ReuseProof []string
}

// WorkflowMarker is the information ID that records a workflow's completion.
func WorkflowMarker(workflowID string) string { return "workflow:" + workflowID }

// Option is a choice of providers for one missing need.
type Option struct {
	InformationID string   `json:"informationId"`
	Kind          string   `json:"kind"` // single-provider or one-compatible-provider
	CapabilityIDs []string `json:"capabilityIds"`
}

// Option kinds.
const (
	SingleProvider        = "single-provider"
	OneCompatibleProvider = "one-compatible-provider"
)

// Result is the evaluated state of a goal. Lists of needs follow the goal's
// declaration order; capability IDs follow first mention.
type Result struct {
	Active              []string `json:"active"`
	InactiveConditional []string `json:"inactiveConditional"`
	PendingConditional  []string `json:"pendingConditional"`
	Satisfied           []string `json:"satisfied"`
	Invalid             []string `json:"invalid"`
	Stale               []string `json:"stale"`
	Missing             []string `json:"missing"`
	// What to do next.
	Acquire        []string `json:"acquire"`
	Options        []Option `json:"options"`
	Ask            []string `json:"ask"`
	TrustedContext []string `json:"trustedContext"`
	Complete       bool     `json:"complete"`
}

// Evaluator evaluates states of one goal.
type Evaluator struct {
	goal    *contract.Goal
	schemas map[string]*jsonschema.Schema // informationId -> compiled schema
}

// New prepares the evaluation of a goal; it fails when a need's schema does
// not compile.
func New(g *contract.Goal) (*Evaluator, error) {
	e := &Evaluator{goal: g, schemas: map[string]*jsonschema.Schema{}}
	comp := jsonschema.NewCompiler()
	for i := range g.InformationNeeds {
		n := &g.InformationNeeds[i]
		schema := n.Schema
		if schema == nil {
			schema = canonjson.NewObject(canonjson.Member{Key: "type", Value: canonjson.String(n.Type)})
		}
		s, err := comp.Compile(canonjson.Encode(schema))
		if err != nil {
			return nil, fmt.Errorf("goal %q need %q: %w", g.ID, n.ID, err)
		}
		e.schemas[n.ID] = s
	}
	return e, nil
}

// held is what the state says about one need.
type held int8

const (
	none held = iota
	valid
	invalid
	stale
)

// Evaluate evaluates a state.
func (e *Evaluator) Evaluate(state []Entry) *Result {
	g := e.goal
	latest := map[string]Entry{}
	for _, en := range state {
		latest[en.InformationID] = en
	}
	status := map[string]held{}
	for i := range g.InformationNeeds {
		n := &g.InformationNeeds[i]
		en, ok := latest[n.ID]
		switch {
		case !ok:
			status[n.ID] = none
		case !en.AcquiredNow && !reusable(n, en.ReuseProof):
			status[n.ID] = stale
		case len(e.schemas[n.ID].ValidateValue(jsonschema.Native(en.Value))) > 0:
			status[n.ID] = invalid
		default:
			status[n.ID] = valid
		}
	}
	look := func(root string) (canonjson.Value, condition.Presence) {
		if status[root] == valid {
			return latest[root].Value, condition.Present
		}
		return nil, condition.Undecided
	}

	r := &Result{}
	active := map[string]bool{}
	for i := range g.InformationNeeds {
		n := &g.InformationNeeds[i]
		switch n.Classification {
		case contract.ClassRequired, contract.ClassDerived, contract.ClassDynamic:
			active[n.ID] = true
		case contract.ClassRequiredWhen:
			var t condition.Truth = condition.Unknown
			if n.Condition != nil {
				t = condition.Eval(n.Condition.Raw, look)
			}
			switch t {
			case condition.True:
				active[n.ID] = true
			case condition.False:
				r.InactiveConditional = append(r.InactiveConditional, n.ID)
			default:
				r.PendingConditional = append(r.PendingConditional, n.ID)
				if n.Condition != nil {
					for _, root := range condition.Roots(n.Condition.Raw) {
						active[root] = true
					}
				}
			}
		}
	}
	var todo []*contract.Need
	for i := range g.InformationNeeds {
		n := &g.InformationNeeds[i]
		switch status[n.ID] {
		case valid:
			r.Satisfied = append(r.Satisfied, n.ID)
		case invalid:
			r.Invalid = append(r.Invalid, n.ID)
		case stale:
			r.Stale = append(r.Stale, n.ID)
		}
		if !active[n.ID] {
			continue
		}
		r.Active = append(r.Active, n.ID)
		if status[n.ID] != valid {
			if status[n.ID] != invalid {
				r.Missing = append(r.Missing, n.ID)
			}
			todo = append(todo, n)
		}
	}

	switch p := g.CompletionPredicate; p.Operator {
	case contract.PredicateAllSatisfied:
		r.Complete = len(r.Missing) == 0 && len(r.Invalid) == 0 && len(r.PendingConditional) == 0
	case contract.PredicateAnySatisfied:
		r.Complete = slices.ContainsFunc(p.InformationIDs, func(id string) bool { return status[id] == valid })
	case contract.PredicateWorkflowCompleted:
		if en, ok := latest[WorkflowMarker(p.WorkflowID)]; ok {
			switch en.Value {
			case canonjson.Bool(true), canonjson.String("completed"), canonjson.String("succeeded"):
				r.Complete = true
			}
		}
	}
	if r.Complete && g.AgentPolicy.StopWhenPredicateSatisfied {
		todo = nil
	}
	for _, n := range todo {
		e.plan(n, r)
	}
	return r
}

// plan adds what obtaining one need takes to the to-do lists.
func (e *Evaluator) plan(n *contract.Need, r *Result) {
	var providers []string
	var user, trusted bool
	for _, s := range n.SatisfiedBy {
		switch s.Kind {
		case contract.SatisfiedByCapability:
			if !slices.Contains(providers, s.CapabilityID) {
				providers = append(providers, s.CapabilityID)
			}
		case contract.SatisfiedByUser:
			user = true
		case contract.SatisfiedByTrusted:
			trusted = true
		}
	}
	if len(providers) > 0 {
		kind := SingleProvider
		if len(providers) > 1 {
			kind = OneCompatibleProvider
		}
		r.Options = append(r.Options, Option{InformationID: n.ID, Kind: kind, CapabilityIDs: providers})
		for _, id := range providers {
			if !slices.Contains(r.Acquire, id) {
				r.Acquire = append(r.Acquire, id)
			}
		}
	}
	if trusted {
		r.TrustedContext = append(r.TrustedContext, n.ID)
	}
	derivedOrDynamic := n.Classification == contract.ClassDerived || n.Classification == contract.ClassDynamic
	if user && !derivedOrDynamic && len(providers) == 0 && !trusted {
		r.Ask = append(r.Ask, n.ID)
	}
}

// reusable reports whether proof names every claim of the need's
// reuseWhile. A need without reuseWhile has no claim to prove.
func reusable(n *contract.Need, proof []string) bool {
	w := n.ReuseWhile
	if w == nil {
		return true
	}
	for _, c := range []struct {
		name string
		on   bool
	}{
		{"sameSubject", w.SameSubject}, {"sameTenant", w.SameTenant}, {"sameSession", w.SameSession},
		{"samePayloadDigest", w.SamePayloadDigest}, {"sameVersion", w.SameVersion}, {"notEdited", w.NotEdited},
		{"notExpired", w.NotExpired}, {"notConsumed", w.NotConsumed},
	} {
		if c.on && !slices.Contains(proof, c.name) {
			return false
		}
	}
	return true
}
