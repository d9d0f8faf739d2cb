package strictjs

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/tdewolff/parse/v2/js"
)

// callback checks a Tool callback against the reviewed wrapper:
//
//	async (input, runtimeContext) => {
//	  if (process.env.<VAR> === "1") {
//	    const dryRunResult = {dryRun: true, validatedInput: input, operationPolicy: <policy>, operationSummary: <summary>};
//	    return {structuredContent: dryRunResult, content: [{type: "text", text: JSON.stringify(dryRunResult)}], isError: false};
//	  }
//	  try {
//	    const functionResult = await <export>(input, runtimeContext);
//	    return {structuredContent: functionResult, content: [{type: "text", text: JSON.stringify(functionResult)}], isError: false};
//	  } catch (error) {
//	    const toolError = normalizeToolError(error, <policy>);
//	    return {content: [{type: "text", text: JSON.stringify(toolError)}], isError: true};
//	  }
//	}
//
// The error result carries the structured error as JSON text only: a
// client that validates structuredContent against the output schema on
// error results too (the TypeScript SDK Client 1.32.x) would throw on it.
// Local names other than the parameters and the catch binding are free.
func (c *checker) callback(m *jsmod.Module, params js.Params, body *js.BlockStmt, cf *capFacts, at jsmod.Pos) {
	tool := cf.cap.ToolName
	fail := func(rule *diag.Rule, n js.INode, format string, args ...any) {
		p := at
		if n != nil {
			if q := firstToken(m, n); q.IsValid() {
				p = q
			}
		}
		c.report(rule, m, p, "%s: "+format, append([]any{tool}, args...)...)
	}
	if names := paramNames(params); !slices.Equal(names, []string{"input", "runtimeContext"}) || params.Rest != nil ||
		slices.ContainsFunc(params.List, func(el js.BindingElement) bool { return el.Default != nil }) {
		fail(RuleMCPCallback, nil, "the callback's parameters must be exactly (input, runtimeContext)")
	}
	c.reassigned(m, body, []string{"input", "runtimeContext"})
	stmts := body.List
	if len(stmts) == 0 || !c.dryRunGuard(m, stmts[0], cf, fail) {
		if len(stmts) == 0 {
			fail(RuleMCPDryRun, nil, dryRunMessages[dryRunMissing])
		}
		return
	}
	if len(stmts) != 2 {
		fail(RuleMCPCallback, nil, "after the dry-run guard the callback holds exactly one try { … } catch (error) { … }")
		return
	}
	try, ok := stmts[1].(*js.TryStmt)
	if !ok || try.Catch == nil || try.Finally != nil {
		fail(RuleMCPCallback, stmts[1], "after the dry-run guard the callback holds exactly one try { … } catch (error) { … }, without finally")
		return
	}
	// try: const r = await <export>(input, runtimeContext); return projection(r, false).
	if len(try.Body.List) != 2 {
		fail(RuleMCPCallback, try.Body, "the try block holds exactly the Function call and the return of its result")
	} else {
		result, call := constInit(try.Body.List[0])
		var fn js.IExpr
		if u, ok := jsmod.Unparen(call).(*js.UnaryExpr); ok && u.Op == js.AwaitToken {
			if k, ok := jsmod.Unparen(u.X).(*js.CallExpr); ok {
				fn = k.X
				if !argsAre(k, "input", "runtimeContext") {
					fail(RuleMCPCallback, k, "the Function must be called with exactly (input, runtimeContext)")
				}
			}
		}
		name, _ := ident(fn)
		switch {
		case result == "" || fn == nil:
			fail(RuleMCPCallback, try.Body.List[0], "the try block must start with const result = await %s(input, runtimeContext)", cf.cap.FunctionExport)
		case name != cf.cap.FunctionExport:
			fail(RuleMCPCallback, try.Body.List[0], "calls %s instead of its own Function %s", calleeText(fn), cf.cap.FunctionExport)
		default:
			if !projection(try.Body.List[1], result, false) {
				fail(RuleMCPCallback, try.Body.List[1], "must return {structuredContent: %s, content: [{type: \"text\", text: JSON.stringify(%s)}], isError: false} right after the call", result, result)
			}
		}
	}
	// catch (error): const e = normalizeToolError(error, <policy>); return projection(e, true).
	binding, _ := try.Binding.(*js.Var)
	if binding == nil || string(binding.Data) != "error" {
		fail(RuleMCPNormalizerCall, try.Catch, "the catch must bind the error as catch (error)")
		return
	}
	if len(try.Catch.List) != 2 {
		fail(RuleMCPNormalizerCall, try.Catch, "the catch holds exactly the normalizeToolError call and the return of its result")
		return
	}
	toolError, init := constInit(try.Catch.List[0])
	call, _ := jsmod.Unparen(init).(*js.CallExpr)
	if name, _ := ident(callX(call)); toolError == "" || name != "normalizeToolError" {
		fail(RuleMCPNormalizerCall, try.Catch.List[0], "the catch must start with const toolError = normalizeToolError(error, <operationPolicy>)")
		return
	}
	if len(call.Args.List) != 2 || call.Args.List[0].Rest || call.Args.List[1].Rest {
		fail(RuleMCPNormalizerCall, call, "normalizeToolError takes exactly two arguments: the error and the literal operation policy")
		return
	}
	if name, _ := ident(call.Args.List[0].Value); name != "error" {
		fail(RuleMCPNormalizerCall, call, "normalizeToolError must receive the caught error itself")
	}
	if policy, ok := jsonValue(call.Args.List[1].Value); !ok || !canonjson.Equal(policy, cf.policy) {
		fail(RuleMCPNormalizerCall, call, "the operation policy must be the contract's, written as a literal")
	}
	if !projection(try.Catch.List[1], toolError, true) {
		fail(RuleMCPNormalizerCall, try.Catch.List[1], "must return {content: [{type: \"text\", text: JSON.stringify(%s)}], isError: true}, without structuredContent: clients that validate it against the output schema would throw instead of returning the error", toolError)
	}
}

