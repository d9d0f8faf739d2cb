package finalize_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/finalize"
	"github.com/code2skill/code2skill/internal/finalize/finalizetest"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/strict"
	"github.com/code2skill/code2skill/internal/verdict"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

func testKey(t *testing.T, b byte) *attest.Key {
	t.Helper()
	k, err := attest.NewKey([]byte(strings.Repeat(string(rune(b)), 32)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// validatorWith is the full strict validator in final mode, verifying the
// attestations with key.
func validatorWith(key *attest.Key, require bool) finalize.Validator {
	return finalize.Validator{
		Name: "the strict validator (final)",
		Validate: func(ctx context.Context, dir string, core *derive.Core, sources contract.Sources) (*diag.List, error) {
			res := strict.Validate(ctx, dir, strict.Options{Sources: sources, Key: key, RequireAttested: require, Core: core})
			return &res.Diagnostics, res.Err
		},
	}
}

func finalValidate(t *testing.T, dir string, key *attest.Key, require bool) *strict.Result {
	t.Helper()
	return strict.Validate(context.Background(), dir, strict.Options{Key: key, RequireAttested: require})
}

func rules(l *diag.List, rule string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range l.Sorted() {
		if d.Rule == rule {
			out = append(out, d)
		}
	}
	return out
}

// TestAttestedEvidence: checks an authenticated record vouches for are
// attested in the final files and verify in the final validation; the
// rows resting on anything else are named, accepted by default and refused
// when attestation is required; an attested check edited afterwards is an
// error whatever is required.
func TestAttestedEvidence(t *testing.T) {
	key := testKey(t, 7)
	fx := finalizetest.NewWith(t, reftest.WriteGenerated, verdicttest.FullHost...)
	fx.Attest(t, key)
	opts := fx.Options()
	opts.Key, opts.Validator = key, validatorWith(key, false)
	res := run(t, fx, opts)
	if res.Failed || res.List.HasErrors() || res.Matrix == nil {
		t.Fatalf("finalize failed:\n%s", findings(&res.List))
	}
	// The attachment runtime check carries a proof no record expresses:
	// that row alone rests on unattested evidence.
	const upload = "capability:upload-sample-attachment"
	if !slices.Equal(res.Unattested, []string{upload}) {
		t.Errorf("unattested rows %v, want [%s]", res.Unattested, upload)
	}
	if ws := rules(&res.List, "FINAL_EVIDENCE_UNATTESTED"); len(ws) != 1 || !strings.Contains(ws[0].Message, upload) {
		t.Errorf("unattested warnings: %v", ws)
	}
	// approval-audit.json says it of that row alone.
	for id, reasons := range approvalReasons(t, fx.Dir) {
		if got, want := slices.Contains(reasons, verdict.ReasonUnattested), id == upload; got != want {
			t.Errorf("%s: reasons %v", id, reasons)
		}
	}
	v := finalValidate(t, fx.Dir, key, false)
	if v.Diagnostics.HasErrors() || v.Attestation == nil || v.Attestation.Attested == 0 || !slices.Equal(v.Attestation.Unattested, []string{upload}) {
		t.Fatalf("final validation: %+v\n%s", v.Attestation, findings(&v.Diagnostics))
	}
	required := finalValidate(t, fx.Dir, key, true)
	if es := rules(&required.Diagnostics, "FINAL_ATTESTATION_REQUIRED"); len(es) != 1 || required.Diagnostics.Len() == 0 {
		t.Errorf("--require-attested: %v", findings(&required.Diagnostics))
	}

	// On a machine with another key, or none, nothing is attested.
	for name, k := range map[string]*attest.Key{"another key": testKey(t, 8), "no key": nil} {
		v := finalValidate(t, fx.Dir, k, true)
		if v.Attestation == nil || v.Attestation.Attested != 0 || v.Attestation.Problem == "" || len(rules(&v.Diagnostics, "FINAL_ATTESTATION_REQUIRED")) == 0 {
			t.Errorf("%s: %+v\n%s", name, v.Attestation, findings(&v.Diagnostics))
		}
		if len(rules(&v.Diagnostics, "FINAL_ATTESTATION_INVALID")) > 0 {
			t.Errorf("%s reported as tampering:\n%s", name, findings(&v.Diagnostics))
		}
	}

	// An attested check edited afterwards (the manifest and approval
	// hashes fixed up to match) no longer verifies.
	matrixPath := filepath.Join(fx.Dir, verdict.MatrixFile)
	data, _ := os.ReadFile(matrixPath)
	edited := strings.Replace(string(data), `"command": "code2skill vectors package --out verification/vectors"`, `"command": "code2skill vectors package --out elsewhere"`, 1)
	if edited == string(data) {
		t.Fatal("the matrix does not hold the vectors command")
	}
	os.WriteFile(matrixPath, []byte(edited), 0o644)
	v = finalValidate(t, fx.Dir, key, false)
	if len(rules(&v.Diagnostics, "FINAL_ATTESTATION_INVALID")) == 0 {
		t.Errorf("an edited attested check:\n%s", findings(&v.Diagnostics))
	}
}

// TestUnattestedReport: a hand-made report (no authenticated record) is
// still finalized, every row it proves named as resting on unattested
// evidence.
func TestUnattestedReport(t *testing.T) {
	key := testKey(t, 7)
	fx := finalizetest.NewWith(t, reftest.WriteGenerated, verdicttest.FullHost...)
	opts := fx.Options()
	opts.Key, opts.Validator = key, validatorWith(key, false)
	res := run(t, fx, opts)
	if res.List.HasErrors() || res.Matrix == nil {
		t.Fatalf("finalize failed:\n%s", findings(&res.List))
	}
	if len(res.Unattested) != 8 || res.Unattested[len(res.Unattested)-1] != attest.PackageScope {
		t.Errorf("unattested rows %v", res.Unattested)
	}
	if n := len(rules(&res.List, "FINAL_EVIDENCE_UNATTESTED")); n != 8 {
		t.Errorf("%d unattested warnings:\n%s", n, findings(&res.List))
	}
	// Every decision says, in approval-audit.json itself, that it rests on
	// evidence nobody vouched for: approved ones too.
	reasons := approvalReasons(t, fx.Dir)
	for id, rs := range reasons {
		if !slices.Contains(rs, verdict.ReasonUnattested) {
			t.Errorf("%s: reasons %v do not say the evidence is unattested", id, rs)
		}
	}
	if len(reasons) == 0 {
		t.Fatal("approval-audit.json lists no row")
	}
	// The final validation recomputes the audit: a reason struck out is a
	// mismatch.
	path := filepath.Join(fx.Dir, verdict.ApprovalFile)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.ReplaceAll(string(data), `"`+verdict.ReasonUnattested+`"`, `"x"`)), 0o644)
	if v := finalValidate(t, fx.Dir, key, false); len(rules(&v.Diagnostics, "FINAL_APPROVAL_MISMATCH")) == 0 {
		t.Errorf("an audit without its unattested reasons passed:\n%s", findings(&v.Diagnostics))
	}
}

// approvalReasons reads approval-audit.json: the reasons of each row, by
// its attest scope.
func approvalReasons(t *testing.T, dir string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, verdict.ApprovalFile))
	if err != nil {
		t.Fatal(err)
	}
	var audit struct {
		Capabilities []struct {
			CapabilityID string
			Reasons      []string
		}
		Workflows []struct {
			WorkflowID string
			Reasons    []string
		}
	}
	if err := json.Unmarshal(data, &audit); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, c := range audit.Capabilities {
		out[attest.CapabilityScope(c.CapabilityID)] = c.Reasons
	}
	for _, w := range audit.Workflows {
		out[attest.WorkflowScope(w.WorkflowID)] = w.Reasons
	}
	return out
}

