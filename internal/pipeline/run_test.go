package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/strict"
)

// allExecutedButRuntime is a first run without runtime verification.
var allExecutedButRuntime = map[string]string{
	StageAnalyze: ActionExecuted, StageGenerate: ActionExecuted, StageVerify: ActionExecuted,
	StageRuntimeVerify: ActionSkippedDisabled, StageHostVerify: ActionSkippedDisabled, StageFinalize: ActionExecuted,
}

func TestFirstRunThenUnchangedRerun(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	rep := fx.run(RunOptions{})
	if diff := cmp.Diff(allExecutedButRuntime, fx.actions()); diff != "" {
		t.Fatalf("first run (-want +got)\n%s", diff)
	}
	for _, step := range []string{"check-contract", "compile", "validate", "probe", "vectors", "finalize"} {
		if n := fx.f.n(step); n != 1 {
			t.Errorf("%s ran %d times in the first run, want 1", step, n)
		}
	}
	if rep.Decision != "requires-review" || rep.Delivery.Source != "verification-matrix.json" {
		t.Errorf("decision %q from %q, want the finalized decision", rep.Decision, rep.Delivery.Source)
	}
	// Generate refreshed the stale markers.
	marker := derive.Marker(viewsOf(t, fx.dir))
	for _, doc := range strict.MarkedDocuments(contract.LanguageChinese) {
		data, _ := os.ReadFile(filepath.Join(fx.dir, doc))
		if !strings.Contains(string(data), marker) {
			t.Errorf("%s does not carry the current marker after generate", doc)
		}
	}

	fx.run(RunOptions{})
	want := map[string]string{
		StageAnalyze: ActionSkippedUnchanged, StageGenerate: ActionSkippedUnchanged, StageVerify: ActionSkippedUnchanged,
		StageRuntimeVerify: ActionSkippedDisabled, StageHostVerify: ActionSkippedDisabled, StageFinalize: ActionSkippedUnchanged,
	}
	if diff := cmp.Diff(want, fx.actions()); diff != "" {
		t.Errorf("unchanged re-run (-want +got)\n%s", diff)
	}
	for _, step := range []string{"check-contract", "compile", "validate", "probe", "vectors", "finalize"} {
		if n := fx.f.n(step); n != 1 {
			t.Errorf("%s ran again on an unchanged package (%d runs)", step, n)
		}
	}
}

func viewsOf(t *testing.T, dir string) []derive.View {
	t.Helper()
	loaded, err := derive.Load(dir)
	in := loaded.Inputs
	if err != nil {
		t.Fatal(err)
	}
	return derive.Views(in)
}

