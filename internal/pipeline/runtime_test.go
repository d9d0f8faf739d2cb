package pipeline

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/livecall"
)

const quoteCase = `{"name": "quote_voucher", "arguments": {"voucherCode": "AB12CD34"}}`

// redeemCase is the live case of the guarded write: its quote is the one
// the quote call of the same session returned (quotedResult), which the
// host runtime recorded as the protected value the guard compares with.
const redeemCase = `{
  "name": "redeem_voucher",
  "arguments": {
    "voucherCode": "AB12CD34",
    "quote": {"$result": {"capabilityId": "quote-voucher", "path": ["quote"]}},
    "confirmation": {"grantId": "confirm-3", "quoteId": "quote-7"}
  }
}`

// quotedResult is a quote_voucher result carrying the quote redeemCase
// passes on.
var quotedResult = toolResult(200, `{"quote":{"quoteId":"quote-7","payloadDigest":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","credit":5}}`)

func (fx *fixture) liveCase(capabilityID, text string) {
	fx.t.Helper()
	writeFile(fx.t, fx.statePath(LiveCasesDir+"/"+capabilityID+".json"), text)
}

func (fx *fixture) called() []string {
	fx.f.mu.Lock()
	defer fx.f.mu.Unlock()
	var tools []string
	for _, c := range fx.f.liveCalls {
		tools = append(tools, c.Tool)
	}
	return tools
}

func (fx *fixture) skippedReasons() map[string]string {
	out := map[string]string{}
	for _, s := range fx.state().RuntimeVerify.LastSkipped {
		if s.WorkflowID != "" {
			out["workflow "+s.WorkflowID] = s.Reason
		} else {
			out[s.CapabilityID] = s.Reason
		}
	}
	return out
}

// TestUnauthorisedWriteIsNeverCalled enables runtime verification without
// authorising the write: the read is called, the write is skipped and
// reported, never called.
func TestUnauthorisedWriteIsNeverCalled(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.liveCase("redeem-voucher", redeemCase)
	rep := fx.run(RunOptions{EnableRuntimeVerify: true})
	if got := fx.called(); !slices.Equal(got, []string{"quote_voucher"}) {
		t.Fatalf("live calls %q, want only the read", got)
	}
	if got := fx.skippedReasons(); got["redeem-voucher"] != SkipWriteNotAuthorized || got["workflow redeem-voucher"] != SkipWorkflowNotCalled {
		t.Errorf("skipped %v", got)
	}
	if !rep.Findings.Has(RuleLiveSkipped) {
		t.Error("the skipped write is not reported")
	}
	rows := map[string]RowReport{}
	for _, r := range rep.Capabilities {
		rows[r.ID] = r
	}
	if rows["redeem-voucher"].RuntimeVerified != No || !strings.Contains(rows["redeem-voucher"].Note, SkipWriteNotAuthorized) {
		t.Errorf("redeem row %+v", rows["redeem-voucher"])
	}
	if _, err := os.Stat(fx.statePath(LiveDir + "/redeem-voucher.input.json")); !os.IsNotExist(err) {
		t.Error("live evidence exists for a write that was never called")
	}
	if !slices.ContainsFunc(rep.NextSteps, func(s string) bool { return strings.Contains(s, "--authorize-write redeem-voucher") }) {
		t.Errorf("next steps do not say how to authorise the write: %q", rep.NextSteps)
	}
}

