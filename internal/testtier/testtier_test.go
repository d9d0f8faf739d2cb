package testtier

import "testing"

func TestSlowTierSkipsByDefault(t *testing.T) {
	t.Setenv(Variable, "")
	ran := false
	t.Run("inner", func(t *testing.T) {
		Slow(t)
		ran = true
	})
	if ran {
		t.Fatal("a slow test ran without the slow tier")
	}
}

func TestSlowTierRunsWhenAsked(t *testing.T) {
	t.Setenv(Variable, "slow")
	ran := false
	t.Run("inner", func(t *testing.T) {
		Slow(t)
		ran = true
	})
	if !ran {
		t.Fatal("a slow test was skipped in the slow tier")
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
