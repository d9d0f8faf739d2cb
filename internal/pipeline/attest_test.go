package pipeline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/finalize/finalizetest"
	"github.com/code2skill/code2skill/internal/hostverify"
	"github.com/code2skill/code2skill/internal/verdict"
)

// finalizedFixture is a fixture whose pipeline ran once, with runtime
// verification, to a completed finalize.
func finalizedFixture(t *testing.T) *fixture {
	t.Helper()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.run(RunOptions{EnableRuntimeVerify: true})
	if st := fx.statuses(); st[StageFinalize] != StatusCompleted {
		t.Fatalf("the first run did not finalize: %v", st)
	}
	return fx
}

// readRecord and writeRecord read and write a record of the state as a
// hand editor would.
func (fx *fixture) readRecordFile(name string) *Record {
	fx.t.Helper()
	data, err := os.ReadFile(fx.statePath(ResultsDir + "/" + name))
	if err != nil {
		fx.t.Fatal(err)
	}
	rec, err := attest.DecodeRecord(data)
	if err != nil {
		fx.t.Fatal(err)
	}
	return rec
}

func (fx *fixture) writeRecordFile(name string, rec *Record) {
	fx.t.Helper()
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		fx.t.Fatal(err)
	}
	writeFile(fx.t, fx.statePath(ResultsDir+"/"+name), string(data)+"\n")
}

func runtimeRecordName(t *testing.T, fx *fixture) string {
	t.Helper()
	entries, _ := os.ReadDir(fx.statePath(ResultsDir))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), PhaseRuntime+"--") && !strings.Contains(e.Name(), "workflow_") {
			return e.Name()
		}
	}
	t.Fatal("no runtime record")
	return ""
}

// TestRecordsMustBeAuthentic: finalize refuses a record written or edited
// by hand, one tagged with another key, a runtime record no runtime
// verification wrote, and one about another version of the package; each
// with its rule and the record's file.
func TestRecordsMustBeAuthentic(t *testing.T) {
	t.Parallel()
	otherKey, _ := attest.NewKey(bytes.Repeat([]byte{9}, 32))
	for _, tt := range []struct {
		name string
		edit func(t *testing.T, fx *fixture) string // returns the record edited
		rule string
	}{
		{"a hand-written runtime record", func(t *testing.T, fx *fixture) string {
			name := runtimeRecordName(t, fx)
			rec := fx.readRecordFile(name)
			rec.Attestation = ""
			fx.writeRecordFile(name, rec)
			return name
		}, RuleRecordUnattested.ID},
		{"an edited evidence hash with the log it names", func(t *testing.T, fx *fixture) string {
			name := runtimeRecordName(t, fx)
			rec := fx.readRecordFile(name)
			log := fx.statePath(verificationDir + "/" + rec.EvidencePath)
			writeFile(t, log, "the call succeeded\n")
			data, _ := os.ReadFile(log)
			rec.EvidenceHash = canonjson.SHA256(data)
			fx.writeRecordFile(name, rec)
			return name
		}, RuleRecordUnattested.ID},
		{"a record tagged with another key", func(t *testing.T, fx *fixture) string {
			name := runtimeRecordName(t, fx)
			rec := fx.readRecordFile(name)
			if err := otherKey.SignRecord(rec); err != nil {
				t.Fatal(err)
			}
			fx.writeRecordFile(name, rec)
			return name
		}, RuleRecordUnattested.ID},
		{"a runtime record another stage wrote", func(t *testing.T, fx *fixture) string {
			name := runtimeRecordName(t, fx)
			rec := fx.readRecordFile(name)
			rec.Stage = StageVerify
			if err := testKey.SignRecord(rec); err != nil {
				t.Fatal(err)
			}
			fx.writeRecordFile(name, rec)
			return name
		}, RuleRecordUnattested.ID},
		{"a record about another version of the package", func(t *testing.T, fx *fixture) string {
			// A global check is never carried to another version.
			name := recordKey(PhaseGlobal, "", CheckStaticValidation) + ".json"
			rec := fx.readRecordFile(name)
			rec.CandidateDigest = strings.Repeat("0", 64)
			if err := testKey.SignRecord(rec); err != nil {
				t.Fatal(err)
			}
			fx.writeRecordFile(name, rec)
			return name
		}, RuleRecordForeign.ID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fx := finalizedFixture(t)
			before := finalizetest.Snapshot(t, fx.dir)
			name := tt.edit(t, fx)
			rep := fx.run(RunOptions{})
			if fx.statuses()[StageFinalize] != StatusFailed {
				t.Fatalf("finalize ran on %s: %v", tt.name, fx.statuses())
			}
			found := false
			for _, d := range rep.Findings.Sorted() {
				found = found || d.Rule == tt.rule && d.File == ResultsDir+"/"+name
			}
			if !found {
				t.Errorf("no %s about %s; findings:\n%v", tt.rule, name, rep.Findings.Sorted())
			}
			if rep.Decision != "not-finalized" {
				t.Errorf("decision %q after a refused finalize", rep.Decision)
			}
			assertSame(t, before, finalizetest.Snapshot(t, fx.dir))
		})
	}
}

