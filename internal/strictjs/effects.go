package strictjs

import (
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// networkNames are the callee names of calls that reach the network.
var networkNames = []string{"fetch", "request", "axios", "XMLHttpRequest"}

// networkConstructors are the classes whose instances open connections.
var networkConstructors = []string{"XMLHttpRequest", "WebSocket", "EventSource"}

// effectNames are the callee names of calls with an external effect: files,
// processes, uploads, messages, connections and dispatch.
var effectNames = []string{
	"writeFile", "writeFileSync", "appendFile", "appendFileSync", "unlink", "unlinkSync",
	"rename", "renameSync", "rm", "rmSync", "rmdir", "rmdirSync", "spawn", "spawnSync",
	"exec", "execSync", "execFile", "execFileSync", "fork", "upload", "publish", "send",
	"connect", "dispatch",
}

// processEffects are the members of process that act on the process.
var processEffects = []string{"process.exit", "process.kill", "process.abort", "process.getBuiltinModule"}

// networkCall reports whether call reaches the network: fetch(…),
// request(…), x.request(…), axios(…), http.get(…), https.get(…),
// XMLHttpRequest(…), and the same through globalThis or a constant index.
func networkCall(call *js.CallExpr) bool {
	name := lastName(call.X)
	if slices.Contains(networkNames, name) {
		return true
	}
	if p, ok := path(call.X); ok && (p == "http.get" || p == "https.get" || strings.HasSuffix(p, ".http.get") || strings.HasSuffix(p, ".https.get")) {
		return true
	}
	return false
}

// networkNew reports whether new opens a connection.
func networkNew(n *js.NewExpr) bool {
	return slices.Contains(networkConstructors, lastName(n.X))
}

// effectCall returns what external effect a call has, or "".
func effectCall(call *js.CallExpr) string {
	if networkCall(call) {
		return "a network request"
	}
	if p, ok := path(call.X); ok {
		for _, pe := range processEffects {
			if p == pe || strings.HasSuffix(p, "."+pe) {
				return p
			}
		}
	}
	if name := lastName(call.X); slices.Contains(effectNames, name) {
		return name
	}
	if ix, ok := unparen(call.X).(*js.IndexExpr); ok {
		if _, constant := str(ix.Y); !constant {
			return "a call through a computed member"
		}
	}
	return ""
}

// aliases returns, for every declaration in n that binds a name to a
// network or effect function (const f = fetch, const { request } = context,
// const send = transport.send), the aliased name; the declarations
// themselves are what the rules report.
func aliases(n js.INode, report func(name string, at js.INode)) {
	walk(n, func(n js.INode) bool {
		el, ok := n.(*js.BindingElement)
		if !ok || el.Default == nil {
			return true
		}
		init := unparen(el.Default)
		switch b := el.Binding.(type) {
		case *js.Var:
			switch init.(type) {
			case *js.Var, *js.DotExpr, *js.IndexExpr:
				if name := lastName(init); aliasable(name) {
					report(name, el)
				}
			}
		case *js.BindingObject:
			for _, item := range b.List {
				if key, ok := propertyName(item.Key); ok && aliasable(key) {
					report(key, el)
				}
			}
		}
		return true
	})
}

func aliasable(name string) bool {
	return slices.Contains(networkNames, name) || slices.Contains(effectNames, name) || name == "exit" || name == "kill"
}
