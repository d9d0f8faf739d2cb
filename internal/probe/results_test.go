package probe

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/testtier"
)

// httpPackage copies the core-http test package, with the reviewed result
// projection, and links its modules.
func httpPackage(t *testing.T) string {
	t.Helper()
	pkg := filepath.Join(t.TempDir(), "shelf-http")
	if err := os.CopyFS(pkg, os.DirFS(filepath.Join("testdata", "core-http"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, assets.AgentResult.Name()), assets.AgentResult.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	coreModules(t, pkg)
	return pkg
}

const shelfToken = "shelf-token-0123456789"

func rulesOf(r *Result) []string {
	var out []string
	for _, d := range r.Diagnostics.Sorted() {
		if d.Severity != diag.Info {
			out = append(out, d.Rule)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestProbeResultAssertions(t *testing.T) {
	t.Parallel()
	pkg := httpPackage(t)
	r := run(t, pkg, Options{Calls: []string{casesFile(t, "calls.json", `[
		{"name": "list_shelves", "arguments": {"room": "south"}, "expect": {"httpStatus": 200,
			"equals": {"/bodyText/shelves/0/room": "south", "/httpStatus": 200}, "contains": {"/bodyText": "s-1"}}},
		{"name": "list_shelves", "arguments": {"room": "west"}, "expect": {
			"equals": {"/bodyText/shelves/0/room": "south"}, "contains": {"/bodyText/shelves/0": "east", "/bodyText/shelves/7": "x"}}}
	]`)}})
	if got := rulesOf(r); !slices.Equal(got, []string{RuleResultAssertion.ID}) {
		t.Fatalf("rules %v\n%v", got, r.Diagnostics.Sorted())
	}
	var msgs []string
	for _, d := range r.Diagnostics.Sorted() {
		if d.Rule == RuleResultAssertion.ID {
			msgs = append(msgs, d.Message)
		}
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{`/bodyText/shelves/0/room is "west", the case expects "south"`, `does not contain "east"`, `no element "7"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("no finding says %s:\n%s", want, joined)
		}
	}
	if r.Calls[1].Verdict != Passed || r.Calls[2].Verdict != Failed {
		t.Errorf("verdicts %v %v", r.Calls[1], r.Calls[2])
	}
}

// cleanHTTP is the probe of the fault-free core-http package, given the
// token its faults leak, with its transcript: the passing fixture of
// TestProbeHTTPResultWithoutStatus and TestProbeCredentialsInResults.
var cleanHTTP testtier.Shared[transcribed]

// transcribed is a probe's result with its transcript.
type transcribed struct {
	r          *Result
	transcript string
}

func cleanHTTPProbe(t *testing.T) transcribed {
	t.Helper()
	return cleanHTTP.Get(t, func(testing.TB) transcribed {
		var transcript bytes.Buffer
		r := run(t, httpPackage(t), Options{Calls: []string{casesFile(t, "calls.json", `{"name": "list_shelves", "arguments": {}}`)},
			Env: []string{"SHELF_TOKEN=" + shelfToken}, Transcript: &transcript})
		return transcribed{r, transcript.String()}
	})
}

func TestProbeHTTPResultWithoutStatus(t *testing.T) {
	t.Parallel()
	if r := cleanHTTPProbe(t).r; r.Diagnostics.HasErrors() {
		t.Fatalf("the package with httpStatus fails:\n%v", r.Diagnostics.Sorted())
	}
	calls := casesFile(t, "calls.json", `{"name": "list_shelves", "arguments": {}}`)
	r := run(t, httpPackage(t), Options{Calls: []string{calls}, Env: []string{"CORE_FAULT=no-status"}})
	if got := rulesOf(r); !slices.Equal(got, []string{RuleCallStatus.ID}) || !strings.Contains(r.Diagnostics.Sorted()[0].Message, "no httpStatus") {
		t.Fatalf("rules %v\n%v", got, r.Diagnostics.Sorted())
	}
}

// TestProbeCredentialsInResults: a result holding the token (a call's, in
// the business session) and a dry-run's request showing it (the generated
// dry-run case's, in the protocol session), two faults of two Tools in one
// run, are each a finding that names the pointer and not the token; the
// transcript holds no token and notes the redaction in each session. The
// fault-free package gives no finding and redacts nothing.
func TestProbeCredentialsInResults(t *testing.T) {
	t.Parallel()
	var transcript bytes.Buffer
	r := run(t, httpPackage(t), Options{
		Calls:      []string{casesFile(t, "calls.json", `{"name": "list_shelves", "arguments": {}}`)},
		Env:        []string{"CORE_FAULT=leak-token,unmasked", "SHELF_TOKEN=" + shelfToken},
		Transcript: &transcript,
	})
	if got := rulesOf(r); !slices.Equal(got, []string{RuleResultCredential.ID}) {
		t.Fatalf("rules %v\n%v", got, r.Diagnostics.Sorted())
	}
	noted := map[string]bool{}
	for line := range strings.Lines(transcript.String()) {
		var l struct{ Session, Note string }
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("transcript line %q: %v", line, err)
		}
		noted[l.Session] = noted[l.Session] || l.Note == "credentials redacted"
	}
	for _, tc := range []struct {
		fault, at, session string
	}{
		{"leak-token", "/structuredContent/token", "business"},
		{"unmasked", "/structuredContent/request/headers/authorization", "protocol"},
	} {
		if !slices.ContainsFunc(r.Diagnostics.Sorted(), func(d diag.Diagnostic) bool {
			return d.Rule == RuleResultCredential.ID && strings.Contains(d.Message, strings.TrimPrefix(tc.at, "/structuredContent"))
		}) {
			t.Errorf("%s: no finding names the pointer %s:\n%v", tc.fault, tc.at, r.Diagnostics.Sorted())
		}
		if !noted[tc.session] {
			t.Errorf("%s: the redaction is not noted in the %s session:\n%s", tc.fault, tc.session, transcript.String())
		}
	}
	for _, d := range r.Diagnostics.Sorted() {
		if strings.Contains(d.Message, shelfToken) {
			t.Errorf("finding %q names the token", d.Message)
		}
	}
	if strings.Contains(transcript.String(), shelfToken) {
		t.Errorf("the transcript holds the token:\n%s", transcript.String())
	}
	if !r.Diagnostics.Has(RuleTranscriptRedacted) {
		t.Errorf("no %s finding: %v", RuleTranscriptRedacted.ID, r.Diagnostics.Sorted())
	}
	// Clean results: no finding, nothing redacted.
	if clean := cleanHTTPProbe(t); clean.r.Diagnostics.Len() != 0 || strings.Contains(clean.transcript, "redacted") {
		t.Errorf("a clean package: %v\n%s", clean.r.Diagnostics.Sorted(), clean.transcript)
	}
}

// TestProbeOfflineExample probes the bundled example offline, where the
// generated dry-run cases of its writes prove their dry-run branch, and
// the same example whose dry run shows the member's token: the finding
// names the pointer, and the transcript holds no credential.
func TestProbeOfflineExample(t *testing.T) {
	t.Parallel()
	const memberToken = "member-token-0123456789"
	pkg := examplePackage(t)
	var transcript bytes.Buffer
	r := run(t, pkg, Options{Offline: true, Transcript: &transcript, Env: []string{"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN=" + memberToken}})
	if r.Diagnostics.HasErrors() || !slices.Equal(r.GeneratedDryRunCases, []string{"reserve_seed_packets", "cancel_reservation"}) || r.Checks.DryRun.Passed != 2 {
		t.Fatalf("the example: %v, generated %v, %+v", r.Diagnostics.Sorted(), r.GeneratedDryRunCases, r.Checks.DryRun)
	}
	if strings.Contains(transcript.String(), "redacted") {
		t.Errorf("a clean exchange was redacted:\n%s", transcript.String())
	}

	p := filepath.Join(pkg, "function-core", "index.mjs")
	src, _ := os.ReadFile(p)
	leaky := strings.Replace(string(src), "headers: { ...headers, authorization: NOT_SHOWN }", "headers", 1)
	if leaky == string(src) {
		t.Fatal("the example no longer masks its dry-run token the way this test changes")
	}
	if err := os.WriteFile(p, []byte(leaky), 0o644); err != nil {
		t.Fatal(err)
	}
	transcript.Reset()
	r = run(t, pkg, Options{Offline: true, Transcript: &transcript, Env: []string{"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN=" + memberToken}})
	var found []string
	for _, d := range r.Diagnostics.Sorted() {
		if d.Rule == RuleResultCredential.ID {
			found = append(found, d.Message)
		}
	}
	if len(found) != 2 || !strings.Contains(found[0], "/request/headers/authorization") || strings.Contains(strings.Join(found, ""), memberToken) {
		t.Errorf("findings %v", r.Diagnostics.Sorted())
	}
	if strings.Contains(transcript.String(), memberToken) || !strings.Contains(transcript.String(), "credentials redacted") {
		t.Errorf("the transcript:\n%s", transcript.String())
	}
}
