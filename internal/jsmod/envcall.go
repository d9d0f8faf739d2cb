package jsmod

import (
	"github.com/tdewolff/parse/v2/js"
)

// Environment reads through the module's own functions.
//
// Packages rarely read process.env.NAME where they use it. The code that
// code2skill init writes, and that agents write after it, passes the
// environment and the variable's name to a small helper:
//
//	export const API_BASE_URL = 'CODE2SKILL_SHOP_API_BASE_URL';
//	function settings(context) { return { env: context.env ?? process.env }; }
//	function endpoint(env, variable, path) { const base = env[variable]; … }
//	const { env } = settings(context);
//	endpoint(env, API_BASE_URL, 'orders');
//
// The analysis follows such calls into functions declared in the module
// (function declarations, and consts bound to a function or arrow
// expression): the callee's body is analysed again with its parameters
// bound to what the arguments evaluate to, so env[variable] above reads
// CODE2SKILL_SHOP_API_BASE_URL, and a fallback to a URL inside the helper
// is that variable's fallback. A call evaluates to what the callee returns
// (settings(context).env is the environment). Each callee is analysed once
// per distinct set of argument values; recursion is not followed, and
// maxCallDepth and maxInstances bound the work on any input.

// maxCallDepth bounds how deep calls are followed: helpers that call
// helpers are a few levels deep.
const maxCallDepth = 4

// maxInstances bounds how many (function, arguments) pairs one module's
// analysis follows, so that the analysis stays linear in practice.
const maxInstances = 512

// maxBoundArgs is how many leading arguments of a call are bound to the
// callee's parameters; later ones are treated as unknown.
const maxBoundArgs = 8

// function is a function declared in the module.
type function struct {
	params js.Params
	body   *js.BlockStmt
}

// instanceKey identifies one analysis of a function: the function, the
// values of its leading arguments and the analysis it is called from, whose
// parameters a closure sees.
type instanceKey struct {
	fn    *function
	args  [maxBoundArgs]value
	scope int
}

// collectFunction records a function declaration by the variable that names
// it.
func (a *envAnalysis) collectFunction(n js.INode) {
	if d, ok := n.(*js.FuncDecl); ok && d.Name != nil {
		a.funcs[d.Name] = &function{params: d.Params, body: &d.Body}
	}
}

// resolveFunc returns the module function a callee denotes, or nil.
func (a *envAnalysis) resolveFunc(callee js.IExpr) *function {
	v, ok := Unparen(callee).(*js.Var)
	if !ok {
		return nil
	}
	r := root(v)
	if fn, ok := a.funcs[r]; ok {
		return fn
	}
	b, ok := a.consts[r]
	if !ok || len(b.path) > 0 {
		return nil
	}
	switch f := Unparen(b.init).(type) {
	case *js.ArrowFunc:
		return a.lambda(f, f.Params, &f.Body)
	case *js.FuncDecl:
		return a.lambda(f, f.Params, &f.Body)
	}
	return nil
}

// lambda returns the one function record of a function expression.
func (a *envAnalysis) lambda(n js.INode, params js.Params, body *js.BlockStmt) *function {
	if fn, ok := a.lambdas[n]; ok {
		return fn
	}
	fn := &function{params: params, body: body}
	a.lambdas[n] = fn
	return fn
}

// arguments evaluates the leading arguments of a call. It reports whether
// any of them is something the environment analysis knows.
func (a *envAnalysis) arguments(args js.Args) ([maxBoundArgs]value, bool) {
	var out [maxBoundArgs]value
	known := false
	for i, arg := range args.List {
		if i == maxBoundArgs || arg.Rest {
			break // a spread shifts every later parameter
		}
		out[i] = a.eval(arg.Value)
		out[i].direct = false // written at the call, not where the callee uses it
		known = known || out[i].kind != unknown
	}
	return out, known
}

// callLocal analyses a call of a module function and returns what the call
// evaluates to. visiting is set for a call met while walking the tree: its
// result is not needed, so a call whose arguments carry nothing known is
// not followed (the callee's body is walked on its own anyway).
func (a *envAnalysis) callLocal(e *js.CallExpr, visiting bool) (value, bool) {
	fn := a.resolveFunc(e.X)
	if fn == nil {
		return value{}, false
	}
	args, known := a.arguments(e.Args)
	if visiting && !known {
		return value{}, true
	}
	return a.instantiate(fn, args), true
}

// instantiate analyses fn's body with its parameters bound to args: the
// reads and fallbacks it finds are the caller's, and the result is what its
// first return statement with a known value evaluates to.
func (a *envAnalysis) instantiate(fn *function, args [maxBoundArgs]value) value {
	key := instanceKey{fn, args, a.scope}
	if v, ok := a.instances[key]; ok {
		return v
	}
	if a.active[fn] || a.callDepth >= maxCallDepth || len(a.instances) >= maxInstances {
		return value{}
	}
	a.instances[key] = value{} // a nested call with the same arguments sees unknown
	a.active[fn] = true
	a.callDepth++
	outerParams, outerMemo, outerScope := a.params, a.memo, a.scope
	a.scope = len(a.instances)
	// Closures see the parameters of the functions around them; the
	// memo holds consts evaluated under other bindings, so it starts over.
	a.params = make(map[*js.Var]value, len(outerParams)+len(fn.params.List))
	for k, v := range outerParams {
		a.params[k] = v
	}
	a.memo = map[*js.Var]value{}
	defer func() {
		a.params, a.memo, a.scope = outerParams, outerMemo, outerScope
		a.callDepth--
		delete(a.active, fn)
	}()

	for i, el := range fn.params.List {
		var arg value
		if i < maxBoundArgs {
			arg = args[i]
		}
		if arg.kind == unknown && el.Default != nil {
			arg = a.eval(el.Default)
			arg.direct = false
		}
		a.bindParam(el.Binding, arg)
	}
	Inspect(fn.body, a.visit)
	var result value
	for _, ret := range returns(fn.body) {
		if v := a.eval(ret.Value); v.kind != unknown {
			result = v
			break
		}
	}
	result.direct = false
	a.instances[key] = result
	return result
}

// bindParam binds a parameter (a name or an object pattern) to a value. A
// pattern reads the properties it names from an environment object.
func (a *envAnalysis) bindParam(b js.IBinding, v value) {
	switch b := b.(type) {
	case *js.Var:
		a.params[b] = v
	case *js.BindingObject:
		a.destructure(b, v)
		for _, item := range b.List {
			key := a.patternKey(item)
			inner := value{}
			if key.ok {
				inner = a.member(v, key.name, key.pos)
				inner.direct = false
			}
			a.bindParam(item.Value.Binding, inner)
		}
	}
}

// returns lists the return statements of a function body, not those of
// the functions nested in it.
func returns(body *js.BlockStmt) []*js.ReturnStmt {
	var out []*js.ReturnStmt
	Inspect(body, func(n js.INode) bool {
		switch n := n.(type) {
		case *js.ReturnStmt:
			if n.Value != nil {
				out = append(out, n)
			}
		case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl, *js.ClassDecl:
			return false
		}
		return true
	})
	return out
}
