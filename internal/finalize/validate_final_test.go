package finalize_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/finalize/finalizetest"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/strict"
	"github.com/code2skill/code2skill/internal/verdict"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// Validating a finalized package recomputes its matrix from the evidence
// it records, and the matrix stage says so: passed when the matrix holds,
// failed when a status was edited, instead of "not run".
func TestFinalValidationRecomputesTheMatrix(t *testing.T) {
	key := testKey(t, 7)
	fx := finalizetest.NewWith(t, reftest.WriteGenerated, verdicttest.FullHost...)
	opts := fx.Options()
	opts.Key, opts.Validator = key, validatorWith(key, false)
	if res := run(t, fx, opts); res.Failed || res.List.HasErrors() {
		t.Fatalf("finalize failed:\n%s", findings(&res.List))
	}
	v := finalValidate(t, fx.Dir, key, false)
	if v.Diagnostics.HasErrors() {
		t.Fatalf("final validation:\n%s", findings(&v.Diagnostics))
	}
	for _, id := range []string{strict.StageMatrix, strict.StageFinal} {
		if s, _ := v.Stage(id); s.Status != strict.Passed {
			t.Errorf("stage %s: %+v, want passed", id, s)
		}
	}
	if s, _ := v.Stage(strict.StageMatrix); !strings.Contains(s.Note, "recomputed") {
		t.Errorf("matrix stage note %q does not say how the final matrix was checked", s.Note)
	}

	// A row whose status its evidence does not give.
	path := filepath.Join(fx.Dir, verdict.MatrixFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"runtimeVerified": true`, `"runtimeVerified": false`, 1)
	if edited == string(data) {
		t.Fatal("the matrix has no runtime-verified row")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	v = finalValidate(t, fx.Dir, key, false)
	if s, _ := v.Stage(strict.StageMatrix); s.Status != strict.Failed {
		t.Errorf("an edited matrix: stage %+v, want failed\n%s", s, findings(&v.Diagnostics))
	}
}
