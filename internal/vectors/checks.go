package vectors

import (
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/jsonschema"
	"github.com/code2skill/code2skill/internal/sample"
)

// Check IDs with a mechanical vector (spec §8.1), and the one this command
// adds for every capability.
const (
	checkValid          = "valid-input-and-output-contract"
	checkInvalid        = "invalid-input-is-rejected"
	checkStructured     = "structured-error-recovery"
	checkBinding        = "exact-request-binding-and-success-status"
	checkDynamic        = "dynamic-values-are-not-frozen"
	checkConditional    = "conditional-rules-cover-active-and-inactive-branches"
	checkOmission       = "optional-upstream-omission-preserves-target-api-decision"
	checkAttachFailure  = "attachment-resolution-failure-zero-dispatch"
	checkAttachContract = "attachment-request-field-and-metadata-contract"
	checkUnknownOutcome = "unknown-write-outcome-is-non-retryable"
	checkBusinessError  = "backend-business-error-is-structured"
	checkComposition    = "derived-composition-preserves-contract-and-write-guards"
	checkEmptyBody      = derive.CheckEmptyBody
	checkConfirmation   = derive.CheckConfirmationRequired
	// CheckDryRun proves that the MCP adapter's dry-run promises exactly
	// the request the real call sends.
	CheckDryRun = "dry-run-request-equals-real-request"
)

// unexpectedArgument is the member an invalid call adds.
const unexpectedArgument = "__code2skill_unexpected_argument__"

// maxInvalidCases bounds the invalid calls of one capability.
const maxInvalidCases = 48

// build returns the check with the given ID for the capability.
func (k *capPlan) build(id, pointer string) *check {
	ch := &check{id: id, phase: contract.PhaseBehavior, capabilityID: k.cp.ID, pointer: pointer}
	if strings.HasPrefix(id, "goal-") {
		k.p.goalCheck(ch, k.cp)
		return ch
	}
	builders := map[string]func(*check){
		checkValid:          k.validContract,
		checkInvalid:        k.invalidRejected,
		checkStructured:     k.structuredError,
		checkBinding:        k.exactBinding,
		checkDynamic:        k.dynamicValues,
		checkConditional:    k.conditionalBranches,
		checkOmission:       k.optionalOmission,
		checkAttachFailure:  k.attachmentFailure,
		checkAttachContract: k.attachmentContract,
		checkUnknownOutcome: k.unknownOutcome,
		checkBusinessError:  k.businessError,
		checkComposition:    k.derivedComposition,
		checkEmptyBody:      k.emptyBody,
		checkConfirmation:   k.confirmationRequired,
		CheckDryRun:         k.dryRunEquality,
	}
	b, ok := builders[id]
	if !ok {
		ch.uncovered = "a declared check that no mechanical vector derives from the contract; prove it with a test of its own"
		return ch
	}
	if k.argsErr != nil {
		ch.uncovered = "no valid arguments could be made from the input schema: " + k.argsErr.Error()
		return ch
	}
	if k.respErr != nil && k.http {
		ch.uncovered = "no responses could be planned for the HTTP steps: " + k.respErr.Error()
		return ch
	}
	b(ch)
	return ch
}

func (ch *check) add(name string, judge func(*judge), calls ...*call) *vector {
	v := &vector{name: name, calls: calls, judge: judge}
	ch.vectors = append(ch.vectors, v)
	return v
}

// stepCount is how many dispatches a successful call makes.
func (k *capPlan) stepCount() int { return len(k.cp.Implementation.Steps) }

// accepted asserts that a call returned and dispatched each step once (or,
// through a workflow guard, once).
func (k *capPlan) accepted(j *judge, c *call) (*run, bool) {
	r := first(c)
	ok := j.that(r.outcome == outcomeReturned, "accepted", "%s", outcomeText(r))
	want := k.stepCount()
	if guarded(c) {
		want = 1
	}
	return r, j.that(len(r.dispatches) == want, "dispatched each step once", "%d dispatch(es), want %d", len(r.dispatches), want) && ok
}