// TestAuthorisedGuardedWrite authorises the write for one run: it is called
// after the quote in the same session, with the quote that call returned,
// through the host runtime, whose base URL the run's --runtime-origin gives
// and whose confirmation form the run answers. The authorisation is not
// remembered: the next run without it does not call the write.
func TestAuthorisedGuardedWrite(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.liveCase("redeem-voucher", redeemCase)
	fx.f.liveResults["quote_voucher"] = quotedResult
	fx.run(RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: []string{"redeem-voucher"},
		Origins: map[string]string{"https://vouchers.example:8443": "http://127.0.0.1:8080"}})
	if got := fx.called(); !slices.Equal(got, []string{"quote_voucher", "redeem_voucher"}) {
		t.Fatalf("live calls %q", got)
	}
	if got := fx.f.liveOpts.Env; !slices.Contains(got, "VOUCHER_BASE_URL=http://127.0.0.1:8080") {
		t.Errorf("the host runtime's environment %q does not carry the origin's base URL", got)
	}
	if fx.f.liveOpts.Elicitation == nil {
		t.Error("the run answers no confirmation")
	}
	if fx.f.liveCalls[1].Check == nil {
		t.Error("the write's resolved arguments are not checked against its input schema")
	}
	input, err := os.ReadFile(fx.statePath(LiveDir + "/redeem-voucher.input.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(input), `"quoteId": "quote-7"`) || strings.Contains(string(input), livecall.ReferenceKey) {
		t.Errorf("the live input is not the arguments sent, references resolved:\n%s", input)
	}
	// Records: both calls passed, the workflow reuses the entry's call.
	recs, err := fx.pipeline().readRecordsForTest()
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range recs {
		if r.Phase == PhaseRuntime {
			keys = append(keys, keyOf(r)+":"+r.Status)
		}
	}
	want := []string{"runtime--quote-voucher--live-tools-call:passed", "runtime--redeem-voucher--live-tools-call:passed", "runtime--workflow_redeem-voucher--live-tools-call:passed"}
	if !slices.Equal(keys, want) {
		t.Errorf("runtime records %q, want %q", keys, want)
	}
	data, _ := os.ReadFile(fx.statePath(VerificationReportFile))
	checkReportSchema(t, data)

	// The next run does not authorise the write: runtime verification runs
	// again and the write is not called.
	fx.run(RunOptions{EnableRuntimeVerify: true})
	if got := fx.called(); !slices.Equal(got, []string{"quote_voucher"}) {
		t.Errorf("without authorisation the next run called %q", got)
	}
	if st := fx.state(); st.RuntimeVerify.LastRun == nil || len(st.RuntimeVerify.LastRun.AuthorizedWrites) != 0 {
		t.Errorf("last run %+v", st.RuntimeVerify.LastRun)
	}
}

// TestReferenceToACallNotMade: a write whose case passes on the result of
// a capability that is not called before it is not called.
func TestReferenceToACallNotMade(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("redeem-voucher", redeemCase) // and no case for the quote
	fx.run(RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: []string{"redeem-voucher"}})
	if got := fx.called(); len(got) != 0 {
		t.Errorf("calls %q", got)
	}
	if got := fx.skippedReasons()["redeem-voucher"]; got != SkipReferenceNotCalled {
		t.Errorf("skip reason %q", got)
	}
}

// TestConfirmAuthorized: an authorised run confirms a write, and never
// states that an unknown outcome was reconciled.
func TestConfirmAuthorized(t *testing.T) {
	for field, want := range map[string]string{hostruntime.ConfirmField: "accept", hostruntime.ReconciledField: "decline", "other": "decline"} {
		req := &mcp.ElicitRequest{Params: &mcp.ElicitParams{Mode: "form", RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{field: map[string]any{"type": "boolean"}}, "required": []string{field}}}}
		res, err := ConfirmAuthorized(context.Background(), req)
		if err != nil || res.Action != want || (want == "accept" && res.Content[field] != true) {
			t.Errorf("%s: %+v %v, want %s", field, res, err, want)
		}
	}
}

