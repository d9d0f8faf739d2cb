package reach

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
)

// Caller makes tools/call requests of a running server.
type Caller interface {
	// CallToolMeta calls a Tool with the arguments and the request's
	// _meta; nil means the server gave no answer (the session says why).
	CallToolMeta(ctx context.Context, name string, args any, meta map[string]any) (*mcpcheck.CallResult, error)
	// Down reports that the server can no longer answer.
	Down() bool
}

// Report is what the reachability calls found.
type Report struct {
	Diagnostics []diag.Diagnostic
	// Calls counts the tools/call requests made.
	Calls int
	// Tools holds, per Tool called, what it sent.
	Tools []ToolReport
}

// ToolReport is what one Tool sent in its calls.
type ToolReport struct {
	Name string
	// Methods are the HTTP methods of the requests its calls sent, each
	// once, in the order first sent.
	Methods []string
	// Writes are its own requests that create or change something: a PUT,
	// PATCH or DELETE, or a POST whose URL says no search (SearchLike),
	// as "METHOD URL".
	Writes []string
	// Checked and Unchecked count the inputs whose reach was decided, and
	// those no call could decide (a fixed value, a refused call).
	Checked, Unchecked int
	// AddressInputs are the inputs the Tool sent its request to: given an
	// address, the request went there.
	AddressInputs []AddressInput
}

// AddressInput is an input a Tool uses as the service's address.
type AddressInput struct {
	Path, Pointer string
	// Sent is the request that went to it, "METHOD URL".
	Sent string
}

// Run calls every Tool as the package doc says and judges the results.
// The error means the job could not be done (ctx ended); what the server
// does wrong is in the Report.
func Run(ctx context.Context, c Caller, tools []Tool, setup *Setup, cfg Config) (*Report, error) {
	r := &runner{c: c, setup: setup, cfg: cfg, report: &Report{}}
	for i, t := range tools {
		if c.Down() {
			var names []string
			for _, rest := range tools[i:] {
				names = append(names, rest.Name)
			}
			r.add(RuleNotChecked.New(mcpcheck.ServerFile, "the requests of %s were not checked: the server stopped answering", quoteList(names)))
			break
		}
		if err := r.tool(ctx, t); err != nil {
			return nil, err
		}
	}
	return r.report, nil
}

type runner struct {
	c      Caller
	setup  *Setup
	cfg    Config
	report *Report
	seen   map[string]bool // rule|tool|detail already reported
	// issued are the fake tokens searches gave credential-like members
	// of answers: credentials too, wherever they turn up.
	issued []string
	// found are the answers searches found for requests of no input (a
	// login), given to every later call.
	found []answer
}

func (r *runner) add(ds ...diag.Diagnostic) {
	r.report.Diagnostics = append(r.report.Diagnostics, ds...)
}

// once reports a finding about a Tool unless the same rule already
// reported the same detail of it.
func (r *runner) once(rule *diag.Rule, t Tool, detail, pointer, format string, args ...any) {
	key := rule.ID + "|" + t.Name + "|" + detail
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	d := rule.New(mcpcheck.ServerFile, "tool %q: "+format, append([]any{t.Name}, args...)...)
	if pointer != "" {
		d = d.AtPointer(pointer)
	}
	r.add(d)
}

// observed is one call and what it showed.
type observed struct {
	kind     string // "200", "differential", "dry-run", "no-base-URL"…
	answered *mcpcheck.CallResult
	result   *result // nil when the answer was a JSON-RPC error or none
	rpcError string  // the JSON-RPC error's message
	obs      observation
	noAnswer bool
}

// observation is what the recorder reports of one call.
type observation struct {
	Requests []Request `json:"requests"`
	Stdout   []string  `json:"stdout"`
	Exit     *int      `json:"exit"`
	TimedOut bool      `json:"timedOut"`
	Runaway  bool      `json:"runaway"`
	Strays   []Request `json:"strays"`
	// Reads are the members of learn answers the Function read; Learns
	// says the recorder can learn (driver.cjs).
	Reads   []read `json:"reads"`
	Learns  bool   `json:"learns"`
	missing bool   // the answer carried none
}

// broken reports a call that timed out, looped or tried to end the
// process: what it returned says nothing.
func (o *observed) broken() bool { return o.obs.TimedOut || o.obs.Runaway || o.obs.Exit != nil }

// refused reports a call that ended in a Tool error or a JSON-RPC error.
func (o *observed) refused() bool {
	return o.rpcError != "" || o.result != nil && o.result.isError
}

// refusal is the text of a refused call's error.
func (o *observed) refusal() string {
	if o.rpcError != "" {
		return "JSON-RPC error " + o.rpcError
	}
	return o.result.text()
}

// toolState is what the calls of one Tool share.
type toolState struct {
	t    Tool
	p    *plan
	args *canonjson.Object
	// answers are those the requests before the Tool's own got in its
	// first call; shapes, when a search found them, replace them.
	answers []answer
	shapes  *shapes
}