// TestOneChangeRerunsOnlyWhatItTouches changes one input at a time and
// checks which stages run again.
func TestOneChangeRerunsOnlyWhatItTouches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(fx *fixture)
		want   map[string]string
	}{{
		name: "a document's prose",
		change: func(fx *fixture) {
			writeFile(t, filepath.Join(fx.dir, "MCP-SETUP.md"), "# Setup\nStart it with node mcp-tool/index.mjs.\n")
		},
		want: map[string]string{StageAnalyze: ActionSkippedUnchanged, StageGenerate: ActionExecuted,
			StageVerify: ActionExecuted, StageFinalize: ActionExecuted},
	}, {
		name: "a dry-run case in the state",
		change: func(fx *fixture) {
			writeFile(t, fx.statePath(DryRunCasesDir+"/redeem_voucher.json"), `{"name": "redeem_voucher", "arguments": {}}`)
		},
		want: map[string]string{StageAnalyze: ActionSkippedUnchanged, StageGenerate: ActionSkippedUnchanged,
			StageVerify: ActionExecuted, StageFinalize: ActionExecuted},
	}, {
		name: "one field of the Host profile",
		change: func(fx *fixture) {
			path := filepath.Join(fx.dir, "host-profile.json")
			data, _ := os.ReadFile(path)
			writeFile(t, path, strings.Replace(string(data), `"profileId": "`, `"profileId": "changed-`, 1))
		},
		want: map[string]string{StageAnalyze: ActionExecuted, StageGenerate: ActionExecuted,
			StageVerify: ActionExecuted, StageFinalize: ActionExecuted},
	}, {
		name: "a hand edit of a compiled file",
		change: func(fx *fixture) {
			writeFile(t, filepath.Join(fx.dir, "function-core/index.mjs"), "// edited by hand\n")
		},
		want: map[string]string{StageAnalyze: ActionSkippedUnchanged, StageGenerate: ActionExecuted,
			StageVerify: ActionSkippedUnchanged, StageFinalize: ActionSkippedUnchanged},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(t)
			fx.init(InitOptions{})
			fx.run(RunOptions{})
			tc.change(fx)
			fx.run(RunOptions{})
			got := fx.actions()
			delete(got, StageRuntimeVerify)
			delete(got, StageHostVerify)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestSourceChangeRerunsAnalyze(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{SourceMaps: map[string]string{"voucher-service": filepath.Join(fx.root, "sources", "service")}})
	fx.run(RunOptions{})
	writeFile(t, filepath.Join(fx.root, "sources", "service", "main.go"), "package service // changed\n")
	fx.run(RunOptions{})
	got := fx.actions()
	if got[StageAnalyze] != ActionExecuted || got[StageGenerate] != ActionSkippedUnchanged || got[StageVerify] != ActionExecuted {
		t.Errorf("after a source change: %v; want analyze and verify (evidence resolution) to run, generate not", got)
	}
	// An unmapped source is not read: changing it changes nothing.
	writeFile(t, filepath.Join(fx.root, "sources", "client", "main.go"), "package client // changed\n")
	fx.run(RunOptions{})
	if got := fx.actions(); got[StageAnalyze] != ActionSkippedUnchanged {
		t.Errorf("an unmapped source's change re-ran analyze: %v", got)
	}
}

func TestForceRerunsEverySelectedStage(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.run(RunOptions{})
	fx.run(RunOptions{Force: true})
	if diff := cmp.Diff(allExecutedButRuntime, fx.actions()); diff != "" {
		t.Errorf("--force (-want +got)\n%s", diff)
	}
	if n := fx.f.n("compile"); n != 2 {
		t.Errorf("compile ran %d times, want 2", n)
	}
}

func TestOnly(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.run(RunOptions{})

	fx.run(RunOptions{Only: []string{StageVerify}, Force: true})
	got := fx.actions()
	if got[StageVerify] != ActionExecuted || fx.f.n("vectors") != 2 || fx.f.n("compile") != 1 {
		t.Errorf("--only verify --force: actions %v, vectors %d, compile %d", got, fx.f.n("vectors"), fx.f.n("compile"))
	}

	// A stale upstream refuses --only.
	writeFile(t, filepath.Join(fx.dir, "SKILL.md"), "---\nname: voucher\n---\n# changed\n")
	_, err := fx.pipeline().Run(context.Background(), RunOptions{Only: []string{StageVerify}})
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "stale or incomplete upstream: generate") {
		t.Errorf("--only verify with generate stale: %v", err)
	}

	for _, tc := range []struct {
		opts RunOptions
		want string
	}{
		{RunOptions{Only: []string{"compile"}}, "unknown stage"},
		{RunOptions{Only: []string{StageRuntimeVerify}}, "needs --enable-runtime-verify"},
		{RunOptions{Only: []string{StageVerify}, EnableRuntimeVerify: true}, "needs runtime-verify among the stages"},
		{RunOptions{AuthorizeWrites: []string{"redeem-voucher"}}, "--authorize-write needs --enable-runtime-verify or --enable-host-verify"},
		{RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: []string{"quote-voucher"}}, "is a read"},
		{RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: []string{"no-such"}}, "has no capability"},
		{RunOptions{EnableRuntimeVerify: true, Origins: map[string]string{"https://elsewhere.example": "http://127.0.0.1:1"}}, "not among the export profile"},
		{RunOptions{EnableRuntimeVerify: true, Origins: map[string]string{"https://vouchers.example:8443": "http://127.0.0.1:9/api"}}, "origin only"},
		{RunOptions{EnableRuntimeVerify: true, Env: map[string]string{"HOME_TOKEN": "x"}}, "does not read HOME_TOKEN"},
		{RunOptions{EnableRuntimeVerify: true, Env: map[string]string{"CODE2SKILL_DRY_RUN": "1"}}, "dry-run variable"},
	} {
		_, err := fx.pipeline().Run(context.Background(), tc.opts)
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run(%+v) = %v, want a usage error saying %q", tc.opts, err, tc.want)
		}
	}
}

