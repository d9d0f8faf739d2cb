package derive_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// legacyCase is a vNext package whose views serve as the expectation of the
// legacy path: its bundle, without the contract, derives the same mirror
// and the same draft.
type legacyCase struct {
	name string
	in   func(t *testing.T) *derive.Inputs
}

func legacyCases(t *testing.T) []legacyCase {
	cases := []legacyCase{{"reference", func(t *testing.T) *derive.Inputs { return referenceInputs(t) }}}
	dirs, err := filepath.Glob("testdata/synthetic/*/input")
	if err != nil || len(dirs) < 5 {
		t.Fatalf("want at least five synthetic packages, found %d (%v)", len(dirs), err)
	}
	for _, dir := range dirs {
		cases = append(cases, legacyCase{filepath.Base(filepath.Dir(dir)), func(t *testing.T) *derive.Inputs {
			in, l := dirInputs(t, dir)
			requireNoFindings(t, l)
			return in
		}})
	}
	return cases
}

// viewData returns the bytes of the view at path.
func viewData(t testing.TB, views []derive.View, path string) []byte {
	t.Helper()
	for _, v := range views {
		if v.Path == path {
			return v.Data
		}
	}
	t.Fatalf("no view %s among %d", path, len(views))
	return nil
}

// legacyViews decodes, checks and derives a legacy bundle, failing the test
// on any finding.
func legacyViews(t *testing.T, data []byte) []derive.View {
	t.Helper()
	b, l := derive.DecodeBundle(data)
	l.Merge(derive.CheckBundle(b))
	requireNoFindings(t, l)
	return derive.LegacyViews(b)
}

// A legacy package derives from its bundle alone what a vNext package
// derives from its contract: the bundle a vNext derive wrote, with the
// contract and the other Portable Core inputs removed, gives a byte-equal
// mirror and a byte-equal draft. The packages cover the three draft
// statuses (ready, requires-review, blocked), handoffs, HTTP and local
// implementations and Host-resolved attachments.
func TestLegacyViewsEqualTheVNextViews(t *testing.T) {
	statuses := map[string]bool{}
	for _, tc := range legacyCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			vnext := derive.Views(tc.in(t))
			bundle := viewData(t, vnext, derive.BundleFile)

			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, derive.BundleFile), bundle, 0o644); err != nil {
				t.Fatal(err)
			}
			if legacy, err := derive.IsLegacy(dir); err != nil || !legacy {
				t.Fatalf("IsLegacy = %v, %v; want true", legacy, err)
			}
			b, l, err := derive.ReadLegacy(dir)
			if err != nil {
				t.Fatal(err)
			}
			l.Merge(derive.CheckBundle(b))
			requireNoFindings(t, l)

			views := derive.LegacyViews(b)
			var paths []string
			for _, v := range views {
				paths = append(paths, v.Path)
				if want := viewData(t, vnext, v.Path); !bytes.Equal(v.Data, want) {
					t.Errorf("%s differs from the vNext view (-vNext +legacy):\n%s", v.Path, cmp.Diff(string(want), string(v.Data)))
				}
			}
			if want := []string{derive.FunctionBundleFile, derive.DraftFile}; !slices.Equal(paths, want) {
				t.Errorf("legacy views %v, want %v", paths, want)
			}
			status, _ := canonjson.Resolve(mustDecode(t, viewData(t, views, derive.DraftFile)), "/status")
			statuses[string(status.(canonjson.String))] = true
		})
	}
	for _, s := range []string{contract.ReadinessReady, contract.ReadinessRequiresReview, contract.ReadinessBlocked} {
		if !statuses[s] {
			t.Errorf("no package derives a draft of status %q", s)
		}
	}
}

