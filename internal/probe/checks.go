package probe

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/toolresult"
)

// dryRunKeys are the members of a dry-run result, exactly.
var dryRunKeys = []string{"dryRun", "operationPolicy", "operationSummary", "validatedInput"}

// toolResult is a tools/call result as the server sent it, read as the
// clients read it (internal/toolresult).
type toolResult struct{ *toolresult.Result }

// parseResult reads a CallToolResult.
func parseResult(raw json.RawMessage) (*toolResult, error) {
	r, err := toolresult.Decode(raw)
	if err != nil {
		return nil, err
	}
	return &toolResult{r}, nil
}

// report adds a finding about a case.
func (p *prober) report(rule *diag.Rule, c *Case, format string, args ...any) {
	p.result.Diagnostics.Add(rule.New(serverFile, "%s: tool %q: %s", c.where(), c.Name, fmt.Sprintf(format, args...)))
}

// answered reads the answer to a case's call. It reports a JSON-RPC error or
// a malformed result under rule and returns nil then, or when there was no
// answer (the session reported why).
func (p *prober) answered(rule *diag.Rule, c *Case, res *mcpcheck.CallResult) *toolResult {
	if res == nil {
		return nil
	}
	if res.Error != nil {
		p.report(rule, c, "answered with JSON-RPC error %d: %s", res.Error.Code, res.Error.Message)
		return nil
	}
	r, err := parseResult(res.Raw)
	if err != nil {
		p.report(rule, c, "%v", err)
		return nil
	}
	return r
}

// projection checks that a success's structuredContent is an object and
// that a text block carries the same JSON. A core-export-v1 result may
// carry text only (its projection returns non-object results as text), so
// there structuredContent is checked only when present.
func (p *prober) projection(c *Case, r *toolResult) bool {
	if r.Structured == nil && !p.exp.strict {
		if strings.TrimSpace(r.Text()) == "" {
			p.report(RuleText, c, "the result has neither structuredContent nor text content")
			return false
		}
		return true
	}
	if _, ok := r.Structured.(*canonjson.Object); !ok {
		p.report(RuleStructured, c, "structuredContent is %s, want an object", canonjson.TypeName(r.Structured))
		return false
	}
	if !r.TextMatches(r.Structured) {
		p.report(RuleText, c, "no text block holds JSON equal to structuredContent; return JSON.stringify(structuredContent) as text too")
		return false
	}
	return true
}

// httpStatus returns the HTTP status a result passes through
// ({httpStatus, bodyText}, the core-export-v1 shape), or 0.
func (r *toolResult) httpStatus() int {
	o, _ := r.Structured.(*canonjson.Object)
	if o == nil {
		// A result may carry its JSON as text only.
		o = r.TextJSON()
	}
	n, _ := field(o, "httpStatus").(canonjson.Number)
	if code, ok := n.Int64(); ok && code >= 100 && code <= 599 {
		return int(code)
	}
	return 0
}

// networkErrorCodes are the errors a request gets in the sandbox's network
// namespace: no route (fetch) and no resolver (DNS).
var networkErrorCodes = []string{"ENETUNREACH", "EAI_AGAIN"}

// deniedNetwork reports whether a Tool error is the sandbox's denial of the
// network rather than the service's answer.
func (p *prober) deniedNetwork(r *toolResult) bool {
	if p.opts.AllowNetwork || !r.IsError {
		return false
	}
	text := r.Text()
	if r.Structured != nil {
		text += string(canonjson.Encode(r.Structured))
	}
	return slices.ContainsFunc(networkErrorCodes, func(code string) bool { return strings.Contains(text, code) })
}

const networkHint = "the sandbox denies the network: add --allow-network to let the server reach the service for this run"

// statusProblem says what is wrong with the HTTP status of a case's result,
// or returns "". ok says which statuses pass when the case expects none.
func (p *prober) statusProblem(c *Case, status int, ok func(int) bool, want string) string {
	switch {
	case c.ExpectStatus != nil && status == 0:
		return fmt.Sprintf("the case expects HTTP %s, but the result carries no httpStatus", statusList(c.ExpectStatus))
	case c.ExpectStatus != nil && !slices.Contains(c.ExpectStatus, status):
		return fmt.Sprintf("answered HTTP %d; the case expects %s", status, statusList(c.ExpectStatus))
	case c.ExpectStatus == nil && status != 0 && !ok(status):
		return fmt.Sprintf("answered HTTP %d; %s", status, want)
	}
	return ""
}

