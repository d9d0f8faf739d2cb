package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// records lists the keys of the state's records of phase.
func (fx *fixture) records(phase string) []string {
	fx.t.Helper()
	recs, err := fx.pipeline().readRecordsForTest()
	if err != nil {
		fx.t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		if r.Phase == phase {
			out = append(out, keyOf(r))
		}
	}
	slices.Sort(out)
	return out
}

// runtimeEvidence lists the runtime records and live files of the state.
func (fx *fixture) runtimeEvidence() []string {
	fx.t.Helper()
	out := fx.records(PhaseRuntime)
	entries, _ := os.ReadDir(fx.statePath(LiveDir))
	for _, e := range entries {
		out = append(out, "live/"+e.Name())
	}
	slices.Sort(out)
	return out
}

// editContract replaces old by new in the fixture's contract.
func (fx *fixture) editContract(old, new string) {
	fx.t.Helper()
	path := filepath.Join(fx.dir, "canonical-contract.json")
	data, err := os.ReadFile(path)
	if err != nil {
		fx.t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		fx.t.Fatalf("the contract has no %q", old)
	}
	writeFile(fx.t, path, strings.Replace(string(data), old, new, 1))
}

// verifiedVoucher is a fixture whose two capabilities and workflow are
// verified at runtime.
func verifiedVoucher(t *testing.T) *fixture {
	t.Helper()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.liveCase("redeem-voucher", redeemCase)
	fx.f.liveResults["quote_voucher"] = quotedResult
	fx.run(RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: []string{"redeem-voucher"}})
	if got := fx.called(); !slices.Equal(got, []string{"quote_voucher", "redeem_voucher"}) {
		t.Fatalf("live calls %q", got)
	}
	return fx
}

var allVoucherEvidence = []string{
	"live/quote-voucher.input.json", "live/quote-voucher.result.json",
	"live/redeem-voucher.input.json", "live/redeem-voucher.result.json",
	"runtime--quote-voucher--live-tools-call", "runtime--redeem-voucher--live-tools-call",
	"runtime--workflow_redeem-voucher--live-tools-call",
}

// TestOneDescriptionInvalidatesOneCapability: a one-word change of one
// capability's description removes the runtime evidence of that
// capability (and of the workflow it belongs to) only; the other's stays,
// bound to the package as it is, and finalize relies on it.
func TestOneDescriptionInvalidatesOneCapability(t *testing.T) {
	t.Parallel()
	fx := verifiedVoucher(t)
	if got := fx.runtimeEvidence(); !slices.Equal(got, allVoucherEvidence) {
		t.Fatalf("runtime evidence %q", got)
	}
	fx.editContract("Redeem a quoted voucher exactly once", "Redeem a quoted voucher only once")
	rep := fx.run(RunOptions{})
	want := []string{"live/quote-voucher.input.json", "live/quote-voucher.result.json", "runtime--quote-voucher--live-tools-call"}
	if got := fx.runtimeEvidence(); !slices.Equal(got, want) {
		t.Errorf("after redeem-voucher's description changed, runtime evidence %q, want %q", got, want)
	}
	st := fx.state()
	if s := st.Stages[StageRuntimeVerify]; s.Status != StatusInvalidated || !strings.Contains(s.InvalidatedReason, "capability redeem-voucher") || strings.Contains(s.InvalidatedReason, "quote-voucher") {
		t.Errorf("runtime-verify %s: %s", s.Status, s.InvalidatedReason)
	}
	if got := st.RuntimeVerify.Invalidated; !slices.Equal(got, []string{"capability:redeem-voucher", "workflow:redeem-voucher"}) {
		t.Errorf("invalidated scopes %q", got)
	}
	if fx.statuses()[StageFinalize] != StatusCompleted {
		t.Fatalf("finalize %s: %v", fx.statuses()[StageFinalize], rep.Findings.Sorted())
	}
	restore := "restore it with code2skill pipeline run " + fx.dir + " --enable-runtime-verify --authorize-write redeem-voucher"
	if !slices.ContainsFunc(rep.NextSteps, func(s string) bool { return strings.HasSuffix(s, restore) }) {
		t.Errorf("no next step ends with %q: %q", restore, rep.NextSteps)
	}
	verified := map[string]string{}
	for _, r := range rep.Capabilities {
		verified[r.ID] = r.RuntimeVerified
	}
	if verified["quote-voucher"] != Yes || verified["redeem-voucher"] == Yes {
		t.Errorf("runtime-verified after the change: %v", verified)
	}

	// The next runtime verification calls the changed capability again,
	// and what its case passes on within the session; nothing else.
	fx.f.liveCalls = nil
	fx.run(RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: []string{"redeem-voucher"}})
	if got := fx.called(); !slices.Equal(got, []string{"quote_voucher", "redeem_voucher"}) {
		t.Errorf("re-verification called %q", got)
	}
	if got := fx.runtimeEvidence(); !slices.Equal(got, allVoucherEvidence) {
		t.Errorf("after re-verification, runtime evidence %q", got)
	}
	if got := fx.state().RuntimeVerify.Invalidated; len(got) != 0 {
		t.Errorf("still invalidated: %q", got)
	}
}

