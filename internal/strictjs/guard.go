package strictjs

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/tdewolff/parse/v2/js"
)

// guarded checks that a deterministic-workflow write dispatches through the
// workflow guard in the reviewed shape (see the package comment).
func (c *checker) guarded(m *jsmod.Module, fn function, cf *capFacts) {
	report := func(at jsmod.Pos, format string, args ...any) {
		c.report(RuleGuardUse, m, at, "%s (workflow %s): "+format, append([]any{fn.name, cf.workflowID}, args...)...)
	}
	fnAt := firstToken(m, fn.node)
	if names := paramNames(fn.params); !slices.Equal(names, []string{"input", "context"}) || fn.params.Rest != nil ||
		slices.ContainsFunc(fn.params.List, func(el js.BindingElement) bool { return el.Default != nil }) {
		report(fnAt, "the signature must be exactly (input, context)")
	}
	if !c.importsGuard(m) {
		report(jsmod.Pos{}, "the Function core must import protectedWorkflowStateFor from %s", guardImport)
	}

	// The guard's dispatch is the last statement, returned directly.
	stmts := fn.body.List
	if len(stmts) == 0 {
		report(fnAt, "the body is empty")
		return
	}
	ret, ok := stmts[len(stmts)-1].(*js.ReturnStmt)
	var call *js.CallExpr
	if ok && ret.Value != nil {
		call, _ = jsmod.Unparen(ret.Value).(*js.CallExpr)
	}
	if call == nil || lastName(call.X) != "dispatchWithPolicy" {
		report(fnAt, "the last statement must return state.guard.dispatchWithPolicy({…}, dispatch)")
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
		report(at, "calls dispatchWithPolicy %d times; exactly once", count)
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
			ctx, _ := ident(arg(init, 0))
			id, _ := str(arg(init, 1))
			if len(init.Args.List) != 2 || ctx != "context" || id != cf.workflowID {
				report(firstToken(m, init), "must read protectedWorkflowStateFor(context, %q)", cf.workflowID)
			}
			state = string(v.Data)
		}
	}
	if state == "" {
		report(at, "needs const state = protectedWorkflowStateFor(context, %q) before the dispatch", cf.workflowID)
	} else if p, _ := path(call.X); p != state+".guard.dispatchWithPolicy" {
		report(at, "must call %s.guard.dispatchWithPolicy, the guard of the protected workflow state", state)
	}

	// The policy: exactly workflowId, input, runtimeContext, operationKey.
	if len(call.Args.List) != 2 {
		report(at, "dispatchWithPolicy takes the policy and the dispatch, not %d arguments", len(call.Args.List))
		return
	}
	policy, ok := jsmod.Unparen(call.Args.List[0].Value).(*js.ObjectExpr)
	if !ok {
		report(at, "the policy must be an object literal")
	} else {
		names, values, plain := properties(policy)
		slices.Sort(names)
		if !plain || !slices.Equal(names, []string{"input", "operationKey", "runtimeContext", "workflowId"}) {
			report(firstToken(m, policy), "the policy must hold exactly workflowId, input, runtimeContext and operationKey (got %s); bindings and expected values come from the protected operation",
				strings.Join(names, ", "))
		} else {
			if id, _ := str(values["workflowId"]); id != cf.workflowID {
				report(firstToken(m, values["workflowId"]), "workflowId must be the literal %q", cf.workflowID)
			}
			if name, _ := ident(values["input"]); name != "input" {
				report(firstToken(m, policy), "input must be the Function's own input, unchanged")
			}
			if name, _ := ident(values["runtimeContext"]); name != "context" {
				report(firstToken(m, policy), "runtimeContext must be the Function's own context")
			}
			if p, _ := path(values["operationKey"]); state != "" && p != state+".operationKey" {
				report(firstToken(m, policy), "operationKey must be %s.operationKey", state)
			}
		}
	}

	// The dispatch: context.dispatch, or a function of the checked input
	// that never reads the unchecked one.
	dispatch := jsmod.Unparen(call.Args.List[1].Value)
	var sender js.INode
	switch d := dispatch.(type) {
	case *js.ArrowFunc:
		sender = d
		if len(d.Params.List) == 0 || d.Params.Rest != nil {
			report(firstToken(m, d), "the dispatch must take the guard's checked input as its first parameter")
		}
	case *js.FuncDecl:
		sender = d
		if len(d.Params.List) == 0 || d.Params.Rest != nil {
			report(firstToken(m, d), "the dispatch must take the guard's checked input as its first parameter")
		}
	default:
		if p, _ := path(dispatch); p != "context.dispatch" {
			report(at, "the dispatch must be context.dispatch or a function of the guard's checked input")
		}
	}
	if sender != nil {
		jsmod.Inspect(sender, func(n js.INode) bool {
			if name, ok := ident(asExpr(n)); ok && name == "input" && !c.shadows(sender, "input") {
				report(firstToken(m, sender), "the dispatch reads the unchecked input; build the requests from the guard's checked copy")
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
				report(firstToken(m, n), "%s outside the guard's dispatch: the guard must come first", what)
			}
		case *js.LiteralExpr:
			if strings.Contains(strings.ToLower(string(n.Data)), "verify") {
				report(m.Position(n.Data), "the guard runs no verifier; the protected operation holds what to check")
			}
		case *js.Var:
			if strings.Contains(strings.ToLower(string(n.Data)), "verify") {
				report(fnAt, "%s: the guard runs no verifier; the protected operation holds what to check", n.Data)
			}
		case *js.PropertyName:
			if name, _ := propertyName(n); name == "expectedBindings" || name == "requiredBindings" || name == "bindings" {
				report(m.Position(n.Literal.Data), "%s must not be passed: bindings and expected values come from the protected operation", name)
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
