package testtier

import (
	"fmt"
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
	msg             string
}

func (f *fakeT) Helper()       {}
func (f *fakeT) Name() string  { return f.name }
func (f *fakeT) Failed() bool  { return f.failed }
func (f *fakeT) Skipped() bool { return f.skipped }
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, args...)
	panic("fatal")
}
func (f *fakeT) Errorf(string, ...any) {
	f.failed = true
}
func (f *fakeT) Skipf(format string, args ...any) {
	f.skipped, f.msg = true, fmt.Sprintf(format, args...)
	panic("skip")
}

// TestSharedIsMadeOnce: the first test that asks makes the fixture, the
// others reuse it; a make that failed or skipped fails or skips the
// tests that ask after it, naming the test that made it.
func TestSharedIsMadeOnce(t *testing.T) {
	var s Shared[int]
	made := 0
	build := func(testing.TB) int { made++; return 7 }
	for _, name := range []string{"first", "second"} {
		t.Run(name, func(t *testing.T) {
			if v := s.Get(t, build); v != 7 || made != 1 {
				t.Errorf("got %d after %d makes, want 7 after 1", v, made)
			}
		})
	}

	for _, end := range []string{"failed", "errored", "skipped"} {
		var s Shared[int]
		first := &fakeT{name: "TestMaker"}
		func() {
			defer func() { recover() }()
			s.Get(first, func(t testing.TB) int {
				switch end {
				case "failed":
					t.Fatalf("broken")
				case "errored":
					t.Errorf("half made")
					return 7
				}
				t.Skipf("no node")
				return 7
			})
		}()
		later := &fakeT{name: "TestUser"}
		func() {
			defer func() { recover() }()
			s.Get(later, func(testing.TB) int { t.Fatal("made twice"); return 0 })
		}()
		if end == "skipped" && !later.skipped || end != "skipped" && !later.failed || later.msg == "" || !strings.Contains(later.msg, "TestMaker") {
			t.Errorf("a make that %s: the later test failed %v, skipped %v: %q", end, later.failed, later.skipped, later.msg)
		}
	}
}