// TestGuardRefusalIsAFailedCheck: a write the guard refuses is a failed
// runtime check, with no live evidence, never a pass.
func TestGuardRefusalIsAFailedCheck(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.liveCase("redeem-voucher", redeemCase)
	fx.f.liveResults["quote_voucher"] = quotedResult
	fx.f.liveResults["redeem_voucher"] = `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"code":"WORKFLOW_BINDING_VIOLATION","message":"no match","details":{},"retryable":false},"isError":true}`
	rep := fx.run(RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: []string{"redeem-voucher"}})
	if !rep.Findings.Has(RuleCheckFailed) {
		t.Error("the refusal is not reported as a failed check")
	}
	if _, err := os.Stat(fx.statePath(LiveDir + "/redeem-voucher.result.json")); !os.IsNotExist(err) {
		t.Error("a refused call left live evidence")
	}
	data, _ := os.ReadFile(fx.statePath(VerificationReportFile))
	doc, _ := canonjson.Decode(data)
	for pointer, want := range map[string]string{
		"/capabilities/0/runtime/status": OutcomePassed, // the read stands on its own
		"/capabilities/1/runtime/status": OutcomeFailed,
		"/workflows/0/runtime/status":    OutcomeNotRun,
	} {
		v, _ := canonjson.Resolve(doc, pointer)
		if got := stringOf(v); got != want {
			t.Errorf("%s = %q, want %q", pointer, got, want)
		}
	}
	if got := fx.skippedReasons()["workflow redeem-voucher"]; got != SkipWorkflowNotCalled {
		t.Errorf("the workflow's runtime phase: %q, want %q", got, SkipWorkflowNotCalled)
	}
}

func TestLiveEvidenceIsSanitised(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.env["VOUCHER_TOKEN"] = "host-secret-0123456789"
	// A result finalize takes as live evidence, a credential inside it.
	fx.f.liveResults["quote_voucher"] = toolResult(200, `{"quote":{"quoteId":"use Bearer abcdefghijklmnop0123 next time","payloadDigest":"`+strings.Repeat("a", 64)+`","credit":5}}`)
	fx.run(RunOptions{EnableRuntimeVerify: true})
	if got := fx.f.liveOpts.Env; !slices.Contains(got, "VOUCHER_TOKEN=host-secret-0123456789") {
		t.Errorf("the credential did not reach the host runtime's environment: %q", got)
	}
	result, err := os.ReadFile(fx.statePath(LiveDir + "/quote-voucher.result.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := canonjson.Decode(result)
	payload, _ := canonjson.Resolve(doc, "/result")
	if id, _ := canonjson.Resolve(payload, "/structuredContent/data/quote/quoteId"); strings.Contains(stringOf(id), "abcdefghijklmnop0123") {
		t.Errorf("the bearer token persisted: %s", canonjson.DigestForm(id))
	}
	text, _ := canonjson.Resolve(payload, "/content/0/text")
	inner, err := canonjson.Decode([]byte(stringOf(text)))
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := canonjson.Resolve(payload, "/structuredContent")
	if string(canonjson.DigestForm(inner)) != string(canonjson.DigestForm(sc)) {
		t.Errorf("the text block no longer matches structuredContent: %s vs %s", canonjson.DigestForm(inner), canonjson.DigestForm(sc))
	}
	recs, _ := fx.pipeline().readRecordsForTest()
	for _, r := range recs {
		if r.CapabilityID == "quote-voucher" && r.Phase == PhaseRuntime && r.ResultHash != canonjson.Digest(payload) {
			t.Errorf("the result hash %s is not the sanitised result's", r.ResultHash)
		}
	}
	// No secret anywhere in the state.
	filepath.WalkDir(DefaultStateDir(fx.dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(filepath.Base(p), "quote-voucher.json") {
			return err
		}
		b, _ := os.ReadFile(p)
		for _, secret := range []string{"abcdefghijklmnop0123", "host-secret-0123456789"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds the secret %q", p, secret)
			}
		}
		return nil
	})
}

func jsonString(s string) string { return string(canonjson.DigestForm(canonjson.String(s))) }

// TestNoHostRuntimeSkipsTheCalls: a package whose export profile declares
// no host runtime is not called: no stdio host could reach its backend.
func TestNoHostRuntimeSkipsTheCalls(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	profile := filepath.Join(fx.dir, "export-profile.json")
	data, err := os.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := canonjson.Decode(data)
	doc.(*canonjson.Object).Delete("hostRuntime")
	writeFile(t, profile, string(canonjson.Encode(doc)))
	fx.liveCase("quote-voucher", quoteCase)
	fx.run(RunOptions{EnableRuntimeVerify: true})
	if got := fx.skippedReasons()["quote-voucher"]; got != SkipNoHostRuntime || len(fx.called()) != 0 {
		t.Errorf("skip %q, calls %q", got, fx.called())
	}
}

func TestInvalidLiveCases(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"another Tool":   `{"name": "redeem_voucher", "arguments": {"voucherCode": "AB12CD34"}}`,
		"bad arguments":  `{"name": "quote_voucher", "arguments": {"voucherCode": "lowercase"}}`,
		"unknown member": `{"name": "quote_voucher", "arguments": {"voucherCode": "AB12CD34"}, "expected": {}}`,
		"not JSON":       `{"name": `,
		"a trusted part": `{"name": "quote_voucher", "arguments": {"voucherCode": "AB12CD34"}, "trusted": {"headers": {"x": "y"}}}`,
		"bad reference":  `{"name": "quote_voucher", "arguments": {"voucherCode": {"$result": {"capabilityId": "x"}}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			fx := newFixture(t)
			fx.init(InitOptions{})
			fx.liveCase("quote-voucher", text)
			rep := fx.run(RunOptions{EnableRuntimeVerify: true})
			if !rep.Findings.Has(RuleLiveCase) || fx.skippedReasons()["quote-voucher"] != SkipInvalidLiveCase || len(fx.called()) != 0 {
				t.Errorf("findings %v, skipped %v, calls %q", rep.Findings.RuleIDs(), fx.skippedReasons(), fx.called())
			}
		})
	}
}

func TestServerGetsOnlyDeclaredVariables(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.f.declared = []string{"VOUCHER_BASE_URL", "VOUCHER_REGION"}
	fx.env["VOUCHER_REGION"] = "north"
	fx.env["CLOUD_TOKEN"] = "must-not-pass"
	fx.run(RunOptions{EnableRuntimeVerify: true, Env: map[string]string{"VOUCHER_BASE_URL": "http://127.0.0.1:9999"}})
	want := []string{"VOUCHER_BASE_URL=http://127.0.0.1:9999", "VOUCHER_REGION=north"}
	if got := fx.f.liveOpts.Env; !slices.Equal(got, want) {
		t.Errorf("server environment %q, want %q", got, want)
	}
	// A new base URL is a new runtime: runtime-verify runs again.
	fx.run(RunOptions{EnableRuntimeVerify: true, Env: map[string]string{"VOUCHER_BASE_URL": "http://127.0.0.1:9998"}})
	if got := fx.actions()[StageRuntimeVerify]; got != ActionExecuted {
		t.Errorf("a changed base URL: runtime-verify %s", got)
	}
	fx.run(RunOptions{EnableRuntimeVerify: true, Env: map[string]string{"VOUCHER_BASE_URL": "http://127.0.0.1:9998"}})
	if got := fx.actions()[StageRuntimeVerify]; got != ActionSkippedUnchanged {
		t.Errorf("an unchanged runtime: runtime-verify %s", got)
	}
}

// TestStaleRuntimeEvidenceIsRemoved: once the package changes, runtime
// evidence from before no longer vouches for it, even in a run that does
// not enable runtime verification.
func TestStaleRuntimeEvidenceIsRemoved(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.run(RunOptions{EnableRuntimeVerify: true})
	if _, err := os.Stat(fx.statePath(LiveDir + "/quote-voucher.input.json")); err != nil {
		t.Fatal(err)
	}
	// Unchanged: the evidence stays, and finalize keeps using it.
	fx.run(RunOptions{})
	if fx.statuses()[StageRuntimeVerify] != StatusCompleted {
		t.Fatalf("runtime-verify %s after an unchanged run", fx.statuses()[StageRuntimeVerify])
	}
	fx.editContract("Quote what redeeming a voucher would credit", "Quote what redeeming a voucher will credit")
	rep := fx.run(RunOptions{})
	if fx.statuses()[StageRuntimeVerify] != StatusInvalidated {
		t.Errorf("runtime-verify %s after the package changed", fx.statuses()[StageRuntimeVerify])
	}
	if got := fx.runtimeEvidence(); len(got) != 0 {
		t.Errorf("stale live evidence was kept: %q", got)
	}
	for _, r := range rep.Capabilities {
		if r.RuntimeVerified == Yes {
			t.Errorf("%s still runtime-verified on stale evidence", r.ID)
		}
	}
	if live := fx.f.finalized.Live; len(live) != 0 {
		t.Errorf("finalize was given stale live pairs %v", live)
	}
}

// TestLiveInputIsSanitised records a live call whose arguments carry
// credentials: the persisted input and its hash hold none of them.
func TestLiveInputIsSanitised(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	p := fx.pipeline()
	if err := p.resolve(); err != nil {
		t.Fatal(err)
	}
	core, err := derive.Load(p.abs)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{p: p, st: fx.state(), core: core, current: StageRuntimeVerify}
	args, _ := canonjson.Decode([]byte(`{"password": "hunter2-secret", "note": "Bearer abcdefghijklmnopqrstuv"}`))
	call := &livecall.Call{CapabilityID: "quote-voucher", Tool: "quote_voucher", Arguments: args.(*canonjson.Object)}
	out := &stageOutcome{}
	if err := r.recordLiveCall(call, &livecall.Outcome{CapabilityID: "quote-voucher", Tool: "quote_voucher", Result: []byte(defaultLiveResult)}, out, passAll); err != nil {
		t.Fatal(err)
	}
	if err := r.flush(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(fx.statePath(LiveDir + "/quote-voucher.input.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter2-secret", "abcdefghijklmnopqrstuv"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the persisted live input holds %q:\n%s", secret, data)
		}
	}
	doc, _ := canonjson.Decode(data)
	input, _ := canonjson.Resolve(doc, "/input")
	recs, _, _ := p.readRecords()
	if len(recs) != 1 || recs[0].InputHash != canonjson.Digest(input) {
		t.Errorf("the input hash is not the sanitised input's: %+v", recs)
	}
}

// passAll judges every result a success.
func passAll(string, canonjson.Value) (string, error) { return "", nil }

// TestFailedRuntimeLeavesNoEvidence: a runtime verification that could not
// finish leaves no record or live file for a later finalize to rely on.
func TestFailedRuntimeLeavesNoEvidence(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.run(RunOptions{EnableRuntimeVerify: true})
	if _, err := os.Stat(fx.statePath(LiveDir + "/quote-voucher.input.json")); err != nil {
		t.Fatal(err)
	}
	p := fx.pipeline()
	steps := fx.f.steps()
	steps.LiveCalls = func(ctx context.Context, dir string, calls []livecall.Call, opts livecall.Options) (*livecall.Result, error) {
		return nil, errors.New("the network went away")
	}
	p.Steps = steps
	if _, err := p.Run(context.Background(), RunOptions{EnableRuntimeVerify: true, Force: true, Only: []string{StageRuntimeVerify}}); err == nil {
		t.Fatal("a failing live call step did not fail the run")
	}
	if fx.statuses()[StageRuntimeVerify] != StatusFailed {
		t.Errorf("runtime-verify %s", fx.statuses()[StageRuntimeVerify])
	}
	if _, err := os.Stat(fx.statePath(LiveDir)); !os.IsNotExist(err) {
		t.Error("a failed runtime verification left live evidence")
	}
	recs, _ := fx.pipeline().readRecordsForTest()
	for _, r := range recs {
		if r.Phase == PhaseRuntime {
			t.Errorf("a failed runtime verification left the record %s", keyOf(r))
		}
	}
}

// TestDeclaredVariablesAreRemembered: the package's modules are parsed for
// the variables they read only when they changed.
func TestDeclaredVariablesAreRemembered(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.f.declared = []string{"VOUCHER_REGION"}
	fx.env["VOUCHER_REGION"] = "north"
	fx.run(RunOptions{EnableRuntimeVerify: true})
	// The first run read the modules generate wrote, not what was there
	// before it.
	if got := fx.f.liveOpts.Env; !slices.Equal(got, []string{"VOUCHER_REGION=north"}) {
		t.Errorf("first run's server environment %q", got)
	}
	fx.run(RunOptions{EnableRuntimeVerify: true})
	if n := fx.f.n("declared-variables"); n != 1 {
		t.Errorf("unchanged modules were asked for their variables %d times, want 1", n)
	}
	fx.env["VOUCHER_REGION"] = "south"
	writeFile(t, filepath.Join(fx.dir, "mcp-tool/index.mjs"), "// edited\n")
	fx.run(RunOptions{EnableRuntimeVerify: true})
	// Asked for the edited module before the run, and again once generate
	// had compiled it anew.
	if n := fx.f.n("declared-variables"); n != 3 {
		t.Errorf("changed modules: asked %d times, want 3", n)
	}
	if got := fx.f.liveOpts.Env; !slices.Equal(got, []string{"VOUCHER_REGION=south"}) {
		t.Errorf("server environment %q", got)
	}
}

// TestLiveCaseReferences: a reference to a capability the contract lacks,
// to the case itself or a later one, or through a string that is not a
// JSON Pointer is a PIPELINE_LIVE_REFERENCE finding at its pointer, and the
// case is not called; a pointer to an earlier call passes.
func TestLiveCaseReferences(t *testing.T) {
	t.Parallel()
	ref := func(id, pointer string) string {
		return `{"name": "quote_voucher", "arguments": {"voucherCode": {"$result": {"capabilityId": "` + id + `", "pointer": "` + pointer + `"}}}}`
	}
	for _, tt := range []struct {
		name, text, want string
	}{
		{"unknown capability", ref("no-such-capability", "/structuredContent/data/code"), "/arguments/voucherCode/$result/capabilityId"},
		{"the case itself", ref("quote-voucher", "/structuredContent/data/code"), "/arguments/voucherCode/$result/capabilityId"},
		{"a later case", ref("redeem-voucher", "/structuredContent/data/code"), "/arguments/voucherCode/$result/capabilityId"},
		{"not a pointer", ref("redeem-voucher", "structuredContent"), "/arguments/voucherCode/$result/pointer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fx := newFixture(t)
			fx.init(InitOptions{})
			fx.liveCase("quote-voucher", tt.text)
			rep := fx.run(RunOptions{EnableRuntimeVerify: true})
			found := false
			for _, d := range rep.Findings.Sorted() {
				found = found || d.Rule == RuleLiveReference.ID && d.Pointer == tt.want
			}
			if !found {
				t.Errorf("no %s at %s: %v", RuleLiveReference.ID, tt.want, rep.Findings.Sorted())
			}
			if got := fx.called(); len(got) != 0 || fx.skippedReasons()["quote-voucher"] != SkipInvalidLiveCase {
				t.Errorf("calls %q, skip reasons %v", got, fx.skippedReasons())
			}
		})
	}

	// The redeem passes on the quote's result through a pointer: valid.
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.liveCase("redeem-voucher", strings.Replace(redeemCase, `"path": ["quote"]`, `"pointer": "/structuredContent/data/quote"`, 1))
	fx.f.liveResults["quote_voucher"] = quotedResult
	rep := fx.run(RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: []string{"redeem-voucher"}})
	if rep.Findings.Has(RuleLiveReference) || !slices.Equal(fx.called(), []string{"quote_voucher", "redeem_voucher"}) {
		t.Errorf("calls %q, findings %v", fx.called(), rep.Findings.Sorted())
	}
	input, err := os.ReadFile(fx.statePath(LiveDir + "/redeem-voucher.input.json"))
	if err != nil || !strings.Contains(string(input), `"quoteId": "quote-7"`) {
		t.Errorf("the redeem was not sent the quote the session issued: %s %v", input, err)
	}
}

// TestFailedUpstreamSkipsItsDependants: when the call a live case passes a
// result on from fails, the dependant is not called and is skipped with
// that reason (one failure, reported where it happened), and the
// verification report built from the records follows the published schema
// even though the failed call has no result to hash.
func TestFailedUpstreamSkipsItsDependants(t *testing.T) {
	t.Parallel()
	for name, quote := range map[string]string{
		"the Tool answers with an error": `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"code":"QUOTE_EXPIRED","message":"expired","details":{},"retryable":false},"isError":true}`,
		"no result to hash":              `not JSON`,
	} {
		t.Run(name, func(t *testing.T) {
			fx := newFixture(t)
			fx.init(InitOptions{})
			fx.liveCase("quote-voucher", quoteCase)
			fx.liveCase("redeem-voucher", redeemCase)
			fx.f.liveResults["quote_voucher"] = quote
			rep := fx.run(RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: []string{"redeem-voucher"}})
			var skipped *Skipped
			for _, s := range fx.state().RuntimeVerify.LastSkipped {
				if s.CapabilityID == "redeem-voucher" {
					skipped = &s
				}
			}
			if skipped == nil || skipped.Reason != SkipReferenceFailed || skipped.Upstream != "quote-voucher" {
				t.Fatalf("the dependant is not skipped for its upstream: %+v", fx.state().RuntimeVerify.LastSkipped)
			}
			recs, err := fx.pipeline().readRecordsForTest()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				if r.Phase == PhaseRuntime && r.CapabilityID == "redeem-voucher" {
					t.Errorf("the dependant has a record of its own: %s %s", keyOf(r), r.Status)
				}
			}
			rows := map[string]RowReport{}
			for _, r := range rep.Capabilities {
				rows[r.ID] = r
			}
			if r := rows["redeem-voucher"]; r.RuntimeVerified == Yes || !strings.Contains(r.Note, SkipReferenceFailed+" (quote-voucher)") {
				t.Errorf("redeem row %+v", r)
			}
			// The failed call blocks its row; the row says so, and that
			// its behaviour passed all the same.
			if r := rows["quote-voucher"]; r.RuntimeVerified != Failed || !strings.Contains(r.Note, "blocked (runtime failed)") || !strings.Contains(r.Note, "behavior passed") {
				t.Errorf("quote row %+v", r)
			}
			if fx.f.n("finalize") == 0 {
				t.Fatal("finalize did not run")
			}
			data, err := os.ReadFile(fx.statePath(VerificationReportFile))
			if err != nil {
				t.Fatal(err)
			}
			checkReportSchema(t, data)
		})
	}
}

// TestLiveResultJudgedAsFinalizeWill: a live result finalize would refuse
// as live evidence (here a required output path that is null, which the
// offline vectors never see) fails its runtime check when the call is made,
// with finalize's reason, instead of passing there and failing finalize.
func TestLiveResultJudgedAsFinalizeWill(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	fx.f.liveResults["quote_voucher"] = toolResult(200, `{"quote":{"quoteId":null,"payloadDigest":"`+strings.Repeat("a", 64)+`","credit":5}}`)
	rep := fx.run(RunOptions{EnableRuntimeVerify: true})
	recs, err := fx.pipeline().readRecordsForTest()
	if err != nil {
		t.Fatal(err)
	}
	var rec *Record
	for _, r := range recs {
		if r.Phase == PhaseRuntime && r.CapabilityID == "quote-voucher" {
			rec = r
		}
	}
	if rec == nil || rec.Status != CheckFailed || !strings.Contains(rec.Detail, "required output path /quote/quoteId is missing or null") {
		t.Fatalf("the live call's record: %+v", rec)
	}
	if !rep.Findings.Has(RuleCheckFailed) {
		t.Error("the refused result is not reported")
	}
	if _, err := os.Stat(fx.statePath(LiveDir + "/quote-voucher.result.json")); !os.IsNotExist(err) {
		t.Error("a result finalize refuses was kept as live evidence")
	}
}