// preFor returns the answers the requests before the Tool's own get in a
// call whose inputs have values: those its first call got or its search
// found, then those other Tools' searches found for requests of no input.
func (r *runner) preFor(ts *toolState, values map[*input]canonjson.Value) []answer {
	out := slices.Clone(ts.answers)
	if ts.shapes != nil {
		all, _ := ts.shapes.preAnswers(values)
		out = append(out, all...)
	}
	return append(out, r.found...)
}

// callSpec is one call's plan.
type callSpec struct {
	kind string
	args *canonjson.Object
	// values are the inputs' values that differ from the plan's, for the
	// answers that follow them.
	values map[*input]canonjson.Value
	status int  // 0 means 200
	empty  bool // answer without a body
	fail   bool // answer with no response at all
	// learn makes a learning call fixing these leaves (search.go).
	learn map[string]canonjson.Value
	set   map[string]string
	unset []string
	// quiet calls are judged for nothing: the answers are code2skill's
	// guesses.
	quiet bool
}

// call makes one call and reads what it showed.
func (r *runner) call(ctx context.Context, ts *toolState, spec callSpec) (*observed, error) {
	r.report.Calls++
	status := cmp.Or(spec.status, 200)
	ans := answer{Status: status, Body: bodyText(reply(r.report.Calls, status))}
	switch {
	case spec.fail:
		ans = answer{Fail: true}
	case spec.empty:
		ans.Body = nil
	}
	env := map[string]any{}
	if len(spec.set) > 0 {
		env["set"] = spec.set
	}
	if len(spec.unset) > 0 {
		env["unset"] = spec.unset
	}
	plan := map[string]any{
		"answer":     ans,
		"markers":    ts.p.markers(),
		"env":        env,
		"deadlineMs": r.cfg.callTimeout().Milliseconds(),
	}
	if spec.learn != nil {
		plan["learn"] = map[string]any{"values": valuesJSON(spec.learn)}
	} else if pre := r.preFor(ts, spec.values); len(pre) > 0 {
		plan["pre"] = pre
	}
	res, err := r.c.CallToolMeta(ctx, ts.t.Name, rawJSON(show(spec.args)), map[string]any{MetaKey: plan})
	if err != nil {
		return nil, err
	}
	o := &observed{kind: spec.kind, answered: res}
	switch {
	case res == nil:
		o.noAnswer = true
	case res.Error != nil:
		o.rpcError = res.Error.Message
		o.obs = observationOf(res.Error.Data)
	default:
		o.result, o.obs = parseResult(res.Raw)
	}
	if spec.learn == nil {
		for i := range o.obs.Requests {
			o.obs.Requests[i].planned = ans.gave(o.obs.Requests[i])
		}
	}
	if !spec.quiet {
		r.judgeCall(ts.t, o)
	}
	return o, nil
}

// valuesJSON turns leaf values into what the plan carries.
func valuesJSON(values map[string]canonjson.Value) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range values {
		out[k] = json.RawMessage(show(v))
	}
	return out
}

// observationOf reads the recorder's observation from a JSON-RPC error's
// data.
func observationOf(data json.RawMessage) observation {
	var holder map[string]json.RawMessage
	var obs observation
	if canonjson.Unmarshal(data, &holder) != nil || holder[MetaKey] == nil || canonjson.Unmarshal(holder[MetaKey], &obs) != nil {
		return observation{missing: true}
	}
	return obs
}

// judgeCall reports what any call can show: a time-out, a loop, an exit,
// stdout written, requests fetch refused, and credentials in what it
// returned.
func (r *runner) judgeCall(t Tool, o *observed) {
	ptr := diag.Pointer("tools", t.Index)
	switch {
	case o.noAnswer:
		r.once(RuleServerEnded, t, "", ptr, "the server stopped answering during its %s call (see the session's findings); the Tools after it were not called", o.kind)
		return
	case o.obs.Runaway:
		r.once(RuleRequestLoop, t, "", ptr, "its %s call sent more than %d requests without ending, each answered at once (the last: %s): "+
			"a Function that repeats a request on an answer it does not expect (a refusal, an error) never ends under a host; send each request once, or a bounded number of times, and return the answer", o.kind, maxRequests, lastRequest(o))
	case o.obs.TimedOut:
		r.once(RuleCallTimeout, t, "", ptr, "its %s call did not answer within %s although its requests were answered at once: a Function that hangs hangs the host's call", o.kind, r.cfg.callTimeout())
	}
	if o.obs.Exit != nil {
		r.once(RuleProcessExit, t, "", ptr, "its %s call called process.exit(%d), which would end the server under the host; return a Tool error instead", o.kind, *o.obs.Exit)
	}
	if len(o.obs.Stdout) > 0 {
		r.once(RuleStdout, t, "", ptr, "its %s call wrote %q to stdout, which carries only JSON-RPC: a host's session breaks on it; write diagnostics to stderr", o.kind, clip(o.obs.Stdout[0], 80))
	}
	for _, q := range o.obs.Requests {
		if q.Invalid != "" {
			r.once(RuleRequestInvalid, t, "", ptr, "fetch refused the request its Function built in the %s call: %s", o.kind, q.Invalid)
		}
	}
	r.scanCredentials(t, o)
}