// TestEditedLogIsRefused: an evidence log edited after a finalization makes
// the next run finalize again, which refuses it.
func TestEditedLogIsRefused(t *testing.T) {
	t.Parallel()
	fx := finalizedFixture(t)
	rec := fx.readRecordFile(runtimeRecordName(t, fx))
	writeFile(t, fx.statePath(verificationDir+"/"+rec.EvidencePath), "edited\n")
	rep := fx.run(RunOptions{})
	if fx.actions()[StageFinalize] != ActionExecuted || fx.statuses()[StageFinalize] != StatusFailed || !rep.Findings.Has(RuleEvidence) {
		t.Errorf("an edited log: %v %v, findings %v", fx.actions(), fx.statuses(), rep.Findings.RuleIDs())
	}
}

// TestEditedFinalizationIsNotShown: a decision run-state.json remembers is
// shown only while its tag verifies and the final files are the ones
// finalize wrote; otherwise status says so, and run finalizes again.
func TestEditedFinalizationIsNotShown(t *testing.T) {
	t.Parallel()
	for name, edit := range map[string]func(t *testing.T, fx *fixture){
		"an edited decision": func(t *testing.T, fx *fixture) {
			editState(t, fx, func(st *State) {
				st.LastFinalization.Decision = verdict.DecisionApproved
				for id, f := range st.LastFinalization.Capabilities {
					f.HostVerified, f.RuntimeVerified = true, true
					st.LastFinalization.Capabilities[id] = f
				}
			})
		},
		"an edited final file": func(t *testing.T, fx *fixture) {
			writeFile(t, filepath.Join(fx.dir, "approval-audit.json"), `{"decision": "approved"}`+"\n")
		},
		"a finalization without a tag": func(t *testing.T, fx *fixture) {
			editState(t, fx, func(st *State) { st.LastFinalization.Attestation = "" })
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fx := finalizedFixture(t)
			edit(t, fx)
			rep, err := fx.pipeline().Status()
			if err != nil {
				t.Fatal(err)
			}
			if rep.Decision != DecisionUnverified || !rep.Findings.Has(RuleFinalization) {
				t.Errorf("status shows decision %q, findings %v", rep.Decision, rep.Findings.RuleIDs())
			}
			for _, r := range rep.Capabilities {
				if r.HostVerified == Yes {
					t.Errorf("%s shown host-verified", r.ID)
				}
			}
			if rep.Delivery.Source == "verification-matrix.json" {
				t.Error("the rows are taken from an unverified finalization")
			}
			rep = fx.run(RunOptions{})
			if fx.actions()[StageFinalize] != ActionExecuted || rep.Decision != "requires-review" {
				t.Errorf("run after %s: %v, decision %q", name, fx.actions(), rep.Decision)
			}
		})
	}
}