// authFailure reports a 401 or 403 answer, which says more about the
// configuration than about the Tool.
func (p *prober) authFailure(c *Case, status int) {
	var passed []string
	for _, kv := range p.opts.Env {
		if k, _, _ := strings.Cut(kv, "="); credential.Name(k) {
			passed = append(passed, k)
		}
	}
	which := "no credential variable was given (--env or --env-file)"
	if len(passed) > 0 {
		which = "the server was given " + strings.Join(passed, ", ")
	}
	p.report(RuleAuthFailed, c, "answered HTTP %d: authentication failed: check the credential variables (%s)", status, which)
}

func statusList(codes []int) string {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, " or ")
}

// isErrorStated checks how a success says it is one: a strict Tool's
// result says isError: false (its reviewed callbacks always do, and spec
// 000 asks for it), while a core-export-v1 result may leave isError out,
// which MCP reads as false.
func (p *prober) isErrorStated(c *Case, r *toolResult) bool {
	if p.exp.strict && !r.HasIsError {
		p.report(RuleCallFailed, c, "the result does not say isError: false; a strict Tool's success states it")
		return false
	}
	return true
}

// clientsReturn judges a result as the clients would take it, against the
// outputSchema the Tool listed in the session, and reports each way they
// would fail their caller. It reports whether they all return the result
// whole.
func (p *prober) clientsReturn(c *Case, r *toolResult) bool {
	return p.judgeClients(c.where(), c.Name, r)
}

// judgeClients judges one result of the Tool name, a call described by
// where, as clientsReturn does.
func (p *prober) judgeClients(where, name string, r *toolResult) bool {
	ok := true
	for _, pr := range toolresult.Judge(p.listed[name], r.Result) {
		rule := RuleClientSuccess
		switch pr.Kind {
		case toolresult.ErrorBreaksSchema, toolresult.ErrorLooksLikeSuccess:
			rule = RuleClientErrorStructured
		case toolresult.ErrorWithoutText:
			rule = RuleClientErrorText
		}
		p.result.Diagnostics.Add(rule.New(serverFile, "%s: tool %q: %s; fails in %s", where, name, pr.Message, strings.Join(pr.Clients, ", ")))
		ok = false
	}
	return ok
}

// checkSuccess judges a --call: isError false, what the clients make of it,
// the projection, (strict) structuredContent valid against the contract's
// outputSchema, and for a result passing an HTTP answer through, a 2xx
// status or the one the case expects.
func (p *prober) checkSuccess(c *Case, res *mcpcheck.CallResult) (bool, int) {
	r := p.answered(RuleCallFailed, c, res)
	if r == nil {
		return false, 0
	}
	status := r.httpStatus()
	if r.IsError {
		hint := ""
		if p.deniedNetwork(r) {
			hint = "; " + networkHint
		}
		p.report(RuleCallFailed, c, "returned a Tool error: %s%s", clipString(errorSummary(r), 240), hint)
		return false, status
	}
	if !p.isErrorStated(c, r) || !p.clientsReturn(c, r) || !p.projection(c, r) {
		return false, status
	}
	if t := p.exp.tool(c.Name); t != nil {
		if vs := validate(t.output, r.Structured); len(vs) > 0 {
			p.report(RuleResultSchema, c, "structuredContent does not match the outputSchema: %s", joinViolations(vs))
			return false, status
		}
	}
	if status == 0 && p.exp.httpTools[c.Name] {
		p.report(RuleCallStatus, c, "the result carries no httpStatus (%s): an HTTP Tool passes the service's status and body through, and a result without httpStatus is no success",
			clipString(r.Text(), 160))
		return false, status
	}
	if c.ExpectStatus == nil && (status == 401 || status == 403) {
		p.authFailure(c, status)
		return false, status
	}
	if msg := p.statusProblem(c, status, is2xx, `a --call passes on a 2xx status, or on the one its case expects ("expect": {"httpStatus": 404})`); msg != "" {
		p.report(RuleCallStatus, c, "%s", msg)
		return false, status
	}
	return true, status
}