func mustDecode(t testing.TB, data []byte) canonjson.Value {
	t.Helper()
	v, err := canonjson.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The mirror is the bundle re-encoded: equal as JSON to a bundle written in
// any layout, in the form derive writes every view.
func TestLegacyMirrorIsTheBundleReencoded(t *testing.T) {
	published := contracttest.Reference(t, derive.BundleFile)
	compact := canonjson.DigestForm(mustDecode(t, published)) // keys sorted, no whitespace
	views := legacyViews(t, compact)
	mirror := viewData(t, views, derive.FunctionBundleFile)
	if !bytes.Equal(canonjson.DigestForm(mustDecode(t, mirror)), compact) {
		t.Error("the mirror is not JSON-equal to the bundle")
	}
	if want := canonjson.Encode(mustDecode(t, compact)); !bytes.Equal(mirror, want) {
		t.Errorf("the mirror is not in derive's form:\n%s", mirror)
	}
	if bytes.Equal(mirror, compact) {
		t.Error("the mirror kept the compact layout")
	}
}

// The draft of a legacy bundle follows the draft algorithm: qualified input
// names, and the status from readiness and missing evidence.
func TestLegacyDraftStatus(t *testing.T) {
	bundle := contracttest.Reference(t, derive.BundleFile)
	var ready []contracttest.Op
	for i := range 5 {
		at := "/capabilities/" + strconv.Itoa(i)
		ready = append(ready, set(at+"/readiness", `"ready"`), set(at+"/missingEvidence", `[]`))
	}
	for _, tc := range []struct {
		name string
		ops  []contracttest.Op
		want string
	}{
		{"every capability ready", ready, "ready"},
		{"one requires review", append(slices.Clone(ready), set("/capabilities/2/readiness", `"requires-review"`), set("/capabilities/2/missingEvidence", `["the quota"]`)), "requires-review"},
		{"one blocked", append(slices.Clone(ready), set("/capabilities/3/readiness", `"blocked"`)), "blocked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustDecode(t, viewData(t, legacyViews(t, contracttest.Patch(t, bundle, tc.ops...)), derive.DraftFile))
			if got, _ := canonjson.Resolve(d, "/status"); got != canonjson.String(tc.want) {
				t.Errorf("status %v, want %q", got, tc.want)
			}
			if got, _ := canonjson.Resolve(d, "/inputs/0/name"); got != canonjson.String("tools.list_sample_request_kinds.input.detailLevel") {
				t.Errorf("first input named %v", got)
			}
		})
	}
}

// bundleRuleCases are minimal edits of the reference bundle that make a
// layer-A rule fire in capability-bundle.json.
var bundleRuleCases = []struct {
	rule string
	ops  []contracttest.Op
	at   string
}{
	{"CONTRACT_ID_FORMAT", ops(set("/capabilities/0/toolName", `"List-Kinds"`)), "/capabilities/0/toolName"},
	{"CONTRACT_ID_FORMAT", ops(set("/server/name", `"Sample"`)), "/server/name"},
	{"CONTRACT_DUPLICATE_ID", ops(set("/capabilities/1/toolName", `"list_sample_request_kinds"`)), "/capabilities/1/toolName"},
	{"CONTRACT_DUPLICATE_ID", ops(set("/capabilities/2/inputs/1/name", `"selectionGrant"`)), "/capabilities/2/inputs/1/name"},
	{"CONTRACT_READINESS", ops(set("/capabilities/0/missingEvidence", `["the catalog size is unknown"]`)), "/capabilities/0/missingEvidence"},
	{"CONTRACT_UNKNOWN_REFERENCE", ops(set("/capabilities/3/implementation/outputStepId", `"save"`)), "/capabilities/3/implementation/outputStepId"},
	{"CONTRACT_UNKNOWN_REFERENCE", ops(set("/handoffs/0/fromCapabilityId", `"list-other"`)), "/handoffs/0/fromCapabilityId"},
	{"CONTRACT_UNKNOWN_REFERENCE", ops(set("/handoffs/0/toCapabilityId", `"validate-other"`)), "/handoffs/0/toCapabilityId"},
	{"CONTRACT_UNKNOWN_REFERENCE", ops(set("/handoffs/3/mappings/0/targetInput", `"attachments"`)), "/handoffs/3/mappings/0/targetInput"},
	{"CONTRACT_UNKNOWN_REFERENCE", ops(set("/capabilities/3/implementation/steps/0/bindings/0/source/inputName", `"draft"`)), "/capabilities/3/implementation/steps/0/bindings/0/source/inputName"},
	{"CONTRACT_UNKNOWN_REFERENCE", ops(set("/capabilities/1/implementation/steps/0/bindings/0/source/inputName", `"file"`)), "/capabilities/1/implementation/steps/0/bindings/0/source/inputName"},
	// No check-contract judges a legacy bundle, so derive reports what a
	// vNext package defers to it.
	{"FORMAT_FIELD_UNKNOWN", ops(set("/capabilities/0/implementation/x-vendor", `1`)), "/capabilities/0/implementation/x-vendor"},
	{"FORMAT_FIELD_UNKNOWN", ops(set("/goals", `[]`)), "/goals"},
	{"FORMAT_VOCABULARY", ops(set("/capabilities/3/inputs/0/sourceStrategies/0", `"derived-calculation"`)), "/capabilities/3/inputs/0/sourceStrategies/0"},
	{"FORMAT_FIELD_UNRECOGNIZED", ops(set("/capabilities/4/workflowId", `"submit-sample-request"`)), "/capabilities/4/workflowId"},
	{"FORMAT_FIELD_MISSING", ops(remove("/recordingId")), ""},
}