// result asserts the shape of a successful result: {status, data} with the
// planned status, data an object without forbidden keys and with every
// required path, and the whole valid against the derived outputSchema.
func (k *capPlan) result(j *judge, r *run, status canonjson.Value) {
	if r.outcome != outcomeReturned {
		return
	}
	res := asObject(r.value)
	if !j.that(res != nil, "the result is an object", "it is %s", canonjson.TypeName(r.value)) {
		return
	}
	if got := res.At("status"); !canonjson.Equal(got, status) {
		j.that(false, "the result's status is the accepted status", "status %s, want %s", show(got), show(status))
	}
	// Data is an object, or null where the success rule accepts an empty
	// body.
	why := k.cp.SuccessRule.SuccessDataProblem(status, res.At("data"))
	if _, isArray := res.At("data").(canonjson.Array); isArray {
		why = "data is an array"
	}
	j.that(why == "", "the result's data is an object", "%s", why)
	if data := asObject(res.At("data")); data != nil {
		for _, key := range k.cp.SuccessRule.ForbiddenOutputKeys {
			j.that(!data.Has(key), "data has no forbidden key", "data has %q", key)
		}
		for _, p := range k.cp.SuccessRule.RequiredOutputPaths {
			j.that(requiredPresent(data, p), "every required output path is present", "data lacks %s", strings.Join(p, "."))
		}
	}
	vs := k.output.ValidateValue(jsonschema.Native(r.value))
	detail := ""
	if len(vs) > 0 {
		detail = vs[0].String()
	}
	j.that(len(vs) == 0, "the result is valid against the derived outputSchema", "%s", detail)
}

// requiredPresent reports whether a required output path holds a non-null
// value ("*" requires it of every element).
func requiredPresent(v canonjson.Value, path []string) bool {
	if len(path) == 0 {
		_, null := v.(canonjson.Null)
		return v != nil && !null
	}
	if path[0] == "*" {
		arr, ok := v.(canonjson.Array)
		if !ok {
			return false
		}
		for _, e := range arr {
			if !requiredPresent(e, path[1:]) {
				return false
			}
		}
		return true
	}
	o, ok := v.(*canonjson.Object)
	if !ok {
		return false
	}
	child, ok := o.Get(path[0])
	return ok && requiredPresent(child, path[1:])
}

// successStatusValue is the status a successful result carries.
func (k *capPlan) successStatusValue() canonjson.Value {
	if !k.http {
		return canonjson.String("success")
	}
	return canonjson.Number(itoa(k.responses[k.outputStepIndex()].status))
}

// validCall is the call every acceptance control uses.
func (k *capPlan) validCall() *call { return k.call(k.args, k.responses) }

// control adds a vector proving the Function accepts valid arguments, so
// that a check about rejections cannot pass with a Function that refuses
// everything.
func (k *capPlan) control(ch *check) {
	c := k.validCall()
	ch.add("control: valid arguments are accepted", func(j *judge) { k.accepted(j, c) }, c)
}

// validContract: a valid call with minimal arguments succeeds with a result
// the derived outputSchema accepts.
func (k *capPlan) validContract(ch *check) {
	c := k.validCall()
	ch.add("valid call", func(j *judge) {
		r, _ := k.accepted(j, c)
		k.result(j, r, k.successStatusValue())
	}, c)
}

// emptyBody: the output step answering one of the success rule's
// empty-body statuses without a body (data null) gives a success with null
// data, valid against the derived outputSchema; answering another success
// status without a body breaks the output contract.
func (k *capPlan) emptyBody(ch *check) {
	out := k.outputStepIndex()
	step := &k.cp.Implementation.Steps[out]
	answering := func(status int64) []response {
		rs := slices.Clone(k.responses)
		rs[out] = response{status: status, data: canonjson.Null{}}
		return rs
	}
	for _, status := range step.SuccessStatusCodes {
		c := k.call(k.args, answering(status))
		if k.cp.SuccessRule.EmptyBody(status) {
			ch.add(fmt.Sprintf("status %d without a body", status), func(j *judge) {
				r, _ := k.accepted(j, c)
				if r.outcome == outcomeReturned {
					j.that(canonjson.Equal(asObject(r.value).At("data"), canonjson.Null{}), "the result's data is null", "result %s", show(r.value))
				}
				k.result(j, r, canonjson.Number(itoa(status)))
			}, c)
			continue
		}
		ch.add(fmt.Sprintf("status %d without a body", status), func(j *judge) {
			r := first(c)
			j.that(r.outcome == outcomeThrew, "the call fails", "%s", outcomeText(r))
			if r.outcome == outcomeThrew {
				code := str(r.err.At("code"))
				j.that(code == "OUTPUT_CONTRACT_VIOLATED", "the Function reports OUTPUT_CONTRACT_VIOLATED", "code %q", code)
			}
		}, c)
	}
}