func editState(t *testing.T, fx *fixture, edit func(st *State)) {
	t.Helper()
	st := fx.state()
	edit(st)
	if err := writeState(DefaultStateDir(fx.dir), st); err != nil {
		t.Fatal(err)
	}
}

// TestFailedFinalizeRestoresThePackage: when finalize fails after the run
// compiled, derived and wrote final files, every package file is as it was
// before the run, and the stages whose work was undone say so.
func TestFailedFinalizeRestoresThePackage(t *testing.T) {
	t.Parallel()
	fx := finalizedFixture(t)
	// A change of the contract makes generate, verify and finalize run; a
	// description changes no meaning, so finalize is not stopped for a
	// contract change and reaches its writes.
	contract := filepath.Join(fx.dir, "canonical-contract.json")
	data, _ := os.ReadFile(contract)
	edited := bytes.Replace(data, []byte(`"description": "`), []byte(`"description": "Edited: `), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("the contract has no description")
	}
	writeFile(t, contract, string(edited))
	before := finalizetest.Snapshot(t, fx.dir)
	fx.f.fail["finalize-after-write"] = true
	if rep := fx.run(RunOptions{}); rep.Findings.Has(RuleContractChange) {
		t.Fatal("finalize stopped for a contract change before it wrote anything")
	}
	if a := fx.actions(); a[StageGenerate] != ActionExecuted || a[StageFinalize] != ActionExecuted {
		t.Fatalf("the run did not compile and finalize: %v", a)
	}
	assertSame(t, before, finalizetest.Snapshot(t, fx.dir))
	st := fx.statuses()
	if st[StageFinalize] != StatusFailed || st[StageGenerate] != StatusInvalidated || st[StageVerify] != StatusInvalidated {
		t.Errorf("statuses after the restore: %v", st)
	}
	// The next run does the work again, and knows that what it replaces
	// is what the pipeline put back, not an edit of the user's.
	delete(fx.f.fail, "finalize-after-write")
	rep := fx.run(RunOptions{})
	if st := fx.statuses(); st[StageFinalize] != StatusCompleted {
		t.Errorf("the run after the restore: %v", st)
	}
	if rep.Findings.Has(RuleGeneratedReplaced) {
		t.Errorf("the files the restore put back are reported as edited: %v", rep.Findings.Sorted())
	}
}

// TestGenerateReportsReplacedEdits: generate says which hand edit of a
// generated file it replaced, and keeps it.
func TestGenerateReportsReplacedEdits(t *testing.T) {
	t.Parallel()
	fx := finalizedFixture(t)
	core := filepath.Join(fx.dir, "function-core", "index.mjs")
	old, _ := os.ReadFile(core)
	writeFile(t, core, string(old)+"export const edited = true;\n")
	rep := fx.run(RunOptions{})
	var found bool
	for _, d := range rep.Findings.Sorted() {
		found = found || d.Rule == RuleGeneratedReplaced.ID && d.File == "function-core/index.mjs" && d.Line == 2
	}
	if !found {
		t.Errorf("no %s for the edited Function core: %v", RuleGeneratedReplaced.ID, rep.Findings.Sorted())
	}
	if now, _ := os.ReadFile(core); !bytes.Equal(now, old) {
		t.Error("generate did not replace the edit")
	}
	kept, err := os.ReadFile(fx.statePath(ReplacedDir + "/function-core/index.mjs"))
	if err != nil || !strings.Contains(string(kept), "edited = true") {
		t.Errorf("the edit was not kept: %v", err)
	}
	// An unchanged re-run replaces nothing.
	if rep := fx.run(RunOptions{}); rep.Findings.Has(RuleGeneratedReplaced) {
		t.Errorf("a re-run reports a replacement: %v", rep.Findings.Sorted())
	}
}

