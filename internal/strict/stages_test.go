package strict_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/strict"
)

func validate(t *testing.T, dir string, preFinalize bool) *strict.Result {
	t.Helper()
	res := strict.Validate(context.Background(), dir, strict.Options{PreFinalize: preFinalize})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	return res
}

// wantFindings compares the rule IDs and locations of the findings with
// want, each "RULE file[#pointer|:line]".
// wantFindings compares the errors and warnings of a validation with want
// ("RULE location"); notes (info), such as evidence not resolved without
// sources, are left to the tests about them.
func wantFindings(t *testing.T, res *strict.Result, want ...string) {
	t.Helper()
	var got []string
	for _, d := range res.Diagnostics.Sorted() {
		if d.Severity != diag.Info {
			got = append(got, d.Rule+" "+d.Location())
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s\nall findings:\n%s", diff, findingsText(res))
	}
}

func findingsText(res *strict.Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics.Sorted() {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

func wantStage(t *testing.T, res *strict.Result, id string, status strict.Status) strict.Stage {
	t.Helper()
	s, ok := res.Stage(id)
	if !ok {
		t.Fatalf("no stage %s", id)
	}
	if s.Status != status {
		t.Errorf("stage %s is %s (%s), want %s", id, s.Status, s.Note, status)
	}
	return s
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func editFile(t *testing.T, dir, name string, edit func(string) string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	if out := edit(string(data)); out == string(data) {
		t.Fatalf("the edit of %s changed nothing", name)
	} else {
		writeFile(t, dir, name, out)
	}
}

// A missing base file stops every later stage: nothing can be judged
// against a package that is not all there.
func TestMissingFileStopsValidation(t *testing.T) {
	dir := referencePackage(t)
	for _, f := range []string{"mcp-tool/runtime.mjs", "MCP.zh-CN.md"} {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Fatal(err)
		}
	}
	res := validate(t, dir, true)
	wantFindings(t, res, "STRICT_FILE_MISSING MCP.zh-CN.md", "STRICT_FILE_MISSING mcp-tool/runtime.mjs")
	wantStage(t, res, strict.StageFiles, strict.Failed)
	for _, s := range res.Stages[1:] {
		if s.Status != strict.NotRun || s.Note != "a required file is missing" {
			t.Errorf("stage %s: %s (%s), want not run because a file is missing", s.ID, s.Status, s.Note)
		}
	}
}

// A required file that is a symbolic link is not a file of the package:
// code2skill never follows links.
func TestRequiredFileAsSymlink(t *testing.T) {
	dir := referencePackage(t)
	skill := filepath.Join(dir, "SKILL.md")
	outside := filepath.Join(t.TempDir(), "SKILL.md")
	if err := os.Rename(skill, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, skill); err != nil {
		t.Fatal(err)
	}
	res := validate(t, dir, true)
	wantFindings(t, res, "PKG_SYMLINK_ESCAPES SKILL.md", "STRICT_FILE_MISSING SKILL.md")
	if d := res.Diagnostics.Sorted()[1]; !strings.Contains(d.Message, "symbolic link") {
		t.Errorf("message %q does not say the file is a symbolic link", d.Message)
	}
}

// A package whose writes are protected by a workflow carries the guard.
func TestWorkflowGuardRequired(t *testing.T) {
	dir := referencePackage(t)
	if err := os.Remove(filepath.Join(dir, "portable-workflow-guard.mjs")); err != nil {
		t.Fatal(err)
	}
	res := validate(t, dir, true)
	wantFindings(t, res, "STRICT_FILE_MISSING portable-workflow-guard.mjs")
	// Only the files stage failed: the guard depends on the contract and
	// does not stop the other stages.
	wantStage(t, res, strict.StageFiles, strict.Failed)
	wantStage(t, res, strict.StageDocuments, strict.Passed)
}

// A package whose capabilities send HTTP requests carries the default
// dispatcher, which its Functions import.
func TestDispatcherRequired(t *testing.T) {
	dir := referencePackage(t)
	if err := os.Remove(filepath.Join(dir, "portable-http-dispatch.mjs")); err != nil {
		t.Fatal(err)
	}
	res := validate(t, dir, true)
	wantFindings(t, res, "STRICT_FILE_MISSING portable-http-dispatch.mjs")
	wantStage(t, res, strict.StageFiles, strict.Failed)
	wantStage(t, res, strict.StageDocuments, strict.Passed)
}

func TestLegacyFilesForbidden(t *testing.T) {
	dir := referencePackage(t)
	writeFile(t, dir, "PAGE.md", "# legacy page\n")
	writeFile(t, dir, "workflow.json", "{}\n")
	res := validate(t, dir, true)
	wantFindings(t, res, "STRICT_FILE_FORBIDDEN PAGE.md", "STRICT_FILE_FORBIDDEN workflow.json")
	wantStage(t, res, strict.StageForbidden, strict.Failed)
}

// Without --pre-finalize the final files are expected.
func TestFinalModeNeedsFinalFiles(t *testing.T) {
	dir := referencePackage(t)
	res := validate(t, dir, false)
	wantFindings(t, res,
		"STRICT_FINAL_FILE_MISSING approval-audit.json",
		"STRICT_FINAL_FILE_MISSING export-manifest.json",
		"STRICT_FINAL_FILE_MISSING function-core/validation-receipt.json",
		"STRICT_FINAL_FILE_MISSING live-verification.json",
		"STRICT_FINAL_FILE_MISSING preflight-report.json",
		"STRICT_FINAL_FILE_MISSING verification-attestation.json")
	wantStage(t, res, strict.StageFinal, strict.Failed)
	wantStage(t, res, strict.StageMatrix, strict.NotRun)

	// With all of them present their cross-check runs: empty files fail it.
	for _, f := range []string{"function-core/validation-receipt.json", "preflight-report.json", "live-verification.json", "approval-audit.json", "export-manifest.json", "verification-attestation.json"} {
		writeFile(t, dir, f, "{}\n")
	}
	res = validate(t, dir, false)
	if !res.Diagnostics.Has(mustRule(t, "FINAL_RECEIPT_MISMATCH")) || !res.Diagnostics.Has(mustRule(t, "FINAL_MANIFEST_MISMATCH")) {
		t.Errorf("empty final files passed the cross-check:\n%s", findingsText(res))
	}
	wantStage(t, res, strict.StageFinal, strict.Failed)
}

// Every derived view must equal its derivation; the finding names the view
// and the first JSON Pointer where it differs.
func TestStaleView(t *testing.T) {
	dir := referencePackage(t)
	editFile(t, dir, "mcp-tool/schema-contract.json", func(s string) string {
		return strings.Replace(s, `"readOnlyHint": true`, `"readOnlyHint": false`, 1)
	})
	editFile(t, dir, "goal-contract.json", func(s string) string {
		return strings.Replace(s, `"goals": [`, `"extra": 1, "goals": [`, 1)
	})
	res := validate(t, dir, true)
	wantFindings(t, res,
		"STRICT_VIEW_STALE mcp-tool/schema-contract.json#/capabilities/0/annotations/readOnlyHint",
		"STRICT_VIEW_STALE goal-contract.json#/extra")
	wantStage(t, res, strict.StageViews, strict.Failed)
}

// A view with the derived value in other bytes is only a warning, and one
// that is not JSON at all is reported with its line and column.
func TestViewFormatAndSyntax(t *testing.T) {
	dir := referencePackage(t)
	editFile(t, dir, "consumer-requirements.json", func(s string) string { return strings.ReplaceAll(s, "  ", "\t") })
	writeFile(t, dir, "capability-draft.json", "{\n  \"schemaVersion\": \n")
	res := validate(t, dir, true)
	wantFindings(t, res, "STRICT_VIEW_FORMAT consumer-requirements.json", "JSON_SYNTAX capability-draft.json:3:1")
	wantStage(t, res, strict.StageViews, strict.Failed)
}

// Before finalization the matrix must be the baseline: a matrix claiming a
// verification that did not happen fails.
func TestMatrixMustBeBaseline(t *testing.T) {
	dir := referencePackage(t)
	editFile(t, dir, "verification-matrix.json", func(s string) string {
		return strings.Replace(s, `"behaviorVerified": false`, `"behaviorVerified": true`, 1)
	})
	res := validate(t, dir, true)
	wantFindings(t, res, "STRICT_MATRIX_NOT_BASELINE verification-matrix.json#/capabilities/0/status/behaviorVerified")
	wantStage(t, res, strict.StageMatrix, strict.Failed)

	// After finalization the matrix is judged with the final files.
	res = validate(t, dir, false)
	if res.Diagnostics.Has(strict.RuleMatrix) {
		t.Errorf("the final matrix was compared with the baseline:\n%s", findingsText(res))
	}
}

// A Portable Core with errors is reported, and the stages that judge the
// package against it do not run.
func TestBrokenContractSkipsDependentStages(t *testing.T) {
	dir := referencePackage(t)
	editFile(t, dir, "canonical-contract.json", func(s string) string {
		return strings.Replace(s, `"toolName": "list_sample_request_kinds"`, `"toolName": "List-Kinds"`, 1)
	})
	res := validate(t, dir, true)
	if !res.Diagnostics.Has(mustRule(t, "CONTRACT_ID_FORMAT")) {
		t.Errorf("the broken Tool name was not reported:\n%s", findingsText(res))
	}
	wantStage(t, res, strict.StagePortableCore, strict.Failed)
	for _, id := range []string{strict.StageViews, strict.StageRuntime, strict.StageDocuments, strict.StageMatrix} {
		if s := wantStage(t, res, id, strict.NotRun); s.Note != "the Portable Core has errors" {
			t.Errorf("stage %s note %q", id, s.Note)
		}
	}
	wantStage(t, res, strict.StageForbidden, strict.Passed)
}

// Export profile findings belong to their own stage.
func TestExportProfileStage(t *testing.T) {
	dir := referencePackage(t)
	editFile(t, dir, "export-profile.json", func(s string) string {
		return strings.Replace(s, `"transport": "stdio",`, `"transport": "stdio", "pageRoute": "/knowledge",`, 1)
	})
	res := validate(t, dir, true)
	wantFindings(t, res, "FORMAT_FIELD_UNKNOWN export-profile.json#/pageRoute")
	wantStage(t, res, strict.StageExportProfile, strict.Failed)
	wantStage(t, res, strict.StagePortableCore, strict.Passed)
}

func TestNotADirectory(t *testing.T) {
	res := validate(t, filepath.Join(t.TempDir(), "absent"), true)
	wantFindings(t, res, "PKG_NOT_FOUND ")
	for _, s := range res.Stages[1:] {
		if s.Status != strict.NotRun {
			t.Errorf("stage %s ran on a missing package", s.ID)
		}
	}
}

// The semantic rules of check-contract judge the Portable Core, not only
// derive's structural ones: contracts that derive but break them fail the
// Portable Core stage, and the stages that judge the package against it
// do not run.
func TestContractRules(t *testing.T) {
	tests := []struct {
		name string
		ops  []contracttest.Op
		want []string
		// refused: compile refuses the contract, so the runtime of the
		// unpatched contract stands in.
		refused bool
	}{
		{
			name: "open world hint on an HTTP Tool",
			ops:  []contracttest.Op{contracttest.Set("/capabilities/0/annotations/openWorldHint", "false")},
			want: []string{"CONTRACT_ANNOTATION_OPEN_WORLD canonical-contract.json#/capabilities/0/annotations/openWorldHint"},
		},
		{
			name: "success rule kind of an HTTP Tool",
			ops:  []contracttest.Op{contracttest.Set("/capabilities/3/successRule/kind", `"output"`)},
			want: []string{"CONTRACT_SUCCESS_RULE canonical-contract.json#/capabilities/3/successRule/kind"},
		},
		{
			name: "required output path under data",
			ops:  []contracttest.Op{contracttest.Set("/capabilities/3/successRule/requiredOutputPaths/0", `["data", "draftId"]`)},
			want: []string{"CONTRACT_SUCCESS_RULE canonical-contract.json#/capabilities/3/successRule/requiredOutputPaths/0"},
		},
		{
			name: "nested body bindings",
			ops: []contracttest.Op{contracttest.Append("/capabilities/3/implementation/steps/0/bindings",
				`{"source": {"kind": "input", "inputName": "requestData"}, "location": "body", "path": ["requestData", "subject"], "evidenceRefs": ["ev-client-save-request"]}`)},
			want:    []string{"CONTRACT_BINDING_OVERLAP canonical-contract.json#/capabilities/3/implementation/steps/0/bindings/1/path"},
			refused: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := []reftest.Option{withContract(tt.ops...)}
			if tt.refused {
				opts = append(opts, reftest.RuntimeOfReference())
			}
			res := validate(t, referencePackage(t, opts...), true)
			wantFindings(t, res, tt.want...)
			wantStage(t, res, strict.StagePortableCore, strict.Failed)
			wantStage(t, res, strict.StageRuntime, strict.NotRun)
		})
	}
}

// Without sources, evidence locators are not resolved: a note says so, in
// the findings and in the stage, and nothing claims they were checked.
func TestEvidenceNotCheckedWithoutSources(t *testing.T) {
	res := validate(t, referencePackage(t), true)
	if !res.Diagnostics.Has(mustRule(t, "EVIDENCE_NOT_CHECKED")) {
		t.Errorf("no EVIDENCE_NOT_CHECKED note:\n%s", findingsText(res))
	}
	if s := wantStage(t, res, strict.StagePortableCore, strict.Passed); !strings.Contains(s.Note, "evidence locators not resolved") {
		t.Errorf("Portable Core note %q does not say evidence was not resolved", s.Note)
	}
}

func mustRule(t *testing.T, id string) *diag.Rule {
	t.Helper()
	r, ok := diag.Lookup(id)
	if !ok {
		t.Fatalf("no rule %s", id)
	}
	return r
}

// A top-level integer input is accepted: the contract allows it and the
// compiled Function validates integers (the established bundle check
// refuses it; see docs/divergences.md).
func TestIntegerInputAccepted(t *testing.T) {
	dir := referencePackage(t, withContract(
		contracttest.Append("/capabilities/0/inputs",
			`{"name": "pageSize", "type": "integer", "schema": {"type": "integer", "minimum": 1, "maximum": 50}, "description": "Largest number of options to return.", "required": false, "informationClass": "optional", "sourceStrategies": ["user"], "valueDomain": {"kind": "unconstrained"}, "evidenceRefs": ["ev-contract-catalog"]}`),
		contracttest.Append("/capabilities/0/implementation/steps/0/bindings",
			`{"source": {"kind": "input", "inputName": "pageSize"}, "location": "query", "path": ["size"], "evidenceRefs": ["ev-contract-catalog"]}`)))
	res := validate(t, dir, true)
	wantStage(t, res, strict.StagePortableCore, strict.Passed)
	wantStage(t, res, strict.StageViews, strict.Passed)
}

// A cancelled validation is a failure of the tool, and no stage claims to
// have run.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := strict.Validate(ctx, referencePackage(t), strict.Options{PreFinalize: true})
	if !errors.Is(res.Err, context.Canceled) {
		t.Errorf("Err = %v, want context.Canceled", res.Err)
	}
	for _, s := range res.Stages {
		if s.Status != strict.NotRun || s.Note != "the validation was cancelled" {
			t.Errorf("stage %s: %s (%s)", s.ID, s.Status, s.Note)
		}
	}
}

// TestContaminationGate: validation runs the contamination gate itself, in
// both modes, rather than trusting a manifest's sanitized: true.
func TestContaminationGate(t *testing.T) {
	for _, pre := range []bool{true, false} {
		dir := referencePackage(t)
		writeFile(t, dir, "references/notes.md", "# 备注\n\n部署在 /var/lib/desk/state.db，密钥见 ~/.aws/credentials。\n")
		res := validate(t, dir, pre)
		if !res.Diagnostics.Has(mustRule(t, "CONTAMINATION_HOME_PATH")) || !res.Diagnostics.Has(mustRule(t, "CONTAMINATION_MACHINE_PATH")) {
			t.Errorf("pre-finalize %v: the gate did not run:\n%s", pre, findingsText(res))
		}
		wantStage(t, res, strict.StageContamination, strict.Failed)
	}
}

// TestLargeContractRead: a contract every command reads (up to the 16 MiB
// of pkgdir.MaxInputSize) is read by the documents' checks too, not
// refused at a document's smaller limit.
func TestLargeContractRead(t *testing.T) {
	dir := referencePackage(t)
	path := filepath.Join(dir, "canonical-contract.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	padded := append(data, []byte(strings.Repeat(" ", 5<<20))...)
	if err := os.WriteFile(path, padded, 0o644); err != nil {
		t.Fatal(err)
	}
	res := validate(t, dir, true)
	for _, d := range res.Diagnostics.Sorted() {
		if d.Rule == "PKG_INPUT_TOO_LARGE" {
			t.Errorf("a %d-byte contract refused: %s", len(padded), d)
		}
	}
	wantStage(t, res, strict.StageDocuments, strict.Passed)
}
