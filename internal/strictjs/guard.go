package strictjs

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/tdewolff/parse/v2/js"
)

// A guardCondition is one condition of the workflow guard's reviewed
// shape (see the package comment). Each has a message of its own, so that
// a finding says which one a Function breaks; the shape checker's tests
// break each exactly once.
type guardCondition int

const (
	guardParams guardCondition = iota
	guardRestParam
	guardDefaultParam
	guardImportMissing
	guardEmptyBody
	guardLastReturn
	guardCallCount
	guardStateArgs
	guardStateContext
	guardStateWorkflow
	guardNoState
	guardStateGuard
	guardArgCount
	guardPolicyLiteral
	guardPolicyPlain
	guardPolicyKeys
	guardPolicyWorkflow
	guardPolicyInput
	guardPolicyContext
	guardPolicyOperationKey
	guardDispatchParam
	guardDispatchRest
	guardDispatchKind
	guardDispatchUnchecked
	guardEffectOutside
	guardVerifierLiteral
	guardVerifierName
	guardBindings
	guardConditions // the number of conditions
)

// guardMessages are the conditions' messages, formats of their arguments.
var guardMessages = [guardConditions]string{
	guardParams:             "the parameters must be exactly (input, context)",
	guardRestParam:          "the signature must not take a rest parameter",
	guardDefaultParam:       "the parameters must not have defaults: the guard needs the Host's own context",
	guardImportMissing:      "the Function core must import protectedWorkflowStateFor from %s",
	guardEmptyBody:          "the body is empty",
	guardLastReturn:         "the last statement must return state.guard.dispatchWithPolicy({…}, dispatch)",
	guardCallCount:          "calls dispatchWithPolicy %d times; exactly once",
	guardStateArgs:          "protectedWorkflowStateFor takes exactly the context and the workflow ID, not %d arguments",
	guardStateContext:       "protectedWorkflowStateFor must read the Function's own context",
	guardStateWorkflow:      "protectedWorkflowStateFor must name the workflow %q",
	guardNoState:            "needs const state = protectedWorkflowStateFor(context, %q) before the dispatch",
	guardStateGuard:         "must call %s.guard.dispatchWithPolicy, the guard of the protected workflow state",
	guardArgCount:           "dispatchWithPolicy takes the policy and the dispatch, not %d arguments",
	guardPolicyLiteral:      "the policy must be an object literal",
	guardPolicyPlain:        "the policy must be plain properties: no spread, no computed key",
	guardPolicyKeys:         "the policy must hold exactly workflowId, input, runtimeContext and operationKey (got %s); bindings and expected values come from the protected operation",
	guardPolicyWorkflow:     "workflowId must be the literal %q",
	guardPolicyInput:        "input must be the Function's own input, unchanged",
	guardPolicyContext:      "runtimeContext must be the Function's own context",
	guardPolicyOperationKey: "operationKey must be %s.operationKey",
	guardDispatchParam:      "the dispatch must take the guard's checked input as its first parameter",
	guardDispatchRest:       "the dispatch takes the guard's checked input alone, without a rest parameter",
	guardDispatchKind:       "the dispatch must be context.dispatch or a function of the guard's checked input",
	guardDispatchUnchecked:  "the dispatch reads the unchecked input; build the requests from the guard's checked copy",
	guardEffectOutside:      "%s outside the guard's dispatch: the guard must come first",
	guardVerifierLiteral:    "the guard runs no verifier; the protected operation holds what to check",
	guardVerifierName:       "%s: the guard runs no verifier; the protected operation holds what to check",
	guardBindings:           "%s must not be passed: bindings and expected values come from the protected operation",
}

// guarded checks that a deterministic-workflow write dispatches through the
// workflow guard in the reviewed shape (see the package comment), one step
// after another: the Function's signature, the returned dispatchWithPolicy
// call, the protected state it comes from, its policy, its dispatch, and
// nothing sent or verified outside it.
func (c *checker) guarded(m *jsmod.Module, fn function, cf *capFacts) {
	g := &guardCheck{c: c, m: m, fn: fn, cf: cf, fnAt: firstToken(m, fn.node)}
	g.signature()
	if !g.finalDispatch() {
		return
	}
	g.protectedState()
	if len(g.call.Args.List) != 2 {
		g.report(g.at, guardArgCount, len(g.call.Args.List))
		return
	}
	g.policy(g.call.Args.List[0].Value)
	sender := g.dispatch(g.call.Args.List[1].Value)
	g.nothingOutside(sender)
}

