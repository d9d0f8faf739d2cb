package core

import (
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/code2skill/code2skill/internal/jsmod"
)

// checkIllustrativeRequests reports the Tools that still send the request
// code2skill init writes as an illustration:
//
//	export async function findOrders(input = {}, context = {}) {
//	  return send({ method: 'GET', path: 'find-orders', query: { q: optionalText(input.query) } }, context);
//	}
//
// The scaffold's placeholder sentences can be deleted without touching
// the request; the request itself says the Tool was never written from the
// application's real calls. What is recognised is that shape: a Function
// whose only statement returns send() of a GET to the Tool's own goal name
// with the one query parameter q taken from input.query.
func (c *checker) checkIllustrativeRequests() {
	for f := range c.toolFunctions() {
		goal := strings.ReplaceAll(f.tool, "_", "-")
		if pos, ok := illustrativeRequest(c.modules[f.module], f.local, goal); ok {
			c.add(RulePlaceholderRequest.New(f.module, "tool %q still sends the scaffold's illustrative request (GET %s?q=<query>) from %s: "+
				"replace it with the request the application's own client sends for this goal, and its tests with ones that pin that request",
				f.tool, goal, f.imported).At(pos.Line, pos.Column))
		}
	}
}

// illustrativeRequest reports whether the module's top-level function name
// is the scaffold's illustrative request to goalPath, and where its path
// is written.
func illustrativeRequest(m *jsmod.Module, name, goalPath string) (jsmod.Pos, bool) {
	body := m.TopLevelFunction(name)
	if body == nil || len(body.List) != 1 {
		return jsmod.Pos{}, false
	}
	ret, ok := body.List[0].(*js.ReturnStmt)
	if !ok || ret.Value == nil {
		return jsmod.Pos{}, false
	}
	call, ok := jsmod.Unparen(ret.Value).(*js.CallExpr)
	if !ok || len(call.Args.List) == 0 {
		return jsmod.Pos{}, false
	}
	if v, ok := jsmod.Unparen(call.X).(*js.Var); !ok || string(v.Data) != "send" {
		return jsmod.Pos{}, false
	}
	req, ok := jsmod.Unparen(call.Args.List[0].Value).(*js.ObjectExpr)
	if !ok {
		return jsmod.Pos{}, false
	}
	props := map[string]js.IExpr{}
	for _, p := range req.List {
		if p.Name == nil || p.Spread || p.Name.Computed != nil {
			return jsmod.Pos{}, false
		}
		props[string(p.Name.Literal.Data)] = p.Value
	}
	method, _, ok1 := stringLit(props["method"])
	pathValue, pathPos, ok2 := stringLit(props["path"])
	query, ok3 := jsmod.Unparen(props["query"]).(*js.ObjectExpr)
	if len(props) != 3 || !ok1 || !ok2 || !ok3 || method != "GET" || pathValue != goalPath || len(query.List) != 1 {
		return jsmod.Pos{}, false
	}
	q := query.List[0]
	if q.Name == nil || string(q.Name.Literal.Data) != "q" {
		return jsmod.Pos{}, false
	}
	arg, ok := jsmod.Unparen(q.Value).(*js.CallExpr)
	if !ok || len(arg.Args.List) != 1 {
		return jsmod.Pos{}, false
	}
	dot, ok := jsmod.Unparen(arg.Args.List[0].Value).(*js.DotExpr)
	if !ok {
		return jsmod.Pos{}, false
	}
	if lit, ok := jsmod.Literal(dot.Y); !ok || string(lit.Data) != "query" {
		return jsmod.Pos{}, false
	}
	return m.Position(pathPos), true
}

// stringLit returns the value of a string literal expression and its token.
func stringLit(e js.IExpr) (string, []byte, bool) {
	lit, ok := jsmod.Literal(jsmod.Unparen(e))
	if !ok || lit.TokenType != js.StringToken {
		return "", nil, false
	}
	s, ok := jsmod.StringValue(lit.Data)
	return s, lit.Data, ok
}