// confirmationRequired: a valid call whose trusted runtime context carries
// no confirmation, or an empty one, fails before anything is dispatched,
// with a known outcome; the same call with the confirmation is accepted.
func (k *capPlan) confirmationRequired(ch *check) {
	k.control(ch)
	for _, v := range []struct {
		name    string
		runtime *canonjson.Object
	}{
		{"no confirmation in the runtime context", nil},
		{"an empty confirmation", canonjson.NewObject(canonjson.Member{Key: "confirmationGrantId", Value: canonjson.String("")})},
	} {
		c := k.validCall()
		c.runtime = v.runtime
		ch.add(v.name, func(j *judge) {
			r := first(c)
			j.that(r.outcome == outcomeThrew, "the call fails", "%s", outcomeText(r))
			j.that(len(r.dispatches) == 0, "nothing is dispatched", "%d dispatch(es)", len(r.dispatches))
			if r.outcome == outcomeThrew {
				j.that(r.err.At("outcomeKnown") == canonjson.Bool(true), "the outcome is known", "outcomeKnown is %s", show(r.err.At("outcomeKnown")))
				notRetryable(j, r.normalized)
			}
		}, c)
	}
}

// invalidCase is a call with arguments the contract refuses.
type invalidCase struct {
	name string
	args *canonjson.Object
}

// invalidCases returns the invalid calls of the capability: an unexpected
// member first, then each required input missing, each input breaking one
// keyword of its schema, and each constraint the Function enforces broken.
func (k *capPlan) invalidCases() []invalidCase {
	out := []invalidCase{}
	with := func(name string, v canonjson.Value) *canonjson.Object {
		a := canonjson.Clone(k.args).(*canonjson.Object)
		a.Set(name, v)
		return a
	}
	out = append(out, invalidCase{"unexpected argument " + unexpectedArgument, with(unexpectedArgument, canonjson.Bool(true))})
	for _, name := range canonjson.StringsOf(k.tool.InputSchema.At("required")) {
		a := canonjson.Clone(k.args).(*canonjson.Object)
		a.Delete(name)
		out = append(out, invalidCase{"required input " + name + " missing", a})
	}
	props, _ := k.tool.InputSchema.At("properties").(*canonjson.Object)
	for name, schema := range props.All() {
		for _, v := range sample.Violations(schema) {
			a := with(name, v.Value)
			if k.valid(a) {
				continue // not a violation after all
			}
			out = append(out, invalidCase{fmt.Sprintf("input %s breaks %s", name, v.Keyword), a})
		}
	}
	for _, c := range k.cp.Constraints {
		if !enforcedByFunction(&c) {
			continue // enforced by the runtime or Host, outside the Function
		}
		switch {
		case c.Kind == "forbidden-shape" && len(c.Path) > 0:
			if a, ok := k.forbiddenShape(c); ok {
				out = append(out, invalidCase{"constraint " + c.ID + " broken", a})
			}
		case c.If != nil && c.Then != nil:
			if a, ok := k.solve(c.If.Raw, condition.True, k.args); ok {
				if a, ok = k.solve(c.Then.Raw, condition.False, a); ok &&
					condition.Eval(c.If.Raw, condition.Values(a)) == condition.True {
					out = append(out, invalidCase{"constraint " + c.ID + " broken", a})
				}
			}
		}
	}
	if len(out) > maxInvalidCases {
		out = out[:maxInvalidCases]
	}
	return out
}

// forbiddenShape returns arguments with a value where a forbidden-shape
// constraint forbids one (predicate absent) or a non-empty one (empty).
func (k *capPlan) forbiddenShape(c contract.Constraint) (*canonjson.Object, bool) {
	pred := asObject(c.Predicate)
	op := str(pred.At("operator"))
	if op != condition.OpAbsent && op != condition.OpEmpty {
		return nil, false
	}
	a := canonjson.Clone(k.args).(*canonjson.Object)
	root, ok := a.Get(c.Path[0])
	if len(c.Path) == 1 {
		a.Set(c.Path[0], canonjson.String("synthetic-forbidden-value"))
		return a, true
	}
	o, isObj := root.(*canonjson.Object)
	if !ok || !isObj {
		return nil, false
	}
	o = canonjson.Clone(o).(*canonjson.Object)
	setPath(o, c.Path[1:], canonjson.String("synthetic-forbidden-value"))
	a.Set(c.Path[0], o)
	return a, true
}

