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
// workflow guard in the reviewed shape (see the package comment).
func (c *checker) guarded(m *jsmod.Module, fn function, cf *capFacts) {
	report := func(at jsmod.Pos, cond guardCondition, args ...any) {
		c.report(RuleGuardUse, m, at, "%s (workflow %s): "+guardMessages[cond], append([]any{fn.name, cf.workflowID}, args...)...)
	}
	fnAt := firstToken(m, fn.node)
	if names := paramNames(fn.params); !slices.Equal(names, []string{"input", "context"}) {
		report(fnAt, guardParams)
	}
	if fn.params.Rest != nil {
		report(fnAt, guardRestParam)
	}
	if slices.ContainsFunc(fn.params.List, func(el js.BindingElement) bool { return el.Default != nil }) {
		report(fnAt, guardDefaultParam)
	}
	if !c.importsGuard(m) {
		report(jsmod.Pos{}, guardImportMissing, guardImport)
	}

	// The guard's dispatch is the last statement, returned directly.
	stmts := fn.body.List
	if len(stmts) == 0 {
		report(fnAt, guardEmptyBody)
		return
	}
	ret, ok := stmts[len(stmts)-1].(*js.ReturnStmt)
	var call *js.CallExpr
	if ok && ret.Value != nil {
		call, _ = jsmod.Unparen(ret.Value).(*js.CallExpr)
	}
	if call == nil || lastName(call.X) != "dispatchWithPolicy" {
		report(fnAt, guardLastReturn)
		return
	}
	at := firstToken(m, call)
	count := 0
	jsmod.Inspect(fn.body, func(n js.INode) bool {
		if k, ok := n.(*js.CallExpr); ok && lastName(k.X) == "dispatchWithPolicy" {
			count++
		}
		return true
	})
	if count != 1 {
		report(at, guardCallCount, count)
	}

	// const state = protectedWorkflowStateFor(context, "<workflowId>"),
	// and the guard and operation key come from that state.
	state := ""
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
			initAt := firstToken(m, init)
			if n := len(init.Args.List); n != 2 {
				report(initAt, guardStateArgs, n)
			}
			if ctx, _ := ident(arg(init, 0)); ctx != "context" {
				report(initAt, guardStateContext)
			}
			if id, _ := str(arg(init, 1)); id != cf.workflowID {
				report(initAt, guardStateWorkflow, cf.workflowID)
			}
			state = string(v.Data)
		}
	}
	if state == "" {
		report(at, guardNoState, cf.workflowID)
	} else if p, _ := path(call.X); p != state+".guard.dispatchWithPolicy" {
		report(at, guardStateGuard, state)
	}

	// The policy: exactly workflowId, input, runtimeContext, operationKey.
	if len(call.Args.List) != 2 {
		report(at, guardArgCount, len(call.Args.List))
		return
	}
	policy, ok := jsmod.Unparen(call.Args.List[0].Value).(*js.ObjectExpr)
	if !ok {
		report(at, guardPolicyLiteral)
	} else {
		names, values, plain := properties(policy)
		slices.Sort(names)
		switch {
		case !plain:
			report(firstToken(m, policy), guardPolicyPlain)
		case !slices.Equal(names, []string{"input", "operationKey", "runtimeContext", "workflowId"}):
			report(firstToken(m, policy), guardPolicyKeys, strings.Join(names, ", "))
		default:
			if id, _ := str(values["workflowId"]); id != cf.workflowID {
				report(firstToken(m, values["workflowId"]), guardPolicyWorkflow, cf.workflowID)
			}
			if name, _ := ident(values["input"]); name != "input" {
				report(firstToken(m, policy), guardPolicyInput)
			}
			if name, _ := ident(values["runtimeContext"]); name != "context" {
				report(firstToken(m, policy), guardPolicyContext)
			}
			if p, _ := path(values["operationKey"]); state != "" && p != state+".operationKey" {
				report(firstToken(m, policy), guardPolicyOperationKey, state)
			}
		}
	}

	// The dispatch: context.dispatch, or a function of the checked input
	// that never reads the unchecked one.
	dispatch := jsmod.Unparen(call.Args.List[1].Value)
	var sender js.INode
	var params js.Params
	switch d := dispatch.(type) {
	case *js.ArrowFunc:
		sender, params = d, d.Params
	case *js.FuncDecl:
		sender, params = d, d.Params
	default:
		if p, _ := path(dispatch); p != "context.dispatch" {
			report(at, guardDispatchKind)
		}
	}
	if sender != nil {
		if len(params.List) == 0 {
			report(firstToken(m, sender), guardDispatchParam)
		}
		if params.Rest != nil {
			report(firstToken(m, sender), guardDispatchRest)
		}
		jsmod.Inspect(sender, func(n js.INode) bool {
			if name, ok := ident(asExpr(n)); ok && name == "input" && !c.shadows(sender, "input") {
				report(firstToken(m, sender), guardDispatchUnchecked)
				return false
			}
			return true
		})
	}

	// Nothing is sent, and nothing verified, outside the guard.
	jsmod.Inspect(fn.body, func(n js.INode) bool {
		if same(n, sender) {
			return false
		}
		switch n := n.(type) {
		case *js.CallExpr:
			if what := effectCall(n); what != "" && lastName(n.X) != "dispatchWithPolicy" {
				report(firstToken(m, n), guardEffectOutside, what)
			}
		case *js.LiteralExpr:
			if strings.Contains(strings.ToLower(string(n.Data)), "verify") {
				report(m.Position(n.Data), guardVerifierLiteral)
			}
		case *js.Var:
			if strings.Contains(strings.ToLower(string(n.Data)), "verify") {
				report(fnAt, guardVerifierName, n.Data)
			}
		case *js.PropertyName:
			if name, _ := propertyName(n); name == "expectedBindings" || name == "requiredBindings" || name == "bindings" {
				report(m.Position(n.Literal.Data), guardBindings, name)
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