func is2xx(status int) bool { return status >= 200 && status <= 299 }

// checkFailure judges an --error-call: a result (not a protocol error) with
// isError true that every client returns and (strict) the contract's error
// envelope as the JSON of its text, or a result passing through an HTTP
// error status (the one the case expects, if any).
func (p *prober) checkFailure(c *Case, res *mcpcheck.CallResult) (bool, int) {
	if res != nil && res.Error != nil {
		p.report(RuleErrorCall, c, "answered with JSON-RPC error %d: %s; a failure inside the handler must be a result with isError: true",
			res.Error.Code, res.Error.Message)
		return false, 0
	}
	r := p.answered(RuleErrorCall, c, res)
	if r == nil {
		return false, 0
	}
	status := r.httpStatus()
	if !r.IsError {
		if msg := p.statusProblem(c, status, func(s int) bool { return !is2xx(s) }, "an --error-call case must fail"); msg != "" {
			p.report(RuleErrorCall, c, "%s", msg)
			return false, status
		}
		if status == 0 {
			p.report(RuleErrorCall, c, "succeeded; an --error-call case must make the handler fail (isError: true) or the service answer an HTTP error status")
			return false, status
		}
		return p.isErrorStated(c, r) && p.clientsReturn(c, r), status // the service's own error answer, passed through
	}
	if p.deniedNetwork(r) {
		p.report(RuleErrorCall, c, "failed only because %s", networkHint)
		return false, status
	}
	if c.ExpectStatus != nil {
		p.report(RuleErrorCall, c, "returned a Tool error (%s); the case expects HTTP %s", clipString(errorSummary(r), 120), statusList(c.ExpectStatus))
		return false, status
	}
	if !p.clientsReturn(c, r) {
		return false, status
	}
	if t := p.exp.tool(c.Name); t != nil {
		if problems := envelopeProblems(r, t); len(problems) > 0 {
			p.report(RuleErrorEnvelope, c, "%s", strings.Join(problems, "; "))
			return false, status
		}
	}
	return true, status
}

// envelopeProblems checks a Tool error against the contract's error
// envelope, read where every client reads it (the JSON of the result's
// text): non-empty strings at codePath and messagePath, an object or array
// at detailsPath (an object's category one of the failure categories,
// which the reviewed normalizer always gives), a boolean at
// retryabilityPath when declared.
func envelopeProblems(r *toolResult, t *expectedTool) []string {
	sc, _ := r.ReadError()
	if sc == nil {
		return []string{fmt.Sprintf("the error result's text holds no JSON object (%s); a strict Tool error is the JSON of {code, message, details, retryable}", clipString(r.Text(), 120))}
	}
	var problems []string
	path := func(p []string) string { return strings.Join(p, ".") }
	for _, s := range []struct {
		name string
		path []string
	}{{"code", t.errors.code}, {"message", t.errors.message}} {
		v, _ := at(sc, s.path)
		if str, ok := v.(canonjson.String); !ok || strings.TrimSpace(string(str)) == "" {
			problems = append(problems, fmt.Sprintf("%s is %s, want a non-empty string (the %s)", path(s.path), canonjson.TypeName(v), s.name))
		}
	}
	switch v, _ := at(sc, t.errors.details); v := v.(type) {
	case *canonjson.Object:
		if c, _ := v.At("category").(canonjson.String); !slices.Contains(failureCategories, string(c)) {
			got := "absent"
			if v.Has("category") {
				got = show(v.At("category"))
			}
			problems = append(problems, fmt.Sprintf("%s.category is %s, want one of %s: what kind of failure it was (the reviewed error normalizer says it)",
				path(t.errors.details), got, strings.Join(failureCategories, ", ")))
		}
	case canonjson.Array:
	default:
		problems = append(problems, fmt.Sprintf("%s is %s, want structured details (an object or array)", path(t.errors.details), canonjson.TypeName(v)))
	}
	if t.errors.retryability != nil {
		if v, _ := at(sc, t.errors.retryability); !isBool(v) {
			problems = append(problems, fmt.Sprintf("%s is %s, want a boolean (the retryability)", path(t.errors.retryability), canonjson.TypeName(v)))
		}
	}
	return problems
}

