package probe

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
)

// dryRunKeys are the members of a dry-run result, exactly.
var dryRunKeys = []string{"dryRun", "operationPolicy", "operationSummary", "validatedInput"}

// toolResult is a tools/call result as the server sent it.
type toolResult struct {
	isError    bool
	structured canonjson.Value // nil when absent
	content    canonjson.Array
}

// parseResult reads a CallToolResult.
func parseResult(raw json.RawMessage) (*toolResult, error) {
	v, err := canonjson.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("the result is not valid JSON: %v", err)
	}
	o, ok := v.(*canonjson.Object)
	if !ok {
		return nil, fmt.Errorf("the result is %s, not an object", canonjson.TypeName(v))
	}
	r := &toolResult{}
	switch e := field(o, "isError").(type) {
	case nil:
	case canonjson.Bool:
		r.isError = bool(e)
	default:
		return nil, fmt.Errorf("isError is %s, not a boolean", canonjson.TypeName(e))
	}
	switch c := field(o, "content").(type) {
	case canonjson.Array:
		r.content = c
	default:
		return nil, fmt.Errorf("content is %s, not an array", canonjson.TypeName(c))
	}
	r.structured = field(o, "structuredContent")
	return r, nil
}

// texts returns the text of every text content block.
func (r *toolResult) texts() []string {
	var out []string
	for _, b := range r.content {
		block, _ := b.(*canonjson.Object)
		if t, _ := field(block, "type").(canonjson.String); t == "text" {
			if s, ok := field(block, "text").(canonjson.String); ok {
				out = append(out, string(s))
			}
		}
	}
	return out
}

// text returns the text blocks joined, for messages and for recognising the
// SDK's -32602 answers.
func (r *toolResult) text() string { return strings.Join(r.texts(), "\n") }

// textMatches reports whether a text block holds JSON equal to v.
func (r *toolResult) textMatches(v canonjson.Value) bool {
	return slices.ContainsFunc(r.texts(), func(s string) bool {
		tv, err := canonjson.Decode([]byte(s))
		return err == nil && equal(tv, v)
	})
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

// projection checks that structuredContent is an object and that a text
// block carries the same JSON. A core-export-v1 result may carry text only
// (its projection returns non-object results as text), so there
// structuredContent is checked only when present.
func (p *prober) projection(c *Case, r *toolResult) bool {
	if r.structured == nil && !p.exp.strict {
		if strings.TrimSpace(r.text()) == "" {
			p.report(RuleText, c, "the result has neither structuredContent nor text content")
			return false
		}
		return true
	}
	if _, ok := r.structured.(*canonjson.Object); !ok {
		p.report(RuleStructured, c, "structuredContent is %s, want an object", canonjson.TypeName(r.structured))
		return false
	}
	if !r.textMatches(r.structured) {
		p.report(RuleText, c, "no text block holds JSON equal to structuredContent; return JSON.stringify(structuredContent) as text too")
		return false
	}
	return true
}

// checkSuccess judges a --call: isError false, the projection, and (strict)
// structuredContent valid against the contract's outputSchema.
func (p *prober) checkSuccess(c *Case, res *mcpcheck.CallResult) bool {
	r := p.answered(RuleCallFailed, c, res)
	if r == nil {
		return false
	}
	if r.isError {
		p.report(RuleCallFailed, c, "returned a Tool error: %s", clipString(errorSummary(r), 240))
		return false
	}
	if !p.projection(c, r) {
		return false
	}
	if t := p.exp.tool(c.Name); t != nil {
		if vs := validate(t.output, r.structured); len(vs) > 0 {
			p.report(RuleResultSchema, c, "structuredContent does not match the outputSchema: %s", joinViolations(vs))
			return false
		}
	}
	return true
}

// checkFailure judges an --error-call: a result (not a protocol error) with
// isError true and (strict) the contract's error envelope.
func (p *prober) checkFailure(c *Case, res *mcpcheck.CallResult) bool {
	if res != nil && res.Error != nil {
		p.report(RuleErrorCall, c, "answered with JSON-RPC error %d: %s; a failure inside the handler must be a result with isError: true",
			res.Error.Code, res.Error.Message)
		return false
	}
	r := p.answered(RuleErrorCall, c, res)
	if r == nil {
		return false
	}
	if !r.isError {
		p.report(RuleErrorCall, c, "succeeded; an --error-call case must make the handler fail (isError: true)")
		return false
	}
	if !p.projection(c, r) {
		return false
	}
	if t := p.exp.tool(c.Name); t != nil {
		if problems := envelopeProblems(r, t); len(problems) > 0 {
			p.report(RuleErrorEnvelope, c, "%s", strings.Join(problems, "; "))
			return false
		}
	}
	return true
}

// envelopeProblems checks a Tool error against the contract's error
// envelope: non-empty strings at codePath and messagePath, an object or
// array at detailsPath, a boolean at retryabilityPath when declared.
func envelopeProblems(r *toolResult, t *expectedTool) []string {
	sc, ok := r.structured.(*canonjson.Object)
	if !ok {
		return []string{fmt.Sprintf("structuredContent is %s, want the error object", canonjson.TypeName(r.structured))}
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
	switch v, _ := at(sc, t.errors.details); v.(type) {
	case *canonjson.Object, canonjson.Array:
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

// checkDryRun judges a --dry-run-call: a successful result holding exactly
// {dryRun: true, validatedInput, operationPolicy, operationSummary}, the
// input as given and the policy and summary as the contract projects them.
func (p *prober) checkDryRun(c *Case, res *mcpcheck.CallResult) bool {
	r := p.answered(RuleCallFailed, c, res)
	if r == nil {
		return false
	}
	if r.isError {
		p.report(RuleCallFailed, c, "returned a Tool error under the dry-run variable: %s", clipString(errorSummary(r), 240))
		return false
	}
	if !p.projection(c, r) {
		return false
	}
	sc := r.structured.(*canonjson.Object) // projection checked it
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
		if where, same := firstDifference(s.want, got, ""); !same {
			gv, _ := canonjson.Resolve(got, where)
			wv, _ := canonjson.Resolve(s.want, where)
			problems = append(problems, fmt.Sprintf("%s differs from %s at %s: %s, want %s", s.key, s.from, pointerOrRoot(where), show(gv), show(wv)))
		}
	}
	if len(problems) > 0 {
		p.report(RuleDryRun, c, "%s", strings.Join(problems, "; "))
		return false
	}
	return true
}

// errorSummary describes a Tool error for a message: its code and message
// when structured, its text otherwise.
func errorSummary(r *toolResult) string {
	if sc, ok := r.structured.(*canonjson.Object); ok {
		code, _ := field(sc, "code").(canonjson.String)
		msg, _ := field(sc, "message").(canonjson.String)
		if code != "" || msg != "" {
			return fmt.Sprintf("%s: %s", code, msg)
		}
	}
	if t := r.text(); t != "" {
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
