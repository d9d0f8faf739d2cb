package finalcheck_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/finalcheck"
	"github.com/code2skill/code2skill/internal/finalize"
	"github.com/code2skill/code2skill/internal/finalize/finalizetest"
	"github.com/code2skill/code2skill/internal/verdict"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// finalized returns a package finalize finalized from the green evidence.
func finalized(t *testing.T, edit func(fx *finalizetest.Fixture)) *finalizetest.Fixture {
	t.Helper()
	fx := finalizetest.New(t)
	if edit != nil {
		edit(fx)
		fx.WriteEvidence(t)
	}
	res := finalize.Run(context.Background(), fx.Dir, fx.Options())
	if res.List.HasErrors() {
		t.Fatalf("finalize:\n%s", contracttest.Findings(&res.List))
	}
	return fx
}

func check(t *testing.T, dir string) *diag.List {
	t.Helper()
	l, err := finalcheck.CheckDir(context.Background(), dir, nil, contract.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestFinalizedPackagePasses(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(fx *finalizetest.Fixture)
	}{
		{"green", nil},
		{"failed, blocked and pending phases", func(fx *finalizetest.Fixture) {
			fx.Green.FailCheck(t, "capabilities", "save-sample-draft", "behavior")
			fx.Green.Phase(t, "capabilities", "validate-sample-request", "host").Set("status", canonjson.String("blocked"))
			fx.Green.SetNotRun(t, "workflows", "submit-sample-request", "bypass")
			fx.Green.DropLive("list-sample-request-kinds")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := finalized(t, tc.edit)
			if l := check(t, fx.Dir); l.Len() > 0 {
				t.Errorf("the cross-check rejects finalize's own files:\n%s", contracttest.Findings(l))
			}
		})
	}
}

// editJSON decodes a file of the package, edits it and writes it back.
func editJSON(t *testing.T, dir, rel string, edit func(doc *canonjson.Object)) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	edit(doc.(*canonjson.Object))
	finalizetest.Write(t, p, canonjson.Encode(doc))
}

func at(t *testing.T, doc *canonjson.Object, pointer string) *canonjson.Object {
	t.Helper()
	v, ok := canonjson.Resolve(doc, pointer)
	if !ok {
		t.Fatalf("%s does not resolve", pointer)
	}
	return v.(*canonjson.Object)
}

func TestTamperedFinalFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		// setup edits the green evidence before finalizing; nil keeps it.
		setup   func(fx *finalizetest.Fixture)
		edit    func(t *testing.T, dir string)
		rule    string
		file    string
		pointer string // "" when any
	}{
		{"a final file removed", nil, func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, verdict.LiveFile))
		}, finalcheck.RuleFileMissing.ID, verdict.LiveFile, ""},
		{"the bundle edited after finalization", nil, func(t *testing.T, dir string) {
			editJSON(t, dir, "capability-bundle.json", func(doc *canonjson.Object) { doc.Set("recordingId", canonjson.String("edited")) })
		}, finalcheck.RuleReceipt.ID, verdict.ReceiptFile, "/bundleHash"},
		{"a document edited after finalization", nil, func(t *testing.T, dir string) {
			finalizetest.Write(t, filepath.Join(dir, "SKILL.md"), []byte("edited\n"))
		}, finalcheck.RuleManifest.ID, verdict.ManifestFile, ""},
		{"a file added after finalization", nil, func(t *testing.T, dir string) {
			finalizetest.Write(t, filepath.Join(dir, "references", "extra.md"), []byte("extra\n"))
		}, finalcheck.RuleManifest.ID, verdict.ManifestFile, "/files"},
		{"a manifest entry that is not sanitized", nil, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.ManifestFile, func(doc *canonjson.Object) {
				at(t, doc, "/files/0").Set("sanitized", canonjson.Bool(false))
			})
		}, finalcheck.RuleManifest.ID, verdict.ManifestFile, "/files/0/sanitized"},
		{"a manifest path outside the package", nil, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.ManifestFile, func(doc *canonjson.Object) {
				at(t, doc, "/files/0").Set("relativePath", canonjson.String("../elsewhere.json"))
			})
		}, finalcheck.RuleManifest.ID, verdict.ManifestFile, "/files/0/relativePath"},
		{"a preflight check that failed", nil, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.PreflightFile, func(doc *canonjson.Object) {
				at(t, doc, "/checks/0").Set("status", canonjson.String("failed"))
			})
		}, finalcheck.RulePreflight.ID, verdict.PreflightFile, "/checks/0"},
		{"a Host flag raised without an enabling Host", nil, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.MatrixFile, func(doc *canonjson.Object) {
				at(t, doc, "/capabilities/1/status").Set("hostVerified", canonjson.Bool(true))
			})
		}, finalcheck.RuleMatrix.ID, verdict.MatrixFile, "/capabilities/1/status/hostVerified"},
		{"a blocked row unblocked", func(fx *finalizetest.Fixture) {
			fx.Green.FailCheck(t, "capabilities", "save-sample-draft", "behavior")
		}, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.MatrixFile, func(doc *canonjson.Object) {
				row := at(t, doc, "/capabilities/3")
				at(t, row, "/status").Set("blocked", canonjson.Bool(false))
				row.Set("reasons", canonjson.Array{})
			})
		}, finalcheck.RuleMatrix.ID, verdict.MatrixFile, "/capabilities/3/status/blocked"},
		{"a pending reason removed to claim a phase passed", func(fx *finalizetest.Fixture) {
			fx.Green.SetNotRun(t, "workflows", "submit-sample-request", "bypass")
		}, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.MatrixFile, func(doc *canonjson.Object) {
				row := at(t, doc, "/workflows/1")
				at(t, row, "/status").Set("bypassVerified", canonjson.Bool(true))
				at(t, row, "/status").Set("behaviorVerified", canonjson.Bool(true))
				row.Set("reasons", canonjson.Strings([]string{"host-not-fully-compatible", "host-verification-pending"}))
			})
		}, verdict.RuleChecksMissing.ID, verdict.MatrixFile, "/workflows/1"},
		{"a check of another Tool", nil, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.MatrixFile, func(doc *canonjson.Object) {
				checks, _ := canonjson.Resolve(doc, "/capabilities/2/checks")
				for _, c := range checks.(canonjson.Array) {
					if p, _ := c.(*canonjson.Object).Get("phase"); p == canonjson.String("runtime") {
						c.(*canonjson.Object).Set("toolName", canonjson.String("save_sample_draft"))
					}
				}
			})
		}, verdict.RuleRuntimeBinding.ID, verdict.MatrixFile, ""},
		{"live evidence removed", nil, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.LiveFile, func(doc *canonjson.Object) {
				caps, _ := doc.Get("capabilities")
				doc.Set("capabilities", caps.(canonjson.Array)[1:])
			})
		}, finalcheck.RuleLive.ID, verdict.LiveFile, "/inputHash"},
		{"an approval decision raised", nil, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.ApprovalFile, func(doc *canonjson.Object) {
				doc.Set("decision", canonjson.String("approved"))
			})
		}, finalcheck.RuleApproval.ID, verdict.ApprovalFile, "/decision"},
		{"an undeclared row", nil, func(t *testing.T, dir string) {
			editJSON(t, dir, verdict.MatrixFile, func(doc *canonjson.Object) {
				at(t, doc, "/workflows/0").Set("workflowId", canonjson.String("other"))
			})
		}, verdict.RuleMatrixRow.ID, verdict.MatrixFile, "/workflows/0/workflowId"},
		{"a matrix that is not JSON", nil, func(t *testing.T, dir string) {
			finalizetest.Write(t, filepath.Join(dir, verdict.MatrixFile), []byte("{"))
		}, canonjson.RuleSyntax.ID, verdict.MatrixFile, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := finalized(t, tc.setup)
			tc.edit(t, fx.Dir)
			l := check(t, fx.Dir)
			found := slices.ContainsFunc(l.Sorted(), func(d diag.Diagnostic) bool {
				return d.Rule == tc.rule && d.File == tc.file && (tc.pointer == "" || d.Pointer == tc.pointer)
			})
			if !found {
				t.Errorf("want %s in %s at %q, got:\n%s", tc.rule, tc.file, tc.pointer, contracttest.Findings(l))
			}
		})
	}
}

func TestNotFinalized(t *testing.T) {
	fx := finalizetest.New(t)
	l := check(t, fx.Dir)
	var missing []string
	for _, d := range l.Sorted() {
		if d.Rule == finalcheck.RuleFileMissing.ID {
			missing = append(missing, d.File)
		}
	}
	// verification-matrix.json holds the baseline derive wrote.
	want := slices.DeleteFunc(slices.Clone(verdict.FinalFiles), func(f string) bool { return f == verdict.MatrixFile })
	slices.Sort(want)
	if !slices.Equal(missing, want) {
		t.Errorf("missing %v, want %v", missing, want)
	}
	// The baseline matrix is not judged as a final one when the final
	// files are absent: the messages say to finalize.
	if !strings.Contains(contracttest.Findings(l), "run code2skill finalize") {
		t.Errorf("findings:\n%s", contracttest.Findings(l))
	}
}

func TestLimitedHostOrder(t *testing.T) {
	fx := finalizetest.New(t, verdicttest.FullHost...)
	if res := finalize.Run(context.Background(), fx.Dir, fx.Options()); res.List.HasErrors() {
		t.Fatal(contracttest.Findings(&res.List))
	}
	// The same files judged under another Host profile: Host verification
	// no longer holds.
	p := filepath.Join(fx.Dir, contract.HostProfileFile)
	finalizetest.Write(t, p, contracttest.Reference(t, contract.HostProfileFile))
	l := check(t, fx.Dir)
	if !slices.Contains(l.RuleIDs(), finalcheck.RuleMatrix.ID) {
		t.Errorf("findings:\n%s", contracttest.Findings(l))
	}
}
