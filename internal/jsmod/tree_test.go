package jsmod_test

import (
	"slices"
	"testing"

	"github.com/tdewolff/parse/v2/js"

	"github.com/code2skill/code2skill/internal/jsmod"
)

func parse(t *testing.T, src string) *jsmod.Module {
	t.Helper()
	m, ds := jsmod.Parse("m.mjs", []byte(src))
	if m == nil || len(ds) > 0 {
		t.Fatalf("%s: %v", src, ds)
	}
	return m
}

// TestInspect: the walk reaches every node, and none under a node its
// function refuses.
func TestInspect(t *testing.T) {
	m := parse(t, "const a = ((1));\nfunction f() { return g(2); }\nh(3);\n")
	numbers := func(skipFunctions bool) []string {
		var out []string
		jsmod.Inspect(m.AST(), func(n js.INode) bool {
			if _, ok := n.(*js.FuncDecl); ok && skipFunctions {
				return false
			}
			if lit, ok := n.(*js.LiteralExpr); ok && (lit.TokenType == js.DecimalToken || lit.TokenType == js.IntegerToken) {
				out = append(out, string(lit.Data))
			}
			return true
		})
		slices.Sort(out)
		return out
	}
	if got := numbers(false); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Errorf("every literal: %q", got)
	}
	if got := numbers(true); !slices.Equal(got, []string{"1", "3"}) {
		t.Errorf("outside functions: %q", got)
	}
	jsmod.Inspect(nil, func(js.INode) bool { t.Error("visited a node of nil"); return true })
}

// TestLiteralUnparen: a literal in parentheses, held by pointer, and a
// property name after a dot, held by value, are literals; a call is not.
func TestLiteralUnparen(t *testing.T) {
	m := parse(t, "const a = (('x'));\nconst b = o.name;\nconst c = f();\n")
	var inits []js.IExpr
	jsmod.Inspect(m.AST(), func(n js.INode) bool {
		if b, ok := n.(*js.BindingElement); ok {
			inits = append(inits, b.Default)
		}
		return true
	})
	if len(inits) != 3 {
		t.Fatalf("got %d initialisers", len(inits))
	}
	if _, ok := jsmod.Literal(inits[0]); ok {
		t.Error("a parenthesised literal is a group, not a literal")
	}
	if lit, ok := jsmod.Literal(jsmod.Unparen(inits[0])); !ok || string(lit.Data) != "'x'" {
		t.Errorf("Literal(Unparen(('x'))) = %q, %v", lit.Data, ok)
	}
	dot, ok := inits[1].(*js.DotExpr)
	if !ok {
		t.Fatalf("o.name is %T", inits[1])
	}
	if lit, ok := jsmod.Literal(dot.Y); !ok || string(lit.Data) != "name" {
		t.Errorf("Literal(.name) = %q, %v", lit.Data, ok)
	}
	if _, ok := jsmod.Literal(jsmod.Unparen(inits[2])); ok {
		t.Error("a call is not a literal")
	}
	if _, ok := jsmod.Literal((*js.LiteralExpr)(nil)); ok {
		t.Error("a nil literal is not one")
	}
}
