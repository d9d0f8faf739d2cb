package finalize_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contamination"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/finalize"
	"github.com/code2skill/code2skill/internal/finalize/finalizetest"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/strict"
	"github.com/code2skill/code2skill/internal/verdict"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

const (
	listKinds = "list-sample-request-kinds"
	saveDraft = "save-sample-draft"
	submit    = "submit-sample-request"
)

func run(t *testing.T, fx *finalizetest.Fixture, opts finalize.Options) *finalize.Result {
	t.Helper()
	return finalize.Run(context.Background(), fx.Dir, opts)
}

func findings(l *diag.List) string { return contracttest.Findings(l) }

// artifactSets are the ways of producing the reference package's generated
// files that the end-to-end tests finalize, each with the validator that
// judges the result: stand-ins with the final-files cross-check alone, and
// the compiled package (compile's runtime and the strict documents) with
// the full strict validator, as code2skill finalize runs it.
var artifactSets = map[string]struct {
	artifacts finalizetest.Artifacts
	validator finalize.Validator
}{
	"stand-ins": {finalizetest.WriteStandins, finalizetest.CrossCheck},
	"compiled":  {reftest.WriteGenerated, strictValidator},
}

// strictValidator is the full strict validator in final mode.
var strictValidator = finalize.Validator{
	Name: "the strict validator (final)",
	Validate: func(ctx context.Context, dir string, core *derive.Core, sources contract.Sources) (*diag.List, error) {
		res := strict.Validate(ctx, dir, strict.Options{Sources: sources, Core: core})
		return &res.Diagnostics, res.Err
	},
}

func TestFinalizeApproved(t *testing.T) {
	for name, set := range artifactSets {
		t.Run(name, func(t *testing.T) { finalizeApproved(t, set.artifacts, set.validator) })
	}
}

func finalizeApproved(t *testing.T, artifacts finalizetest.Artifacts, validator finalize.Validator) {
	fx := finalizetest.NewWith(t, artifacts, verdicttest.FullHost...)
	opts := fx.Options()
	opts.Validator = validator
	res := run(t, fx, opts)
	if res.Failed || res.List.HasErrors() || res.Restored {
		t.Fatalf("finalize failed:\n%s", findings(&res.List))
	}
	if !slices.Equal(res.Files, verdict.FinalFiles) || res.Matrix == nil || res.Matrix.Decision != "approved" {
		t.Fatalf("files %v, matrix %+v", res.Files, res.Matrix)
	}
	if res.Validator != validator.Name || res.LiveCapabilities != 5 || res.EvidenceChecked == 0 {
		t.Errorf("result %+v", res)
	}
	first := finalizetest.Snapshot(t, fx.Dir)

	// Finalize accepts its own output and gives the same bytes again.
	res = run(t, fx, opts)
	if res.Failed || res.List.HasErrors() {
		t.Fatalf("second run:\n%s", findings(&res.List))
	}
	if second := finalizetest.Snapshot(t, fx.Dir); !maps.Equal(first, second) {
		for p := range second {
			if first[p] != second[p] {
				t.Errorf("%s changed on the second run", p)
			}
		}
	}
}

func TestFinalizeLimitedHost(t *testing.T) {
	fx := finalizetest.New(t)
	res := run(t, fx, fx.Options())
	if res.List.HasErrors() || res.Matrix == nil {
		t.Fatalf("finalize failed:\n%s", findings(&res.List))
	}
	if res.Matrix.Decision != "partially-approved" {
		t.Errorf("decision %s", res.Matrix.Decision)
	}
}

// TestFailingVectors: a capability whose behaviour checks fail is blocked,
// and no other row changes.
func TestFailingVectors(t *testing.T) {
	green := finalizetest.New(t, verdicttest.FullHost...)
	if res := run(t, green, green.Options()); res.List.HasErrors() {
		t.Fatal(findings(&res.List))
	}
	fx := finalizetest.New(t, verdicttest.FullHost...)
	fx.Green.FailCheck(t, "capabilities", listKinds, "behavior")
	fx.WriteEvidence(t)
	res := run(t, fx, fx.Options())
	if res.List.HasErrors() {
		t.Fatal(findings(&res.List))
	}
	if res.Matrix.Decision != "partially-approved" {
		t.Errorf("decision %s", res.Matrix.Decision)
	}
	before := rows(t, green.Dir)
	after := rows(t, fx.Dir)
	for id, row := range after {
		switch {
		case id == "capabilities/"+listKinds:
			if !strings.Contains(row, `"blocked":true`) || strings.Contains(row, `"behaviorVerified":true`) {
				t.Errorf("%s: %s", id, row)
			}
		case row != before[id]:
			t.Errorf("%s changed:\n%s\n%s", id, before[id], row)
		}
	}
}

// rows returns the rows of a finalized package's matrix, compact, by kind
// and ID.
func rows(t *testing.T, dir string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, verdict.MatrixFile))
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := canonjson.Decode(data)
	out := map[string]string{}
	for _, kind := range []string{"capabilities", "workflows"} {
		v, _ := canonjson.Resolve(doc, "/"+kind)
		for _, r := range v.(canonjson.Array) {
			o := r.(*canonjson.Object)
			id, ok := o.Get("capabilityId")
			if !ok {
				id, _ = o.Get("workflowId")
			}
			out[kind+"/"+string(id.(canonjson.String))] = string(canonjson.DigestForm(o))
		}
	}
	return out
}

// refused runs finalize, expects findings of the rule and checks that the
// package did not change.
func refused(t *testing.T, fx *finalizetest.Fixture, opts finalize.Options, rule string) *finalize.Result {
	t.Helper()
	before := finalizetest.Snapshot(t, fx.Dir)
	res := run(t, fx, opts)
	if res.Failed {
		t.Fatalf("finalize could not run:\n%s", findings(&res.List))
	}
	if !res.List.HasErrors() || !slices.Contains(res.List.RuleIDs(), rule) {
		t.Fatalf("want %s, got:\n%s", rule, findings(&res.List))
	}
	if res.Matrix != nil || len(res.Files) > 0 {
		t.Errorf("files written: %v", res.Files)
	}
	if after := finalizetest.Snapshot(t, fx.Dir); !maps.Equal(before, after) {
		t.Error("the package changed")
	}
	return res
}

func TestTamperedEvidence(t *testing.T) {
	t.Run("edited after hashing", func(t *testing.T) {
		fx := finalizetest.New(t)
		log := filepath.Join(fx.EvidenceDir, "logs", "behavior--save-sample-draft--invalid-input-is-rejected.log")
		finalizetest.Write(t, log, []byte("behavior invalid-input-is-rejected of save-sample-draft: FAILED\n"))
		res := refused(t, fx, fx.Options(), finalize.RuleEvidenceMissing.ID)
		d := res.List.Sorted()[0]
		if d.File != filepath.ToSlash(fx.Report) || !strings.HasPrefix(d.Pointer, "/capabilities/3/behavior/checks/") {
			t.Errorf("finding %v", d)
		}
	})
	t.Run("moved outside the evidence directory", func(t *testing.T) {
		fx := finalizetest.New(t)
		log := filepath.Join(fx.EvidenceDir, "logs", "runtime--list-sample-request-kinds--live-tools-call.log")
		if err := os.Rename(log, filepath.Join(filepath.Dir(fx.EvidenceDir), "moved.log")); err != nil {
			t.Fatal(err)
		}
		refused(t, fx, fx.Options(), finalize.RuleEvidenceMissing.ID)
	})
	t.Run("a symbolic link out", func(t *testing.T) {
		fx := finalizetest.New(t)
		log := filepath.Join(fx.EvidenceDir, "logs", "host--save-sample-draft--host-profile-acceptance.log")
		outside := filepath.Join(filepath.Dir(fx.EvidenceDir), "outside.log")
		data, _ := os.ReadFile(log)
		finalizetest.Write(t, outside, data)
		os.Remove(log)
		if err := os.Symlink(outside, log); err != nil {
			t.Fatal(err)
		}
		res := refused(t, fx, fx.Options(), finalize.RuleEvidenceEscapes.ID)
		if !slices.Contains(res.List.RuleIDs(), finalize.RuleEvidenceMissing.ID) {
			t.Errorf("evidence behind a link must not count:\n%s", findings(&res.List))
		}
	})
	t.Run("an explicit evidence directory without the evidence", func(t *testing.T) {
		fx := finalizetest.New(t)
		opts := fx.Options()
		opts.EvidenceDir = t.TempDir()
		refused(t, fx, opts, finalize.RuleEvidenceMissing.ID)
	})
	t.Run("live evidence inside the package", func(t *testing.T) {
		fx := finalizetest.New(t)
		inside := filepath.Join(fx.Dir, "live", "inputs.json")
		data, _ := os.ReadFile(fx.LiveInput)
		finalizetest.Write(t, inside, data)
		opts := fx.Options()
		opts.Live[0].Input = inside
		refused(t, fx, opts, finalize.RuleEvidenceInside.ID)
	})
	t.Run("a report inside the package", func(t *testing.T) {
		fx := finalizetest.New(t)
		inside := filepath.Join(fx.Dir, "verification", "report.json")
		finalizetest.Write(t, inside, canonjson.Encode(fx.Green.Report))
		opts := fx.Options()
		opts.Report, opts.EvidenceDir = inside, fx.EvidenceDir
		refused(t, fx, opts, finalize.RuleEvidenceInside.ID)
	})
}

func TestReportFindings(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, fx *finalizetest.Fixture)
		rule string
	}{
		{"schema", func(t *testing.T, fx *finalizetest.Fixture) {
			fx.Green.Report.Set("approvedBy", canonjson.String("someone"))
		}, verdict.RuleReportSchema.ID},
		{"coverage", func(t *testing.T, fx *finalizetest.Fixture) {
			caps, _ := fx.Green.Report.Get("capabilities")
			fx.Green.Report.Set("capabilities", caps.(canonjson.Array)[:4])
		}, verdict.RuleReportCoverage.ID},
		{"runtime check of another Tool", func(t *testing.T, fx *finalizetest.Fixture) {
			checks, _ := fx.Green.Phase(t, "capabilities", saveDraft, "runtime").Get("checks")
			checks.(canonjson.Array)[0].(*canonjson.Object).Set("toolName", canonjson.String("submit_sample_request"))
		}, verdict.RuleRuntimeBinding.ID},
		{"a portable command is required", func(t *testing.T, fx *finalizetest.Fixture) {
			checks, _ := fx.Green.Report.Get("checks")
			checks.(canonjson.Array)[0].(*canonjson.Object).Set("command", canonjson.String("node /home/dana/pkg/validate.mjs"))
		}, contamination.RuleHomePath.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := finalizetest.New(t)
			tc.edit(t, fx)
			fx.WriteEvidence(t)
			refused(t, fx, fx.Options(), tc.rule)
		})
	}
	t.Run("not JSON", func(t *testing.T) {
		fx := finalizetest.New(t)
		finalizetest.Write(t, fx.Report, []byte("{\n  \"schemaVersion\": \n}"))
		res := refused(t, fx, fx.Options(), canonjson.RuleSyntax.ID)
		if d := res.List.Sorted()[0]; d.Line != 3 {
			t.Errorf("finding %v", d)
		}
	})
	t.Run("a FIFO", func(t *testing.T) {
		fx := finalizetest.New(t)
		os.Remove(fx.Report)
		if err := mkfifo(fx.Report); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		refused(t, fx, fx.Options(), pkgdir.RuleInputNotRegular.ID)
	})
}

func TestLiveFindings(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, fx *finalizetest.Fixture)
		rule string
	}{
		{"unknown capability", func(t *testing.T, fx *finalizetest.Fixture) {
			fx.Green.Inputs["removed-capability"] = fx.Green.Inputs[saveDraft]
			fx.Green.Results["removed-capability"] = fx.Green.Results[saveDraft]
		}, finalize.RuleLiveUnknown.ID},
		{"input without result", func(t *testing.T, fx *finalizetest.Fixture) {
			delete(fx.Green.Results, saveDraft)
		}, finalize.RuleLiveUnpaired.ID},
		{"another Tool", func(t *testing.T, fx *finalizetest.Fixture) {
			fx.Green.Inputs[saveDraft].(*canonjson.Object).Set("name", canonjson.String("submit_sample_request"))
		}, finalize.RuleLiveTool.ID},
		{"not a tools/call", func(t *testing.T, fx *finalizetest.Fixture) {
			fx.Green.Inputs["validate-sample-request"].(*canonjson.Object).Set("method", canonjson.String("tools/list"))
		}, finalize.RuleLiveTool.ID},
		{"arguments the schema rejects", func(t *testing.T, fx *finalizetest.Fixture) {
			fx.Green.Inputs[listKinds].(*canonjson.Object).Set("arguments", mustDecode(t, `{"detailLevel": "verbose"}`))
		}, finalize.RuleLiveInputSchema.ID},
		{"an error result", func(t *testing.T, fx *finalizetest.Fixture) {
			fx.Green.Results[saveDraft].(*canonjson.Object).Set("isError", canonjson.Bool(true))
		}, finalize.RuleLiveResult.ID},
		{"text that does not match", func(t *testing.T, fx *finalizetest.Fixture) {
			fx.Green.Results[saveDraft].(*canonjson.Object).Set("content", mustDecode(t, `[{"type": "text", "text": "{}"}]`))
		}, finalize.RuleLiveResult.ID},
		{"a forbidden key", func(t *testing.T, fx *finalizetest.Fixture) {
			r := fx.Green.Results[saveDraft].(*canonjson.Object)
			sc := mustDecode(t, `{"status": 200, "data": {"draftId": "synthetic-draft-1", "error": "none"}}`)
			r.Set("structuredContent", sc)
			r.Set("content", canonjson.Array{canonjson.NewObject(
				canonjson.Member{Key: "type", Value: canonjson.String("text")},
				canonjson.Member{Key: "text", Value: canonjson.String(canonjson.DigestForm(sc))})})
		}, finalize.RuleLiveOutput.ID},
		{"a credential", func(t *testing.T, fx *finalizetest.Fixture) {
			fx.Green.Inputs[saveDraft].(*canonjson.Object).Set("_meta", mustDecode(t, `{"authorization": "opaque-session-value-1234"}`))
		}, finalize.RuleLiveSanitized.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := finalizetest.New(t)
			tc.edit(t, fx)
			fx.WriteEvidence(t)
			refused(t, fx, fx.Options(), tc.rule)
		})
	}
	t.Run("not a list of entries", func(t *testing.T) {
		fx := finalizetest.New(t)
		finalizetest.Write(t, fx.LiveInput, []byte(`{"capabilities": [{"input": {}}, 7]}`))
		res := refused(t, fx, fx.Options(), finalize.RuleLiveFormat.ID)
		var at []string
		for _, d := range res.List.Sorted() {
			if d.Rule == finalize.RuleLiveFormat.ID {
				at = append(at, d.Pointer)
			}
		}
		if !slices.Equal(at, []string{"/capabilities/0/capabilityId", "/capabilities/1"}) {
			t.Errorf("findings at %v", at)
		}
	})
	t.Run("a capability twice", func(t *testing.T) {
		fx := finalizetest.New(t)
		opts := fx.Options()
		opts.Live = append(opts.Live, opts.Live[0])
		refused(t, fx, opts, finalize.RuleLiveDuplicate.ID)
	})
	t.Run("a passed runtime phase bound to other live digests", func(t *testing.T) {
		fx := finalizetest.New(t)
		fx.Green.Inputs[saveDraft].(*canonjson.Object).Set("arguments", mustDecode(t, `{"requestData": {"subject": "Another subject"}}`))
		fx.WriteEvidence(t)
		refused(t, fx, fx.Options(), verdict.RuleLiveMismatch.ID)
	})
	t.Run("one entry per file and no live evidence at all", func(t *testing.T) {
		fx := finalizetest.New(t)
		in, _ := fx.Green.Inputs[saveDraft].(*canonjson.Object)
		single := canonjson.Clone(in).(*canonjson.Object)
		single.Set("capabilityId", canonjson.String(saveDraft))
		finalizetest.Write(t, fx.LiveInput, canonjson.Encode(single))
		res := canonjson.NewObject(canonjson.Member{Key: "capabilityId", Value: canonjson.String(saveDraft)},
			canonjson.Member{Key: "result", Value: fx.Green.Results[saveDraft]})
		finalizetest.Write(t, fx.LiveResult, canonjson.Encode(canonjson.Array{res}))
		r := run(t, fx, fx.Options())
		if r.List.HasErrors() || r.LiveCapabilities != 1 {
			t.Fatalf("live %d:\n%s", r.LiveCapabilities, findings(&r.List))
		}
		opts := fx.Options()
		opts.Live = nil
		r = run(t, fx, opts)
		if r.List.HasErrors() || r.Matrix.Runtime != "not-run" {
			t.Fatalf("without live evidence:\n%s", findings(&r.List))
		}
	})
}

func TestPackageFindings(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, fx *finalizetest.Fixture)
		rule string
	}{
		{"a stale view", func(t *testing.T, fx *finalizetest.Fixture) {
			p := filepath.Join(fx.Dir, "capability-bundle.json")
			data, _ := os.ReadFile(p)
			finalizetest.Write(t, p, append(data, '\n'))
		}, finalize.RuleViewStale.ID},
		{"no Skill", func(t *testing.T, fx *finalizetest.Fixture) {
			os.Remove(filepath.Join(fx.Dir, "SKILL.md"))
		}, finalize.RuleArtifactMissing.ID},
		{"a symbolic link", func(t *testing.T, fx *finalizetest.Fixture) {
			os.Symlink("SKILL.md", filepath.Join(fx.Dir, "README.md"))
		}, finalize.RulePackageSymlink.ID},
		{"a directory at a final path", func(t *testing.T, fx *finalizetest.Fixture) {
			os.MkdirAll(filepath.Join(fx.Dir, verdict.ApprovalFile), 0o755)
		}, finalize.RuleFinalPath.ID},
		{"a secret file", func(t *testing.T, fx *finalizetest.Fixture) {
			finalizetest.Write(t, filepath.Join(fx.Dir, ".env"), []byte("MODE=1\n"))
		}, contamination.RuleSecretFile.ID},
		{"a machine path in a document", func(t *testing.T, fx *finalizetest.Fixture) {
			finalizetest.Write(t, filepath.Join(fx.Dir, "MCP-SETUP.md"), []byte("cd "+fx.Dir+"\n"))
		}, contamination.RuleMachinePath.ID},
		{"a contract derive rejects", func(t *testing.T, fx *finalizetest.Fixture) {
			p := filepath.Join(fx.Dir, contract.ContractFile)
			data, _ := os.ReadFile(p)
			finalizetest.Write(t, p, contracttest.Patch(t, data, contracttest.Set("/capabilities/0/toolName", `"Bad-Name"`)))
		}, "CONTRACT_ID_FORMAT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := finalizetest.New(t)
			tc.edit(t, fx)
			refused(t, fx, fx.Options(), tc.rule)
		})
	}
}

// rejecting is a validator that rejects every package.
var rejecting = finalize.Validator{Name: "a rejecting validator", Validate: func(context.Context, string, *derive.Core, contract.Sources) (*diag.List, error) {
	l := &diag.List{}
	l.Add(verdict.RuleReportSchema.New("SKILL.md", "rejected for the test"))
	return l, nil
}}

func TestValidatorRestores(t *testing.T) {
	t.Run("no previous files", func(t *testing.T) {
		fx := finalizetest.New(t)
		before := finalizetest.Snapshot(t, fx.Dir)
		opts := fx.Options()
		opts.Validator = rejecting
		res := run(t, fx, opts)
		if !res.Restored || res.Failed || !slices.Contains(res.List.RuleIDs(), finalize.RuleValidator.ID) || res.Matrix != nil {
			t.Fatalf("result %+v\n%s", res, findings(&res.List))
		}
		if after := finalizetest.Snapshot(t, fx.Dir); !maps.Equal(before, after) {
			t.Errorf("files left behind: %v", slices.Sorted(maps.Keys(after)))
		}
	})
	t.Run("previous files", func(t *testing.T) {
		fx := finalizetest.New(t)
		if res := run(t, fx, fx.Options()); res.List.HasErrors() {
			t.Fatal(findings(&res.List))
		}
		before := finalizetest.Snapshot(t, fx.Dir)
		// New evidence, rejected: the previous finalization stays.
		delete(fx.Green.Inputs, saveDraft)
		delete(fx.Green.Results, saveDraft)
		fx.WriteEvidence(t)
		opts := fx.Options()
		opts.Validator = rejecting
		if res := run(t, fx, opts); !res.Restored {
			t.Fatalf("not restored:\n%s", findings(&res.List))
		}
		if after := finalizetest.Snapshot(t, fx.Dir); !maps.Equal(before, after) {
			t.Error("the previous final files were not restored")
		}
	})
	t.Run("a validator that cannot run", func(t *testing.T) {
		fx := finalizetest.New(t)
		before := finalizetest.Snapshot(t, fx.Dir)
		opts := fx.Options()
		opts.Validator.Validate = func(context.Context, string, *derive.Core, contract.Sources) (*diag.List, error) {
			return nil, errors.New("node is missing")
		}
		res := run(t, fx, opts)
		if !res.Failed || !res.Restored || !slices.Contains(res.List.RuleIDs(), finalize.RuleIOFailure.ID) {
			t.Fatalf("result %+v", res)
		}
		if after := finalizetest.Snapshot(t, fx.Dir); !maps.Equal(before, after) {
			t.Error("files left behind")
		}
	})
}

func mustDecode(t *testing.T, s string) canonjson.Value {
	t.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestLiveGateRefusesWhatThePipelineRedacts: finalize refuses live
// evidence exactly where the pipeline's sanitiser (credential.Sanitize,
// through which the pipeline persists every live input and result) would
// have changed it, and accepts the evidence the sanitiser writes. The
// places it changed are found by comparing the two values, not by asking
// the judge both share.
func TestLiveGateRefusesWhatThePipelineRedacts(t *testing.T) {
	t.Parallel()
	for _, meta := range []string{
		`{"authorization": "opaque-session-value-1234", "trace": "t-1"}`,
		`{"note": "call with Bearer abcdefghijklmnop next", "headers": {"Cookie": "sid=1", "x-api-key": 7}}`,
		`{"text": "{\"accessToken\": \"t-1\", \"ok\": true}", "list": ["https://user:hunter2@api.example/x", "plain"]}`,
		`{"doc": "code points outside the Basic Multilingual Plane", "token": "[redacted]", "password": null, "key": "Bearer <token>"}`,
	} {
		given := mustDecode(t, meta)
		clean := credential.Sanitize(given)
		want := changedAt(given, clean, "")
		for _, tc := range []struct {
			name  string
			value canonjson.Value
			want  []string
		}{{"as given", given, want}, {"as sanitised", clean, nil}} {
			fx := finalizetest.New(t)
			fx.Green.Inputs[saveDraft].(*canonjson.Object).Set("_meta", tc.value)
			fx.WriteEvidence(t)
			res := run(t, fx, fx.Options())
			var got []string
			for _, d := range res.List.Sorted() {
				if d.Rule == finalize.RuleLiveSanitized.ID {
					_, p, ok := strings.Cut(d.Pointer, "/_meta")
					if !ok {
						t.Fatalf("a finding outside the edited member: %s", d)
					}
					got = append(got, p)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s %s: the gate refused %q, the sanitiser changed %q", tc.name, meta, got, tc.want)
			}
		}
	}
}

// changedAt returns the pointers, relative to at, of the members and items
// where b differs from a, descending into objects and arrays of the same
// shape.
func changedAt(a, b canonjson.Value, at string) []string {
	switch a := a.(type) {
	case *canonjson.Object:
		if b, ok := b.(*canonjson.Object); ok && a.Len() == b.Len() {
			var out []string
			for k, v := range a.All() {
				w, _ := b.Get(k)
				out = append(out, changedAt(v, w, at+diag.Pointer(k))...)
			}
			slices.Sort(out)
			return out
		}
	case canonjson.Array:
		if b, ok := b.(canonjson.Array); ok && len(a) == len(b) {
			var out []string
			for i := range a {
				out = append(out, changedAt(a[i], b[i], at+diag.Pointer(i))...)
			}
			slices.Sort(out)
			return out
		}
	}
	if string(canonjson.DigestForm(a)) != string(canonjson.DigestForm(b)) {
		return []string{at}
	}
	return nil
}