// invalidRejected: each invalid call is refused before anything is
// dispatched.
func (k *capPlan) invalidRejected(ch *check) {
	k.control(ch)
	for _, ic := range k.invalidCases() {
		c := k.call(ic.args, nil)
		ch.add(ic.name, func(j *judge) { j.rejected(c) }, c)
	}
}

// structuredError: the first invalid call's error, through the package's
// normaliser, has the contract's envelope; a write refused before dispatch
// keeps a known outcome.
func (k *capPlan) structuredError(ch *check) {
	k.control(ch)
	ic := k.invalidCases()[0]
	c := k.call(ic.args, nil)
	ch.add(ic.name+", normalised", func(j *judge) {
		if !j.rejected(c) {
			return
		}
		k.envelope(j, first(c).normalized)
		if k.cp.IsWrite() {
			code := str(asObject(first(c).normalized).At("code"))
			j.that(code != unknownOutcomeCode, "a write refused before dispatch keeps a known outcome",
				"normalised code %s: the Function's input error lacks outcomeKnown: true", code)
		}
	}, c)
}

// unknownOutcomeCode is the normaliser's code for a write whose outcome is
// unknown.
const unknownOutcomeCode = "UNKNOWN_DISPATCH_OUTCOME"

// envelope asserts the error contract's envelope: a non-empty string code,
// a string message, object details, and a boolean retryability where the
// contract declares one.
func (k *capPlan) envelope(j *judge, normalized canonjson.Value) {
	ec := &k.cp.ErrorContract
	if !j.that(asObject(normalized) != nil, "the normalised error is an object", "it is %s", canonjson.TypeName(normalized)) {
		return
	}
	code, _ := atPath(normalized, ec.CodePath)
	s, ok := code.(canonjson.String)
	j.that(ok && s != "", "a non-empty code at "+strings.Join(ec.CodePath, "."), "found %s", show(code))
	msg, _ := atPath(normalized, ec.MessagePath)
	_, ok = msg.(canonjson.String)
	j.that(ok, "a message at "+strings.Join(ec.MessagePath, "."), "found %s", show(msg))
	details, _ := atPath(normalized, ec.DetailsPath)
	j.that(asObject(details) != nil, "details at "+strings.Join(ec.DetailsPath, "."), "found %s", show(details))
	if ec.RetryabilityPath != nil {
		r, _ := atPath(normalized, ec.RetryabilityPath)
		_, ok = r.(canonjson.Bool)
		j.that(ok, "a boolean at "+strings.Join(ec.RetryabilityPath, "."), "found %s", show(r))
	}
}

// notRetryable asserts a normalised error says retryable: false.
func notRetryable(j *judge, normalized canonjson.Value) {
	r := asObject(normalized).At("retryable")
	j.that(r == canonjson.Bool(false), "not retryable", "retryable is %s", show(r))
}

// rejectionCategory is the failure category the contract gives a step's
// rejected status: its sourceError's categoryByStatus, else what the
// status class means (401 and 403 authorization, 408, 429 and 5xx
// upstream, another 4xx business).
func (k *capPlan) rejectionCategory(status int) string {
	if se := k.cp.ErrorContract.SourceError; se != nil {
		if c, ok := se.CategoryByStatus[status]; ok {
			return c
		}
	}
	switch {
	case status == 401 || status == 403:
		return contract.CategoryAuthorization
	case status >= 400 && status < 500 && status != 408 && status != 429:
		return contract.CategoryBusiness
	}
	return contract.CategoryUpstream
}

// category asserts that a normalised refusal of status keeps the category
// the contract gives it: a business refusal does not read as the
// backend's failure, nor an authorization one as the caller's input.
func (k *capPlan) category(j *judge, normalized canonjson.Value, status int) {
	want := k.rejectionCategory(status)
	details, _ := atPath(normalized, k.cp.ErrorContract.DetailsPath)
	got := asObject(details).At("category")
	j.that(got == canonjson.String(want), "the refusal's category is "+want, "details.category is %s", show(got))
}