func assertSame(t *testing.T, before, after map[string]string) {
	t.Helper()
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s was removed", p)
		} else if before[p] != after[p] {
			t.Errorf("%s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was added", p)
		}
	}
}

// TestRecordCopiedOverAnotherIsRefused: a record copied over the file of
// another check (another row's, another phase's, the package's) is refused
// under its own rule in every phase, host included; finalize relies on
// neither, and the check it hid is not counted as passed.
func TestRecordCopiedOverAnotherIsRefused(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	env := voucherHostEnv()
	fx.f.failHost["redeem-voucher/"+hostverify.CheckDiscovery] = true
	fx.run(RunOptions{EnableRuntimeVerify: true, EnableHostVerify: true, HostEnv: env})
	recs, err := fx.pipeline().readRecordsForTest()
	if err != nil {
		t.Fatal(err)
	}
	// One record of each phase, and the file of another check of the same
	// phase to copy it over.
	pairs := map[string][2]string{}
	for _, phase := range []string{PhaseGlobal, PhaseBehavior, PhaseBypass, PhaseRuntime, PhaseHost} {
		var keys []string
		for _, r := range recs {
			if r.Phase == phase {
				keys = append(keys, keyOf(r))
			}
		}
		if phase == PhaseHost {
			keys = []string{"host--quote-voucher--" + hostverify.CheckDiscovery, "host--redeem-voucher--" + hostverify.CheckDiscovery}
		}
		if phase == PhaseRuntime {
			// The runtime phase of the write, not called, has no record:
			// the copy makes one up.
			keys = append(keys, "runtime--redeem-voucher--"+CheckLiveCall)
		}
		if len(keys) < 2 {
			t.Fatalf("the %s phase has records %q", phase, keys)
		}
		pairs[phase] = [2]string{keys[0], keys[1]}
	}
	for phase, pair := range pairs {
		t.Run(phase, func(t *testing.T) {
			from, to := fx.statePath(ResultsDir+"/"+pair[0]+".json"), fx.statePath(ResultsDir+"/"+pair[1]+".json")
			saved, _ := os.ReadFile(to)
			data, _ := os.ReadFile(from)
			writeFile(t, to, string(data))
			defer func() {
				if saved == nil {
					os.Remove(to)
				} else {
					writeFile(t, to, string(saved))
				}
			}()
			_, problems, err := fx.pipeline().readRecordsWithProblems()
			if err != nil {
				t.Fatal(err)
			}
			if len(problems) != 1 || problems[0].Rule != RuleRecordReused.ID || problems[0].File != ResultsDir+"/"+pair[1]+".json" {
				t.Errorf("problems %v", problems)
			}
		})
	}

	// The failed host discovery of the write, hidden under a copy of the
	// read's passed one: finalize refuses, and the row does not pass its
	// host phase.
	to := fx.statePath(ResultsDir + "/host--redeem-voucher--" + hostverify.CheckDiscovery + ".json")
	data, _ := os.ReadFile(fx.statePath(ResultsDir + "/host--quote-voucher--" + hostverify.CheckDiscovery + ".json"))
	writeFile(t, to, string(data))
	rep := fx.run(RunOptions{Only: []string{StageFinalize}, Force: true})
	if fx.statuses()[StageFinalize] != StatusFailed || !rep.Findings.Has(RuleRecordReused) {
		t.Errorf("finalize over a copied record: %v, %v", fx.statuses(), rep.Findings.RuleIDs())
	}
	for _, row := range rep.Capabilities {
		if row.ID == "redeem-voucher" && row.HostVerified == Yes {
			t.Errorf("the write's host phase passed on the read's record: %+v", row)
		}
	}
}

func (p *Pipeline) readRecordsWithProblems() ([]*Record, []diag.Diagnostic, error) {
	if err := p.resolve(); err != nil {
		return nil, nil, err
	}
	return p.readRecords()
}
