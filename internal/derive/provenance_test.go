package derive_test

import (
	"slices"

	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
)

// The draft's provenance of an input takes the branches of the established
// derive in order: a handoff's prior response, the user, the Host's
// context (trusted context, an approved attachment, bounded content), a
// calculation of the Host's, else the caller. derive does not judge
// strategy kinds (check-contract refuses derived-calculation as one), so a
// contract it accepts with one still gets its branch.
func TestDraftProvenanceBranches(t *testing.T) {
	const field = "tools.save_sample_draft.input.requestData"
	for _, tc := range []struct {
		strategies, source, detail string
	}{
		{`["user"]`, "provided", "direct Tool argument supplied by the user or trusted caller"},
		{`["user", "trusted-host-context"]`, "provided", "direct Tool argument supplied by the user or trusted caller"},
		{`["bounded-content"]`, "context", "trusted Consumer Host context"},
		{`["derived-calculation"]`, "context", "calculated from other values by the trusted Consumer Host"},
	} {
		t.Run(tc.strategies, func(t *testing.T) {
			draft := patchedView(t, derive.DraftFile, contracttest.Set("/capabilities/3/inputs/0/sourceStrategies", tc.strategies))
			entries, _ := canonjson.Resolve(draft, "/provenance")
			for _, e := range entries.(canonjson.Array) {
				if f, _ := canonjson.Resolve(e, "/field"); f != canonjson.String(field) {
					continue
				}
				source, _ := canonjson.Resolve(e, "/source")
				detail, _ := canonjson.Resolve(e, "/sourceDetail")
				if source != canonjson.String(tc.source) || detail != canonjson.String(tc.detail) {
					t.Errorf("provenance %s: %s", field, canonjson.DigestForm(e))
				}
				return
			}
			t.Fatalf("no provenance of %s", field)
		})
	}
}

// A capability whose evidence coverage proves another side effect than
// the one it declares (a write turned read, keeping its write evidence)
// has incomplete evidence in the baseline matrix: the coverage is judged
// against the declared side effect, not only its categories.
func TestCoverageOfAnotherSideEffectIsIncomplete(t *testing.T) {
	reasons := func(ops ...contracttest.Op) []string {
		r, _ := canonjson.Resolve(patchedView(t, derive.VerificationMatrixFile, ops...), "/capabilities/3/reasons")
		return canonjson.StringsOf(r)
	}
	if got := reasons(); slices.Contains(got, "incomplete-write-evidence") {
		t.Fatalf("the reference write's coverage is incomplete: %q", got)
	}
	got := reasons(contracttest.Set("/capabilities/3/sideEffect", `"read"`), contracttest.Set("/capabilities/3/operationPolicy/sideEffect", `"read"`))
	if !slices.Contains(got, "incomplete-side-effect-evidence") {
		t.Errorf("a read proven by write evidence: reasons %q", got)
	}
}

// patchedView derives the reference inputs, the contract patched by ops,
// and returns the view at path, decoded; derive must accept the inputs.
func patchedView(t *testing.T, path string, ops ...contracttest.Op) canonjson.Value {
	t.Helper()
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile), ops...)
	in, l := decodeInputs(t, func(name string) []byte {
		if name == contract.ContractFile {
			return data
		}
		return contracttest.Reference(t, name)
	})
	if l.HasErrors() {
		t.Fatalf("derive refuses the contract: %v", l.Sorted())
	}
	for _, v := range derive.Views(in) {
		if v.Path == path {
			doc, err := canonjson.Decode(v.Data)
			if err != nil {
				t.Fatal(err)
			}
			return doc
		}
	}
	t.Fatalf("no view %s", path)
	return nil
}