// exactBinding: the valid call dispatches exactly the requests the bindings
// build and maps the output step's response to the result; a non-accepted
// status stops the call after one dispatch with a structured, non-retryable
// error.
func (k *capPlan) exactBinding(ch *check) {
	want, err := k.expectedRequests(k.args, k.responses, k.attachments)
	if err != nil {
		ch.uncovered = err.Error()
		return
	}
	c := k.validCall()
	ch.add("request binding", func(j *judge) {
		if guarded(c) {
			j.cannot(guardedReason)
			return
		}
		r, _ := k.accepted(j, c)
		k.requests(j, r, want)
		if r.outcome == outcomeReturned {
			out := k.responses[k.outputStepIndex()]
			res := asObject(r.value)
			j.that(canonjson.Equal(res.At("status"), canonjson.Number(itoa(out.status))) && canonjson.Equal(res.At("data"), out.data),
				"the result maps the output step's response", "result %s, response status %d data %s", show(r.value), out.status, show(out.data))
		}
	}, c)
	status := int64(500)
	if slices.Contains(k.cp.Implementation.Steps[0].SuccessStatusCodes, status) {
		status = 418
	}
	bad := k.call(k.args, k.rejecting(0, status, canonjson.NewObject(canonjson.Member{Key: "message", Value: canonjson.String("synthetic upstream failure")})))
	ch.add(fmt.Sprintf("non-accepted status %d", status), func(j *judge) {
		if guarded(bad) {
			j.cannot(guardedReason)
			return
		}
		r := first(bad)
		j.that(r.outcome == outcomeThrew, "the call fails", "%s", outcomeText(r))
		j.that(len(r.dispatches) == 1, "the first step is dispatched once and nothing after it", "%d dispatch(es)", len(r.dispatches))
		if r.outcome == outcomeThrew {
			code := str(asObject(r.normalized).At("code"))
			j.that(code != "", "the normalised error has a code", "normalised %s", show(r.normalized))
			notRetryable(j, r.normalized)
		}
	}, bad)
}

// requests compares a run's dispatches with the expected requests.
func (k *capPlan) requests(j *judge, r *run, want []request) {
	if !j.that(len(r.dispatches) == len(want), "one request per step", "%d dispatch(es), want %d", len(r.dispatches), len(want)) {
		return
	}
	for i, w := range want {
		diff := compareRequest(r.dispatches[i], w)
		j.that(diff == "", "step "+w.stepID+" sends exactly its bound request", "%s", diff)
	}
}

// bindingsOf returns the bindings that place an input in a request.
func (k *capPlan) bindingsOf(input string) []contract.Binding {
	var out []contract.Binding
	for _, s := range k.cp.Implementation.Steps {
		for _, b := range s.Bindings {
			if b.Source.Kind == contract.SourceInput && b.Source.InputName == input {
				out = append(out, b)
			}
		}
	}
	return out
}

// stepOf returns the index of the step holding binding b.
func (k *capPlan) stepOf(b contract.Binding) int {
	for i, s := range k.cp.Implementation.Steps {
		for _, x := range s.Bindings {
			if x.At == b.At {
				return i
			}
		}
	}
	return -1
}

// sent returns the value a dispatch carries at a binding's target.
func sent(d dispatch, b contract.Binding) (canonjson.Value, bool) {
	if d.form != "http" {
		return nil, false
	}
	switch b.Location {
	case "query", "body", "multipart":
		v := member(d.options, b.Location)
		if b.Location == "multipart" {
			v = formData(v)
		}
		return resolvePath(v, b.Path)
	case "header":
		h := asObject(d.options.At("headers"))
		for name, v := range h.All() {
			if strings.EqualFold(name, b.Path[0]) {
				return v, true
			}
		}
	case "path":
		return canonjson.String(d.url), true
	}
	return nil, false
}

