package hostverify

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/examples/equipment-lending/app/server"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

const token = "token-host"

// desk is the sample desk, counting what reaches it.
type desk struct {
	*server.Server
	mu   sync.Mutex
	seen []string
}

func (d *desk) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	d.seen = append(d.seen, r.Method+" "+r.URL.Path)
	d.mu.Unlock()
	d.Server.ServeHTTP(w, r)
}

// sample compiles the strict sample, serves its desk and returns the
// options of a host verification with every write authorised.
func samplePackage(t testing.TB, hostProfile string) (Options, *desk) {
	t.Helper()
	return samplePackageWith(t, hostProfile, nil)
}

// samplePackageWith is samplePackage with the authored files changed by
// edit (reftest.StrictSamplePackageWith).
func samplePackageWith(t testing.TB, hostProfile string, edit func(map[string][]byte)) (Options, *desk) {
	t.Helper()
	testnode.Node(t)
	pkg := reftest.StrictSamplePackageWith(t, edit)
	if hostProfile != "" {
		if err := os.WriteFile(filepath.Join(pkg, "host-profile.json"), []byte(hostProfile), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := derive.Load(pkg)
	in, l := loaded.Inputs, loaded.Read()
	if err != nil {
		t.Fatal(err)
	}
	if l.Merge(derive.Check(in)); l.HasErrors() {
		t.Fatal(l.Sorted())
	}
	d := &desk{Server: server.New(server.Config{Members: map[string]string{token: "member-host"}})}
	ts := httptest.NewServer(d)
	t.Cleanup(ts.Close)
	cases := map[string]*canonjson.Object{}
	for _, cp := range in.Contract.Capabilities {
		id := cp.ID
		data, err := fsRead(id)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := canonjson.Decode(data)
		cases[id] = doc.(*canonjson.Object).At("arguments").(*canonjson.Object)
	}
	return Options{
		Dir:              pkg,
		Inputs:           in,
		Cases:            cases,
		AuthorizedWrites: examples.StrictSampleWrites(),
		Env:              map[string]string{examples.StrictSampleBaseURLVariable: ts.URL, examples.StrictSampleTokenVariable: token},
		RequestTimeout:   testtier.Budget(t),
	}, d
}

func fsRead(id string) ([]byte, error) {
	return fs.ReadFile(examples.StrictSampleLiveCases(), id+".json")
}

func outcomes(res *Result) []string {
	var out []string
	for _, c := range res.Checks {
		row := c.CapabilityID
		if c.WorkflowID != "" {
			row = "workflow " + c.WorkflowID
		}
		status := "passed"
		switch {
		case c.Skipped != "":
			status = "skipped: " + c.Skipped
		case !c.Passed:
			status = "failed: " + c.Detail
		}
		out = append(out, row+" "+c.CheckID+" "+status)
	}
	sort.Strings(out)
	return out
}

// TestStrictSampleUnderItsProfile: the strict sample, started as its
// MCP-SETUP.md registers it under its elicitation profile, passes every
// Host-phase check through both clients, in five node processes (two
// sessions' servers for each client, and the TypeScript SDK Client's own);
// the decline, cancel, missing elicitation, second session and unknown
// outcome dispatch nothing, and the backend sees each call once.
func TestStrictSampleUnderItsProfile(t *testing.T) {
	opts, d := samplePackage(t, "")
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outcomes(res) {
		if !strings.HasSuffix(o, " passed") {
			t.Errorf("%s", o)
		}
	}
	exp := ExpectedChecks(opts.Inputs)
	n := 0
	for _, ids := range exp.Capabilities {
		n += len(ids)
	}
	for _, ids := range exp.Workflows {
		n += len(ids)
	}
	if len(res.Checks) != n {
		t.Errorf("%d checks, want %d", len(res.Checks), n)
	}
	if res.NodeProcesses != 5 {
		t.Errorf("%d node processes, want 5", res.NodeProcesses)
	}
	if want := []string{GoClientName(), "typescript-sdk Client v1.32.2"}; !slices.Equal(res.Clients, want) || !strings.HasPrefix(want[0], HostName+" (go-sdk v") {
		t.Errorf("clients %q, want %q", res.Clients, want)
	}
	if res.Diagnostics.HasErrors() {
		t.Errorf("findings: %v", res.Diagnostics.Sorted())
	}
	// The loan was returned, then removed once: the desk holds none.
	if loans, removals := d.Loans(), countSuffix(d.seen, "/api/loans/loan-0001"); len(loans) != 0 || removals != 1 {
		t.Errorf("the desk holds %+v after %d removal(s), want none after 1", loans, removals)
	}
	if got := stringAt(res.Host, "/host"); got != HostName {
		t.Errorf("host %q", got)
	}
	for _, c := range res.Checks {
		if c.Evidence == nil || strings.Contains(string(canonjson.Encode(c.Evidence)), token) {
			t.Errorf("%s %s: evidence %v", c.CapabilityID, c.CheckID, c.Evidence != nil)
		}
	}
	want := map[string][]string{
		"list-lendable-equipment": {CheckProfile, CheckDiscovery, CheckCall},
		"create-equipment-loan":   {CheckProfile, CheckDiscovery, CheckCall, CheckIsolation, CheckUnknownOutcome},
		"return-equipment-loan":   {CheckProfile, CheckDiscovery, CheckCall, CheckDecline, CheckCancel, CheckUnavailable, CheckUnknownOutcome},
	}
	for id, ids := range want {
		if got := exp.Capabilities[id]; !slices.Equal(got, ids) {
			t.Errorf("%s: expected checks %v, want %v", id, got, ids)
		}
	}
}

// TestWithoutElicitation: under a profile whose host declares no
// elicitation, the reads and the loan are verified, and the return is
// verified to be refused: it is never called.
func TestWithoutElicitation(t *testing.T) {
	profile, err := os.ReadFile(filepath.Join(testnode.Root(), "examples", "equipment-lending", "host-profiles", "without-elicitation.json"))
	if err != nil {
		t.Fatal(err)
	}
	opts, d := samplePackage(t, string(profile))
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outcomes(res) {
		if !strings.HasSuffix(o, " passed") {
			t.Errorf("%s", o)
		}
	}
	if got := ExpectedChecks(opts.Inputs).Capabilities["return-equipment-loan"]; !slices.Equal(got, []string{CheckProfile, CheckDiscovery, CheckUnavailable}) {
		t.Errorf("the return's checks %v", got)
	}
	if slices.ContainsFunc(d.seen, func(s string) bool { return strings.HasSuffix(s, "/return") }) {
		t.Errorf("a return reached the desk: %v", d.seen)
	}
	if loans := d.Loans(); len(loans) != 1 || loans[0].Status != server.LoanActive {
		t.Errorf("the desk holds %+v", loans)
	}
}

// TestOverclaimingProfile: a profile that claims a facility the reference
// host does not provide fails the facilities check of the capabilities that
// need it.
func TestOverclaimingProfile(t *testing.T) {
	opts, _ := samplePackage(t, "")
	in := *opts.Inputs
	v := &verifier{opts: opts, in: &in, res: &Result{}, elicitation: false, workflows: map[string]*canonjson.Object{}}
	v.res.Host = canonjson.NewObject()
	v.res.Diagnostics = &diag.List{}
	cp := &in.Contract.Capabilities[3] // the return needs trusted confirmation
	v.profile(cp)
	if c := v.res.Checks[0]; c.Passed || c.Rule != RuleProfile || !strings.Contains(c.Detail, "trustedConfirmation") {
		t.Errorf("the return's facilities under a host without elicitation: %+v", c)
	}
}

// tamper edits a file of the package, failing when it lacks old.
func tamper(t *testing.T, dir, file, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(file))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not hold %q", file, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// brokenHost is a protection removed from the package's host runtime (or
// its adapter): the edit of file, the check that must fail under its rule,
// and what the failure must say when the case guards one clause.
type brokenHost struct {
	name, file, old, new string
	rule                 *diag.Rule
	check                string
	detail               string
	// scope, when not empty, are the capabilities the run verifies: the
	// rows the check is about, where fewer rows need fewer sessions.
	scope []string
}

// brokenHosts are the broken hosts of the fast tier, one of each family:
// the confirmation (the refusal TestAClientRefusesWhatTheOtherReads
// breaks, and here the one that dispatches all the same), the session
// isolation, the stop after an unknown outcome, the credentials and the
// annotations.
var brokenHosts = []brokenHost{
	{name: "no session isolation", file: hostruntime.RuntimeFile, old: "      return {}; // no protected operation: the guard refuses the call",
		new: "      record = { expected: Object.fromEntries(workflow.bindings.filter((b) => b.expected.kind === 'issuer-result' || b.expected.kind === 'issuer-input')" +
			".map((b) => [b.name, b.source.kind === 'derived-calculation' ? derive(b.source.algorithm, input[b.source.inputName]) : resolve(input, [b.source.inputName, ...(b.source.path ?? [])]).value])), used: false };",
		rule: RuleIsolation, check: CheckIsolation},
	{name: "no stop after an unknown outcome", file: hostruntime.RuntimeFile, old: "      session.blocked.set(tool.toolName, { input });", new: "",
		rule: RuleUnknownOutcome, check: CheckUnknownOutcome},
	// A refusal with the right code that still sends the request: only
	// the dispatch counted at the relay fails it.
	{name: "a refused confirmation still dispatches", file: hostruntime.RuntimeFile,
		old: "    const answer = await ask(server, confirmation, tool.confirmation, input, extra);\n    if (answer.error !== undefined) {\n",
		new: "    const answer = await ask(server, confirmation, tool.confirmation, input, extra);\n    if (answer.error !== undefined) {\n" +
			"      await fetch(process.env." + examples.StrictSampleBaseURLVariable + " + '/api/loans/dispatched-anyway', { method: 'POST' }).catch(() => {});\n",
		rule: RuleConfirmation, check: CheckDecline, detail: "dispatched 1 request(s)"},
	{name: "no credentials", file: hostruntime.RuntimeFile, old: "    return dispatchHostHttp(actual.href, options, { headers });", new: "    return dispatchHostHttp(actual.href, options, { headers: {} });",
		rule: RuleCall, check: CheckCall, scope: []string{"list-lendable-equipment"}},
	{name: "other annotations", file: "mcp-tool/index.mjs", old: `annotations: {"readOnlyHint": true,`, new: `annotations: {"readOnlyHint": false,`,
		rule: RuleDiscovery, check: CheckDiscovery, scope: []string{"list-lendable-equipment"}},
}

// TestBrokenHostsFail: each protection removed from the package's host
// runtime (or its adapter) fails the check that guards it, under its rule,
// and nothing the check must keep from the backend reaches it. The fast
// tier breaks one protection of each family; TestSlowBrokenHostsFail the
// others.
func TestBrokenHostsFail(t *testing.T) {
	testBrokenHosts(t, brokenHosts)
}

// TestSlowBrokenHostsFail: the broken hosts TestBrokenHostsFail leaves
// out, the other members of its families.
func TestSlowBrokenHostsFail(t *testing.T) {
	testtier.Slow(t)
	testBrokenHosts(t, []brokenHost{
		{name: "no confirmation asked", file: hostruntime.RuntimeFile, old: "    const answer = await ask(server, confirmation, tool.confirmation, input, extra);",
			new: "    const answer = {};", rule: RuleConfirmation, check: CheckDecline},
	})
}

func testBrokenHosts(t *testing.T, hosts []brokenHost) {
	for _, c := range hosts {
		t.Run(c.name, func(t *testing.T) {
			opts, d := samplePackage(t, "")
			tamper(t, opts.Dir, c.file, c.old, c.new)
			if c.scope != nil {
				opts.Scope = &Scope{Capabilities: map[string]bool{}}
				for _, id := range c.scope {
					opts.Scope.Capabilities[id] = true
				}
			}
			res, err := Run(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			failed := slices.ContainsFunc(res.Checks, func(k *Check) bool {
				return k.CheckID == c.check && !k.Passed && k.Rule == c.rule && strings.Contains(k.Detail, c.detail)
			})
			if !failed || !res.Diagnostics.Has(c.rule) {
				t.Errorf("no failed %s under %s:\n%s", c.check, c.rule.ID, strings.Join(outcomes(res), "\n"))
			}
			if c.rule == RuleConfirmation || c.rule == RuleIsolation {
				assertReturnsOnce(t, d)
			}
		})
	}
}

// assertReturnsOnce checks that the relay blocked the attempts that
// dispatched: the desk saw no more returns than the real calls made.
func assertReturnsOnce(t *testing.T, d *desk) {
	t.Helper()
	if n := countSuffix(d.seen, "/return"); n > 1 {
		t.Errorf("the desk got %d returns", n)
	}
}

// TestAClientRefusesWhatTheOtherReads: a host runtime whose refusals carry
// their structured error as structuredContent again (which the Tools'
// output schemas do not admit) fails every refusal check through the
// TypeScript SDK Client, which throws on them, and the check names that
// client first; the Go SDK client returns those results, and its side
// fails only by the judgement of what a validating client would do.
// Nothing is reported as host-verified that a client refused. It is also
// the broken host of the confirmation family TestBrokenHostsFail leaves to
// it: the decline fails under its rule, and the desk sees one return.
func TestAClientRefusesWhatTheOtherReads(t *testing.T) {
	opts, d := samplePackage(t, "")
	tamper(t, opts.Dir, hostruntime.RuntimeFile, "  return { content: [{ type: 'text', text: JSON.stringify(structured) }], isError: true };",
		"  return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }], isError: true };")
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, c := range res.Checks {
		if c.Passed || c.Skipped != "" {
			continue
		}
		failed[c.CheckID] = true
		if c.CheckID == CheckDecline && c.Rule != RuleConfirmation {
			t.Errorf("%s %s failed under %s, want %s", c.CapabilityID, c.CheckID, c.Rule.ID, RuleConfirmation.ID)
		}
		ts := false
		for _, e := range arrayAt(c.Evidence, "/clients") {
			if stringAt(e, "/client") == "typescript-sdk Client v1.32.2" {
				ts = stringAt(e, "/status") == "failed" && strings.Contains(stringAt(e, "/detail"), "an exception instead of a result: MCP error -32602")
			}
		}
		if !ts {
			t.Errorf("%s%s %s: the TypeScript SDK Client did not throw: %s", c.CapabilityID, c.WorkflowID, c.CheckID, c.Detail)
		}
		// The Go SDK client returns the result, and the check judges
		// it as the validating clients would: on its side the check fails
		// for that judgement alone, never for an exception of its own.
		for _, e := range arrayAt(c.Evidence, "/clients") {
			if stringAt(e, "/client") == GoClientName() && !strings.Contains(stringAt(e, "/detail"), "which a client would not return") {
				t.Errorf("%s%s %s: the Go SDK client's side %s: %s", c.CapabilityID, c.WorkflowID, c.CheckID, stringAt(e, "/status"), stringAt(e, "/detail"))
			}
		}
	}
	for _, id := range []string{CheckDecline, CheckCancel, CheckUnavailable} {
		if !failed[id] {
			t.Errorf("%s passed: %v", id, outcomes(res))
		}
	}
	if !res.Diagnostics.Has(RuleConfirmation) {
		t.Errorf("findings %v", res.Diagnostics.RuleIDs())
	}
	assertReturnsOnce(t, d)
}

// TestHostEnvGaps: a host env file without the member's token is reported,
// and every call that needs it fails with the runtime's own refusal; a
// variable the runtime does not read is not passed.
func TestHostEnvGaps(t *testing.T) {
	opts, d := samplePackage(t, "")
	delete(opts.Env, examples.StrictSampleTokenVariable)
	opts.Env["NODE_OPTIONS"] = "--require /etc/passwd"
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Diagnostics.Has(RuleEnv) || !res.Diagnostics.Has(RuleCall) {
		t.Errorf("findings %v", res.Diagnostics.RuleIDs())
	}
	for _, c := range res.Checks {
		switch {
		case c.CheckID != CheckCall:
		case c.Passed:
			t.Errorf("%s%s: the call passed without the token", c.CapabilityID, c.WorkflowID)
		case c.Skipped == "" && !strings.Contains(c.Detail, "HOST_CREDENTIAL_MISSING"):
			// A write whose case passes on a refused read's result is
			// not called at all.
			t.Errorf("%s%s: %s", c.CapabilityID, c.WorkflowID, c.Detail)
		}
	}
	if len(d.seen) != 0 {
		t.Errorf("without the token the desk got %v", d.seen)
	}
}

// TestUnauthorisedWritesAreNotCalled: without --authorize-write the writes'
// calls do not run (and say so); every refusal check still runs, and
// nothing but reads reaches the desk.
func TestUnauthorisedWritesAreNotCalled(t *testing.T) {
	opts, d := samplePackage(t, "")
	opts.AuthorizedWrites = nil
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Diagnostics.Has(RuleSkipped) {
		t.Errorf("findings %v", res.Diagnostics.RuleIDs())
	}
	for _, c := range res.Checks {
		write := slices.Contains(examples.StrictSampleWrites(), c.CapabilityID) || c.WorkflowID != ""
		if c.CheckID == CheckCall && write && c.Skipped == "" {
			t.Errorf("%s%s: the call ran without authorisation", c.CapabilityID, c.WorkflowID)
		}
	}
	for _, s := range d.seen {
		if !strings.HasPrefix(s, "GET /api/equipment") && s != "POST /api/loans/quotes" {
			t.Errorf("the desk got %s", s)
		}
	}
}

// TestNoHostRuntime: a package without hostRuntime cannot be verified in a
// standard stdio host.
func TestNoHostRuntime(t *testing.T) {
	opts, _ := samplePackage(t, "")
	opts.Inputs.Export.HostRuntime = nil
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Diagnostics.Has(RuleNoRuntime) || len(res.Checks) != 0 || res.NodeProcesses != 0 {
		t.Errorf("findings %v, %d checks, %d node processes", res.Diagnostics.RuleIDs(), len(res.Checks), res.NodeProcesses)
	}
}

func countSuffix(ss []string, suffix string) int {
	n := 0
	for _, s := range ss {
		if strings.HasSuffix(s, suffix) {
			n++
		}
	}
	return n
}

// withSessionCookie makes the strict sample's return also need the desk's
// session cookie (cookie_and_runtime_context), which the host runtime takes
// from LENDING_DESK_SESSION: the other Tools' requests must not carry it.
func withSessionCookie(t *testing.T) func(map[string][]byte) {
	return func(files map[string][]byte) {
		c := string(files[contract.ContractFile])
		start := strings.Index(c, `"capabilityId": "return-equipment-loan"`)
		end := len(c)
		if start >= 0 {
			if next := strings.Index(c[start+1:], `"capabilityId": "remove-returned-loan"`); next >= 0 {
				end = start + 1 + next
			}
		}
		if start < 0 || strings.Count(c[start:end], `"authentication": "runtime_context"`) != 2 {
			t.Fatal("the return's two authentication members are not where the test expects them")
		}
		files[contract.ContractFile] = []byte(c[:start] + strings.ReplaceAll(c[start:end], `"authentication": "runtime_context"`, `"authentication": "cookie_and_runtime_context"`) + c[end:])
		p := string(files[contract.ExportProfileFile])
		const credentials = `"credentials": {`
		if strings.Count(p, credentials) != 1 {
			t.Fatal("the export profile's hostRuntime.credentials is not where the test expects it")
		}
		files[contract.ExportProfileFile] = []byte(strings.Replace(p, credentials,
			credentials+`"cookie_session": {"variable": "LENDING_DESK_SESSION", "cookie": "desk_session"}, `, 1))
	}
}

// TestCredentialsOnlyWhereNeeded: with two credentials, each request
// carries the credentials of its own authentication only, and a runtime that
// attaches every credential to every request fails the reads', the
// loan's and the removal's calls.
func TestCredentialsOnlyWhereNeeded(t *testing.T) {
	for _, broken := range []bool{false, true} {
		t.Run(map[bool]string{false: "scoped", true: "every credential everywhere"}[broken], func(t *testing.T) {
			opts, _ := samplePackageWith(t, "", withSessionCookie(t))
			opts.Env["LENDING_DESK_SESSION"] = "session-7"
			if broken {
				tamper(t, opts.Dir, hostruntime.RuntimeFile, "    const actual = new URL(base.url.href);",
					"    for (const c of credentials.values()) Object.assign(headers, c.headers ?? {});\n    const actual = new URL(base.url.href);")
			}
			res, err := Run(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			var failed []string
			for _, c := range res.Checks {
				if c.CheckID == CheckCall && c.WorkflowID == "" && !c.Passed {
					failed = append(failed, c.CapabilityID)
				}
			}
			want := []string(nil)
			if broken {
				want = []string{"list-lendable-equipment", "quote-equipment-loan", "create-equipment-loan", "remove-returned-loan"}
			}
			if !slices.Equal(failed, want) {
				t.Errorf("failed calls %v, want %v:\n%s", failed, want, strings.Join(outcomes(res), "\n"))
			}
			if broken && !res.Diagnostics.Has(RuleCall) {
				t.Errorf("no %s finding: %v", RuleCall.ID, res.Diagnostics.RuleIDs())
			}
		})
	}
}

// TestAScopeVerifiesItsRowsOnly: a run scoped to the read checks the read
// alone, in one session (no other is needed: a server for each client and
// the TypeScript SDK Client's process), and calls no write; scoped to
// a workflow's entry, it checks the entry and the workflow, and starts the
// second session its isolation check needs.
func TestAScopeVerifiesItsRowsOnly(t *testing.T) {
	opts, d := samplePackage(t, "")
	opts.Scope = &Scope{Capabilities: map[string]bool{"list-lendable-equipment": true}}
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"list-lendable-equipment " + CheckCall + " passed",
		"list-lendable-equipment " + CheckDiscovery + " passed",
		"list-lendable-equipment " + CheckProfile + " passed",
	}
	if got := outcomes(res); !slices.Equal(got, want) || res.NodeProcesses != 3 || len(d.Loans()) != 0 {
		t.Errorf("outcomes %v, %d node processes, loans %+v", got, res.NodeProcesses, d.Loans())
	}

	opts, _ = samplePackage(t, "")
	var wf string
	for _, w := range opts.Inputs.Contract.Workflows {
		if w.EntryCapabilityID == "create-equipment-loan" {
			wf = w.ID
		}
	}
	opts.Scope = &Scope{Capabilities: map[string]bool{"create-equipment-loan": true}, Workflows: map[string]bool{wf: true}}
	res, err = Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]int{}
	for _, c := range res.Checks {
		row := "capability " + c.CapabilityID
		if c.WorkflowID != "" {
			row = "workflow " + c.WorkflowID
		}
		rows[row]++
		if !c.Passed {
			t.Errorf("%s %s: %s", c.CapabilityID+c.WorkflowID, c.CheckID, c.Detail)
		}
	}
	exp := ExpectedChecks(opts.Inputs)
	if wf == "" || len(rows) != 2 || rows["capability create-equipment-loan"] != len(exp.Capabilities["create-equipment-loan"]) ||
		rows["workflow "+wf] != len(exp.Workflows[wf]) || res.NodeProcesses != 5 {
		t.Errorf("workflow %q, checks per row %v, %d node processes", wf, rows, res.NodeProcesses)
	}
}
