package reach

import (
	"context"
	"encoding/json"
	"fmt"
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
	// Checked and Unchecked count the inputs whose reach was decided, and
	// those no call could decide (a fixed value, a refused call).
	Checked, Unchecked int
}

// The answers the recorder gives the three status calls.
var statusCalls = []struct {
	status int
	kind   string
}{{200, "2xx"}, {404, "4xx"}, {503, "5xx"}}

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
	calls  int
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
	kind     string // "2xx", "differential", "dry-run", "no-base URL"…
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
	Strays   []Request `json:"strays"`
	missing  bool      // the answer carried none
}

// callSpec is one call's plan.
type callSpec struct {
	kind   string
	args   *canonjson.Object
	status int
	set    map[string]string
	unset  []string
}

// call makes one call and reads what it showed.
func (r *runner) call(ctx context.Context, t Tool, p *plan, spec callSpec) (*observed, error) {
	r.calls++
	r.report.Calls++
	body := fmt.Sprintf(`{"c2sReply":"reply-%d","status":%d,"items":[]}`, r.calls, spec.status)
	env := map[string]any{}
	if len(spec.set) > 0 {
		env["set"] = spec.set
	}
	if len(spec.unset) > 0 {
		env["unset"] = spec.unset
	}
	meta := map[string]any{MetaKey: map[string]any{
		"answer":     map[string]any{"status": spec.status, "body": body},
		"markers":    p.markers(),
		"env":        env,
		"deadlineMs": r.cfg.callTimeout().Milliseconds(),
	}}
	res, err := r.c.CallToolMeta(ctx, t.Name, rawJSON(show(spec.args)), meta)
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
	r.judgeCall(t, o, body)
	return o, nil
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

// judgeCall reports what any call can show: a time-out, an exit, stdout
// written, requests fetch refused, and credentials in what it returned.
func (r *runner) judgeCall(t Tool, o *observed, body string) {
	ptr := diag.Pointer("tools", t.Index)
	switch {
	case o.noAnswer:
		r.once(RuleServerEnded, t, "", ptr, "the server stopped answering during its %s call (see the session's findings); the Tools after it were not called", o.kind)
		return
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

// tool runs every call of one Tool.
func (r *runner) tool(ctx context.Context, t Tool) error {
	p := planFor(t)
	args := p.args(nil)
	tr := ToolReport{Name: t.Name}
	defer func() { r.report.Tools = append(r.report.Tools, tr) }()

	var statuses []*observed
	for _, sc := range statusCalls {
		o, err := r.call(ctx, t, p, callSpec{kind: sc.kind, args: args, status: sc.status})
		if err != nil {
			return err
		}
		if o.noAnswer {
			return nil
		}
		statuses = append(statuses, o)
	}
	for _, o := range statuses {
		for _, q := range o.obs.Requests {
			if q.Method != "" && !slices.Contains(tr.Methods, q.Method) {
				tr.Methods = append(tr.Methods, q.Method)
			}
		}
	}
	first := statuses[0]
	if first.broken() {
		// It hung or ended the process: what it returned says nothing more.
		tr.Unchecked = countChecked(p)
		return nil
	}
	sent := len(valid(first.obs.Requests)) > 0
	if !sent {
		r.nothingSent(t, first)
		tr.Unchecked = countChecked(p)
	} else {
		for i, o := range statuses {
			r.outsideBase(t, o)
			r.passedThrough(t, o, statusCalls[i].status)
		}
		checked, unchecked, err := r.inputs(ctx, t, p, statuses)
		if err != nil {
			return err
		}
		tr.Checked, tr.Unchecked = checked, unchecked
	}
	if !t.ReadOnly() {
		if err := r.dryRun(ctx, t, p, args, sent); err != nil || r.c.Down() {
			return err
		}
	}
	if sent {
		return r.noBase(ctx, t, p, args)
	}
	return nil
}

// broken reports a call that timed out or tried to end the process.
func (o *observed) broken() bool { return o.obs.TimedOut || o.obs.Exit != nil }

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
		if in.local == "" && !in.configuration {
			n++
		}
	}
	return n
}

// nothingSent explains a call that sent no request.
func (r *runner) nothingSent(t Tool, o *observed) {
	ptr := diag.Pointer("tools", t.Index)
	if len(o.obs.Requests) > 0 || o.broken() {
		return // fetch refused what it built, or the call hung or exited: reported already
	}
	switch {
	case o.rpcError != "":
		r.once(RuleCallRefused, t, "", ptr, "the call with a value for every input it declares was answered with JSON-RPC error %q before any request; its inputs were not checked", clip(o.rpcError, 200))
	case o.result != nil && o.result.isError:
		text := o.result.text()
		if networkError(text) {
			r.once(RuleNoRequest, t, "", ptr, "its request did not go through fetch (the sandbox denied it: %s); code2skill could not see what it sends", clip(text, 160))
			return
		}
		r.once(RuleCallRefused, t, "", ptr, "the call with a value for every input it declares stopped before any request with the Tool error %s; its inputs were not checked: "+
			"state the format, enum or examples its values must follow in the input schema (or, for a configuration it needs, name the variable in MCP-SETUP.md)", clip(text, 200))
	case o.result != nil:
		r.once(RuleNoRequest, t, "", ptr, "its call returned a result without sending any request through fetch; code2skill could not see what it sends")
	}
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

// passedThrough checks that the answer to the last request is the result.
func (r *runner) passedThrough(t Tool, o *observed, status int) {
	reqs := valid(o.obs.Requests)
	if len(reqs) == 0 || o.result == nil {
		return
	}
	last := reqs[len(reqs)-1]
	ptr := diag.Pointer("tools", t.Index)
	if o.result.isError {
		r.once(RuleStatusNotPassed, t, o.kind, ptr, "the service answered %d and the Tool returned a Tool error (%s); an HTTP answer of any status is a result: return { httpStatus, bodyText } (readHttpResponse, or httpResultFromError for a client that throws)",
			last.Answered, clip(o.result.text(), 160))
		return
	}
	payload := o.result.payload()
	code, hasStatus := httpStatus(payload)
	if !hasStatus {
		r.once(RuleNoHTTPStatus, t, "", ptr, "the service answered %d and the result has no httpStatus (%s): an HTTP Tool returns { httpStatus, bodyText }, and a result without httpStatus is no success", last.Answered, clip(o.result.shown(), 160))
		return
	}
	bodyText, _ := payload.At("bodyText").(canonjson.String)
	want := last.Reply
	switch {
	case code != last.Answered:
		r.once(RuleStatusNotPassed, t, o.kind, ptr, "the service answered %d and the result says httpStatus %d: pass the status through unchanged", last.Answered, code)
	case !sameBody(string(bodyText), want):
		r.once(RuleStatusNotPassed, t, o.kind, ptr, "the service answered %d with %s and the result's bodyText is %q: pass the complete body through unchanged", last.Answered, want, clip(string(bodyText), 120))
	}
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

// inputs checks that every input reaches the request.
func (r *runner) inputs(ctx context.Context, t Tool, p *plan, statuses []*observed) (checked, unchecked int, err error) {
	base := statuses[0]
	var toBase []Request
	for _, q := range valid(base.obs.Requests) {
		if r.setup.baseOf(q.URL) != nil || len(r.setup.Bases) == 0 {
			toBase = append(toBase, q)
		}
	}
	skip := volatile(valid(statuses[0].obs.Requests), valid(statuses[1].obs.Requests))
	for _, in := range p.inputs {
		if in.local != "" || in.configuration {
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
			continue
		}
		o, err := r.call(ctx, t, p, callSpec{kind: "differential", args: p.args(map[*input]canonjson.Value{in: in.alt}), status: 200})
		if err != nil || o.noAnswer {
			return checked, unchecked, err
		}
		if o.broken() {
			unchecked++
			continue
		}
		checked++
		alt := valid(o.obs.Requests)
		if len(alt) > 0 && differ(valid(base.obs.Requests), alt, skip) {
			continue
		}
		what := "its value " + show(in.value) + " is nowhere in the request, and changing it to " + show(in.alt) + " left the request unchanged"
		switch {
		case len(alt) == 0:
			what = "it is in no request, and with " + show(in.alt) + " the Tool sent none at all; a value that only decides whether to send (a confirmation) is local"
		case in.marker == "":
			what = "changing it from " + show(in.value) + " to " + show(in.alt) + " left the request unchanged"
		}
		r.once(RuleInputDropped, t, in.path, in.pointer, "input %q never reaches the request: %s. Send it where the application's own client does; "+
			"if the Function uses it without sending it, document that in its schema with %q and the reason", in.path, what, LocalKey)
	}
	return checked, unchecked, nil
}

// dryRun checks a write under the dry-run variable. When the Tool sent no
// request with the same arguments (it refused them), only what it sends
// is judged: no dry-run result is owed for arguments it refuses.
func (r *runner) dryRun(ctx context.Context, t Tool, p *plan, args *canonjson.Object, sends bool) error {
	o, err := r.call(ctx, t, p, callSpec{kind: "dry-run", args: args, status: 200, set: map[string]string{r.cfg.DryRunVariable: "1"}})
	if err != nil || o.noAnswer || o.broken() {
		return err
	}
	ptr := diag.Pointer("tools", t.Index)
	for _, q := range valid(o.obs.Requests) {
		if !slices.Contains([]string{"GET", "HEAD", "OPTIONS"}, q.Method) {
			r.once(RuleDryRunSent, t, "", ptr, "under %s=1 it sent %s %s: a write returns the request it would send instead of sending it", r.cfg.DryRunVariable, q.Method, clip(q.URL, 160))
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
		r.once(RuleDryRunSent, t, "", ptr, "under %s=1 it returned %s, not { dryRun: true, … }: a write (its readOnlyHint is not true) returns the request it would send instead of sending it", r.cfg.DryRunVariable, clip(o.result.shown(), 120))
	}
	return nil
}

// noBase checks that a Tool stops when its base URL is not configured.
func (r *runner) noBase(ctx context.Context, t Tool, p *plan, args *canonjson.Object) error {
	if len(r.setup.Bases) == 0 {
		return nil
	}
	var unset []string
	for _, b := range r.setup.Bases {
		unset = append(unset, b.Var)
	}
	o, err := r.call(ctx, t, p, callSpec{kind: "no-base-URL", args: args, status: 200, unset: unset})
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
