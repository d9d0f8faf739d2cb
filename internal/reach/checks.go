package reach

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// where says where a refusal's error is raised, as " (raised at
// file:line)", when the Config can locate it.
func (r *runner) where(text string) string {
	if r.cfg.Locate == nil {
		return ""
	}
	if at := r.cfg.Locate(text); at != "" {
		return " (raised at " + at + ")"
	}
	return ""
}

// inputNames lists the inputs a Tool's calls check, for messages.
func inputNames(p *plan) string {
	var names []string
	for _, in := range p.inputs {
		if in.owed() {
			names = append(names, in.path)
		}
	}
	if len(names) == 0 {
		return "none declared"
	}
	return strings.Join(names, ", ")
}

// nothingSent explains a call that sent no request.
func (r *runner) nothingSent(ts *toolState, o *observed) {
	t, p := ts.t, ts.p
	ptr := diag.Pointer("tools", t.Index)
	if len(o.obs.Requests) > 0 || o.broken() {
		return // fetch refused what it built, or the call hung or exited: reported already
	}
	switch {
	case o.rpcError != "":
		r.once(RuleCallRefused, t, "", ptr, "the call with a value for every input it declares was answered with JSON-RPC error %q%s before any request; its inputs (%s) were not checked",
			clip(o.rpcError, 200), r.where(o.rpcError), inputNames(p))
	case o.result != nil && o.result.isError:
		text := o.result.text()
		if networkError(text) {
			r.once(RuleNoRequest, t, "", ptr, "its request did not go through fetch (the sandbox denied it: %s); code2skill could not see what it sends", clip(text, 160))
			return
		}
		r.once(RuleCallRefused, t, "", ptr, "the call with a value for every input it declares stopped before any request with the Tool error %s%s; its inputs (%s) were not checked: "+
			"state the format, enum or examples its values must follow in the input schema (or, for a configuration it needs, name the variable in MCP-SETUP.md)", clip(text, 200), r.where(text), inputNames(p))
	case o.result != nil:
		r.once(RuleNoRequest, t, "", ptr, "its call returned a result without sending any request through fetch; code2skill could not see what it sends")
	}
}

// precheckRefused reports a Tool that stopped after the requests before
// its own, answers for which the search did not find.
func (r *runner) precheckRefused(ts *toolState, o *observed) {
	t := ts.t
	var sent []string
	for _, q := range valid(o.obs.Requests) {
		sent = append(sent, q.Method+" "+clip(q.URL, 100))
	}
	text := o.refusal()
	r.once(RulePrecheckRefused, t, "", diag.Pointer("tools", t.Index), "it sent %s and then stopped with %s%s before its own request; code2skill found no answers to those requests that lead it on, "+
		"so its own request and its inputs (%s) were not checked: try it against the service (code2skill probe --call)", strings.Join(sent, ", "), clip(text, 200), r.where(text), inputNames(ts.p))
}

// networkError reports whether an error text is the sandbox's denial of
// the network: a request made with something other than fetch.
func networkError(text string) bool {
	return strings.Contains(text, "ENETUNREACH") || strings.Contains(text, "EAI_AGAIN") || strings.Contains(text, "ENOTFOUND") || strings.Contains(text, "ECONNREFUSED")
}

// outsideBase reports a request that left every configured base.
func (r *runner) outsideBase(t Tool, o *observed) {
	for _, q := range valid(o.obs.Requests) {
		if r.setup.baseOf(q.URL) == nil && !r.cfg.Public.Covers(q.URL) {
			r.once(RuleOutsideBase, t, "", diag.Pointer("tools", t.Index), "its %s call sent %s %s, outside every configured base URL (%s): "+
				"build each request from the base URL the host configures, keeping the base URL's own path", o.kind, q.Method, clip(q.URL, 160), r.setup.baseList())
			return
		}
	}
}

// answerWords describes an answer for a message: "409 with a body".
func answerWords(q Request) string {
	if q.Reply == "" {
		return fmt.Sprintf("%d without a body", q.Answered)
	}
	return fmt.Sprintf("%d with %s", q.Answered, clip(q.Reply, 80))
}

// passedThrough checks that the answer to the last request is the result.
func (r *runner) passedThrough(t Tool, o *observed, sc statusCall) {
	reqs := valid(o.obs.Requests)
	if len(reqs) == 0 || o.result == nil {
		return
	}
	last := reqs[len(reqs)-1]
	if last.Failed {
		return
	}
	ptr := diag.Pointer("tools", t.Index)
	if o.result.isError {
		r.once(RuleStatusNotPassed, t, sc.kind, ptr, "the service answered %s and the Tool returned a Tool error (%s); an HTTP answer of any status, with or without a body, is a result: return { httpStatus, bodyText } (readHttpResponse, or httpResultFromError for a client that throws)",
			answerWords(last), clip(o.result.text(), 160))
		return
	}
	payload := o.result.payload()
	code, hasStatus := httpStatus(payload)
	if !hasStatus {
		r.once(RuleNoHTTPStatus, t, "", ptr, "the service answered %d and the result has no httpStatus (%s): an HTTP Tool returns { httpStatus, bodyText }, and a result without httpStatus is no success", last.Answered, clip(o.result.shown(), 160))
		return
	}
	bodyText, _ := payload.At("bodyText").(canonjson.String)
	switch {
	case code != last.Answered:
		r.once(RuleStatusNotPassed, t, sc.kind, ptr, "the service answered %s and the result says httpStatus %d: pass the status through unchanged", answerWords(last), code)
	case !sameBody(string(bodyText), last.Reply):
		r.once(RuleStatusNotPassed, t, sc.kind, ptr, "the service answered %s and the result's bodyText is %q: pass the complete body through unchanged", answerWords(last), clip(string(bodyText), 120))
	}
}

// failedThrough checks that a request that got no response ends the call
// in a Tool error.
func (r *runner) failedThrough(t Tool, o *observed) {
	if o.broken() || o.refused() || o.result == nil || !slices.ContainsFunc(o.obs.Requests, func(q Request) bool { return q.Failed }) {
		return
	}
	what := "a result"
	if code, ok := httpStatus(o.result.payload()); ok {
		what = fmt.Sprintf("a result with httpStatus %d", code)
	}
	r.once(RuleFailureHidden, t, "", diag.Pointer("tools", t.Index), "its request got no response (the connection was reset) and it returned %s (%s) instead of a Tool error: "+
		"a call that obtained no answer is an isError result saying so (toAgentError), so that the agent never reads an answer that did not come", what, clip(o.result.shown(), 120))
}

// sameBody compares a passed-through body with the one sent: equal, or
// the same JSON.
func sameBody(got, want string) bool {
	if got == want {
		return true
	}
	a, err1 := canonjson.Decode([]byte(got))
	b, err2 := canonjson.Decode([]byte(want))
	return err1 == nil && err2 == nil && canonjson.Equal(a, b)
}

// httpStatus returns a payload's httpStatus.
func httpStatus(payload *canonjson.Object) (int, bool) {
	n, ok := payload.At("httpStatus").(canonjson.Number)
	if !ok {
		return 0, false
	}
	code, ok := n.Int64()
	return int(code), ok
}

// own returns the requests of a call that are the Tool's own: those fetch
// accepted, but the requests before the Tool's own the recorder answers
// as they were first answered (a login, a pre-check's read), which a
// server that keeps a session sends only in some calls.
func (r *runner) own(ts *toolState, o *observed, values map[*input]canonjson.Value) []Request {
	pre := r.preFor(ts, values)
	return slices.DeleteFunc(valid(o.obs.Requests), func(q Request) bool {
		return slices.ContainsFunc(pre, func(a answer) bool { return a.Method == q.Method && a.URL == q.URL })
	})
}

// stable compares the Tool's own requests of two calls with the same
// arguments and answers (the 200 and the 204 call): the same requests, to
// the same places. It says how they differ when they do.
func stable(ra, rb []Request) (bool, string) {
	if len(ra) != len(rb) {
		return false, fmt.Sprintf("it sent %d request(s), then %d with the same arguments", len(ra), len(rb))
	}
	for i := range ra {
		sa, sb := ra[i].signature(), rb[i].signature()
		for _, k := range []string{"method", "origin", "path", "url"} {
			if sa[k] != sb[k] {
				return false, fmt.Sprintf("it sent %s %s, then %s %s with the same arguments", ra[i].Method, clip(ra[i].URL, 100), rb[i].Method, clip(rb[i].URL, 100))
			}
		}
	}
	return true, ""
}

// inputs checks that every input reaches the request. base and repeat are
// two calls with the same arguments.
func (r *runner) inputs(ctx context.Context, ts *toolState, base, repeat *observed) (checked, unchecked int, err error) {
	t, p := ts.t, ts.p
	var toBase []Request
	for _, q := range valid(base.obs.Requests) {
		if r.setup.baseOf(q.URL) != nil || len(r.setup.Bases) == 0 {
			toBase = append(toBase, q)
		}
	}
	ownBase, ownRepeat := r.own(ts, base, nil), r.own(ts, repeat, nil)
	steady, how := true, ""
	if !repeat.broken() {
		steady, how = stable(ownBase, ownRepeat)
	}
	skip := volatile(ownBase, ownRepeat)
	var unsteady []string
	for _, in := range p.inputs {
		if !in.owed() {
			continue
		}
		if in.marker != "" {
			var sent, fragment []string
			for _, q := range toBase {
				s, f := found(q, in.marker)
				sent, fragment = append(sent, s...), append(fragment, f...)
			}
			if len(sent) > 0 {
				checked++
				continue
			}
			if len(fragment) > 0 {
				checked++
				r.once(RuleInputMisplaced, t, in.path, in.pointer, "input %q reaches the request only in its URL fragment, which never leaves the client: put it where the service reads it", in.path)
				continue
			}
		}
		if in.alt == nil {
			unchecked++
			r.once(RuleInputUnchecked, t, in.path, in.pointer, "input %q was not checked: %s, so no call could change it to see where it goes; "+
				"give it a second allowed value (a second enum value or example), or document it as local (%q) if the Function does not send it", in.path, in.fixed, LocalKey)
			continue
		}
		if !steady {
			unchecked++
			unsteady = append(unsteady, in.path)
			continue
		}
		values := map[*input]canonjson.Value{in: in.alt}
		o, err := r.call(ctx, ts, callSpec{kind: "differential", args: p.args(values), values: values})
		if err != nil || o.noAnswer {
			return checked, unchecked, err
		}
		if o.broken() {
			unchecked++
			r.once(RuleInputUnchecked, t, in.path, in.pointer, "input %q was not checked: the call with %s did not end (see the other findings)", in.path, show(in.alt))
			continue
		}
		checked++
		alt := r.own(ts, o, values)
		if len(valid(o.obs.Requests)) > 0 && differ(ownBase, alt, skip) {
			continue
		}
		what := "its value " + show(in.value) + " is nowhere in the request, and changing it to " + show(in.alt) + " left the request unchanged"
		switch {
		case len(valid(o.obs.Requests)) == 0:
			what = "it is in no request, and with " + show(in.alt) + " the Tool sent none at all; a value that only decides whether to send (a confirmation) is local"
		case in.marker == "":
			what = "changing it from " + show(in.value) + " to " + show(in.alt) + " left the request unchanged"
		}
		r.once(RuleInputDropped, t, in.path, in.pointer, "input %q never reaches the request: %s. Send it where the application's own client does; "+
			"if the Function uses it without sending it, document that in its schema with %q and the reason", in.path, what, LocalKey)
	}
	if !steady {
		left := "no input needed it"
		if len(unsteady) > 0 {
			left = quoteList(unsteady) + " were not checked"
		}
		r.once(RuleUnstable, t, "", diag.Pointer("tools", t.Index), "its requests change from call to call: %s; what changing an input changes cannot be told from that (%s): "+
			"build the same requests from the same arguments (a time stamp or key in a header or the body is fine)", how, left)
	}
	return checked, unchecked, nil
}

// dryRun checks a write under the dry-run variable. When the Tool sent no
// request with the same arguments (it refused them), only what it sends
// is judged: no dry-run result is owed for arguments it refuses.
func (r *runner) dryRun(ctx context.Context, ts *toolState, first *observed, sends bool) error {
	t := ts.t
	o, err := r.call(ctx, ts, callSpec{kind: "dry-run", args: ts.args, set: map[string]string{r.cfg.DryRunVariable: "1"}})
	if err != nil || o.noAnswer || o.broken() {
		return err
	}
	ptr := diag.Pointer("tools", t.Index)
	wrote := len(writesOf(first)) > 0
	for _, q := range valid(o.obs.Requests) {
		if !isRead(q.Method) {
			r.once(RuleDryRunSent, t, "", ptr, "under %s=1 it sent %s %s: a write returns the request it would send instead of sending it", r.cfg.DryRunVariable, q.Method, clip(q.URL, 160))
			return nil
		}
		if wrote {
			r.once(RuleDryRunSent, t, "", ptr, "under %s=1 it sent %s %s: a dry run sends nothing, not even the reads that pre-check the write (an offline probe has no network to answer them); "+
				"return { dryRun: true, request } before them, naming the checks the real call makes first", r.cfg.DryRunVariable, q.Method, clip(q.URL, 160))
			return nil
		}
	}
	switch {
	case !sends:
	case o.rpcError != "":
		r.once(RuleDryRunSent, t, "", ptr, "under %s=1 it answered with JSON-RPC error %q instead of a dry-run result", r.cfg.DryRunVariable, clip(o.rpcError, 160))
	case o.result == nil:
	case o.result.isError:
		r.once(RuleDryRunSent, t, "", ptr, "under %s=1 it returned the Tool error %s instead of the request it would send ({ dryRun: true, request })", r.cfg.DryRunVariable, clip(o.result.text(), 160))
	case o.result.payload().At("dryRun") != canonjson.Value(canonjson.Bool(true)):
		r.once(RuleDryRunSent, t, "", ptr, "under %s=1 it returned %s, not { dryRun: true, … }: a write (its readOnlyHint is not true, or it sends %s) returns the request it would send instead of sending it",
			r.cfg.DryRunVariable, clip(o.result.shown(), 120), firstWrite(first))
	}
	return nil
}

