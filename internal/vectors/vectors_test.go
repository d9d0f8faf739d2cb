package vectors

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/golden"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// closure makes the deterministic-workflow writes of a source dispatch their
// HTTP steps through the guard (a closure) instead of handing the guard
// context.dispatch, so that their request-level checks can be judged.
func closure(source string) faults {
	fs := faults{}
	for _, id := range map[string][]string{
		"reference":      {"upload-sample-attachment", "submit-sample-request"},
		"workflow-write": {"redeem-voucher"},
	}[source] {
		fs[id] = map[string]bool{"guardClosure": true}
	}
	return fs
}

// passingPackages are strict packages on which no behaviour check may fail:
// the test packages with hand-written Function cores, and every example
// code2skill compile compiles.
var passingPackages = append([]packageBuild{
	{"reference", func(t testing.TB) string { return buildPackage(t, "reference", nil) }},
	{"reference-guard-closure", func(t testing.TB) string { return buildPackage(t, "reference", closure("reference")) }},
	{"attachment", func(t testing.TB) string { return buildPackage(t, "attachment", nil) }},
	{"backend-write", func(t testing.TB) string { return buildPackage(t, "backend-write", closure("backend-write")) }},
	{"goals-handoffs", func(t testing.TB) string { return buildPackage(t, "goals-handoffs", closure("goals-handoffs")) }},
	{"read-only", func(t testing.TB) string { return buildPackage(t, "read-only", closure("read-only")) }},
	{"workflow-write", func(t testing.TB) string { return buildPackage(t, "workflow-write", closure("workflow-write")) }},
	{"reference-compiled", func(t testing.TB) string { return reftest.Package(t) }},
	{"strict-sample-compiled", reftest.StrictSamplePackage},
}, compiledSynthetic()...)

// packageBuild names a package and builds it into a fresh directory.
type packageBuild struct {
	name  string
	build func(testing.TB) string
}

// passingRuns are the runs of the passing packages, by name: several tests
// judge the same fault-free package, and each runs once per test binary.
var passingRuns = func() map[string]*testtier.Shared[*Result] {
	runs := map[string]*testtier.Shared[*Result]{}
	for _, p := range passingPackages {
		runs[p.name] = &testtier.Shared[*Result]{}
	}
	return runs
}()

// passingRun returns the run of the passing package of that name.
func passingRun(t testing.TB, name string) *Result {
	t.Helper()
	i := slices.IndexFunc(passingPackages, func(p packageBuild) bool { return p.name == name })
	if i < 0 {
		t.Fatalf("no passing package %q", name)
	}
	return passingRuns[name].Get(t, func(t testing.TB) *Result {
		return runVectors(t, passingPackages[i].build(t), Options{})
	})
}

// compiledSynthetic returns a build of each compiled synthetic example.
func compiledSynthetic() []packageBuild {
	var out []packageBuild
	for _, name := range reftest.Synthetic {
		out = append(out, packageBuild{name + "-compiled", func(t testing.TB) string { return reftest.SyntheticPackage(t, name) }})
	}
	return out
}

