package vectors

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// check is one behaviour (or workflow bypass) check and the vectors that
// prove it.
type check struct {
	id           string
	phase        string
	capabilityID string // "" for a workflow check
	workflowID   string // "" for a capability check
	pointer      string // where the contract names or implies it
	vectors      []*vector
	uncovered    string // why no vector can prove it ("" when vectors exist)

	status string // passed, failed or uncovered, once judged
	detail string
}

// Check statuses.
const (
	StatusPassed    = "passed"
	StatusFailed    = "failed"
	StatusUncovered = "uncovered"
)

// vector is one scenario of a check: the calls it makes and how their
// outcome is judged.
type vector struct {
	name  string
	calls []*call
	judge func(j *judge)
	// evidence holds what a vector evaluated in Go (goal state) records.
	evidence canonjson.Value

	assertions []assertion
	uncovered  string
}

// assertion is one thing a vector asserts, and whether it held.
type assertion struct {
	what   string
	ok     bool
	detail string
}

// judge collects a vector's assertions.
type judge struct{ v *vector }

// that records an assertion. The detail (a format and its arguments) says
// what was found instead; it is formatted only when the assertion fails, so
// arguments that are costly to render are passed as show(v).
func (j *judge) that(ok bool, what string, detail ...any) bool {
	a := assertion{what: what, ok: ok}
	if !ok && len(detail) > 0 {
		a.detail = fmt.Sprintf(detail[0].(string), detail[1:]...)
	}
	j.v.assertions = append(j.v.assertions, a)
	return ok
}

// cannot marks the vector as unable to prove its point.
func (j *judge) cannot(format string, args ...any) {
	if j.v.uncovered == "" {
		j.v.uncovered = fmt.Sprintf(format, args...)
	}
}

// first returns the first run of a call.
func first(c *call) *run {
	if len(c.runs) == 0 {
		return &run{outcome: outcomeNotRun, detail: "the driver reported nothing for this call"}
	}
	return c.runs[0]
}

// judgeCheck judges every vector of a check and sets its status: failed
// when an assertion failed, uncovered when a vector could not prove its
// point (or there is none), passed otherwise.
func judgeCheck(k *check) {
	if k.uncovered != "" || len(k.vectors) == 0 {
		k.status = StatusUncovered
		if k.uncovered == "" {
			k.uncovered = "no vector derives from the contract"
		}
		k.detail = k.uncovered
		return
	}
	var failed []string
	var uncovered string
	asserted := 0
	for _, v := range k.vectors {
		if v.judge != nil {
			// Goal vectors are shared by the checks of several
			// capabilities: judge afresh each time.
			v.assertions, v.uncovered = nil, ""
			v.judge(&judge{v: v})
		}
		for _, a := range v.assertions {
			asserted++
			if !a.ok {
				msg := v.name + ": " + a.what
				if a.detail != "" {
					msg += ": " + a.detail
				}
				failed = append(failed, msg)
			}
		}
		if v.uncovered != "" && uncovered == "" {
			uncovered = v.name + ": " + v.uncovered
		}
	}
	switch {
	case len(failed) > 0:
		k.status = StatusFailed
		k.detail = failed[0]
		if len(failed) > 1 {
			k.detail += fmt.Sprintf(" (and %d more)", len(failed)-1)
		}
	case uncovered != "":
		k.status, k.uncovered, k.detail = StatusUncovered, uncovered, uncovered
	case asserted == 0:
		k.status, k.uncovered = StatusUncovered, "no assertion was made"
		k.detail = k.uncovered
	default:
		k.status = StatusPassed
		k.detail = fmt.Sprintf("%d vector(s), %d assertion(s) held", len(k.vectors), asserted)
	}
}

// outcomeText says how a run ended, for messages.
func outcomeText(r *run) string {
	switch r.outcome {
	case outcomeReturned:
		return "it returned " + compact(r.value)
	case outcomeThrew:
		s := "it threw " + errorText(r.err)
		if code := str(asObject(r.normalized).At("code")); code != "" {
			s += " (normalised code " + code + ")"
		}
		return s
	}
	if r.detail != "" {
		return r.outcome + ": " + r.detail
	}
	return r.outcome
}

// guarded reports whether any run of the calls dispatched through a
// workflow guard's (safeInput, operation) form.
func guarded(calls ...*call) bool {
	for _, c := range calls {
		for _, r := range c.runs {
			for _, d := range r.dispatches {
				if d.form == "guarded" {
					return true
				}
			}
		}
	}
	return false
}

// guardedReason says why request-level checks cannot be judged for a
// Function that hands its write to the workflow guard's dispatch.
const guardedReason = "the Function hands the write to the workflow guard, which calls the runtime's dispatch with " +
	"(safeInput, operation): the HTTP request is built outside the Function core, so its binding cannot be checked here"

// rejected asserts that a call was refused before anything was dispatched.
func (j *judge) rejected(c *call) bool {
	r := first(c)
	ok := j.that(r.outcome == outcomeThrew, "rejected", "%s", outcomeText(r))
	return j.that(len(r.dispatches) == 0, "nothing dispatched", "%d dispatch(es)", len(r.dispatches)) && ok
}

// asObject returns v as an object (nil when it is not one).
func asObject(v canonjson.Value) *canonjson.Object {
	o, _ := v.(*canonjson.Object)
	return o
}

// atPath reads a member path (no "*") of a value.
func atPath(v canonjson.Value, path []string) (canonjson.Value, bool) {
	return resolvePath(v, path)
}

// contains reports whether any string inside v contains s.
func contains(v canonjson.Value, s string) bool {
	switch v := v.(type) {
	case canonjson.String:
		return strings.Contains(string(v), s)
	case canonjson.Array:
		for _, e := range v {
			if contains(e, s) {
				return true
			}
		}
	case *canonjson.Object:
		for k, e := range v.All() {
			if strings.Contains(k, s) || contains(e, s) {
				return true
			}
		}
	}
	return false
}

// shown renders a JSON value compactly when formatted.
type shown struct{ v canonjson.Value }

func (s shown) String() string { return compact(s.v) }

// show defers rendering a value in an assertion's detail until it is needed.
func show(v canonjson.Value) fmt.Stringer { return shown{v} }