// A dryRunCheck is one condition of the reviewed dry-run guard that
// starts every Tool callback (see callback). Each has a message of its
// own; the shape checker's tests break each exactly once.
type dryRunCheck int

const (
	dryRunMissing dryRunCheck = iota
	dryRunNotGuard
	dryRunVariable
	dryRunElse
	dryRunBody
	dryRunResultConst
	dryRunResultPlain
	dryRunResultKeys
	dryRunTrue
	dryRunValidatedInput
	dryRunPolicy
	dryRunSummary
	dryRunProjection
	dryRunChecks // the number of conditions
)

// dryRunMessages are the conditions' messages, formats of their arguments.
var dryRunMessages = [dryRunChecks]string{
	dryRunMissing:        "the callback must start with the dry-run guard",
	dryRunNotGuard:       "the callback must start with if (process.env.%s === \"1\") { … }, before anything else runs",
	dryRunVariable:       "the dry-run guard reads %s; the export profile's variable is %s",
	dryRunElse:           "the dry-run guard has no else branch",
	dryRunBody:           "the dry-run guard builds the dry-run result and returns it, nothing else",
	dryRunResultConst:    "the dry-run guard must start with const result = {dryRun, validatedInput, operationPolicy, operationSummary}",
	dryRunResultPlain:    "the dry-run result must be plain properties: no spread, no computed key",
	dryRunResultKeys:     "the dry-run result holds exactly dryRun, validatedInput, operationPolicy and operationSummary",
	dryRunTrue:           "dryRun must be true",
	dryRunValidatedInput: "validatedInput must be the callback's input, unchanged",
	dryRunPolicy:         "operationPolicy must be the contract's, written as a literal",
	dryRunSummary:        "operationSummary must be the derived summary, written as a literal",
	dryRunProjection:     "the dry-run guard must return {structuredContent: %s, content: [{type: \"text\", text: JSON.stringify(%s)}], isError: false}",
}

// dryRunGuard checks the first statement of a callback: the literal dry-run
// guard with the contract's policy and summary. It reports false when the
// statement is not a dry-run guard at all.
func (c *checker) dryRunGuard(m *jsmod.Module, stmt js.IStmt, cf *capFacts, fail func(*diag.Rule, js.INode, string, ...any)) bool {
	report := func(n js.INode, cond dryRunCheck, args ...any) {
		fail(RuleMCPDryRun, n, dryRunMessages[cond], args...)
	}
	guard, ok := stmt.(*js.IfStmt)
	variable := ""
	if ok {
		variable, ok = dryRunCondition(guard.Cond)
	}
	if !ok {
		report(stmt, dryRunNotGuard, c.f.dryRun)
		return false
	}
	if variable != c.f.dryRun {
		report(guard, dryRunVariable, variable, c.f.dryRun)
	}
	if guard.Else != nil {
		report(guard, dryRunElse)
	}
	block, ok := guard.Body.(*js.BlockStmt)
	if !ok || len(block.List) != 2 {
		report(guard, dryRunBody)
		return true
	}
	name, init := constInit(block.List[0])
	obj, isObject := jsmod.Unparen(init).(*js.ObjectExpr)
	if name == "" || !isObject {
		report(block.List[0], dryRunResultConst)
		return true
	}
	keys, values, plain := properties(obj)
	switch sorted := slices.Sorted(slices.Values(keys)); {
	case !plain:
		report(obj, dryRunResultPlain)
		return true
	case !slices.Equal(sorted, []string{"dryRun", "operationPolicy", "operationSummary", "validatedInput"}):
		report(obj, dryRunResultKeys)
		return true
	}
	if v, ok := jsonValue(values["dryRun"]); !ok || v != canonjson.Bool(true) {
		report(values["dryRun"], dryRunTrue)
	}
	if v, _ := ident(values["validatedInput"]); v != "input" {
		report(values["validatedInput"], dryRunValidatedInput)
	}
	if v, ok := jsonValue(values["operationPolicy"]); !ok || !canonjson.Equal(v, cf.policy) {
		report(values["operationPolicy"], dryRunPolicy)
	}
	if v, ok := jsonValue(values["operationSummary"]); !ok || !canonjson.Equal(v, cf.summary) {
		report(values["operationSummary"], dryRunSummary)
	}
	if !projection(block.List[1], name, false) {
		report(block.List[1], dryRunProjection, name, name)
	}
	return true
}

