package core

import (
	"fmt"
	"path"
	"slices"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
)

// checkAnnotations compares each Tool's literal annotation hints with what
// it sends. Hosts skip the user's confirmation for read-only and
// non-destructive Tools, so a readOnlyHint: true Tool that may send PUT,
// PATCH or DELETE, or a destructiveHint: false Tool that may send DELETE,
// is an error. The methods are resolved from the registration's handler
// through the Functions and helpers it calls, across the package's modules
// (jsmod.RequestMethods): a method passed as an argument, chosen by a
// parameter the handler or the Function fixes, or held by a const. POST
// on a read-only Tool is only a warning, and only when the Function writes
// it in its own body: search and query APIs read through POST, and the
// login request a shared helper sends is not the Tool's effect. The
// warning waits for the reachability calls: once they saw the Tool's own
// request, its URL decides (a POST that creates is an error, one to a
// search or query URL nothing), and the warning is dropped.
func (c *checker) checkAnnotations() {
	for _, file := range sortedKeys(c.modules) {
		m := c.modules[file]
		for _, r := range m.ToolRegistrations() {
			if r.Name == "" {
				continue
			}
			var methods []located
			sent := m.RequestMethods(r, c.resolveModule)
			for _, rm := range sent {
				methods = append(methods, located{rm.Method, fmt.Sprintf("%s:%d:%d", rm.File, rm.Pos.Line, rm.Pos.Column)})
			}
			c.compareHints(file, r, methods)
			for _, use := range r.Uses {
				fn, posts := c.functionMethods(file, use, sent)
				c.readOnlyPost(file, r, fn, posts)
			}
		}
	}
}

// resolveModule returns the package module a relative import of from
// names.
func (c *checker) resolveModule(from *jsmod.Module, spec string) *jsmod.Module {
	if !isRelative(spec) {
		return nil
	}
	return c.modules[path.Clean(path.Join(path.Dir(from.File), spec))]
}

// functionMethods returns the function a handler's import refers to and
// the methods, of those the Tool sends, written in that function's own
// body: as a method property, or as an argument it passes to a helper.
func (c *checker) functionMethods(from string, use jsmod.ImportRef, sent []jsmod.RequestMethod) (string, []located) {
	target, local := c.toolFunction(from, use)
	if local == "" {
		return "", nil
	}
	own := c.modules[target].FunctionLiterals(local)
	var out []located
	for _, rm := range sent {
		if rm.File == target && slices.Contains(own, rm.Pos) {
			out = append(out, located{rm.Method, fmt.Sprintf("%s:%d:%d", target, rm.Pos.Line, rm.Pos.Column)})
		}
	}
	return use.Name, out
}

// located is a value and where it is written.
type located struct {
	value, at string
}

// compareHints reports the hints the Tool's methods contradict.
func (c *checker) compareHints(file string, r jsmod.ToolRegistration, methods []located) {
	if ro, ok := r.Hints["readOnlyHint"]; ok && ro.Value {
		if i := slices.IndexFunc(methods, func(m located) bool { return slices.Contains(changingMethods, m.value) }); i >= 0 {
			c.add(RuleAnnotationReadOnly.New(file, "tool %q declares readOnlyHint: true, but it sends %s (%s); "+
				"a host may call a read-only Tool without asking the user: set readOnlyHint to false", r.Name, methods[i].value, methods[i].at).
				At(ro.Pos.Line, ro.Pos.Column))
		}
	}
	if d, ok := r.Hints["destructiveHint"]; ok && !d.Value {
		if i := slices.IndexFunc(methods, func(m located) bool { return m.value == "DELETE" }); i >= 0 {
			c.add(RuleAnnotationDestructive.New(file, "tool %q declares destructiveHint: false, but it sends DELETE (%s); "+
				"set destructiveHint to true so that hosts confirm before calling it", r.Name, methods[i].at).
				At(d.Pos.Line, d.Pos.Column))
		}
	}
}

// readOnlyPost warns about a read-only Tool whose Function writes POST.
func (c *checker) readOnlyPost(file string, r jsmod.ToolRegistration, fn string, methods []located) {
	ro, ok := r.Hints["readOnlyHint"]
	if !ok || !ro.Value {
		return
	}
	if i := slices.IndexFunc(methods, func(m located) bool { return m.value == "POST" }); i >= 0 {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.pendingPost == nil {
			c.pendingPost = map[string]diag.Diagnostic{}
		}
		c.pendingPost[r.Name] = (RuleAnnotationReadOnlyPost.New(file, "tool %q declares readOnlyHint: true, but its Function %s sends POST (%s); "+
			"right only when the API reads through POST (a search or query), otherwise set readOnlyHint to false", r.Name, fn, methods[i].at).
			At(ro.Pos.Line, ro.Pos.Column))
	}
}

// settlePost drops the waiting POST warning of a Tool whose own request
// the reachability calls saw.
func (c *checker) settlePost(tool string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pendingPost, tool)
}

// flushPost reports the POST warnings no reachability call settled.
func (c *checker) flushPost() {
	c.mu.Lock()
	pending := c.pendingPost
	c.pendingPost = nil
	c.mu.Unlock()
	for _, tool := range sortedKeys(pending) {
		c.add(pending[tool])
	}
}

// changingMethods are the HTTP methods a read-only Tool never sends.
var changingMethods = []string{"PUT", "PATCH", "DELETE"}

func isRelative(spec string) bool {
	return len(spec) > 1 && spec[0] == '.' && (spec[1] == '/' || len(spec) > 2 && spec[1] == '.' && spec[2] == '/')
}

// sortedKeys returns the keys of a map in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