// TestCrashLeavesRunningThenFailed proves the stage is recorded running on
// disk before its work starts, and that the next load turns a state a
// crash left in that form into a failure and runs the stage again.
func TestCrashLeavesRunningThenFailed(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	var snapshot []byte
	fx.f.during = func() {
		snapshot, _ = os.ReadFile(fx.statePath(StateFile))
	}
	fx.run(RunOptions{})
	fx.f.during = nil
	if err := os.WriteFile(fx.statePath(StateFile), snapshot, 0o644); err != nil {
		t.Fatal(err)
	}
	if s := fx.state().Stages[StageVerify]; s.Status != StatusRunning {
		t.Fatalf("during verify the state on disk said %q, want running", s.Status)
	}
	rep, err := fx.pipeline().Status()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stages[2].Status != StatusFailed || !strings.Contains(rep.Stages[2].ErrorSummary, "interrupted") {
		t.Errorf("status after a crash shows verify %+v, want failed (interrupted)", rep.Stages[2])
	}
	// A run of another stage records the interruption in the state.
	fx.run(RunOptions{Only: []string{StageAnalyze}, Force: true})
	if s := fx.state().Stages[StageVerify]; s.Status != StatusFailed || s.ErrorSummary != interrupted {
		t.Errorf("after the next run the state says verify is %s (%q), want failed (interrupted)", s.Status, s.ErrorSummary)
	}
	fx.run(RunOptions{})
	if got := fx.actions(); got[StageVerify] != ActionExecuted || got[StageFinalize] != ActionExecuted {
		t.Errorf("the run after a crash: %v; want verify and finalize executed", got)
	}
	if st := fx.statuses(); st[StageVerify] != StatusCompleted {
		t.Errorf("verify is %s after the recovery run", st[StageVerify])
	}
}