// dryRunCondition reads process.env.V === "1" (either side, either
// spelling of the member) and returns V.
func dryRunCondition(cond js.IExpr) (string, bool) {
	b, ok := jsmod.Unparen(cond).(*js.BinaryExpr)
	if !ok || b.Op != js.EqEqEqToken {
		return "", false
	}
	for _, pair := range [][2]js.IExpr{{b.X, b.Y}, {b.Y, b.X}} {
		p, isPath := path(pair[0])
		one, isString := str(pair[1])
		if isPath && isString && one == "1" && len(p) > len("process.env.") && p[:len("process.env.")] == "process.env." {
			return p[len("process.env."):], true
		}
	}
	return "", false
}

// constInit reads `const name = init;` with one binding.
func constInit(stmt js.IStmt) (string, js.IExpr) {
	d, ok := stmt.(*js.VarDecl)
	if !ok || d.TokenType != js.ConstToken || len(d.List) != 1 {
		return "", nil
	}
	v, ok := d.List[0].Binding.(*js.Var)
	if !ok || d.List[0].Default == nil {
		return "", nil
	}
	return string(v.Data), d.List[0].Default
}

// argsAre reports whether a call's arguments are exactly the named
// identifiers.
func argsAre(call *js.CallExpr, names ...string) bool {
	if len(call.Args.List) != len(names) {
		return false
	}
	for i, a := range call.Args.List {
		if n, ok := ident(a.Value); a.Rest || !ok || n != names[i] {
			return false
		}
	}
	return true
}

func callX(call *js.CallExpr) js.IExpr {
	if call == nil {
		return nil
	}
	return call.X
}

// projection reports whether stmt is `return {structuredContent: v,
// content: [{type: "text", text: JSON.stringify(v)}], isError: false}`, or
// for an error `return {content: [{type: "text", text:
// JSON.stringify(v)}], isError: true}`.
func projection(stmt js.IStmt, v string, isError bool) bool {
	ret, ok := stmt.(*js.ReturnStmt)
	if !ok || ret.Value == nil {
		return false
	}
	obj, ok := jsmod.Unparen(ret.Value).(*js.ObjectExpr)
	if !ok {
		return false
	}
	keys, values, plain := properties(obj)
	want := []string{"content", "isError", "structuredContent"}
	if isError {
		want = want[:2]
	}
	if sorted := slices.Sorted(slices.Values(keys)); !plain || !slices.Equal(sorted, want) {
		return false
	}
	if name, _ := ident(values["structuredContent"]); !isError && name != v {
		return false
	}
	if b, ok := jsonValue(values["isError"]); !ok || b != canonjson.Bool(isError) {
		return false
	}
	content, ok := jsmod.Unparen(values["content"]).(*js.ArrayExpr)
	if !ok || len(content.List) != 1 || content.List[0].Spread {
		return false
	}
	block, ok := jsmod.Unparen(content.List[0].Value).(*js.ObjectExpr)
	if !ok {
		return false
	}
	keys, values, plain = properties(block)
	if sorted := slices.Sorted(slices.Values(keys)); !plain || !slices.Equal(sorted, []string{"text", "type"}) {
		return false
	}
	if t, _ := str(values["type"]); t != "text" {
		return false
	}
	call, ok := jsmod.Unparen(values["text"]).(*js.CallExpr)
	if !ok {
		return false
	}
	p, _ := path(call.X)
	return p == "JSON.stringify" && argsAre(call, v)
}