func runVectors(t testing.TB, dir string, opts Options) *Result {
	t.Helper()
	testnode.Node(t)
	if opts.Timeout == 0 {
		// Each call may take what the test's deadline leaves.
		opts.Timeout = testtier.Budget(t)
	}
	res, err := Run(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	// No file may name where the detached copy ran.
	tmp := []byte(filepath.Join(os.TempDir(), "code2skill-vectors-"))
	for _, f := range res.Files {
		if bytes.Contains(f.Data, tmp) {
			t.Errorf("%s names the detached copy's temporary path", f.Path)
		}
	}
	return res
}

// status returns the status of a check ("" when there is none).
func (r *Result) status(scope, checkID string) *CheckResult {
	for _, c := range r.Checks {
		if (c.CapabilityID == scope || c.WorkflowID == scope) && c.CheckID == checkID {
			return c
		}
	}
	return nil
}

func TestPassingPackages(t *testing.T) {
	for _, p := range passingPackages {
		t.Run(p.name, func(t *testing.T) {
			res := passingRun(t, p.name)
			passed, failed, _ := res.Counts()
			for _, d := range res.Diagnostics.Sorted() {
				if d.Rule != RuleCheckUncovered.ID {
					t.Errorf("%s", d)
				}
			}
			if failed > 0 || passed == 0 {
				t.Errorf("%d passed, %d failed", passed, failed)
			}
			if res.NodeProcesses != 1 {
				t.Errorf("%d node processes, want 1", res.NodeProcesses)
			}
			// Every capability proves at least its valid call.
			for _, c := range res.Checks {
				if c.CheckID == checkValid && c.Status != StatusPassed {
					t.Errorf("%s: %s is %s: %s", c.CapabilityID, c.CheckID, c.Status, c.Detail)
				}
			}
		})
	}
}

// TestReferenceSummary keeps the reference example's summary (and, through
// its evidence hashes, every evidence file) byte for byte, and checks that a
// second run, of a second copy, writes the same bytes.
func TestReferenceSummary(t *testing.T) {
	first := passingRun(t, "reference")
	second := runVectors(t, buildPackage(t, "reference", nil), Options{})
	if len(first.Files) != len(second.Files) {
		t.Fatalf("%d files, then %d", len(first.Files), len(second.Files))
	}
	for i := range first.Files {
		if first.Files[i].Path != second.Files[i].Path || !bytes.Equal(first.Files[i].Data, second.Files[i].Data) {
			t.Errorf("%s differs between two runs", first.Files[i].Path)
		}
		if bytes.Contains(first.Files[i].Data, []byte(os.TempDir())) {
			t.Errorf("%s holds a temporary path", first.Files[i].Path)
		}
	}
	summary := first.Files[len(first.Files)-1]
	if summary.Path != SummaryFile {
		t.Fatalf("last file %s, want %s", summary.Path, SummaryFile)
	}
	golden.Check(t, "testdata/reference-summary.json", summary.Data)
}

// TestLaggingReaderLosesNoReport: when code2skill reads the driver's reports
// slower than node writes them, node queues its writes, and a driver that
// exited without waiting for them to drain would drop the last reports
// (a run's calls then read as "the node process ended during this call").
func TestLaggingReaderLosesNoReport(t *testing.T) {
	dir := buildPackage(t, "reference", nil)
	var read atomic.Int64
	slowReader = func(r io.Reader) io.Reader { return &lateReader{r: r, delay: 500 * time.Millisecond, n: &read} }
	defer func() { slowReader = nil }()
	res := runVectors(t, dir, Options{})
	// The reports must overflow a pipe's buffer for the reader to lag.
	if n := read.Load(); n < 64<<10 {
		t.Fatalf("the driver wrote %d bytes: too few to fill a pipe", n)
	}
	if res.NodeProcesses != 1 {
		t.Errorf("%d node processes, want 1", res.NodeProcesses)
	}
	for _, c := range res.Checks {
		if c.Status != StatusPassed && strings.Contains(c.Detail, "node process") {
			t.Errorf("%s%s %s: a report was lost: %s", c.CapabilityID, c.WorkflowID, c.CheckID, c.Detail)
		}
	}
}

// lateReader waits before its first read, then counts what it reads.
type lateReader struct {
	r       io.Reader
	delay   time.Duration
	started bool
	n       *atomic.Int64
}

func (l *lateReader) Read(p []byte) (int, error) {
	if !l.started {
		l.started = true
		time.Sleep(l.delay)
	}
	n, err := l.r.Read(p)
	l.n.Add(int64(n))
	return n, err
}

// TestReferenceStatuses pins what the reference example proves and what it
// honestly cannot.
func TestReferenceStatuses(t *testing.T) {
	res := passingRun(t, "reference")
	for _, tc := range []struct {
		scope, check, status, detail string
	}{
		{"list-sample-request-kinds", checkValid, StatusPassed, ""},
		{"list-sample-request-kinds", checkDynamic, StatusPassed, ""},
		{"list-sample-request-kinds", "goal-prepare-sample-request-asks-only-currently-missing", StatusPassed, ""},
		{"list-sample-request-kinds", "identity-change-invalidates-selection-grants", StatusUncovered, "declared check"},
		{"validate-sample-request", checkConditional, StatusPassed, ""},
		{"validate-sample-request", checkBinding, StatusPassed, ""},
		{"save-sample-draft", checkBusinessError, StatusPassed, ""},
		{"save-sample-draft", checkUnknownOutcome, StatusPassed, ""},
		{"save-sample-draft", CheckDryRun, StatusPassed, ""},
		// The guarded writes hand context.dispatch to the guard: the
		// request is not the Function's to build.
		{"upload-sample-attachment", checkBinding, StatusUncovered, "built outside the Function core"},
		{"upload-sample-attachment", checkAttachContract, StatusUncovered, "built outside the Function core"},
		{"upload-sample-attachment", checkUnknownOutcome, StatusPassed, ""},
		{"upload-sample-attachment", "goal-submit-sample-request-conditional-branches", StatusPassed, ""},
		{"submit-sample-request", checkDynamic, StatusPassed, ""},
		{"submit-sample-request", checkInvalid, StatusPassed, ""},
		{"submit-sample-request", checkBypassMismatch, StatusPassed, ""},
		{"submit-sample-request", checkBypassReused, StatusPassed, ""},
		{"submit-sample-request", checkBypassExpired, StatusPassed, ""},
		{"upload-sample-attachment", checkBypassUnprotected, StatusPassed, ""},
		{"upload-sample-attachment", "wrong-subject-causes-zero-dispatch", StatusUncovered, "declared workflow check"},
	} {
		c := res.status(tc.scope, tc.check)
		if c == nil {
			t.Errorf("%s: no check %s", tc.scope, tc.check)
			continue
		}
		if c.Status != tc.status || !strings.Contains(c.Detail, tc.detail) {
			t.Errorf("%s %s: %s (%s), want %s (%q)", tc.scope, tc.check, c.Status, c.Detail, tc.status, tc.detail)
		}
	}
}

// faultCase breaks one behaviour of one capability and names the check that
// must catch it.
type faultCase struct {
	capability string
	faults     map[string]bool
	adapter    bool   // the faults are the Tool callback's
	check      string // the check that must fail
	scope      string // its capability or workflow, when not capability
}

// faultRuns group fault cases by package; the cases of one run break
// different capabilities, so each run also shows that a failing capability
// leaves its neighbours' results as they were.
var faultRuns = []struct {
	source string
	cases  []faultCase
}{
	{"reference", []faultCase{
		{capability: "list-sample-request-kinds", faults: map[string]bool{"extraHeader": true}, check: checkBinding},
		{capability: "upload-sample-attachment", faults: map[string]bool{"guardClosure": true, "forwardRawGrant": true}, check: checkAttachContract},
		{capability: "validate-sample-request", faults: map[string]bool{"noConditionalRules": true}, check: checkConditional},
		{capability: "save-sample-draft", faults: map[string]bool{"businessUnknown": true}, check: checkBusinessError},
		{capability: "submit-sample-request", faults: map[string]bool{"bypassGuard": true}, check: checkBypassUnprotected, scope: "submit-sample-request"},
	}},
	{"reference", []faultCase{
		{capability: "list-sample-request-kinds", faults: map[string]bool{"freezeOutput": true}, check: checkDynamic},
		{capability: "upload-sample-attachment", faults: map[string]bool{"guardClosure": true, "dispatchWithoutResolution": true}, check: checkAttachFailure},
		{capability: "validate-sample-request", faults: map[string]bool{"acceptUnexpected": true}, check: checkInvalid},
		{capability: "save-sample-draft", faults: map[string]bool{"retryOnFailure": true}, check: checkUnknownOutcome},
		{capability: "submit-sample-request", faults: map[string]bool{"guardClosure": true, "inputErrorUnknownOutcome": true}, check: checkStructured},
	}},
	{"reference", []faultCase{
		{capability: "list-sample-request-kinds", faults: map[string]bool{"forbiddenKey": true}, check: checkValid},
		{capability: "upload-sample-attachment", faults: map[string]bool{"guardClosure": true, "skipKeywords": true}, check: checkInvalid},
		{capability: "validate-sample-request", faults: map[string]bool{"ignoreStatus": true}, check: checkBinding},
		{capability: "save-sample-draft", faults: map[string]bool{"markTransportKnown": true}, check: checkUnknownOutcome},
		// A Function refusing everything passes every rejection, and fails
		// on the control.
		{capability: "submit-sample-request", faults: map[string]bool{"alwaysThrow": true}, check: checkInvalid},
	}},
	{"reference", []faultCase{
		{capability: "list-sample-request-kinds", adapter: true, faults: map[string]bool{"dryRunAltersInput": true}, check: CheckDryRun},
		{capability: "validate-sample-request", adapter: true, faults: map[string]bool{"dryRunDispatches": true}, check: CheckDryRun},
		{capability: "save-sample-draft", adapter: true, faults: map[string]bool{"realCallAltersInput": true}, check: CheckDryRun},
		{capability: "submit-sample-request", faults: map[string]bool{"freezeInput": true}, check: checkDynamic},
		// The guarded target of a derived composition bypassing its guard.
		{capability: "upload-sample-attachment", faults: map[string]bool{"bypassGuard": true}, check: checkComposition, scope: "list-sample-request-kinds"},
	}},
	{"reference", []faultCase{
		// A business refusal reported as the backend's failure.
		{capability: "save-sample-draft", faults: map[string]bool{"collapseCategories": true}, check: checkBusinessError},
	}},
	{"goals-handoffs", []faultCase{
		{capability: "book-shuttle", faults: map[string]bool{"sendOmittedAsNull": true}, check: checkOmission},
		{capability: "cancel-shuttle", faults: map[string]bool{"emptyBodyRefused": true}, check: checkEmptyBody},
		{capability: "search-trails", faults: map[string]bool{"noValidation": true}, check: checkInvalid},
	}},
	{"read-only", []faultCase{
		{capability: "list-ferns", faults: map[string]bool{"skipKeywords": true}, check: checkInvalid},
	}},
	{"goals-handoffs", []faultCase{
		{capability: "cancel-shuttle", faults: map[string]bool{"emptyBodyAnyStatus": true}, check: checkEmptyBody},
	}},
	{"backend-write", []faultCase{
		{capability: "delete-garden-note", faults: map[string]bool{"skipConfirmation": true}, check: checkConfirmation},
	}},
}

// faultFree names, for the source of a fault run, the passing package
// built from that source with closure(source) and no fault: the run each
// fault run is compared with.
var faultFree = map[string]string{
	"reference":      "reference-guard-closure",
	"goals-handoffs": "goals-handoffs",
	"read-only":      "read-only",
	"backend-write":  "backend-write",
}

func TestFaultsAreCaught(t *testing.T) {
	for i, fr := range faultRuns {
		t.Run(fmt.Sprintf("%s-%d", fr.source, i), func(t *testing.T) {
			base := passingRun(t, faultFree[fr.source])
			fs := closure(fr.source)
			broken := map[string]bool{}
			for _, fc := range fr.cases {
				key := fc.capability
				if fc.adapter {
					key = "adapter:" + key
				}
				fs[key] = fc.faults
				broken[fc.capability] = true
			}
			res := runVectors(t, buildPackage(t, fr.source, fs), Options{})
			if i == 2 {
				// submit-sample-request's refusals name their module: the
				// location is reported relative to the package.
				c := res.status("submit-sample-request", checkInvalid)
				if !strings.Contains(res.evidence(t, c), "<package>/function-core/interpreter.mjs") {
					t.Errorf("the refusal's module location is not shown as <package>/…")
				}
			}
			for _, fc := range fr.cases {
				scope := fc.scope
				if scope == "" {
					scope = fc.capability
				}
				c := res.status(scope, fc.check)
				base := base.status(scope, fc.check)
				switch {
				case c == nil:
					t.Errorf("%s: no check %s", scope, fc.check)
				case base == nil || base.Status != StatusPassed:
					t.Errorf("%s %s: the fault-free package does not pass it", scope, fc.check)
				case c.Status != StatusFailed:
					t.Errorf("%s %v: %s %s is %s (%s), want failed", fc.capability, fc.faults, scope, fc.check, c.Status, c.Detail)
				}
			}
			// Capabilities without a fault (and not composing with one)
			// keep their results.
			for _, c := range res.Checks {
				if c.CapabilityID == "" || broken[c.CapabilityID] || c.CheckID == checkComposition {
					continue
				}
				if b := base.status(c.CapabilityID, c.CheckID); b == nil || b.Status != c.Status {
					t.Errorf("neighbour %s %s changed to %s: %s", c.CapabilityID, c.CheckID, c.Status, c.Detail)
				}
			}
		})
	}
}

// TestProcessFaults shows that a Function which ends node, spins or hangs
// fails its own checks only: node is restarted for the other capabilities.
func TestProcessFaults(t *testing.T) {
	dir := buildPackage(t, "reference", faults{
		"list-sample-request-kinds": {"exitProcess": true},
		"validate-sample-request":   {"spin": true},
		"save-sample-draft":         {"hang": true},
	})
	// The per-call limit is every call's: short enough for the spinning
	// and hanging ones not to slow the suite down, scaled on a slow machine.
	limit := testtier.Scaled(time.Second)
	res := runVectors(t, dir, Options{Timeout: limit})
	for _, tc := range []struct{ capability, detail string }{
		{"list-sample-request-kinds", "the node process ended during this call (exit code 3)"},
		{"validate-sample-request", fmt.Sprintf("did not finish within %s; the node process was stopped", limit)},
		{"save-sample-draft", "did not finish within the time limit"},
	} {
		var all strings.Builder
		for _, c := range res.Checks {
			if c.CapabilityID != tc.capability || strings.HasPrefix(c.CheckID, "goal-") {
				continue
			}
			// The normaliser-only and composition vectors run no code of
			// the broken capability.
			if c.Status == StatusPassed && c.CheckID != checkUnknownOutcome && c.CheckID != checkComposition {
				t.Errorf("%s %s passed", tc.capability, c.CheckID)
			}
			all.WriteString(res.evidence(t, c))
		}
		if !strings.Contains(all.String(), tc.detail) {
			t.Errorf("%s: no evidence says %q", tc.capability, tc.detail)
		}
	}
	if c := res.status("upload-sample-attachment", checkValid); c == nil || c.Status != StatusPassed {
		t.Errorf("a neighbour's valid call: %v", c)
	}
	if c := res.status("submit-sample-request", checkBypassReused); c == nil || c.Status != StatusPassed {
		t.Errorf("a neighbour's workflow check: %v", c)
	}
	if res.NodeProcesses != 3 {
		t.Errorf("%d node processes, want 3: one, then a restart after each capability that ended or stalled it", res.NodeProcesses)
	}
}

func (r *Result) evidence(t testing.TB, c *CheckResult) string {
	t.Helper()
	for _, f := range r.Files {
		if f.Path == c.Evidence {
			return string(f.Data)
		}
	}
	t.Fatalf("no evidence file %s", c.Evidence)
	return ""
}

// TestModuleFaults shows modules that do not load: a Function core that
// ends node while it is imported, and a broken normaliser.
func TestModuleFaults(t *testing.T) {
	dir := buildPackage(t, "backend-write", nil)
	write(t, filepath.Join(dir, "function-core", "index.mjs"), []byte("process.exit(4);\n"))
	write(t, filepath.Join(dir, "portable-error-normalizer.mjs"), []byte("export function normalizeToolError() { return {}; }\n"))
	res := runVectors(t, dir, Options{})
	if !res.Diagnostics.Has(RuleModuleLoad) {
		t.Errorf("no %s finding: %v", RuleModuleLoad.ID, res.Diagnostics.Sorted())
	}
	passed, failed, _ := res.Counts()
	if failed == 0 {
		t.Errorf("%d passed, 0 failed: a core that cannot load proves nothing", passed)
	}
	for _, c := range res.Checks {
		if c.Status == StatusPassed && !strings.HasPrefix(c.CheckID, "goal-") {
			t.Errorf("%s %s passed without a Function core", c.CapabilityID, c.CheckID)
		}
	}
	// The core ends node while it is imported, and again while the adapter
	// (which imports it) is: a start for each, and one without either.
	if res.NodeProcesses != 3 {
		t.Errorf("%d node processes, want 3", res.NodeProcesses)
	}
}

func TestNodeMissing(t *testing.T) {
	dir := buildPackage(t, "read-only", nil)
	t.Setenv("PATH", t.TempDir())
	_, err := Run(context.Background(), dir, Options{})
	if !errors.Is(err, sandbox.ErrNotFound) {
		t.Errorf("Run without node: %v, want sandbox.ErrNotFound", err)
	}
}

func TestContractErrorsRunNothing(t *testing.T) {
	dir := buildPackage(t, "read-only", nil)
	write(t, filepath.Join(dir, "canonical-contract.json"), []byte(`{"schemaVersion": "vNext"`))
	res, err := Run(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Diagnostics.HasErrors() || res.NodeProcesses != 0 || len(res.Checks) != 0 {
		t.Errorf("errors %v, %d node processes, %d checks: want findings and nothing run", res.Diagnostics.HasErrors(), res.NodeProcesses, len(res.Checks))
	}
}

// TestClientFindings: a Tool callback's result that a client would throw
// on or could not read is a finding naming the Tool and the clients, one
// fixture per clause; the fault-free callbacks of the same package give
// none.
func TestClientFindings(t *testing.T) {
	fs := closure("reference")
	fs["adapter:save-sample-draft"] = map[string]bool{"errorStructured": true}
	fs["adapter:validate-sample-request"] = map[string]bool{"errorWithoutText": true}
	fs["adapter:list-sample-request-kinds"] = map[string]bool{"dryRunExtraMember": true}
	res := runVectors(t, buildPackage(t, "reference", fs), Options{})
	var got []string
	for _, d := range res.Diagnostics.Sorted() {
		if d.Rule == RuleClientRefused.ID {
			got = append(got, d.Message)
		}
	}
	for _, want := range []string{
		`tool "save_sample_draft", a call: the error result carries structuredContent that does not match the listed outputSchema`,
		`tool "validate_sample_request", a call: the error result has no text content`,
		`tool "list_sample_request_kinds", a dry-run call: structuredContent does not match the listed outputSchema`,
	} {
		if !slices.ContainsFunc(got, func(m string) bool {
			return strings.Contains(m, want) && strings.Contains(m, "fails in typescript-sdk Client")
		}) {
			t.Errorf("no finding says %q:\n%s", want, strings.Join(got, "\n"))
		}
	}
	for _, m := range got {
		for _, clean := range []string{"upload_sample_attachment", "submit_sample_request"} {
			if strings.Contains(m, clean) {
				t.Errorf("a finding about a fault-free Tool: %s", m)
			}
		}
	}
}