// failureCategories are the values of a Tool error's details.category.
var failureCategories = []string{
	contract.CategoryInput, contract.CategoryAuthorization, contract.CategoryBusiness, contract.CategoryUpstream,
	contract.CategoryNetwork, contract.CategoryOutputContract, contract.CategoryUnknownOutcome, contract.CategoryUnclassified,
}

// checkDryRun judges a --dry-run-call: a successful result every client
// returns, holding exactly {dryRun: true, validatedInput, operationPolicy,
// operationSummary}, the input as given and the policy and summary as the
// contract projects them. A core-export-v1 package has no contract: its
// result must be an object with dryRun: true, whatever else it shows of
// the request.
func (p *prober) checkDryRun(c *Case, res *mcpcheck.CallResult) bool {
	r := p.answered(RuleCallFailed, c, res)
	if r == nil {
		return false
	}
	if r.IsError {
		p.report(RuleCallFailed, c, "returned a Tool error under the dry-run variable: %s", clipString(errorSummary(r), 240))
		return false
	}
	if !p.isErrorStated(c, r) || !p.projection(c, r) {
		return false
	}
	sc, _ := r.Structured.(*canonjson.Object)
	if !p.exp.strict {
		if v := field(sc, "dryRun"); v != canonjson.Value(canonjson.Bool(true)) {
			hint := ""
			if r.httpStatus() != 0 {
				hint = fmt.Sprintf(" (it answered HTTP %d: the call was sent)", r.httpStatus())
			}
			p.report(RuleDryRun, c, "the result's dryRun is %s, want true%s; a write must return its request instead of sending it when %s=1",
				show(v), hint, p.exp.dryRunVariable)
			return false
		}
		return p.clientsReturn(c, r)
	}
	t := p.exp.tool(c.Name)
	if keys := keysOf(sc); !slices.Equal(keys, dryRunKeys) {
		hint := ""
		if sc.Has("status") || sc.Has("data") {
			hint = "; the call looks dispatched rather than dry-run"
		}
		p.report(RuleDryRun, c, "structuredContent has %s, want exactly %s%s", quoteList(keys), quoteList(dryRunKeys), hint)
		return false
	}
	var problems []string
	if v := field(sc, "dryRun"); v != canonjson.Value(canonjson.Bool(true)) {
		problems = append(problems, fmt.Sprintf("dryRun is %s, want true", show(v)))
	}
	for _, s := range []struct {
		key  string
		want canonjson.Value
		from string
	}{
		{"validatedInput", c.Arguments, "the arguments"},
		{"operationPolicy", t.policy, "the contract's operationPolicy"},
		{"operationSummary", t.summary, "the contract's operationSummary"},
	} {
		got := field(sc, s.key)
		if d, differ := canonjson.FirstDifference(s.want, got); differ {
			problems = append(problems, fmt.Sprintf("%s differs from %s at %s: %s, want %s", s.key, s.from, pointerOrRoot(d.Pointer), show(d.B), show(d.A)))
		}
	}
	if len(problems) > 0 {
		p.report(RuleDryRun, c, "%s", strings.Join(problems, "; "))
		return false
	}
	return p.clientsReturn(c, r)
}

// errorSummary describes a Tool error for a message: its code and message
// when structured, its text otherwise.
func errorSummary(r *toolResult) string {
	if e, _ := r.ReadError(); e != nil {
		code, _ := field(e, "code").(canonjson.String)
		msg, _ := field(e, "message").(canonjson.String)
		if code != "" || msg != "" {
			return fmt.Sprintf("%s: %s", code, msg)
		}
	}
	if t := r.Text(); t != "" {
		return t
	}
	return "(no text)"
}

func joinViolations(vs []violation) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return strings.Join(s, "; ")
}

func isBool(v canonjson.Value) bool {
	_, ok := v.(canonjson.Bool)
	return ok
}