// Each layer-A rule that needs nothing outside the bundle fires on a
// minimal edit of the reference bundle, at the edit; the unedited bundle
// (TestLegacyViewsEqualTheVNextViews) gives no finding.
func TestBundleRulesFire(t *testing.T) {
	for _, tc := range bundleRuleCases {
		t.Run(tc.rule+tc.at, func(t *testing.T) {
			b, l := derive.DecodeBundle(contracttest.Patch(t, contracttest.Reference(t, derive.BundleFile), tc.ops...))
			l.Merge(derive.CheckBundle(b))
			if !slices.ContainsFunc(l.Sorted(), func(d diag.Diagnostic) bool {
				return d.Rule == tc.rule && d.File == derive.BundleFile && d.Pointer == tc.at
			}) {
				t.Errorf("want %s at %s#%s; got:\n%s", tc.rule, derive.BundleFile, tc.at, contracttest.Findings(l))
			}
		})
	}
}

// References into a contract the legacy package does not have are not
// judged: a Host requirement, an evidence ID or a workflow the bundle names
// cannot be resolved against anything.
func TestBundleReferencesOutsideTheBundleAreNotJudged(t *testing.T) {
	data := contracttest.Patch(t, contracttest.Reference(t, derive.BundleFile),
		set("/capabilities/0/hostRequirements/0", `"session-storage"`),
		set("/capabilities/0/evidenceRefs/0", `"ev-anything"`),
		set("/capabilities/4/runtimeProtection/workflowId", `"another-workflow"`),
		set("/capabilities/3/exposure/evidenceRefs/0", `"ev-service-save"`))
	legacyViews(t, data)
}

// A bundle that is not JSON, or not an object, is reported, never a panic.
func TestBrokenBundles(t *testing.T) {
	for _, tc := range []struct {
		data string
		want diag.Diagnostic
	}{
		{"{\n  \"schemaVersion\": \"v1\",\n}", diag.Diagnostic{Rule: "JSON_SYNTAX", Line: 3, Column: 1}},
		{`[]`, diag.Diagnostic{Rule: "FORMAT_TYPE"}},
		{`{}`, diag.Diagnostic{Rule: "FORMAT_FIELD_MISSING"}},
	} {
		b, l := derive.DecodeBundle([]byte(tc.data))
		l.Merge(derive.CheckBundle(b))
		if !l.HasErrors() || !slices.ContainsFunc(l.Sorted(), func(d diag.Diagnostic) bool {
			return d.Rule == tc.want.Rule && d.File == derive.BundleFile && d.Line == tc.want.Line && d.Column == tc.want.Column
		}) {
			t.Errorf("%q: want %s at %d:%d; got:\n%s", tc.data, tc.want.Rule, tc.want.Line, tc.want.Column, contracttest.Findings(l))
		}
	}
}

// A package is legacy exactly when nothing is at the contract's path and
// something is at the bundle's.
func TestIsLegacy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(dir string) error
		want  bool
	}{
		{"bundle only", func(dir string) error { return touch(dir, derive.BundleFile) }, true},
		{"bundle and contract", func(dir string) error {
			return errors.Join(touch(dir, derive.BundleFile), touch(dir, contract.ContractFile))
		}, false},
		{"neither", func(string) error { return nil }, false},
		{"Portable Core inputs without a bundle", func(dir string) error {
			return errors.Join(touch(dir, contract.TopologyFile), touch(dir, contract.HostProfileFile))
		}, false},
		{"contract path is a directory", func(dir string) error {
			return errors.Join(touch(dir, derive.BundleFile), os.Mkdir(filepath.Join(dir, contract.ContractFile), 0o755))
		}, false},
		{"contract path is a dangling link", func(dir string) error {
			return errors.Join(touch(dir, derive.BundleFile), os.Symlink("nowhere.json", filepath.Join(dir, contract.ContractFile)))
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tc.setup(dir); err != nil {
				t.Fatal(err)
			}
			if got, err := derive.IsLegacy(dir); err != nil || got != tc.want {
				t.Errorf("IsLegacy = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func touch(dir, name string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o644)
}