// guardCheck is one guarded Function under check.
type guardCheck struct {
	c    *checker
	m    *jsmod.Module
	fn   function
	cf   *capFacts
	fnAt jsmod.Pos // the Function's first token

	call  *js.CallExpr // the returned dispatchWithPolicy call
	at    jsmod.Pos    // its first token
	state string       // the const the protected workflow state is bound to, "" if none
}

func (g *guardCheck) report(at jsmod.Pos, cond guardCondition, args ...any) {
	g.c.report(RuleGuardUse, g.m, at, "%s (workflow %s): "+guardMessages[cond], append([]any{g.fn.name, g.cf.workflowID}, args...)...)
}

// signature: (input, context), no rest or default parameter, and the guard
// imported.
func (g *guardCheck) signature() {
	if names := paramNames(g.fn.params); !slices.Equal(names, []string{"input", "context"}) {
		g.report(g.fnAt, guardParams)
	}
	if g.fn.params.Rest != nil {
		g.report(g.fnAt, guardRestParam)
	}
	if slices.ContainsFunc(g.fn.params.List, func(el js.BindingElement) bool { return el.Default != nil }) {
		g.report(g.fnAt, guardDefaultParam)
	}
	if !g.c.importsGuard(g.m) {
		g.report(jsmod.Pos{}, guardImportMissing, guardImport)
	}
}

// finalDispatch finds the guard's dispatch: the last statement, returned
// directly, and the only dispatchWithPolicy call. It reports false when
// there is none to check further.
func (g *guardCheck) finalDispatch() bool {
	stmts := g.fn.body.List
	if len(stmts) == 0 {
		g.report(g.fnAt, guardEmptyBody)
		return false
	}
	if ret, ok := stmts[len(stmts)-1].(*js.ReturnStmt); ok && ret.Value != nil {
		g.call, _ = jsmod.Unparen(ret.Value).(*js.CallExpr)
	}
	if g.call == nil || lastName(g.call.X) != "dispatchWithPolicy" {
		g.report(g.fnAt, guardLastReturn)
		return false
	}
	g.at = firstToken(g.m, g.call)
	count := 0
	jsmod.Inspect(g.fn.body, func(n js.INode) bool {
		if k, ok := n.(*js.CallExpr); ok && lastName(k.X) == "dispatchWithPolicy" {
			count++
		}
		return true
	})
	if count != 1 {
		g.report(g.at, guardCallCount, count)
	}
	return true
}

// protectedState: const state = protectedWorkflowStateFor(context,
// "<workflowId>") before the dispatch, and the guard comes from that state.
func (g *guardCheck) protectedState() {
	stmts := g.fn.body.List
	for _, stmt := range stmts[:len(stmts)-1] {
		d, ok := stmt.(*js.VarDecl)
		if !ok || d.TokenType != js.ConstToken {
			continue
		}
		for _, el := range d.List {
			v, ok := el.Binding.(*js.Var)
			init, isCall := jsmod.Unparen(el.Default).(*js.CallExpr)
			if !ok || !isCall || lastName(init.X) != "protectedWorkflowStateFor" {
				continue
			}
			initAt := firstToken(g.m, init)
			if n := len(init.Args.List); n != 2 {
				g.report(initAt, guardStateArgs, n)
			}
			if ctx, _ := ident(arg(init, 0)); ctx != "context" {
				g.report(initAt, guardStateContext)
			}
			if id, _ := str(arg(init, 1)); id != g.cf.workflowID {
				g.report(initAt, guardStateWorkflow, g.cf.workflowID)
			}
			g.state = string(v.Data)
		}
	}
	if g.state == "" {
		g.report(g.at, guardNoState, g.cf.workflowID)
	} else if p, _ := path(g.call.X); p != g.state+".guard.dispatchWithPolicy" {
		g.report(g.at, guardStateGuard, g.state)
	}
}