// dynamicValues: two calls with different dynamic values (inputs from
// upstream, outputs of a dynamic domain) each carry their own value through:
// nothing observed once is frozen.
func (k *capPlan) dynamicValues(ch *check) {
	var inputs []string
	for _, in := range k.cp.Inputs {
		if in.InformationClass == contract.ClassDynamic || in.ValueDomain.Kind == contract.DomainDynamic {
			inputs = append(inputs, in.Name)
		}
	}
	var outputs [][]string
	for _, o := range k.cp.Outputs {
		if o.ValueDomain != nil && o.ValueDomain.Kind == contract.DomainDynamic && !slices.Contains(o.Path, "*") {
			outputs = append(outputs, o.Path)
		}
	}
	argsB := canonjson.Clone(k.args).(*canonjson.Object)
	var varied []string
	for _, name := range inputs {
		alt, err := sample.Alternate(sample.PropertySchema(k.tool.InputSchema, name))
		if err != nil {
			continue
		}
		argsB.Set(name, alt)
		varied = append(varied, name)
	}
	argsB, err := k.settle(argsB)
	if err != nil || !k.valid(argsB) {
		ch.uncovered = "no second valid set of dynamic inputs could be made"
		return
	}
	var dataB canonjson.Value
	var respB []response
	if k.http {
		dataB = canonjson.Clone(k.responses[k.outputStepIndex()].data)
		var variedOut [][]string
		for _, p := range outputs {
			s, _ := schemaPath(k.dataSchema(), p)
			alt, err := sample.Alternate(s)
			if err != nil {
				continue
			}
			if o := asObject(dataB); o != nil {
				setPath(o, p, alt)
				variedOut = append(variedOut, p)
			}
		}
		outputs = variedOut
		if respB, err = k.plannedResponses(dataB); err != nil {
			ch.uncovered = err.Error()
			return
		}
	} else {
		outputs = nil
	}
	if len(varied)+len(outputs) == 0 {
		ch.uncovered = "no dynamic input or output admits a second value to compare"
		return
	}
	a, b := k.validCall(), k.call(argsB, respB)
	ch.add("two different dynamic values", func(j *judge) {
		ra, _ := k.accepted(j, a)
		rb, _ := k.accepted(j, b)
		if ra.outcome != outcomeReturned || rb.outcome != outcomeReturned {
			return
		}
		observed := 0
		for _, name := range varied {
			va, vb := a.args.At(name), b.args.At(name)
			if guarded(a, b) {
				ga, gb := guardedInput(ra), guardedInput(rb)
				j.that(canonjson.Equal(ga.At(name), va) && canonjson.Equal(gb.At(name), vb),
					"input "+name+" reaches the dispatch with each call's own value", "dispatched %s and %s, sent %s and %s",
					show(ga.At(name)), show(gb.At(name)), show(va), show(vb))
				observed++
				continue
			}
			for _, bd := range k.bindingsOf(name) {
				i := k.stepOf(bd)
				if i < 0 || i >= len(ra.dispatches) || i >= len(rb.dispatches) {
					continue
				}
				sa, _ := sent(ra.dispatches[i], bd)
				sb, _ := sent(rb.dispatches[i], bd)
				if bd.Location == "path" {
					j.that(sa != sb, "input "+name+" reaches the URL with each call's own value", "both calls sent %s", show(sa))
				} else {
					j.that(canonjson.Equal(sa, va) && canonjson.Equal(sb, vb), "input "+name+" reaches the request with each call's own value",
						"sent %s and %s, given %s and %s", show(sa), show(sb), show(va), show(vb))
				}
				observed++
			}
		}
		for _, p := range outputs {
			da, _ := atPath(asObject(ra.value).At("data"), p)
			db, _ := atPath(asObject(rb.value).At("data"), p)
			wa, _ := atPath(k.responses[k.outputStepIndex()].data, p)
			wb, _ := atPath(dataB, p)
			j.that(canonjson.Equal(da, wa) && canonjson.Equal(db, wb), "output "+strings.Join(p, ".")+" carries each response's own value",
				"returned %s and %s, answered %s and %s", show(da), show(db), show(wa), show(wb))
			observed++
		}
		if observed == 0 {
			j.cannot("no dynamic input is bound into a request and no dynamic output is returned")
		}
	}, a, b)
}

// guardedInput returns the input a guarded dispatch received.
func guardedInput(r *run) *canonjson.Object {
	for _, d := range r.dispatches {
		if d.form == "guarded" {
			return asObject(d.input)
		}
	}
	return nil
}

// schemaPath returns the schema at a member path (no "*") of an object
// schema.
func schemaPath(s canonjson.Value, path []string) (canonjson.Value, bool) {
	for _, seg := range path {
		s = sample.PropertySchema(s, seg)
		if s == nil {
			return nil, false
		}
	}
	return s, true
}
