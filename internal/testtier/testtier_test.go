package testtier

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// slow runs Slow on a test named name and reports whether it let the test
// go on, was skipped or failed it.
func slow(name string) (ran, skipped, failed bool) {
	ft := &fakeT{name: name}
	func() {
		defer func() { recover() }()
		Slow(ft)
		ran = true
	}()
	return ran, ft.skipped, ft.failed
}

func TestTierRunsSlowTestsOnlyWhenAsked(t *testing.T) {
	for _, tc := range []struct {
		tier string
		runs bool
	}{{"", false}, {"fast", false}, {"slow", true}} {
		t.Setenv(Variable, tc.tier)
		ran, skipped, failed := slow("TestSlowThing/inner")
		if ran != tc.runs || skipped == tc.runs || failed {
			t.Errorf("%s=%q: ran %v, skipped %v, failed %v; want it to run: %v", Variable, tc.tier, ran, skipped, failed, tc.runs)
		}
	}
}

func TestTierRefusesAnUnselectableName(t *testing.T) {
	t.Setenv(Variable, "slow")
	if ran, _, failed := slow("TestOther/inner"); ran || !failed {
		t.Fatal("a slow test outside TestSlow* was not refused")
	}
}

// TestEverySlowTestSaysSo holds the tier's convention in the whole
// repository: a top-level TestSlow… test starts with testtier.Slow(t), so
// that no test named for the slow tier runs in the fast one as well.
func TestEverySlowTestSaysSo(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "TestSlow") {
				continue
			}
			if !startsWithSlow(fn) {
				t.Errorf("%s: %s does not start with testtier.Slow(t)", p, fn.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// startsWithSlow reports whether fn's first statement is testtier.Slow(…).
func startsWithSlow(fn *ast.FuncDecl) bool {
	if fn.Body == nil || len(fn.Body.List) == 0 {
		return false
	}
	stmt, ok := fn.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "testtier" && sel.Sel.Name == "Slow"
}

func TestBudgetEndsBeforeTheDeadline(t *testing.T) {
	deadline, ok := t.Deadline()
	b := Budget(t)
	if !ok {
		if b != noDeadline {
			t.Fatalf("budget %s without a deadline, want %s", b, noDeadline)
		}
		return
	}
	if left := time.Until(deadline); b >= left || b < left/2 {
		t.Fatalf("budget %s with %s left", b, left)
	}
}

func TestScaled(t *testing.T) {
	for _, tc := range []struct {
		scale string
		want  time.Duration
	}{{"", time.Second}, {"3", 3 * time.Second}, {"0.5", time.Second}, {"NaN", time.Second}, {"x", time.Second}} {
		t.Setenv(ScaleVariable, tc.scale)
		if got := Scaled(time.Second); got != tc.want {
			t.Errorf("%s=%q: %s, want %s", ScaleVariable, tc.scale, got, tc.want)
		}
	}
}

type fakeT struct {
	testing.TB
	name            string
	failed, skipped bool
}

func (f *fakeT) Helper()      {}
func (f *fakeT) Name() string { return f.name }
func (f *fakeT) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}
func (f *fakeT) Skipf(string, ...any) {
	f.skipped = true
	panic("skip")
}
