package core

import (
	"fmt"
	"path"
	"slices"

	"github.com/code2skill/code2skill/internal/jsmod"
)

// writeMethods are the HTTP methods that change something.
var writeMethods = []string{"POST", "PUT", "PATCH", "DELETE"}

// checkAnnotations compares each Tool's literal annotation hints with what
// its Function sends: a readOnlyHint: true Tool whose Function writes a
// non-GET method literal into its request, or a destructiveHint: false Tool
// whose Function sends DELETE, misleads a host that skips the user's
// confirmation for read-only or non-destructive Tools. Only what is written
// as literals is compared: the registration's hints, and method properties
// in the body of a Function the handler refers to by an import from
// another module of the package.
func (c *checker) checkAnnotations() {
	for _, file := range sortedKeys(c.modules) {
		for _, r := range c.modules[file].ToolRegistrations() {
			if r.Name == "" {
				continue
			}
			for _, use := range r.Uses {
				fn, methods := c.functionMethods(file, use)
				c.compareHints(file, r, fn, methods)
			}
		}
	}
}

// functionMethods returns the file:function a handler's import refers to
// and the methods that function's requests send.
func (c *checker) functionMethods(from string, use jsmod.ImportRef) (string, []located) {
	if use.Name == "*" || use.Name == "default" || !isRelative(use.Specifier) {
		return "", nil
	}
	target := path.Clean(path.Join(path.Dir(from), use.Specifier))
	m, ok := c.modules[target]
	if !ok {
		return "", nil
	}
	var out []located
	for _, ml := range m.FunctionMethods(use.Name) {
		out = append(out, located{ml.Method, fmt.Sprintf("%s:%d:%d", target, ml.Pos.Line, ml.Pos.Column)})
	}
	return use.Name, out
}

// located is a value and where it is written.
type located struct {
	value, at string
}

func (c *checker) compareHints(file string, r jsmod.ToolRegistration, fn string, methods []located) {
	if ro, ok := r.Hints["readOnlyHint"]; ok && ro.Value {
		if i := slices.IndexFunc(methods, func(m located) bool { return slices.Contains(writeMethods, m.value) }); i >= 0 {
			c.add(RuleAnnotationReadOnly.New(file, "tool %q declares readOnlyHint: true, but its Function %s sends %s (%s); "+
				"a host may call a read-only Tool without asking the user: set readOnlyHint to false", r.Name, fn, methods[i].value, methods[i].at).
				At(ro.Pos.Line, ro.Pos.Column))
		}
	}
	if d, ok := r.Hints["destructiveHint"]; ok && !d.Value {
		if i := slices.IndexFunc(methods, func(m located) bool { return m.value == "DELETE" }); i >= 0 {
			c.add(RuleAnnotationDestructive.New(file, "tool %q declares destructiveHint: false, but its Function %s sends DELETE (%s); "+
				"set destructiveHint to true so that hosts confirm before calling it", r.Name, fn, methods[i].at).
				At(d.Pos.Line, d.Pos.Column))
		}
	}
}

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