// TestReadChangeKeepsTheWriteWhenNothingPassesOn: a change of the quote's
// description invalidates the quote and, since the redeem case passes on
// the quote's result, the redeem too; a change of the server, which every
// capability shares, invalidates everything.
func TestSharedChangeInvalidatesEverything(t *testing.T) {
	t.Parallel()
	fx := verifiedVoucher(t)
	fx.editContract("Quote what redeeming a voucher would credit", "Quote what redeeming a voucher will credit")
	fx.run(RunOptions{})
	if got := fx.runtimeEvidence(); len(got) != 0 {
		t.Errorf("the redeem case passes on the quote's result, and its evidence %q survived the quote's change", got)
	}

	fx = verifiedVoucher(t)
	data, err := os.ReadFile(filepath.Join(fx.dir, "canonical-contract.json"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), `"server"`)
	j := strings.Index(string(data)[i:], `"description": "`)
	if i < 0 || j < 0 {
		t.Fatal("the contract has no server description")
	}
	at := i + j + len(`"description": "`)
	writeFile(t, filepath.Join(fx.dir, "canonical-contract.json"), string(data[:at])+"Changed. "+string(data[at:]))
	fx.run(RunOptions{})
	if got := fx.runtimeEvidence(); len(got) != 0 {
		t.Errorf("after a change every capability shares, runtime evidence %q survived", got)
	}
	if got := fx.state().RuntimeVerify.Invalidated; len(got) != 3 {
		t.Errorf("invalidated scopes %q, want both capabilities and the workflow", got)
	}
}

// TestDocumentChangeKeepsRuntimeEvidence: a live call never reads the
// documents, so a document change keeps every runtime record.
func TestDocumentChangeKeepsRuntimeEvidence(t *testing.T) {
	t.Parallel()
	fx := verifiedVoucher(t)
	writeFile(t, filepath.Join(fx.dir, "MCP-SETUP.md"), "# Setup, changed\n")
	fx.run(RunOptions{})
	if got := fx.runtimeEvidence(); !slices.Equal(got, allVoucherEvidence) {
		t.Errorf("after a document change, runtime evidence %q", got)
	}
	if fx.statuses()[StageFinalize] != StatusCompleted {
		t.Errorf("finalize %s", fx.statuses()[StageFinalize])
	}
}

// TestLiveCaseChangeInvalidatesItsCapability: a changed live case removes
// its capability's evidence.
func TestLiveCaseChangeInvalidatesItsCapability(t *testing.T) {
	t.Parallel()
	fx := verifiedVoucher(t)
	fx.liveCase("redeem-voucher", strings.Replace(redeemCase, "confirm-3", "confirm-4", 1))
	fx.run(RunOptions{})
	want := []string{"live/quote-voucher.input.json", "live/quote-voucher.result.json", "runtime--quote-voucher--live-tools-call"}
	if got := fx.runtimeEvidence(); !slices.Equal(got, want) {
		t.Errorf("after redeem-voucher's live case changed, runtime evidence %q, want %q", got, want)
	}
}