// maxRequests is the recorder's bound on one call's requests (MAX_REQUESTS
// in driver.cjs, c2sMaxRequests in gorecorder.go).
const maxRequests = 50

func lastRequest(o *observed) string {
	reqs := valid(o.obs.Requests)
	if len(reqs) == 0 {
		return "none recorded"
	}
	q := reqs[len(reqs)-1]
	return q.Method + " " + clip(q.URL, 120)
}

// tool runs every call of one Tool.
func (r *runner) tool(ctx context.Context, t Tool) error {
	p := planFor(t)
	ts := &toolState{t: t, p: p, args: p.args(nil)}
	tr := ToolReport{Name: t.Name}
	defer func() { r.report.Tools = append(r.report.Tools, tr) }()
	all := countChecked(p)
	tr.Unchecked = all

	first, err := r.call(ctx, ts, callSpec{kind: statusCalls[0].kind, args: ts.args})
	if err != nil || first.noAnswer {
		return err
	}
	if len(valid(first.obs.Requests)) == 0 && !first.broken() && first.refused() && p.plainExamples() {
		// It refused the values shaped like its examples: the examples.
		ts.args = p.args(nil)
		if first, err = r.call(ctx, ts, callSpec{kind: statusCalls[0].kind, args: ts.args}); err != nil || first.noAnswer {
			return err
		}
	}
	if first.broken() {
		return nil
	}
	if len(valid(first.obs.Requests)) == 0 {
		if first.refused() {
			found, err := r.addressInputs(ctx, ts)
			if err != nil {
				return err
			}
			tr.AddressInputs = found
		}
		if len(tr.AddressInputs) == 0 {
			r.nothingSent(ts, first)
		}
		if !t.ReadOnly() {
			return r.dryRun(ctx, ts, first, false)
		}
		return nil
	}
	if first.refused() {
		sh, err := r.search(ctx, ts, first)
		if err != nil || r.c.Down() {
			return err
		}
		if sh != nil {
			ts.shapes = sh
			r.issued = append(r.issued, slices.Sorted(maps.Values(sh.tokens))...)
			_, shared := sh.preAnswers(nil)
			for _, a := range shared {
				if !slices.ContainsFunc(r.found, func(f answer) bool { return f.Method == a.Method && f.URL == a.URL }) {
					r.found = append(r.found, a)
				}
			}
			if first, err = r.call(ctx, ts, callSpec{kind: statusCalls[0].kind, args: ts.args}); err != nil || first.noAnswer || first.broken() {
				return err
			}
		}
		if refusedBeforeOwn(t, first) {
			r.precheckRefused(ts, first)
			if !t.ReadOnly() {
				return r.dryRun(ctx, ts, first, false)
			}
			return nil
		}
	}
	if ts.shapes == nil {
		ts.answers = answered(valid(first.obs.Requests))
	}

	statuses := []*observed{first}
	for _, sc := range statusCalls[1:] {
		o, err := r.call(ctx, ts, callSpec{kind: sc.kind, args: ts.args, status: sc.status, empty: sc.empty})
		if err != nil || o.noAnswer {
			return err
		}
		statuses = append(statuses, o)
	}
	for _, o := range statuses {
		for _, q := range valid(o.obs.Requests) {
			if q.Method != "" && !slices.Contains(tr.Methods, q.Method) {
				tr.Methods = append(tr.Methods, q.Method)
			}
		}
	}
	tr.Writes = writesOf(first)
	for i, o := range statuses {
		if o.broken() {
			continue
		}
		r.outsideBase(t, o)
		r.passedThrough(t, o, statusCalls[i])
	}
	failed, err := r.call(ctx, ts, callSpec{kind: "failed-request", args: ts.args, fail: true})
	if err != nil || failed.noAnswer {
		return err
	}
	r.failedThrough(t, failed)

	checked, unchecked, err := r.inputs(ctx, ts, first, statuses[1])
	if err != nil {
		return err
	}
	tr.Checked, tr.Unchecked = checked, unchecked
	if !t.ReadOnly() || len(tr.Writes) > 0 {
		if err := r.dryRun(ctx, ts, first, true); err != nil || r.c.Down() {
			return err
		}
	}
	return r.noBase(ctx, ts)
}

// writesOf returns the Tool's own requests of a call that create or
// change something.
func writesOf(o *observed) []string {
	var out []string
	for _, q := range valid(o.obs.Requests) {
		if !q.planned || isRead(q.Method) || q.Method == "POST" && SearchLike(q.URL) {
			continue
		}
		out = append(out, q.Method+" "+q.URL)
	}
	return out
}

// valid returns the requests fetch accepted.
func valid(rs []Request) []Request {
	var out []Request
	for _, q := range rs {
		if q.Invalid == "" {
			out = append(out, q)
		}
	}
	return out
}

func countChecked(p *plan) int {
	n := 0
	for _, in := range p.inputs {
		if in.owed() {
			n++
		}
	}
	return n
}

// show renders a JSON value compactly, members in their order.
func show(v canonjson.Value) string { return string(canonjson.Compact(v)) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// rawJSON is JSON the SDK marshals as it is.
type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }
