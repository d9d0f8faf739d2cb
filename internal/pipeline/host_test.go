package pipeline

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/hostverify"
)

// hostPhase returns the status of a row's host phase in the verification
// report.
func (fx *fixture) hostPhase(pointer string) string {
	fx.t.Helper()
	data, err := os.ReadFile(fx.statePath(VerificationReportFile))
	if err != nil {
		fx.t.Fatal(err)
	}
	doc, _ := canonjson.Decode(data)
	v, _ := canonjson.Resolve(doc, pointer+"/host/status")
	return stringOf(v)
}

// voucherHostEnv is a host env file of the voucher package.
func voucherHostEnv() map[string]string {
	return map[string]string{"VOUCHER_BASE_URL": "https://vouchers.example:8443", "VOUCHER_TOKEN": "host-secret-0123456789"}
}

// TestHostVerifyRecordsTheHostPhase: host verification, enabled for one
// run, gets the host env file, the live cases and the authorised writes;
// each check it ran is a Host-phase record, and a row whose every expected
// check passed has a passed Host phase.
func TestHostVerifyRecordsTheHostPhase(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.liveCase("quote-voucher", quoteCase)
	env := voucherHostEnv()
	rep := fx.run(RunOptions{EnableHostVerify: true, HostEnv: env, AuthorizeWrites: []string{"redeem-voucher"}})
	if got := fx.actions()[StageHostVerify]; got != ActionExecuted {
		t.Fatalf("host-verify %s", got)
	}
	o := fx.f.hostOpts
	real, _ := filepath.EvalSymlinks(fx.dir)
	if o.Env["VOUCHER_TOKEN"] != "host-secret-0123456789" || len(o.AuthorizedWrites) != 1 || o.Cases["quote-voucher"] == nil || o.Dir != real {
		t.Errorf("host verification options %+v", o)
	}
	if o.Check == nil || o.Check("quote-voucher", o.Cases["quote-voucher"]) != "" {
		t.Error("the case of quote-voucher is not checked against its input schema, or fails it")
	}
	if got := fx.hostPhase("/capabilities/0"); got != OutcomePassed {
		t.Errorf("quote-voucher's host phase %q", got)
	}
	if got := fx.hostPhase("/workflows/0"); got != OutcomePassed {
		t.Errorf("the workflow's host phase %q", got)
	}
	if _, err := os.Stat(fx.statePath(ResultsDir + "/host--quote-voucher--" + hostverify.CheckCall + ".json")); err != nil {
		t.Error(err)
	}
	if rep.HostVerify == nil || rep.HostVerify.Host != hostverify.HostName || rep.HostVerify.Passed != rep.HostVerify.Checks || len(rep.HostVerify.Clients) != 2 {
		t.Errorf("report %+v", rep.HostVerify)
	}
	// Each record names the clients its check ran through.
	rec, err := os.ReadFile(fx.statePath(ResultsDir + "/host--quote-voucher--" + hostverify.CheckCall + ".json"))
	if want := "by the " + hostverify.GoClientName() + " and the typescript-sdk Client v1.32.2 (MCP over stdio)"; err != nil || !strings.Contains(string(rec), want) {
		t.Errorf("the call's record does not say %q: %v\n%s", want, err, rec)
	}
	// The host env file's values are hashed into the fingerprint, never
	// stored.
	filepath.WalkDir(DefaultStateDir(fx.dir), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "host-secret-0123456789") {
				t.Errorf("%s holds the host env file's credential", p)
			}
		}
		return err
	})
	// Unchanged, it is skipped; not enabled, it is not run.
	fx.run(RunOptions{EnableHostVerify: true, HostEnv: env, AuthorizeWrites: []string{"redeem-voucher"}})
	if got := fx.actions()[StageHostVerify]; got != ActionSkippedUnchanged || fx.f.n("host") != 1 {
		t.Errorf("unchanged: host-verify %s, %d runs", got, fx.f.n("host"))
	}
	fx.run(RunOptions{})
	if got := fx.actions()[StageHostVerify]; got != ActionSkippedDisabled {
		t.Errorf("not enabled: host-verify %s", got)
	}
}

// TestHostPhaseNeedsEveryCheck: a check host verification could not run
// keeps its row's Host phase from passing; a failed one fails it.
func TestHostPhaseNeedsEveryCheck(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.f.skipHost["redeem-voucher/"+hostverify.CheckDiscovery] = true
	fx.f.failHost["quote-voucher/"+hostverify.CheckDiscovery] = true
	rep := fx.run(RunOptions{EnableHostVerify: true, HostEnv: map[string]string{}})
	if got := fx.hostPhase("/capabilities/1"); got != OutcomeRequiresReview {
		t.Errorf("redeem-voucher's host phase %q, want %q", got, OutcomeRequiresReview)
	}
	if got := fx.hostPhase("/capabilities/0"); got != OutcomeFailed {
		t.Errorf("quote-voucher's host phase %q, want %q", got, OutcomeFailed)
	}
	if !rep.Findings.Has(hostverify.RuleCall) {
		t.Errorf("findings %v", rep.Findings.RuleIDs())
	}
}

// TestStaleHostVerificationIsInvalidated: once what a host reads of the
// package changes, its Host-phase records no longer vouch for it.
func TestStaleHostVerificationIsInvalidated(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	fx.run(RunOptions{EnableHostVerify: true, HostEnv: map[string]string{}})
	// SKILL.md is not what a host reads: the records stay.
	writeFile(t, filepath.Join(fx.dir, "SKILL.md"), voucherDocuments["SKILL.md"]+"\nOne more line.\n")
	fx.run(RunOptions{})
	if got := fx.statuses()[StageHostVerify]; got != StatusCompleted {
		t.Errorf("host-verify %s after a SKILL.md change", got)
	}
	// MCP-SETUP.md registers the server with the host.
	writeFile(t, filepath.Join(fx.dir, "MCP-SETUP.md"), voucherDocuments["MCP-SETUP.md"]+"\nOne more line.\n")
	fx.run(RunOptions{})
	if got := fx.statuses()[StageHostVerify]; got != StatusInvalidated {
		t.Errorf("host-verify %s", got)
	}
	recs, _ := fx.pipeline().readRecordsForTest()
	for _, r := range recs {
		if r.Phase == PhaseHost {
			t.Errorf("a stale Host-phase record survived: %s", keyOf(r))
		}
	}
}

// TestHostVerifyNeedsTheRuntime: a package whose export profile declares no
// host runtime cannot be verified in a host.
func TestHostVerifyNeedsTheRuntime(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	profile := filepath.Join(fx.dir, "export-profile.json")
	data, _ := os.ReadFile(profile)
	doc, _ := canonjson.Decode(data)
	doc.(*canonjson.Object).Delete("hostRuntime")
	writeFile(t, profile, string(canonjson.Encode(doc)))
	rep, _ := fx.pipeline().Run(t.Context(), RunOptions{EnableHostVerify: true, HostEnv: map[string]string{}})
	if got := fx.statuses()[StageHostVerify]; got != StatusFailed || !rep.Findings.Has(hostverify.RuleNoRuntime) {
		t.Errorf("host-verify %s, findings %v", got, rep.Findings.RuleIDs())
	}
}

// TestHostReverificationIsPerCapability: a change of one capability's
// description invalidates its Host-phase records and its workflow's only;
// the next host verification verifies those rows alone, keeps the other's
// records, and leaves the stage complete with every record in place.
func TestHostReverificationIsPerCapability(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	env := map[string]string{}
	fx.run(RunOptions{EnableHostVerify: true, HostEnv: env})
	all := fx.records(PhaseHost)
	if fx.f.hostOpts.Scope != nil || len(all) == 0 {
		t.Fatalf("the first host verification was scoped %+v, records %q", fx.f.hostOpts.Scope, all)
	}
	fx.editContract("Redeem a quoted voucher exactly once", "Redeem a quoted voucher only once")
	fx.run(RunOptions{})
	if got := fx.state().HostInvalidated; !slices.Equal(got, []string{"capability:redeem-voucher", "workflow:redeem-voucher"}) {
		t.Fatalf("invalidated host scopes %q", got)
	}
	for _, k := range fx.records(PhaseHost) {
		if strings.Contains(k, "redeem-voucher") {
			t.Errorf("a stale record survived: %s", k)
		}
	}
	rep := fx.run(RunOptions{EnableHostVerify: true, HostEnv: env})
	s := fx.f.hostOpts.Scope
	if fx.f.n("host") != 2 || s == nil || !maps.Equal(s.Capabilities, map[string]bool{"redeem-voucher": true}) || !maps.Equal(s.Workflows, map[string]bool{"redeem-voucher": true}) {
		t.Fatalf("%d host runs, scope %+v", fx.f.n("host"), s)
	}
	if got := fx.records(PhaseHost); !slices.Equal(got, all) {
		t.Errorf("after re-verification, host records %q, want %q", got, all)
	}
	if got := fx.statuses()[StageHostVerify]; got != StatusCompleted || len(fx.state().HostInvalidated) != 0 {
		t.Errorf("host-verify %s, invalidated %q: %v", got, fx.state().HostInvalidated, rep.Findings.Sorted())
	}
	// Other values in the host env file are another backend: everything
	// is verified again.
	fx.run(RunOptions{EnableHostVerify: true, HostEnv: map[string]string{"X": "y"}})
	if fx.f.n("host") != 3 || fx.f.hostOpts.Scope != nil {
		t.Errorf("%d host runs, scope %+v", fx.f.n("host"), fx.f.hostOpts.Scope)
	}
}