func TestFailedStageInvalidatesDownstream(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.run(RunOptions{})
	fx.f.fail["compile"] = true
	writeFile(t, filepath.Join(fx.dir, "MCP-SETUP.md"), "# Setup, changed\n")
	rep := fx.run(RunOptions{})
	want := map[string]string{StageAnalyze: StatusCompleted, StageGenerate: StatusFailed, StageVerify: StatusInvalidated,
		StageRuntimeVerify: StatusPending, StageHostVerify: StatusPending, StageFinalize: StatusInvalidated}
	if diff := cmp.Diff(want, fx.statuses()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if fx.state().LastFinalization != nil || rep.Decision != "not-finalized" {
		t.Errorf("a failed upstream kept the last finalization (decision %q)", rep.Decision)
	}
	if !rep.Findings.Has(ruleFake) {
		t.Errorf("the compile finding is not reported: %v", rep.Findings.Sorted())
	}
	if n := fx.f.n("vectors"); n != 1 {
		t.Errorf("verify ran after generate failed (%d vector runs)", n)
	}
	fx.f.fail["compile"] = false
	fx.run(RunOptions{})
	for name, s := range fx.statuses() {
		if name != StageRuntimeVerify && name != StageHostVerify && s != StatusCompleted {
			t.Errorf("after the fix %s is %s", name, s)
		}
	}
}

func TestUnavailableStepsFailHonestly(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	steps := fx.f.steps()
	steps.Compile = func(context.Context, string, *derive.Inputs) (*CompileResult, error) { return nil, ErrNotAvailable }
	p := fx.pipeline()
	p.Steps = steps
	rep, err := p.Run(context.Background(), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Findings.Has(RuleStepUnavailable) || fx.statuses()[StageGenerate] != StatusFailed {
		t.Errorf("generate without compile: %v, %v", fx.statuses(), rep.Findings.Sorted())
	}

	// With vectors and finalize unavailable, verify fails (finalize needs
	// the vectors' check) and finalize never claims anything.
	fx.f.fail["vectors-unavailable"] = true
	rep = fx.run(RunOptions{})
	if fx.statuses()[StageVerify] != StatusFailed || !rep.Findings.Has(RuleStepUnavailable) {
		t.Errorf("verify without vectors: %v", fx.statuses())
	}
	fx.f.fail["vectors-unavailable"] = false
	fx.f.fail["finalize-unavailable"] = true
	rep = fx.run(RunOptions{})
	if fx.statuses()[StageFinalize] != StatusFailed || rep.Decision != "not-finalized" {
		t.Errorf("finalize unavailable: %v, decision %q", fx.statuses(), rep.Decision)
	}
	if _, err := os.Stat(fx.statePath(VerificationReportFile)); err != nil {
		t.Errorf("the verification report should still be written: %v", err)
	}
}

func TestStateDirectoryStaysOutsideThePackage(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	p := fx.pipeline()
	p.StateDir = filepath.Join(fx.dir, "state")
	_, err := p.Init(InitOptions{})
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "inside the package") {
		t.Errorf("a state directory inside the package: %v", err)
	}
	if _, err := os.Stat(p.StateDir); !os.IsNotExist(err) {
		t.Errorf("the refused state directory was created")
	}
}

func TestStateIsReadStrictly(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	data, _ := os.ReadFile(fx.statePath(StateFile))
	for name, broken := range map[string]string{
		"misspelt key":  strings.Replace(string(data), `"featureId"`, `"featureID"`, 1),
		"unknown key":   strings.Replace(string(data), `"mode"`, `"extra": 1, "mode"`, 1),
		"not JSON":      string(data[:len(data)/2]),
		"unknown stage": strings.Replace(string(data), `"verify"`, `"verify2"`, 1),
	} {
		if err := os.WriteFile(fx.statePath(StateFile), []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := fx.pipeline().Run(context.Background(), RunOptions{})
		var se *StateError
		if !errors.As(err, &se) {
			t.Errorf("%s: Run = %v, want a StateError", name, err)
		}
	}
}

// TestVerificationReportMatchesThePublishedSchema builds the report a run
// hands to finalize and validates it against the published schema.
func TestVerificationReportMatchesThePublishedSchema(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.f.failVectors["quote-voucher/invalid-input-is-rejected"] = true
	fx.f.uncovered["redeem-voucher/reject-unconfirmed-before-dispatch"] = true
	fx.f.uncovered["redeem-voucher/missing-quote-causes-zero-dispatch"] = true
	rep := fx.run(RunOptions{})
	data, err := os.ReadFile(fx.statePath(VerificationReportFile))
	if err != nil {
		t.Fatal(err)
	}
	checkReportSchema(t, data)
	doc, _ := canonjson.Decode(data)
	status := func(p string) string {
		v, _ := canonjson.Resolve(doc, p)
		return stringOf(v)
	}
	for pointer, want := range map[string]string{
		"/capabilities/0/behavior/status": OutcomeFailed,         // quote-voucher, one vector failed
		"/capabilities/1/behavior/status": OutcomeRequiresReview, // a declared check no vector proves
		"/capabilities/0/runtime/status":  OutcomeNotRun,
		"/capabilities/0/host/status":     OutcomeNotRun,
		"/workflows/0/bypass/status":      OutcomeRequiresReview, // likewise
		"/status":                         "partial",
	} {
		if got := status(pointer); got != want {
			t.Errorf("%s = %q, want %q", pointer, got, want)
		}
	}
	// A failed vector is its capability's failure, reported, not the
	// stage's: finalize still ran.
	if fx.statuses()[StageFinalize] != StatusCompleted || !rep.Findings.Has(RuleCheckFailed) || !rep.Findings.Has(RuleCheckUncovered) {
		t.Errorf("a failed vector: %v, findings %v", fx.statuses(), rep.Findings.RuleIDs())
	}
}

func TestEvidenceIsGuarded(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.run(RunOptions{})
	recs, err := fx.pipeline().readRecordsForTest()
	if err != nil || len(recs) == 0 {
		t.Fatalf("records: %v, %v", recs, err)
	}
	// Tamper with one piece of evidence: finalize must refuse to rely on it.
	ev := filepath.Join(DefaultStateDir(fx.dir), verificationDir, filepath.FromSlash(recs[0].EvidencePath))
	writeFile(t, ev, "tampered\n")
	rep := fx.run(RunOptions{Only: []string{StageFinalize}, Force: true})
	if fx.statuses()[StageFinalize] != StatusFailed || !rep.Findings.Has(RuleEvidence) {
		t.Errorf("tampered evidence: %v, findings %v", fx.statuses(), rep.Findings.RuleIDs())
	}

	// A behaviour check's evidence tampered with: finalize refuses it, and
	// the row does not say its behaviour is verified, in the run's report
	// or in the status.
	var behavior *Record
	for _, r := range recs {
		if r.Phase == PhaseBehavior && r.CapabilityID == "quote-voucher" {
			behavior = r
		}
	}
	writeFile(t, filepath.Join(DefaultStateDir(fx.dir), verificationDir, filepath.FromSlash(behavior.EvidencePath)), "tampered\n")
	rep = fx.run(RunOptions{Only: []string{StageFinalize}, Force: true})
	status, err := fx.pipeline().Status()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*Report{rep, status} {
		for _, row := range r.Capabilities {
			if row.ID == "quote-voucher" && row.BehaviorVerified == Yes {
				t.Errorf("the row counts behaviour evidence finalize refused: %+v", row)
			}
		}
	}
}

func (p *Pipeline) readRecordsForTest() ([]*Record, error) {
	if err := p.resolve(); err != nil {
		return nil, err
	}
	recs, problems, err := p.readRecords()
	if len(problems) > 0 {
		return recs, fmt.Errorf("records that cannot be relied on: %v", problems)
	}
	return recs, err
}

func TestGenerateNeedsTheDocuments(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	os.Remove(filepath.Join(fx.dir, "MCP.zh-CN.md"))
	fx.init(InitOptions{})
	rep := fx.run(RunOptions{})
	if fx.statuses()[StageGenerate] != StatusFailed || !rep.Findings.Has(RuleFileMissing) {
		t.Errorf("generate without MCP.zh-CN.md: %v, %v", fx.statuses(), rep.Findings.RuleIDs())
	}
}

// TestGenerateNeverWritesThroughLinks: a directory of the package that is a
// link to elsewhere stops generate before anything is written there.
func TestGenerateNeverWritesThroughLinks(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	elsewhere := t.TempDir()
	writeFile(t, filepath.Join(elsewhere, "feature-context.md"), "kept\n")
	os.RemoveAll(filepath.Join(fx.dir, "references"))
	if err := os.Symlink(elsewhere, filepath.Join(fx.dir, "references")); err != nil {
		t.Fatal(err)
	}
	fx.init(InitOptions{})
	rep := fx.run(RunOptions{})
	if fx.statuses()[StageGenerate] != StatusFailed || !rep.Findings.Has(RuleLinkInTheWay) {
		t.Errorf("a linked directory: %v, %v", fx.statuses(), rep.Findings.RuleIDs())
	}
	entries, _ := os.ReadDir(elsewhere)
	if len(entries) != 1 {
		t.Errorf("generate wrote through the link: %v", entries)
	}
	if data, _ := os.ReadFile(filepath.Join(elsewhere, "feature-context.md")); string(data) != "kept\n" {
		t.Errorf("generate changed a file behind the link: %q", data)
	}
}

func TestFinalizeNeedsTheGlobalChecks(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.run(RunOptions{})
	if err := os.Remove(fx.statePath(ResultsDir + "/global--package--offline-probe.json")); err != nil {
		t.Fatal(err)
	}
	rep := fx.run(RunOptions{Only: []string{StageFinalize}, Force: true})
	if fx.statuses()[StageFinalize] != StatusFailed || !rep.Findings.Has(RuleGlobalChecks) {
		t.Errorf("finalize without the probe's record: %v, %v", fx.statuses(), rep.Findings.RuleIDs())
	}
	if n := fx.f.n("finalize"); n != 1 {
		t.Errorf("finalize was called without the global checks (%d calls)", n)
	}
}

func TestNodeProcessesAreCounted(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	rep := fx.run(RunOptions{EnableRuntimeVerify: true})
	got := map[string]int{}
	for _, s := range rep.Stages {
		got[s.Name] = s.NodeProcesses
	}
	// The fakes report one node process for the vectors and one for the
	// live calls; the fake probe starts none.
	want := map[string]int{StageAnalyze: 0, StageGenerate: 0, StageVerify: 1, StageRuntimeVerify: 1, StageHostVerify: 0, StageFinalize: 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("node processes per stage (-want +got)\n%s", diff)
	}
}