// policy: an object literal of exactly workflowId, input, runtimeContext
// and operationKey, each the value the guard expects.
func (g *guardCheck) policy(expr js.IExpr) {
	policy, ok := jsmod.Unparen(expr).(*js.ObjectExpr)
	if !ok {
		g.report(g.at, guardPolicyLiteral)
		return
	}
	at := firstToken(g.m, policy)
	names, values, plain := properties(policy)
	slices.Sort(names)
	switch {
	case !plain:
		g.report(at, guardPolicyPlain)
		return
	case !slices.Equal(names, []string{"input", "operationKey", "runtimeContext", "workflowId"}):
		g.report(at, guardPolicyKeys, strings.Join(names, ", "))
		return
	}
	if id, _ := str(values["workflowId"]); id != g.cf.workflowID {
		g.report(firstToken(g.m, values["workflowId"]), guardPolicyWorkflow, g.cf.workflowID)
	}
	if name, _ := ident(values["input"]); name != "input" {
		g.report(at, guardPolicyInput)
	}
	if name, _ := ident(values["runtimeContext"]); name != "context" {
		g.report(at, guardPolicyContext)
	}
	if p, _ := path(values["operationKey"]); g.state != "" && p != g.state+".operationKey" {
		g.report(at, guardPolicyOperationKey, g.state)
	}
}

// dispatch: context.dispatch, or a function of the checked input that never
// reads the unchecked one. It returns that function, or nil.
func (g *guardCheck) dispatch(expr js.IExpr) js.INode {
	dispatch := jsmod.Unparen(expr)
	var sender js.INode
	var params js.Params
	switch d := dispatch.(type) {
	case *js.ArrowFunc:
		sender, params = d, d.Params
	case *js.FuncDecl:
		sender, params = d, d.Params
	default:
		if p, _ := path(dispatch); p != "context.dispatch" {
			g.report(g.at, guardDispatchKind)
		}
		return nil
	}
	at := firstToken(g.m, sender)
	if len(params.List) == 0 {
		g.report(at, guardDispatchParam)
	}
	if params.Rest != nil {
		g.report(at, guardDispatchRest)
	}
	jsmod.Inspect(sender, func(n js.INode) bool {
		if name, ok := ident(asExpr(n)); ok && name == "input" && !g.c.shadows(sender, "input") {
			g.report(at, guardDispatchUnchecked)
			return false
		}
		return true
	})
	return sender
}

// nothingOutside: nothing is sent, and nothing verified, outside the
// guard's dispatch (sender, nil for context.dispatch).
func (g *guardCheck) nothingOutside(sender js.INode) {
	jsmod.Inspect(g.fn.body, func(n js.INode) bool {
		if same(n, sender) {
			return false
		}
		switch n := n.(type) {
		case *js.CallExpr:
			if what := effectCall(n); what != "" && lastName(n.X) != "dispatchWithPolicy" {
				g.report(firstToken(g.m, n), guardEffectOutside, what)
			}
		case *js.LiteralExpr:
			if strings.Contains(strings.ToLower(string(n.Data)), "verify") {
				g.report(g.m.Position(n.Data), guardVerifierLiteral)
			}
		case *js.Var:
			if strings.Contains(strings.ToLower(string(n.Data)), "verify") {
				g.report(g.fnAt, guardVerifierName, n.Data)
			}
		case *js.PropertyName:
			if name, _ := propertyName(n); name == "expectedBindings" || name == "requiredBindings" || name == "bindings" {
				g.report(g.m.Position(n.Literal.Data), guardBindings, name)
			}
		}
		return true
	})
}

// importsGuard reports whether the module imports protectedWorkflowStateFor
// from the guard, and constructs no guard of its own.
func (c *checker) importsGuard(m *jsmod.Module) bool {
	imported := false
	for _, stmt := range m.AST().BlockStmt.List {
		imp, ok := stmt.(*js.ImportStmt)
		if !ok {
			continue
		}
		if s, _ := jsmod.StringValue(imp.Module); s != guardImport {
			continue
		}
		for _, a := range imp.List {
			name := a.Binding
			if a.Name != nil {
				name = a.Name
			}
			imported = imported || string(name) == "protectedWorkflowStateFor"
		}
	}
	return imported
}

// shadows reports whether fn declares a parameter or variable name of its
// own, so that uses of it inside are not the outer one.
func (c *checker) shadows(fn js.INode, name string) bool {
	var params js.Params
	switch f := fn.(type) {
	case *js.ArrowFunc:
		params = f.Params
	case *js.FuncDecl:
		params = f.Params
	}
	return slices.Contains(paramNames(params), name)
}

// arg returns a call's i-th argument, or nil.
func arg(call *js.CallExpr, i int) js.IExpr {
	if i < len(call.Args.List) {
		return call.Args.List[i].Value
	}
	return nil
}

// asExpr returns n as an expression, or nil.
func asExpr(n js.INode) js.IExpr {
	e, _ := n.(js.IExpr)
	return e
}
