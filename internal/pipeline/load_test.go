package pipeline

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/derive"
)

// TestOneLoadPerRun: a run loads the package's Portable Core once and hands
// that one Core to every stage, step and fingerprint: a first run of every
// stage (runtime and host verification included), an unchanged re-run, a
// re-run after a change of the contract, and the status.
func TestOneLoadPerRun(t *testing.T) {
	// Not parallel: derive.Loads counts the loads of the whole process.
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	opts := RunOptions{EnableRuntimeVerify: true, EnableHostVerify: true, HostEnv: voucherHostEnv()}
	for _, step := range []struct {
		name     string
		change   func()
		executed []string
	}{
		{"first run", nil, Stages},
		{"unchanged re-run", nil, nil},
		{"a changed description", func() { fx.editContract(`"description": "`, `"description": "Changed: `) },
			[]string{StageAnalyze, StageGenerate, StageVerify, StageRuntimeVerify, StageHostVerify, StageFinalize}},
	} {
		if step.change != nil {
			step.change()
		}
		before := derive.Loads()
		fx.run(opts)
		if n := derive.Loads() - before; n != 1 {
			t.Errorf("%s: the run loaded the Portable Core %d times, want once", step.name, n)
		}
		var executed []string
		for _, name := range Stages {
			if fx.actions()[name] == ActionExecuted {
				executed = append(executed, name)
			}
		}
		if strings.Join(executed, " ") != strings.Join(step.executed, " ") {
			t.Errorf("%s: executed %v, want %v", step.name, executed, step.executed)
		}
	}
	before := derive.Loads()
	if _, err := fx.pipeline().Status(); err != nil {
		t.Fatal(err)
	}
	if n := derive.Loads() - before; n != 1 {
		t.Errorf("the status loaded the Portable Core %d times, want once", n)
	}
}

// TestContractEditedDuringAStage: a stage builds on the Core the run
// loaded, so one that ran while the contract changed fails instead of
// vouching for a package it did not see; the next run takes the change.
func TestContractEditedDuringAStage(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.f.during = func() { fx.editContract(`"description": "`, `"description": "Changed: `) }
	rep, err := fx.pipeline().Run(t.Context(), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := fx.state().Stages[StageVerify]
	if s.Status != StatusFailed || !strings.Contains(s.ErrorSummary, "canonical-contract.json changed while the stage ran") {
		t.Fatalf("verify %s: %q, want it failed because the contract changed", s.Status, s.ErrorSummary)
	}
	if got := fx.actions()[StageFinalize]; got == ActionExecuted {
		t.Errorf("finalize ran after verify failed")
	}
	if rep.Decision != "not-finalized" {
		t.Errorf("decision %q", rep.Decision)
	}
	fx.f.during = nil
	fx.run(RunOptions{})
	if diff := fx.statuses(); diff[StageVerify] != StatusCompleted || diff[StageFinalize] != StatusCompleted {
		t.Errorf("the next run left %v", diff)
	}
}
