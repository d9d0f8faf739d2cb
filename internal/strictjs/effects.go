package strictjs

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/tdewolff/parse/v2/js"
)

// networkNames are the callee names of calls that reach the network,
// dispatchHttp, the default dispatcher a Function core imports, included.
var networkNames = []string{"fetch", "request", "axios", "XMLHttpRequest", dispatcherName}

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
	if ix, ok := jsmod.Unparen(call.X).(*js.IndexExpr); ok {
		if _, constant := str(ix.Y); !constant {
			return "a call through a computed member"
		}
	}
	return ""
}

// aliases returns, for every declaration in n that binds a name to a
// network or effect function (const f = fetch, const { request } = context,
// const send = transport.send, const send = ok ? context.dispatch : null),
// the aliased name; the declarations themselves are what the rules report.
// A Function's reviewed choice of its dispatcher (dispatcherChoice) is not
// an alias: its calls go by the name dispatch.
func aliases(n js.INode, report func(name string, at js.INode)) {
	jsmod.Inspect(n, func(n js.INode) bool {
		el, ok := n.(*js.BindingElement)
		if !ok || el.Default == nil || dispatcherChoice(el) {
			return true
		}
		switch b := el.Binding.(type) {
		case *js.Var:
			for _, init := range candidates(el.Default, nil) {
				switch init.(type) {
				case *js.Var, *js.DotExpr, *js.IndexExpr:
					if name := lastName(init); aliasable(name) {
						report(name, el)
					}
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

// aliasable reports whether binding name to another name is an alias the
// rules report. dispatchHttp is not among them: dispatcherUses reports
// every reference to it but its calls and a Function's choice of it.
func aliasable(name string) bool {
	if name == dispatcherName {
		return false
	}
	return slices.Contains(networkNames, name) || slices.Contains(effectNames, name) || name == "exit" || name == "kill"
}

// candidates returns the values an initializer may evaluate to: the
// expression itself, or the branches of a conditional and the operands of
// ||, && and ??, recursively.
func candidates(e js.IExpr, out []js.IExpr) []js.IExpr {
	switch x := jsmod.Unparen(e).(type) {
	case *js.CondExpr:
		return candidates(x.Y, candidates(x.X, out))
	case *js.BinaryExpr:
		switch x.Op {
		case js.OrToken, js.AndToken, js.NullishToken:
			return candidates(x.Y, candidates(x.X, out))
		}
	}
	return append(out, jsmod.Unparen(e))
}