// TestRecordsMustFitTheirCheck: a record counts only when it is tagged
// with this key, written by the stage of its phase, and about this
// package as it is.
func TestRecordsMustFitTheirCheck(t *testing.T) {
	key := testKey(t, 7)
	for name, setup := range map[string]func(fx *finalizetest.Fixture){
		"records of another key": func(fx *finalizetest.Fixture) { fx.Attest(t, testKey(t, 9)) },
		"records of an older package": func(fx *finalizetest.Fixture) {
			fx.Attest(t, key)
			finalizetest.Write(t, filepath.Join(fx.Dir, "references", "notes.md"), []byte("# 补充说明\n"))
		},
		"records with another evidence hash": func(fx *finalizetest.Fixture) {
			fx.Attest(t, key)
			log := []byte("another run of the check\n")
			fx.Green.EvidenceFiles["other.log"] = log
			checks, _ := fx.Green.Phase(t, "capabilities", "save-sample-draft", "runtime").Get("checks")
			checks.(canonjson.Array)[0].(*canonjson.Object).Set("evidenceHash", canonjson.String(canonjson.SHA256(log)))
			fx.WriteEvidence(t)
		},
	} {
		t.Run(name, func(t *testing.T) {
			fx := finalizetest.NewWith(t, reftest.WriteGenerated, verdicttest.FullHost...)
			setup(fx)
			opts := fx.Options()
			opts.Key, opts.Validator = key, validatorWith(key, false)
			res := run(t, fx, opts)
			if res.Matrix == nil {
				t.Fatalf("finalize failed:\n%s", findings(&res.List))
			}
			if name != "records with another evidence hash" && len(res.Unattested) != 8 {
				t.Errorf("unattested rows %v", res.Unattested)
			}
			if name == "records with another evidence hash" && !slices.Contains(res.Unattested, "capability:save-sample-draft") {
				t.Errorf("unattested rows %v", res.Unattested)
			}
		})
	}
}

