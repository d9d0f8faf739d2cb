package testtier

import (
	"testing"
	"time"
)

func TestSlowTierRunsOnlyWhenAsked(t *testing.T) {
	for _, tc := range []struct {
		tier string
		runs bool
	}{{"", false}, {"fast", false}, {"slow", true}} {
		t.Setenv(Variable, tc.tier)
		ran := false
		t.Run("inner", func(t *testing.T) {
			Slow(t)
			ran = true
		})
		if ran != tc.runs {
			t.Errorf("%s=%q: the slow test ran %v, want %v", Variable, tc.tier, ran, tc.runs)
		}
	}
}

func TestSlowTierRefusesAnUnselectableName(t *testing.T) {
	t.Setenv(Variable, "slow")
	ft := &fakeT{name: "TestOther/inner"}
	func() {
		defer func() { recover() }()
		Slow(ft)
	}()
	if !ft.failed {
		t.Fatal("a slow test outside TestSlow* was not refused")
	}
}

type fakeT struct {
	testing.TB
	name   string
	failed bool
}

func (f *fakeT) Helper()      {}
func (f *fakeT) Name() string { return f.name }
func (f *fakeT) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
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