func firstWrite(o *observed) string {
	if w := writesOf(o); len(w) > 0 {
		return clip(w[0], 120)
	}
	return "a write"
}

// noBase checks that a Tool stops when its base URL is not configured.
func (r *runner) noBase(ctx context.Context, ts *toolState) error {
	if len(r.setup.Bases) == 0 {
		return nil
	}
	t := ts.t
	var unset []string
	for _, b := range r.setup.Bases {
		unset = append(unset, b.Var)
	}
	o, err := r.call(ctx, ts, callSpec{kind: "no-base-URL", args: ts.args, unset: unset})
	if err != nil || o.noAnswer || o.broken() {
		return err
	}
	ptr := diag.Pointer("tools", t.Index)
	// A declared public endpoint needs no configured base: only the
	// requests to other addresses count.
	reqs := slices.DeleteFunc(valid(o.obs.Requests), func(q Request) bool { return r.cfg.Public.Covers(q.URL) })
	if len(reqs) > 0 {
		q := reqs[0]
		if r.setup.baseOf(q.URL) != nil {
			r.once(RuleConfigAtLoad, t, "", ptr, "with %s unset it still sent %s %s to the base URL the server started with: it reads the variable once, at start-up; "+
				"read it when the Function runs (context.env ?? process.env), so that code2skill can check that it stops when it is missing", strings.Join(unset, ", "), q.Method, clip(q.URL, 160))
			return nil
		}
		r.once(RuleBaseURLNotRefused, t, "", ptr, "with %s unset it sent %s %s: a Function with no configured base URL stops before any request, naming the variable, instead of falling back to an address",
			strings.Join(unset, ", "), q.Method, clip(q.URL, 160))
		return nil
	}
	if o.result != nil && !o.result.isError && len(valid(o.obs.Requests)) == 0 {
		r.once(RuleBaseURLNotRefused, t, "", ptr, "with %s unset it returned %s instead of a Tool error naming the missing variable", strings.Join(unset, ", "), clip(o.result.shown(), 120))
	}
	return nil
}

// hostLabel is a marker that can be a host name's first label.
var hostLabel = regexp.MustCompile(`^[a-z0-9]+$`)

// addressInputs calls a Tool that refused every value once more, each
// input that admits text given an address holding its marker
// (https://c2s73000001.reach.invalid/), and returns the inputs a request
// then went to: the Tool takes the service's address from them.
func (r *runner) addressInputs(ctx context.Context, ts *toolState) ([]AddressInput, error) {
	values := map[*input]canonjson.Value{}
	for _, in := range ts.p.inputs {
		if in.text && in.marker != "" && in.local == "" && hostLabel.MatchString(in.marker) {
			values[in] = canonjson.String("https://" + in.marker + ".reach.invalid/")
		}
	}
	if len(values) == 0 {
		return nil, nil
	}
	o, err := r.call(ctx, ts, callSpec{kind: "address", args: ts.p.args(values), values: values})
	if err != nil || o.noAnswer || o.broken() {
		return nil, err
	}
	var out []AddressInput
	for _, in := range ts.p.inputs {
		if _, ok := values[in]; !ok {
			continue
		}
		for _, q := range valid(o.obs.Requests) {
			if u, err := url.Parse(q.URL); err == nil && strings.Contains(strings.ToLower(u.Hostname()), in.marker) {
				out = append(out, AddressInput{Path: in.path, Pointer: in.pointer, Sent: q.Method + " " + clip(q.URL, 120)})
				break
			}
		}
	}
	return out, nil
}