// TestEditedRuntimeRefused: a hand-edited compiled Function is refused,
// even by an explicit finalize of an already finalized package, which
// keeps its files.
func TestEditedRuntimeRefused(t *testing.T) {
	fx := finalizetest.NewWith(t, reftest.WriteGenerated, verdicttest.FullHost...)
	opts := fx.Options()
	opts.Validator = strictValidator
	if res := run(t, fx, opts); res.List.HasErrors() {
		t.Fatalf("finalize failed:\n%s", findings(&res.List))
	}
	before := finalizetest.Snapshot(t, fx.Dir)
	for name, edit := range map[string][2]string{
		"an accepted status added": {`"uploadAttachment", [201]`, `"uploadAttachment", [200, 201]`},
		"GET turned into DELETE":   {`"method": "GET"`, `"method": "DELETE"`},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(fx.Dir, compile.FunctionCoreFile)
			data, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(data), edit[0], edit[1], 1)), 0o644)
			defer os.WriteFile(p, data, 0o644)
			res := run(t, fx, opts)
			ds := rules(&res.List, compile.RuleGeneratedEdited.ID)
			if res.Matrix != nil || len(ds) != 1 || ds[0].File != compile.FunctionCoreFile || ds[0].Line == 0 {
				t.Errorf("finalize of an edited Function:\n%s", findings(&res.List))
			}
			after := finalizetest.Snapshot(t, fx.Dir)
			for f := range before {
				if f != compile.FunctionCoreFile && before[f] != after[f] {
					t.Errorf("%s changed", f)
				}
			}
			v := finalValidate(t, fx.Dir, nil, false)
			if !v.Diagnostics.Has(compile.RuleGeneratedEdited) {
				t.Errorf("the final validation accepts an edited Function:\n%s", findings(&v.Diagnostics))
			}
		})
	}
}
